// Positions of the analysis board: the start (the game's own or a set-up one), whether a move is legal there (renju's forbidden points, Othello's flips and forced passes, Connect Four's columns), the end of the game with its winning line, and a position as text; display only, no DOM, so node tests it.

import { emptyBoard, applyMove, lineThrough, dims, othelloLegal, countDiscs, stoneOf, seatOf, other, parseCell, cellName, connect4Drop, EMPTY, BLACK, WHITE, BLOCKED } from '../rules.js';
import { forbiddenPoints, noPointLeft } from '../renju.js';

const TEXT_OF = { [EMPTY]: '-', [BLACK]: 'X', [WHITE]: 'O', [BLOCKED]: '#' };

/** The position a game starts from: `setup` ({ cells, toMove }) or the game's own start. */
export function startPos(game, setup = null) {
  const cells = setup ? Int8Array.from(setup.cells) : emptyBoard(game);
  return { cells, toMove: setup ? setup.toMove : 'black', last: -1, lastMove: null, flipped: [], ply: 0 };
}

/** The winning line through the stone at `idx`, as indices, or null (rules.js's lineThrough:
 *  Connect Four four or more; Gomoku five, exactly five in standard and for black in renju). */
export const winLineAt = (game, cells, idx) => lineThrough(game, cells, idx, game.kind === 'connect4' ? 4 : 5);

/** A winning line anywhere on the board (a set-up position may hold one), or null. */
function winLineOnBoard(game, cells) {
  for (let i = 0; i < cells.length; i++) {
    const line = winLineAt(game, cells, i);
    if (line) return line;
  }
  return null;
}

/**
 * What the board shows and allows at `pos`: { over, winner ('black' | 'white' | 'draw' | null),
 * winLine (indices), legal (Othello's squares), forbidden (renju's points for black, [{ idx,
 * kind }]), mustPass (Othello: no move, but the other side has one) }. Renju black with every
 * empty point forbidden has no move left: a draw.
 */
export function info(game, pos) {
  const out = { over: false, winner: null, winLine: [], legal: [], forbidden: [], mustPass: false };
  if (game.kind === 'othello') {
    out.legal = othelloLegal(pos.cells, stoneOf(pos.toMove));
    if (out.legal.length) return out;
    out.mustPass = othelloLegal(pos.cells, stoneOf(other(pos.toMove))).length > 0;
    if (!out.mustPass) {
      const { black, white } = countDiscs(pos.cells);
      out.over = true;
      out.winner = black > white ? 'black' : white > black ? 'white' : 'draw';
    }
    return out;
  }
  const line = pos.last >= 0 ? winLineAt(game, pos.cells, pos.last) : pos.ply === 0 ? winLineOnBoard(game, pos.cells) : null;
  if (line) {
    return { ...out, over: true, winner: seatOf(pos.cells[line[0]]), winLine: line };
  }
  if (!pos.cells.includes(EMPTY)) return { ...out, over: true, winner: 'draw' };
  if (game.rule === 'renju' && pos.toMove === 'black') {
    out.forbidden = forbiddenPoints(pos.cells, dims(game).cols);
    if (noPointLeft(pos.cells, out.forbidden)) return { ...out, over: true, winner: 'draw', forbidden: [] };
  }
  return out;
}

/** A move as the board writes it (`h8`, `f5`, `4`, `pass`), or null when it is no move of `game`. */
export function canonicalMove(game, move) {
  const text = String(move ?? '').trim().toLowerCase();
  if (text === 'pass') return game.kind === 'othello' ? 'pass' : null;
  if (game.kind === 'connect4') {
    if (!/^\d{1,2}$/.test(text)) return null;
    const col = Number(text);
    return col >= 1 && col <= dims(game).cols ? String(col) : null;
  }
  const idx = parseCell(game, text);
  return idx < 0 ? null : cellName(game, idx);
}

/**
 * Plays `move` from `pos` when it is legal: { ok: true, move (as the board writes it), pos }, or
 * { ok: false, why } with `why` one of over | bad (no move of this game) | taken | full (a
 * Connect Four column) | forbidden (renju; `kind` says which) | illegal (Othello) | pass (Othello
 * must pass) | noPass (a pass while a move is possible). `known` is `info(game, pos)` if at hand.
 */
export function tryMove(game, pos, move, known = null) {
  const at = known || info(game, pos);
  if (at.over) return { ok: false, why: 'over' };
  const text = canonicalMove(game, move);
  if (text == null) return { ok: false, why: 'bad' };
  if (text === 'pass') return at.mustPass ? { ok: true, move: text, pos: applyMove(game, pos, text) } : { ok: false, why: 'noPass' };
  if (at.mustPass) return { ok: false, why: 'pass' };
  if (game.kind === 'connect4') {
    const { cols, rows } = dims(game);
    if (connect4Drop(pos.cells, cols, rows, Number(text) - 1) < 0) return { ok: false, why: 'full' };
    return { ok: true, move: text, pos: applyMove(game, pos, text) };
  }
  const idx = parseCell(game, text);
  if (pos.cells[idx] !== EMPTY) return { ok: false, why: 'taken' };
  if (game.kind === 'othello' && !at.legal.includes(idx)) return { ok: false, why: 'illegal' };
  const forbidden = at.forbidden.find((f) => f.idx === idx);
  if (forbidden) return { ok: false, why: 'forbidden', kind: forbidden.kind };
  return { ok: true, move: text, pos: applyMove(game, pos, text) };
}

/**
 * A position as text: its cells row by row from the top (`X` black, `O` white, `-` empty, `#` a
 * blocked Connect Four cell), a space and the side to move (`X` or `O`). Othello's start is
 * `---------------------------OX------XO--------------------------- X`.
 */
export function positionText(cells, toMove) {
  return `${Array.from(cells, (c) => TEXT_OF[c] ?? '-').join('')} ${toMove === 'white' ? 'O' : 'X'}`;
}

/** Whether `setup` is the game's own start (the board a game begins on, black to move). */
export function isStartSetup(game, setup) {
  if (!setup) return true;
  const start = emptyBoard(game);
  return setup.toMove === 'black' && start.length === setup.cells.length && start.every((c, i) => c === setup.cells[i]);
}

/** The side to move that stones on a board suggest: black unless black has one more. */
export function sideFromCounts(game, cells) {
  if (game.kind === 'othello') return 'black';
  const { black, white } = countDiscs(cells);
  return black === white + 1 ? 'white' : 'black';
}

/** Why a Connect Four set-up cannot stand: the first disc (as `d2`) with a hole under it, or null. */
export function floatingDisc(game, cells) {
  if (game.kind !== 'connect4') return null;
  const { cols, rows } = dims(game);
  for (let y = 0; y < rows - 1; y++) {
    for (let x = 0; x < cols; x++) {
      const c = cells[y * cols + x];
      if ((c === BLACK || c === WHITE) && cells[(y + 1) * cols + x] === EMPTY) return cellName(game, y * cols + x);
    }
  }
  return null;
}
