// The analysis board's variation tree: moves from a start position, each node's first child its main continuation and the others variations; adding (a new move branches), promoting, deleting, walking (back, forward, sibling variations) and the move list's nesting. Moves are plain texts: the rules are position.js's. No DOM, so node tests it.

/** A node: its move (null for the start), its parent, its children (main line first), its ply. */
function makeNode(move, parent) {
  return { move, parent, children: [], ply: parent ? parent.ply + 1 : 0 };
}

/** An empty tree: its root is the start position. */
export function createTree() {
  return { root: makeNode(null, null) };
}

/** The child of `node` reached by `move`, or null. */
export const childBy = (node, move) => node.children.find((c) => c.move === move) || null;

/**
 * Plays `move` after `node`: the child that has it already, else a new child, last among its
 * siblings (a variation when `node` had a continuation). Returns { node, added, branched }.
 */
export function addMove(node, move) {
  const known = childBy(node, move);
  if (known) return { node: known, added: false, branched: false };
  const child = makeNode(move, node);
  node.children.push(child);
  return { node: child, added: true, branched: node.children.length > 1 };
}

/** Adds `moves` one after another from `node` (the main line where none is there); returns the last node. */
export function addLine(node, moves) {
  let at = node;
  for (const m of moves) at = addMove(at, m).node;
  return at;
}

/** The moves from the start to `node`. */
export function lineTo(node) {
  const out = [];
  for (let n = node; n && n.parent; n = n.parent) out.push(n.move);
  return out.reverse();
}

/** The child indices from the root to `node`. */
export function pathTo(node) {
  const out = [];
  for (let n = node; n && n.parent; n = n.parent) out.push(n.parent.children.indexOf(n));
  return out.reverse();
}

/** The node at child indices `path`, or null when there is none. */
export function nodeAt(tree, path) {
  let n = tree.root;
  for (const i of path) {
    n = n.children[i];
    if (!n) return null;
  }
  return n;
}

/** The node the moves `line` reach from the root, or null. */
export function walk(tree, line) {
  let n = tree.root;
  for (const m of line) {
    n = childBy(n, m);
    if (!n) return null;
  }
  return n;
}

/** Whether `node` is on the main line: the first child at every step from the root. */
export function isMain(node) {
  for (let n = node; n.parent; n = n.parent) if (n.parent.children[0] !== n) return false;
  return true;
}

/** Forward: the main continuation of `node`, or null at the end of its line. */
export const next = (node) => node.children[0] || null;

/** Back: the node before, or null at the start. */
export const prev = (node) => node.parent;

/** The end of the line through `node`: its main continuations followed to the last. */
export function lineEnd(node) {
  let n = node;
  while (n.children.length) n = n.children[0];
  return n;
}

/** The sibling variation `dir` (−1 above, +1 below) of `node`, or null when there is none. */
export function sibling(node, dir) {
  if (!node.parent) return null;
  const list = node.parent.children;
  return list[list.indexOf(node) + dir] || null;
}

/**
 * Promotes the variation of `node` one level: at the deepest step above (or at) it that is not a
 * main continuation, that step becomes the main continuation, the old one its first variation.
 * Returns false when `node` is on the main line already.
 */
export function promote(node) {
  for (let n = node; n.parent; n = n.parent) {
    const list = n.parent.children;
    const i = list.indexOf(n);
    if (i > 0) {
      list.splice(i, 1);
      list.unshift(n);
      return true;
    }
  }
  return false;
}

/** Deletes `node` and everything after it; returns its parent (null for the root, which stays). */
export function remove(node) {
  if (!node.parent) return null;
  const list = node.parent.children;
  list.splice(list.indexOf(node), 1);
  return node.parent;
}

/** Every node but the root in the order the move list and the share link write them: each
 *  main continuation, then its variations (each to its end), then the main line goes on. */
export function ordered(tree) {
  const out = [];
  const line = (from) => {
    for (let p = from; p.children.length; p = p.children[0]) {
      const [main, ...alts] = p.children;
      out.push(main);
      for (const alt of alts) {
        out.push(alt);
        line(alt);
      }
    }
  };
  line(tree.root);
  return out;
}

/** How many moves the tree holds. */
export const size = (tree) => ordered(tree).length;

/**
 * The move list's nesting from `start` (a node whose move is shown first; the root for the whole
 * tree): [{ node } | { variation: [...] }], each main continuation followed by its siblings'
 * variations, as in `(…)` of a game record.
 */
export function lineItems(start) {
  const out = [];
  let p = start;
  if (start.move != null) {
    out.push({ node: start });
  }
  for (; p.children.length; p = p.children[0]) {
    const [main, ...alts] = p.children;
    out.push({ node: main });
    for (const alt of alts) out.push({ variation: lineItems(alt) });
  }
  return out;
}

/** The seat that makes the move of `node` when `first` moves first from the root. */
export const seatOfNode = (node, first = 'black') => ((node.ply % 2 === 1) === (first === 'black') ? 'black' : 'white');

/** The move number of `node` as the move list writes it: black's and white's move share one. */
export const moveNumber = (node, first = 'black') => Math.ceil((node.ply + (first === 'white' ? 1 : 0)) / 2);
