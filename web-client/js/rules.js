// Board geometry, notation and move replay for Gomoku, Othello and Connect Four — for display only; the server is the referee.

import { stepStone } from './opening.js';

/** Cell contents. */
export const EMPTY = 0;
export const BLACK = 1;
export const WHITE = 2;
export const BLOCKED = 3;

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export const stoneOf = (seat) => (seat === 'black' ? BLACK : seat === 'white' ? WHITE : EMPTY);
export const seatOf = (stone) => (stone === BLACK ? 'black' : stone === WHITE ? 'white' : null);
export const other = (seat) => (seat === 'black' ? 'white' : 'black');

/**
 * Board dimensions of a game spec. Internally a cell is `y * cols + x`, with x counted from the
 * left and y from the TOP, whatever the game's notation says.
 */
export function dims(game) {
  if (game.kind === 'gomoku') {
    const n = game.size || 15;
    return { cols: n, rows: n };
  }
  if (game.kind === 'othello') return { cols: 8, rows: 8 };
  return { cols: game.cols || 7, rows: game.rows || 6 };
}

/** Notation of a cell: Gomoku `h8` (rows from the bottom), Othello `f5` (rows from the top),
 *  Connect Four `d1` (column letter, row from the bottom: the notation of winning lines). */
export function cellName(game, idx) {
  const { cols, rows } = dims(game);
  const x = idx % cols;
  const y = Math.floor(idx / cols);
  const row = game.kind === 'othello' ? y + 1 : rows - y;
  return LETTERS[x] + row;
}

/** Parses a cell name (see cellName); returns the index or -1. */
export function parseCell(game, text) {
  const m = /^([a-zA-Z])(\d{1,2})$/.exec(String(text).trim());
  if (!m) return -1;
  const { cols, rows } = dims(game);
  const x = LETTERS.indexOf(m[1].toLowerCase());
  const row = Number(m[2]);
  if (x < 0 || x >= cols || row < 1 || row > rows) return -1;
  const y = game.kind === 'othello' ? row - 1 : rows - row;
  return y * cols + x;
}

/** Column letters for the coordinate labels. */
export const columnLabel = (game, x) => (game.kind === 'connect4' ? String(x + 1) : LETTERS[x]);

/** Row label of display row y (from the top). */
export function rowLabel(game, y) {
  const { rows } = dims(game);
  return String(game.kind === 'othello' ? y + 1 : rows - y);
}

/** The empty board of a game, with Othello's four start discs and Connect Four's blocked cells. */
export function emptyBoard(game) {
  const { cols, rows } = dims(game);
  const cells = new Int8Array(cols * rows);
  if (game.kind === 'othello') {
    cells[3 * 8 + 3] = WHITE; // d4
    cells[3 * 8 + 4] = BLACK; // e4
    cells[4 * 8 + 3] = BLACK; // d5
    cells[4 * 8 + 4] = WHITE; // e5
  } else if (game.kind === 'connect4') {
    for (const b of game.blocked || []) {
      const [c, r] = b;
      if (c >= 1 && c <= cols && r >= 1 && r <= rows) cells[(rows - r) * cols + (c - 1)] = BLOCKED;
    }
  }
  return cells;
}

const DIRS8 = [
  [1, 0], [-1, 0], [0, 1], [0, -1], [1, 1], [1, -1], [-1, 1], [-1, -1],
];

/** Discs that a move at idx by `stone` flips in Othello (empty when the move is illegal). */
export function othelloFlips(cells, idx, stone) {
  if (cells[idx] !== EMPTY) return [];
  const opp = stone === BLACK ? WHITE : BLACK;
  const x0 = idx % 8;
  const y0 = Math.floor(idx / 8);
  const out = [];
  for (const [dx, dy] of DIRS8) {
    const run = [];
    let x = x0 + dx;
    let y = y0 + dy;
    while (x >= 0 && x < 8 && y >= 0 && y < 8 && cells[y * 8 + x] === opp) {
      run.push(y * 8 + x);
      x += dx;
      y += dy;
    }
    if (run.length && x >= 0 && x < 8 && y >= 0 && y < 8 && cells[y * 8 + x] === stone) out.push(...run);
  }
  return out;
}

/** Othello legal squares for `stone`, as indices in board order. */
export function othelloLegal(cells, stone) {
  const out = [];
  for (let i = 0; i < 64; i++) if (cells[i] === EMPTY && othelloFlips(cells, i, stone).length) out.push(i);
  return out;
}

/** Disc count of an Othello board. */
export function countDiscs(cells) {
  let black = 0;
  let white = 0;
  for (const c of cells) {
    if (c === BLACK) black++;
    else if (c === WHITE) white++;
  }
  return { black, white };
}

