// The analysis board's games: the variant named in its address (a rating key such as `gomoku-renju`, or a board such as `gomoku-19-standard` or `connect4-9x7-b4.2`) and the game spec it stands for; no DOM, so node tests it.

import { RATING_KEYS } from '../rating.js';

export const GOMOKU_RULES = ['freestyle', 'standard', 'renju'];
export const GOMOKU_SIZE = { min: 5, max: 26 };
export const CONNECT4_SIZE = { min: 4, max: 12 };

/** The variants offered as tabs: the five rated boards. */
export const VARIANT_TABS = RATING_KEYS;

export const DEFAULT_VARIANT = 'gomoku-freestyle';

const within = (n, { min, max }) => Number.isInteger(n) && n >= min && n <= max;

/** Connect Four's blocked cells, [column, row] from 1 and the bottom left, in board order and
 *  each once; null when one is off a `cols` × `rows` board. */
function blockedCells(list, cols, rows) {
  const seen = new Set();
  for (const b of list || []) {
    const [c, r] = Array.isArray(b) ? b.map(Number) : [NaN, NaN];
    if (!within(c, { min: 1, max: cols }) || !within(r, { min: 1, max: rows })) return null;
    seen.add(`${c}.${r}`);
  }
  return [...seen].map((k) => k.split('.').map(Number)).sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

/**
 * The game spec the analysis board plays for `game` (a room's GameSpec, say): defaults filled
 * in, an opening rule left out (its choices place no stone); null for a game it cannot show.
 */
export function plainGame(game) {
  if (!game || typeof game !== 'object') return null;
  if (game.kind === 'gomoku') {
    const size = game.size ?? 15;
    const rule = game.rule || 'freestyle';
    if (!within(size, GOMOKU_SIZE) || !GOMOKU_RULES.includes(rule)) return null;
    return { kind: 'gomoku', size, rule };
  }
  if (game.kind === 'othello') return { kind: 'othello' };
  if (game.kind === 'connect4') {
    const cols = game.cols ?? 7;
    const rows = game.rows ?? 6;
    if (!within(cols, CONNECT4_SIZE) || !within(rows, CONNECT4_SIZE)) return null;
    const blocked = blockedCells(game.blocked, cols, rows);
    return blocked ? { kind: 'connect4', cols, rows, blocked } : null;
  }
  return null;
}

/** The game of a variant name, or null when the name is not one. */
export function parseVariant(text) {
  const v = String(text ?? '').trim().toLowerCase();
  let m = /^gomoku-(freestyle|standard|renju)$/.exec(v);
  if (m) return { kind: 'gomoku', size: 15, rule: m[1] };
  m = /^gomoku-(\d{1,2})-(freestyle|standard|renju)$/.exec(v);
  if (m) return plainGame({ kind: 'gomoku', size: Number(m[1]), rule: m[2] });
  if (v === 'othello') return { kind: 'othello' };
  if (v === 'connect4') return { kind: 'connect4', cols: 7, rows: 6, blocked: [] };
  m = /^connect4-(\d{1,2})x(\d{1,2})((?:-b\d{1,2}\.\d{1,2})*)$/.exec(v);
  if (!m) return null;
  const blocked = (m[3].match(/\d+\.\d+/g) || []).map((b) => b.split('.').map(Number));
  return plainGame({ kind: 'connect4', cols: Number(m[1]), rows: Number(m[2]), blocked });
}

/** The variant name of `game` (a plain game): a rating key when it is one, else the board. */
export function variantOf(game) {
  const g = plainGame(game);
  if (!g) return DEFAULT_VARIANT;
  if (g.kind === 'gomoku') return g.size === 15 ? `gomoku-${g.rule}` : `gomoku-${g.size}-${g.rule}`;
  if (g.kind === 'othello') return 'othello';
  if (g.cols === 7 && g.rows === 6 && !g.blocked.length) return 'connect4';
  return `connect4-${g.cols}x${g.rows}${g.blocked.map(([c, r]) => `-b${c}.${r}`).join('')}`;
}
