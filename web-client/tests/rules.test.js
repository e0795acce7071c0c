// Unit tests of js/rules.js: notation, Othello legal moves and flips, Connect Four drops with blocked cells, replay.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  BLACK, WHITE, BLOCKED, EMPTY, cellName, parseCell, emptyBoard, othelloLegal, othelloFlips,
  connect4Drop, replay, lineThrough, countDiscs, rowLabel, columnLabel,
} from '../js/rules.js';

const gomoku = { kind: 'gomoku', size: 15, rule: 'freestyle' };
const othello = { kind: 'othello' };

test('gomoku notation counts rows from the bottom', () => {
  const h8 = parseCell(gomoku, 'h8');
  assert.equal(h8, 7 * 15 + 7);
  assert.equal(cellName(gomoku, h8), 'h8');
  assert.equal(parseCell(gomoku, 'a1'), 14 * 15);
  assert.equal(parseCell(gomoku, 'o15'), 14);
  assert.equal(parseCell(gomoku, 'p1'), -1);
  assert.equal(parseCell(gomoku, 'a16'), -1);
  assert.equal(parseCell(gomoku, 'h'), -1);
  assert.equal(rowLabel(gomoku, 0), '15');
  assert.equal(columnLabel(gomoku, 7), 'h');
  const small = { kind: 'gomoku', size: 11 };
  assert.equal(cellName(small, parseCell(small, 'k11')), 'k11');
});

test('othello notation counts rows from the top', () => {
  assert.equal(parseCell(othello, 'a1'), 0);
  assert.equal(parseCell(othello, 'f5'), 4 * 8 + 5);
  assert.equal(cellName(othello, 63), 'h8');
  assert.equal(rowLabel(othello, 0), '1');
});

test('othello start position and legal moves', () => {
  const cells = emptyBoard(othello);
  assert.equal(cells[parseCell(othello, 'd4')], WHITE);
  assert.equal(cells[parseCell(othello, 'e4')], BLACK);
  const legal = othelloLegal(cells, BLACK).map((i) => cellName(othello, i)).sort();
  assert.deepEqual(legal, ['c4', 'd3', 'e6', 'f5']);
  assert.deepEqual(othelloFlips(cells, parseCell(othello, 'f5'), BLACK), [parseCell(othello, 'e5')]);
  assert.deepEqual(othelloFlips(cells, parseCell(othello, 'a1'), BLACK), []);
});

test('othello replay flips and handles passes', () => {
  const pos = replay(othello, ['f5', 'd6', 'c3', 'd3', 'c4']);
  assert.equal(pos.length, 6);
  const last = pos[5];
  assert.deepEqual(countDiscs(last.cells), { black: 6, white: 3 });
  assert.equal(last.toMove, 'white');
  assert.equal(cellName(othello, last.last), 'c4');
  assert.deepEqual(last.flipped.map((i) => cellName(othello, i)), ['d4']);
  const passed = replay(othello, ['f5', 'pass']);
  assert.equal(passed[2].toMove, 'black');
  assert.equal(passed[2].last, -1);
  assert.equal(passed[2].lastMove, 'pass');
});

test('connect four drops skip blocked cells', () => {
  const game = { kind: 'connect4', cols: 7, rows: 6, blocked: [[4, 1], [5, 3]] };
  const cells = emptyBoard(game);
  assert.equal(cells[5 * 7 + 3], BLOCKED);
  assert.equal(connect4Drop(cells, 7, 6, 3), 4 * 7 + 3, 'stone lands above a blocked bottom cell');
  const pos = replay(game, ['5', '5', '5']);
  const c = pos[3].cells;
  assert.equal(c[5 * 7 + 4], BLACK);
  assert.equal(c[4 * 7 + 4], WHITE);
  assert.equal(c[3 * 7 + 4], BLOCKED);
  assert.equal(c[2 * 7 + 4], BLACK, 'third stone jumps over the blocked cell');
  assert.equal(cellName(game, pos[3].last), 'e4');
  const full = replay({ kind: 'connect4', cols: 4, rows: 4 }, ['1', '1', '1', '1']);
  assert.equal(connect4Drop(full[4].cells, 4, 4, 0), -1);
  assert.equal(full[4].cells.filter((v) => v !== EMPTY).length, 4);
});

test('connect four winning line cells use letter + row from the bottom', () => {
  const game = { kind: 'connect4', cols: 7, rows: 6 };
  const pos = replay(game, ['1', '1', '2', '2', '3', '3', '4']);
  const line = lineThrough(game, pos[7].cells, pos[7].last, 4).map((i) => cellName(game, i));
  assert.deepEqual(line, ['a1', 'b1', 'c1', 'd1']);
  assert.equal(parseCell(game, 'd1'), 5 * 7 + 3);
});

test('gomoku line through the last stone', () => {
  const pos = replay(gomoku, ['h8', 'a1', 'i9', 'a2', 'j10', 'a3', 'k11', 'a4', 'g7']);
  const p = pos[pos.length - 1];
  const line = lineThrough(gomoku, p.cells, p.last, 5).map((i) => cellName(gomoku, i));
  assert.deepEqual(line.sort(), ['g7', 'h8', 'i9', 'j10', 'k11']);
  assert.equal(lineThrough(gomoku, p.cells, parseCell(gomoku, 'a1'), 5), null);
});
