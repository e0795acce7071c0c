// Tests the lobby's board text read as a position: each game's row order, blocked cells, the last move (Connect Four: its highest stone), and entries that do not fit.
import test from 'node:test';
import assert from 'node:assert/strict';
import { livePosition } from '../js/live-board.js';
import { replay, parseCell, EMPTY, BLACK, WHITE, BLOCKED } from '../js/rules.js';

const GOMOKU5 = { kind: 'gomoku', size: 5, rule: 'freestyle' };

test('a Gomoku board is the same position as the moves replayed', () => {
  // The server's text of a1 (x), e5 (o), c3 (x): rows from the top.
  const pos = livePosition({ game: GOMOKU5, board: '....o.......x.......x....', last: 'c3' });
  const replayed = replay(GOMOKU5, ['a1', 'e5', 'c3']).at(-1);
  assert.deepEqual([...pos.cells], [...replayed.cells]);
  assert.equal(pos.last, parseCell(GOMOKU5, 'c3'));
});

test('an Othello board reads its rows in notation order', () => {
  const game = { kind: 'othello' };
  const start = '...........................ox......xo...........................';
  const pos = livePosition({ game, board: start });
  const replayed = replay(game, []).at(-1);
  assert.deepEqual([...pos.cells], [...replayed.cells]);
  assert.equal(pos.last, -1);
  assert.equal(livePosition({ game, board: start, last: 'pass' }).last, -1);
});

test('Connect Four: blocked cells, and the last move is the highest stone of its column', () => {
  const game = { kind: 'connect4', cols: 4, rows: 4, blocked: [[4, 1]] };
  const pos = livePosition({ game, board: '...........xxo.#', last: '4' });
  assert.equal(pos.cells[15], BLOCKED);
  assert.equal(pos.cells[11], BLACK);
  assert.equal(pos.cells[13], WHITE);
  assert.equal(pos.cells[0], EMPTY);
  assert.equal(pos.last, 11);
  assert.equal(livePosition({ game, board: '...........xxo.#', last: '3' }).last, -1);
});

test('no board, a board of the wrong size or with a strange cell gives nothing', () => {
  assert.equal(livePosition({ game: GOMOKU5 }), null);
  assert.equal(livePosition({ game: GOMOKU5, board: '...' }), null);
  assert.equal(livePosition({ game: GOMOKU5, board: 'z'.repeat(25) }), null);
  assert.equal(livePosition(null), null);
});
