// The analysis board's address, which is its share link: `?analysis=<variant>&setup=…&tree=…&at=…` holds the start position, the whole variation tree and the move on show, written compactly (squares as `h8`, Connect Four columns as letters, a pass as `~`, variations in brackets); reading one back checks every move. Also the link from a room's game at the position on show. No DOM, so node tests it.

import { cellName, parseCell, emptyBoard, dims, BLACK, WHITE, EMPTY } from '../rules.js';
import { stepStone } from '../opening.js';
import { parseVariant, variantOf, plainGame, DEFAULT_VARIANT } from './variant.js';
import { startPos, tryMove, isStartSetup, floatingDisc } from './position.js';
import { createTree, addMove, addLine, walk, ordered } from './tree.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Characters of a tree read from an address at most (a few thousand moves). */
const TREE_CHARS_MAX = 12000;

/** The analysis route of an address's query (a URLSearchParams): an unknown variant is the first. */
export function analysisRoute(q) {
  const game = parseVariant(q.get('analysis'));
  const at = Number.parseInt(q.get('at') || '0', 10);
  return {
    page: 'analysis',
    variant: game ? variantOf(game) : DEFAULT_VARIANT,
    setup: (q.get('setup') || '').trim().toLowerCase().slice(0, 2000),
    tree: (q.get('tree') || '').replace(/\s+/g, '').toLowerCase().slice(0, TREE_CHARS_MAX),
    at: Number.isInteger(at) && at > 0 ? at : 0,
  };
}

/** The query of an analysis route (after `?`): brackets, dots and `~` stay readable. */
export function analysisQuery(route) {
  const enc = encodeURIComponent;
  const game = parseVariant(route?.variant);
  let q = `analysis=${enc(game ? variantOf(game) : DEFAULT_VARIANT)}`;
  if (route?.setup) q += `&setup=${enc(route.setup)}`;
  if (route?.tree) q += `&tree=${enc(route.tree)}`;
  if (route?.at) q += `&at=${route.at}`;
  return q;
}

/** A move as the address writes it. */
function token(game, move) {
  if (move === 'pass') return '~';
  return game.kind === 'connect4' ? LETTERS[Number(move) - 1] : move;
}

/** The moves of `tree` as the address writes them: each main continuation, then its
 *  variations in brackets, then the line goes on (`h8i9(j10k11)h10`). */
export function treeText(game, tree) {
  const out = [];
  const line = (from) => {
    for (let p = from; p.children.length; p = p.children[0]) {
      const [main, ...alts] = p.children;
      out.push(token(game, main.move));
      for (const alt of alts) {
        out.push('(', token(game, alt.move));
        line(alt);
        out.push(')');
      }
    }
  };
  line(tree.root);
  return out.join('');
}

/** A set-up position as the address writes it: black's squares, white's, the side to move. */
export function setupText(game, setup) {
  if (!setup) return '';
  const list = (stone) => Array.from(setup.cells, (c, i) => (c === stone ? cellName(game, i) : '')).join('');
  return `${list(BLACK)}.${list(WHITE)}.${setup.toMove === 'white' ? 'w' : 'b'}`;
}

/** The route of an analysis: its game, start, tree and the node on show. */
export function encodeAnalysis({ game, setup = null, tree, current = null }) {
  const at = current && current.parent ? ordered(tree).indexOf(current) + 1 : 0;
  return { page: 'analysis', variant: variantOf(game), setup: setupText(game, setup), tree: treeText(game, tree), at };
}

/** The set-up position of an address's `setup` ({ cells, toMove }), null for the game's start,
 *  or undefined when it cannot be read. */
export function readSetup(game, text) {
  if (!text) return null;
  const m = /^([a-z0-9]*)\.([a-z0-9]*)\.([bw])$/.exec(text);
  if (!m) return undefined;
  const cells = game.kind === 'connect4' ? emptyBoard(game) : new Int8Array(dims(game).cols * dims(game).rows);
  for (const [list, stone] of [[m[1], BLACK], [m[2], WHITE]]) {
    const names = list.match(/[a-z]\d{1,2}/g) || [];
    if (names.join('') !== list) return undefined;
    for (const name of names) {
      const idx = parseCell(game, name);
      if (idx < 0 || cells[idx] !== EMPTY) return undefined;
      cells[idx] = stone;
    }
  }
  if (floatingDisc(game, cells)) return undefined;
  const setup = { cells, toMove: m[3] === 'w' ? 'white' : 'black' };
  return isStartSetup(game, setup) ? null : setup;
}

/** The move of an address's token, as the board writes it. */
function moveOf(game, tok) {
  if (tok === '~') return 'pass';
  return game.kind === 'connect4' ? String(LETTERS.indexOf(tok) + 1) : tok;
}

/**
 * The analysis an address holds: { game, setup, tree, current, dropped } — `dropped` counts
 * moves left out (an illegal move and what follows it; a start position that could not be read
 * counts 1), so a damaged link still opens what it can.
 */
export function decodeAnalysis(route) {
  const game = parseVariant(route?.variant) || parseVariant(DEFAULT_VARIANT);
  let dropped = 0;
  let setup = readSetup(game, route?.setup || '');
  if (setup === undefined) {
    setup = null;
    dropped += 1;
  }
  const tree = createTree();
  const text = String(route?.tree || '');
  const re = game.kind === 'connect4' ? /[()~]|[a-l]/g : /[()~]|[a-z]\d{1,2}/g;
  const tokens = text.match(re) || [];
  if (tokens.join('') !== text) dropped += 1;
  // Each state: the node reached (null past a bad move), its position, and the state before it.
  let cur = { node: tree.root, pos: startPos(game, setup), before: null };
  const stack = [];
  const numbered = [cur];
  for (const tok of tokens) {
    if (tok === '(') {
      stack.push(cur);
      cur = cur.before || { node: null, before: null };
    } else if (tok === ')') {
      if (stack.length) cur = stack.pop();
    } else {
      const res = cur.node ? tryMove(game, cur.pos, moveOf(game, tok)) : { ok: false };
      if (!res.ok) dropped += 1;
      cur = res.ok ? { node: addMove(cur.node, res.move).node, pos: res.pos, before: cur } : { node: null, before: cur };
      numbered.push(cur);
    }
  }
  let shown = numbered[Math.min(route?.at || 0, numbered.length - 1)];
  while (!shown.node) shown = shown.before;
  return { game, setup, tree, current: shown.node, dropped };
}

/**
 * The analysis route of room `R` (a RoomState) with its game's moves as the main line and the
 * position on show as the current one (a review's variation, when one is being played, as a
 * variation of it); null when the board is not one the analysis board shows. An opening rule's
 * choices place no stone and are left out.
 */
export function roomAnalysisRoute(R) {
  const game = plainGame(R?.game);
  if (!game || !Array.isArray(R.moves)) return null;
  const steps = [...(R.opening || []), ...R.moves];
  const stones = (list) => (R.game.opening_rule ? list.map(stepStone).filter((m) => m != null) : list);
  const tree = createTree();
  addLine(tree.root, stones(steps));
  const shown = Math.max(0, R.shownIndex ?? steps.length);
  let current = walk(tree, stones(steps.slice(0, shown))) || tree.root;
  if (R.variation?.moves?.length) {
    const base = walk(tree, stones(steps.slice(0, R.variation.base))) || tree.root;
    current = addLine(base, R.variation.moves);
  }
  return encodeAnalysis({ game, setup: null, tree, current });
}
