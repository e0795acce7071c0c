// Unit tests of js/renju.js: overline, double-four (also in one line), double-three, four-three, fives, false and recursive threes.
import test from 'node:test';
import assert from 'node:assert/strict';
import { forbiddenKind, forbiddenPoints } from '../js/renju.js';
import { BLACK, WHITE, parseCell, cellName } from '../js/rules.js';

const game = { kind: 'gomoku', size: 15, rule: 'renju' };

function board(black, white = []) {
  const cells = new Int8Array(15 * 15);
  for (const c of black) cells[parseCell(game, c)] = BLACK;
  for (const c of white) cells[parseCell(game, c)] = WHITE;
  return cells;
}
const kind = (cells, at) => forbiddenKind(cells, 15, parseCell(game, at));

test('empty board has no forbidden point', () => {
  assert.deepEqual(forbiddenPoints(new Int8Array(225), 15), []);
});

test('overline', () => {
  assert.equal(kind(board(['c8', 'd8', 'e8', 'g8', 'h8']), 'f8'), 'overline');
});

test('double three', () => {
  const cells = board(['f8', 'g8', 'h6', 'h7']);
  assert.equal(kind(cells, 'h8'), 'double-three');
  const pts = forbiddenPoints(cells, 15).map((p) => cellName(game, p.idx));
  assert.ok(pts.includes('h8'));
});

test('four-three is allowed', () => {
  assert.equal(kind(board(['f8', 'g8', 'i8', 'h6', 'h7']), 'h8'), null);
});

test('double four in two lines', () => {
  assert.equal(kind(board(['e8', 'f8', 'g8', 'h5', 'h6', 'h7']), 'h8'), 'double-four');
});

test('double four in one line', () => {
  // b8 . d8 [e8] f8 . h8: c8 and g8 both complete a five.
  assert.equal(kind(board(['b8', 'd8', 'f8', 'h8']), 'e8'), 'double-four');
});

test('a five wins even with an overline beside it', () => {
  const cells = board(['d8', 'e8', 'f8', 'g8', 'h5', 'h6', 'h7', 'h9', 'h10']);
  assert.equal(kind(cells, 'h8'), null);
});

test('a three blocked by white is no three', () => {
  // White e8 and a white stone at j8 leave f8 g8 h8 unable to become a straight four.
  assert.equal(kind(board(['f8', 'g8', 'h6', 'h7'], ['e8', 'j8']), 'h8'), null);
  // With only j8 white, e8 still makes a straight four: a real three.
  assert.equal(kind(board(['f8', 'g8', 'h6', 'h7'], ['j8']), 'h8'), 'double-three');
});

test('a three whose only straight four is a forbidden point is no three (recursive rule)', () => {
  // The horizontal three f8 g8 h8 (white j8) becomes straight only at e8; the column e5 e6 e7
  // makes e8 a double four, so the three is false and h8 is allowed.
  const cells = board(['f8', 'g8', 'h6', 'h7', 'e5', 'e6', 'e7'], ['j8']);
  assert.equal(kind(cells, 'h8'), null);
});

test('occupied cells and white-only shapes are never forbidden', () => {
  const cells = board(['h8'], ['f8', 'g8', 'h6', 'h7']);
  assert.equal(kind(cells, 'h8'), null);
  assert.equal(kind(cells, 'e8'), null);
});
