// A live game's position as the lobby sends it (`board`: one character a cell, rows from the top; `last`: the last move) turned into the position the board draws; no DOM (node-tested).

import { dims, parseCell, EMPTY, BLACK, WHITE, BLOCKED } from './rules.js';

const CELL = { '.': EMPTY, x: BLACK, o: WHITE, '#': BLOCKED };

/** The cell of the last move: a Gomoku or Othello cell name, or a Connect Four column (its
 *  highest stone, the one that fell last); -1 for none or a pass. */
function lastCell(game, cells, last) {
  if (typeof last !== 'string' || !last) return -1;
  if (game.kind !== 'connect4') return parseCell(game, last);
  const { cols, rows } = dims(game);
  const x = Number(last) - 1;
  if (!Number.isInteger(x) || x < 0 || x >= cols) return -1;
  for (let y = 0; y < rows; y++) {
    const v = cells[y * cols + x];
    if (v === BLACK || v === WHITE) return y * cols + x;
  }
  return -1;
}

/**
 * The position of a lobby entry `{game, board, last}` for `createBoard().render`: { cells,
 * last, flipped, toMove }, or null when the entry has no board (an older server) or one that
 * does not fit its game.
 */
export function livePosition(entry) {
  const game = entry && entry.game;
  const text = entry && entry.board;
  if (!game || typeof text !== 'string') return null;
  const { cols, rows } = dims(game);
  if (text.length !== cols * rows) return null;
  const cells = new Int8Array(cols * rows);
  for (let i = 0; i < text.length; i++) {
    const v = CELL[text[i]];
    if (v === undefined) return null;
    cells[i] = v;
  }
  return { cells, last: lastCell(game, cells, entry.last), flipped: [], toMove: null };
}
