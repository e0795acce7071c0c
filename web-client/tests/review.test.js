// Unit tests of js/room/review.js: which review entry belongs to a position, the best line as numbered ghost stones, and variations that take legal moves only.
import test from 'node:test';
import assert from 'node:assert/strict';
import { reviewAt, bestLineMarks, playVariation } from '../js/room/review.js';
import { replay, parseCell } from '../js/rules.js';

function room(game, moves, review) {
  return { game, opening: [], moves, positions: replay(game, moves), review, shownIndex: 0, variation: null };
}

test('an entry is the position before its move, after the skipped opening decisions', () => {
  const game = { kind: 'connect4', cols: 7, rows: 6 };
  const plies = [{ eval: 0, best: '4', pv: ['4', '4'], move: '4' }, { eval: 10, best: '3', pv: ['3'], move: '5' }];
  const R = room(game, ['4', '5'], { from: 0, plies });
  assert.equal(reviewAt(R, 1), plies[1]);
  assert.equal(reviewAt(R, 2), null);
  R.review.from = 1;
  assert.equal(reviewAt(R, 1), plies[0]);
  assert.equal(reviewAt(R, 0), null);
});

test('the best line becomes numbered stones of alternating colours', () => {
  const game = { kind: 'connect4', cols: 7, rows: 6 };
  const R = room(game, ['4'], { from: 0, plies: [{ eval: 0, best: '4', pv: ['4', '4', '3'], move: '4' }] });
  const marks = bestLineMarks(R, 0);
  assert.deepEqual(marks.map((m) => [m.label, m.seat]), [['1', 'black'], ['2', 'white'], ['3', 'black']]);
  assert.equal(Math.abs(marks[1].idx - marks[0].idx), 7, 'the second stone lands on the first');
});

test('a variation takes legal moves only and stops at the end of the game', () => {
  const game = { kind: 'gomoku', size: 15, rule: 'freestyle' };
  const R = room(game, ['h8'], null);
  R.shownIndex = 1;
  assert.equal(playVariation(R, 'h8'), false, 'occupied');
  for (const [w, b] of [['a1', 'i8'], ['a2', 'j8'], ['a3', 'k8']]) {
    assert.equal(playVariation(R, w), true);
    assert.equal(playVariation(R, b), true);
  }
  assert.equal(playVariation(R, 'a4'), true);
  assert.equal(playVariation(R, 'l8'), true, 'five');
  assert.equal(R.variation.over, true);
  assert.equal(playVariation(R, 'b1'), false, 'the game is over');
  const last = R.variation.positions.at(-1);
  assert.equal(last.cells[parseCell(game, 'l8')], 1);
  assert.equal(R.positions.length, 2, "the game's own positions are untouched");
});

test('an evaluation reads as words: a proven win with or without its length, or a score that says who is better', async () => {
  const { evalWords } = await import('../js/room/review.js');
  assert.equal(evalWords({ eval: 1000, proven: true, win_in: 7 }), 'black wins in 7');
  assert.equal(evalWords({ eval: -1000, proven: true, win_in: null }), 'white has a forced win');
  assert.equal(evalWords({ eval: 23 }), '+2.3: black is better');
  assert.equal(evalWords({ eval: -15 }), '−1.5: white is better');
  assert.equal(evalWords({ eval: 4 }), '+0.4: level');
  assert.equal(evalWords({ eval: 0 }), '0.0: level');
});