/** The cell a Connect Four stone dropped in column x (0-based) lands on: the lowest empty cell
 *  that is not blocked. Returns the index, or -1 when the column is full. */
export function connect4Drop(cells, cols, rows, x) {
  for (let y = rows - 1; y >= 0; y--) {
    if (cells[y * cols + x] === EMPTY) return y * cols + x;
  }
  return -1;
}

/**
 * A position: `cells`, `toMove` ('black'|'white'), `last` (index of the last stone or -1),
 * `lastMove` (its text), `flipped` (Othello discs the last move turned), `ply`.
 */
function startPosition(game) {
  return { cells: emptyBoard(game), toMove: 'black', last: -1, lastMove: null, flipped: [], ply: 0 };
}

/** Applies one move text; tolerant of bad input (a bad move only passes the turn), since the
 *  server is the referee and the page only mirrors it. */
export function applyMove(game, pos, move) {
  const cells = pos.cells.slice();
  const stone = stoneOf(pos.toMove);
  const next = { cells, toMove: other(pos.toMove), last: -1, lastMove: move, flipped: [], ply: pos.ply + 1 };
  if (game.kind === 'connect4') {
    const { cols, rows } = dims(game);
    const x = Number(move) - 1;
    if (Number.isInteger(x) && x >= 0 && x < cols) {
      const idx = connect4Drop(cells, cols, rows, x);
      if (idx >= 0) {
        cells[idx] = stone;
        next.last = idx;
      }
    }
    return next;
  }
  if (move === 'pass') return next;
  let stoneAt = move;
  if (game.opening_rule) {
    // An opening choice that places nothing leaves the board, the next colour and the
    // last-move mark as they are.
    stoneAt = stepStone(move);
    if (stoneAt == null) return { ...next, toMove: pos.toMove, last: pos.last };
  }
  const idx = parseCell(game, stoneAt);
  if (idx < 0 || cells[idx] !== EMPTY) return next;
  if (game.kind === 'othello') {
    const flips = othelloFlips(cells, idx, stone);
    for (const f of flips) cells[f] = stone;
    next.flipped = flips;
  }
  cells[idx] = stone;
  next.last = idx;
  return next;
}

/** All positions of a game: index k is the position after k moves (k = 0 the start). */
export function replay(game, moves) {
  const out = [startPosition(game)];
  for (const m of moves) out.push(applyMove(game, out[out.length - 1], m));
  return out;
}

/** Whether only exactly five in a row wins for `stone`: Gomoku standard, and black in renju. */
const exactFive = (game, stone) =>
  game.kind === 'gomoku' && (game.rule === 'standard' || (game.rule === 'renju' && stone === BLACK));

/** The four line directions in the referee's (game-core's) order, as [dx, dy] with y from the
 *  top: Gomoku row, column (upwards), diagonal, anti-diagonal; Connect Four column first. */
const LINE_DIRS = {
  gomoku: [[1, 0], [0, -1], [1, -1], [1, 1]],
  connect4: [[0, -1], [1, 0], [1, -1], [1, 1]],
};

/**
 * The winning line through the stone on idx, as indices in order along it; null when there is
 * none. Connect Four: `min` (4) or more; Gomoku: `min` (5) or more, but exactly five in
 * standard and for black in renju, where an overline wins nothing. Of several lines through
 * the stone, the one the referee reports: Connect Four's first in its order of directions,
 * Gomoku's whose first stone comes first from a1 row by row. Used when the server sent no line,
 * and to end the page's own variations and analyses.
 */
export function lineThrough(game, cells, idx, min) {
  const { cols, rows } = dims(game);
  const stone = cells[idx];
  if (stone !== BLACK && stone !== WHITE) return null;
  const at = (x, y) => (x >= 0 && x < cols && y >= 0 && y < rows ? cells[y * cols + x] : EMPTY);
  let best = null;
  let bestStart = Infinity;
  for (const [dx, dy] of LINE_DIRS[game.kind === 'connect4' ? 'connect4' : 'gomoku']) {
    let x = idx % cols;
    let y = Math.floor(idx / cols);
    while (at(x - dx, y - dy) === stone) {
      x -= dx;
      y -= dy;
    }
    // The first stone's place counted from a1, row by row (rows from the bottom).
    const start = (rows - 1 - y) * cols + x;
    const line = [];
    for (; at(x, y) === stone; x += dx, y += dy) line.push(y * cols + x);
    const wins = exactFive(game, stone) ? line.length === min : line.length >= min;
    if (!wins) continue;
    if (game.kind === 'connect4') return line;
    if (start < bestStart) [best, bestStart] = [line, start];
  }
  return best;
}
