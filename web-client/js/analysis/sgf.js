// SGF as the analysis board reads and writes it: the game tree of a file (nodes, properties, variations), points as two letters (Gomoku's rows flipped: SGF's row `a` is the top), and a board with its variations written back; as the server's records (game-core's record.rs): FF[4], GM[4] Gomoku with RU, GM[2] Othello. No DOM, so node tests it.

import { dims } from '../rules.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
/** Nodes read from one file at most: a pasted file is a person's analysis, not a database. */
export const SGF_NODES_MAX = 5000;

/** A node of a parsed file: its properties (name → list of values) and its children. */
const makeNode = () => ({ props: new Map(), children: [] });

/**
 * The first game tree of SGF `text` as nested nodes: { ok: true, root } (the root node holds the
 * game's properties; each node's `children` its continuations, the first the main line) or
 * { ok: false, error } with `error` one of noTree | unclosed | value | property | tooBig.
 */
export function parseSgf(text) {
  const src = String(text);
  let i = src.indexOf('(');
  if (i < 0) return { ok: false, error: 'noTree' };
  let count = 0;
  // Each open `(`: the node its first node hangs from. The root hangs from a holder.
  const holder = makeNode();
  const stack = [];
  let parent = holder;
  let node = null;
  for (; i < src.length; i++) {
    const c = src[i];
    if (c === '(') {
      stack.push(parent = node || parent);
      node = null;
    } else if (c === ')') {
      if (!stack.length) break;
      node = stack.pop();
      parent = node;
      if (!stack.length) break;
    } else if (c === ';') {
      if (++count > SGF_NODES_MAX) return { ok: false, error: 'tooBig' };
      const fresh = makeNode();
      (node || parent).children.push(fresh);
      node = fresh;
    } else if (/[A-Za-z]/.test(c)) {
      if (!node) return { ok: false, error: 'property' };
      let j = i;
      while (j < src.length && /[A-Za-z]/.test(src[j])) j++;
      // FF[3] files may write property names with lower-case letters in them: only the
      // capitals name it.
      const name = src.slice(i, j).replace(/[a-z]/g, '');
      const values = [];
      for (;;) {
        while (j < src.length && /\s/.test(src[j])) j++;
        if (src[j] !== '[') break;
        let k = j + 1;
        let value = '';
        while (k < src.length && src[k] !== ']') {
          if (src[k] === '\\' && k + 1 < src.length) k++;
          value += src[k++];
        }
        if (k >= src.length) return { ok: false, error: 'value' };
        values.push(value);
        j = k + 1;
      }
      if (!values.length) return { ok: false, error: 'value' };
      node.props.set(name, [...(node.props.get(name) || []), ...values]);
      i = j - 1;
    } else if (!/\s/.test(c)) {
      return { ok: false, error: 'property' };
    }
  }
  if (stack.length) return { ok: false, error: 'unclosed' };
  const root = holder.children[0];
  return root ? { ok: true, root } : { ok: false, error: 'noTree' };
}

/** The first value of property `name` of a parsed node, or null. */
export const prop = (node, name) => (node.props.get(name) || [null])[0];

/** The board index of SGF point `text` (`hh`), or -1 when it is not one on this board. Board
 *  indices count rows from the top, as SGF does (Gomoku's names count them from the bottom). */
export function sgfPointIdx(game, text) {
  const m = /^([a-z])([a-z])$/.exec(String(text).trim());
  if (!m) return -1;
  const { cols, rows } = dims(game);
  const x = LETTERS.indexOf(m[1]);
  const y = LETTERS.indexOf(m[2]);
  if (x >= cols || y >= rows) return -1;
  return y * cols + x;
}

/** The indices of a point list's values: points and `aa:cc` rectangles; null for a bad one. */
export function sgfPointList(game, values) {
  const out = [];
  for (const v of values || []) {
    const [a, b] = String(v).split(':');
    const from = sgfPointIdx(game, a);
    const to = b == null ? from : sgfPointIdx(game, b);
    if (from < 0 || to < 0) return null;
    const { cols } = dims(game);
    for (let y = Math.min(Math.floor(from / cols), Math.floor(to / cols)); y <= Math.max(Math.floor(from / cols), Math.floor(to / cols)); y++) {
      for (let x = Math.min(from % cols, to % cols); x <= Math.max(from % cols, to % cols); x++) out.push(y * cols + x);
    }
  }
  return out;
}

/** The SGF point of board index `idx`. */
export function sgfPoint(game, idx) {
  const { cols } = dims(game);
  return LETTERS[idx % cols] + LETTERS[Math.floor(idx / cols)];
}

/** Whether SGF can write `game`: Gomoku and Othello (Connect Four has no SGF game number). */
export const sgfCanWrite = (game) => game.kind === 'gomoku' || game.kind === 'othello';

/** The root properties of a file of `game`: FF, GM, SZ and RU, then the set-up stones. */
export function sgfRoot(game, setup) {
  let out = `FF[4]GM[${game.kind === 'gomoku' ? 4 : 2}]SZ[${dims(game).cols}]`;
  if (game.kind === 'gomoku') out += `RU[${game.rule}]`;
  if (setup) {
    for (const [tag, stone] of [['AB', 1], ['AW', 2]]) {
      const points = [];
      setup.cells.forEach((c, idx) => { if (c === stone) points.push(`[${sgfPoint(game, idx)}]`); });
      if (points.length) out += tag + points.join('');
    }
    out += `PL[${setup.toMove === 'white' ? 'W' : 'B'}]`;
  }
  return out;
}

/** One move node: `;B[hh]`, an Othello pass `;W[]`; `seat` makes it. */
export function sgfMoveNode(game, seat, move, cellIdx) {
  const tag = seat === 'white' ? 'W' : 'B';
  return `;${tag}[${move === 'pass' ? '' : sgfPoint(game, cellIdx)}]`;
}
