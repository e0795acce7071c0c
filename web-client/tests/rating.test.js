// Tests js/rating.js: which games have a rating key, ratings and changes as the page writes them (`?` while provisional, a real minus sign), and the server's rating outcome read into one shape.
import test from 'node:test';
import assert from 'node:assert/strict';
import { RATING_KEYS, ratingKey, canBeRated, formatRating, formatChange, ratingOutcome, changeWords } from '../js/rating.js';

test('the five rating keys, and the games that have one', () => {
  assert.deepEqual(RATING_KEYS, ['gomoku-freestyle', 'gomoku-standard', 'gomoku-renju', 'othello', 'connect4']);
  assert.equal(ratingKey({ kind: 'gomoku', size: 15, rule: 'freestyle' }), 'gomoku-freestyle');
  assert.equal(ratingKey({ kind: 'gomoku', size: 15, rule: 'renju', opening_rule: 'soosorv8' }), 'gomoku-renju');
  assert.equal(ratingKey({ kind: 'gomoku', size: 15 }), 'gomoku-freestyle');
  assert.equal(ratingKey({ kind: 'gomoku', size: 19, rule: 'standard' }), null);
  assert.equal(ratingKey({ kind: 'othello' }), 'othello');
  assert.equal(ratingKey({ kind: 'connect4', cols: 7, rows: 6, blocked: [] }), 'connect4');
  assert.equal(ratingKey({ kind: 'connect4', cols: 7, rows: 6, blocked: [[4, 2]] }), null);
  assert.equal(ratingKey({ kind: 'connect4', cols: 9, rows: 6, blocked: [] }), null);
  assert.equal(ratingKey(null), null);
  assert.equal(canBeRated({ kind: 'othello' }), true);
  assert.equal(canBeRated({ kind: 'gomoku', size: 15, rule: 'standard' }, 3), false, 'preset opening stones are never rated');
});

test('a rating is rounded, with ? while provisional', () => {
  assert.equal(formatRating(1662.3, false), '1662');
  assert.equal(formatRating(1662.5, true), '1663?');
  assert.equal(formatRating(null), '');
  assert.equal(formatRating('x'), '');
});

test('a change is signed with a real minus sign and adds up with the rounded ratings', () => {
  assert.equal(formatChange(1500, 1662.3), '+162');
  assert.equal(formatChange(1500, 1337.7), '\u2212162');
  assert.equal(formatChange(1500.4, 1500.2), '\u00b10');
  // 1500.4 shows as 1500 and 1512.6 as 1513: the change shown is 13, not 12.2 rounded.
  assert.equal(formatChange(1500.4, 1512.6), '+13');
  assert.equal(formatChange(undefined, 1500), '');
});

test('the outcome of a `rated` message, of a state, and of a game not rated after all', () => {
  const msg = {
    t: 'rated', room: 'r1',
    changes: [
      { color: 'white', player: 'p2', name: 'Bob', before: 1800, after: 1790.2, rd: 60, provisional: false },
      { color: 'black', player: 'p1', name: 'Ada', before: 1500, after: 1520.4, rd: 290.3, provisional: true },
      { color: 'green', name: 'nobody' },
    ],
  };
  const out = ratingOutcome(msg);
  assert.deepEqual(out.changes.map((c) => c.color), ['black', 'white'], 'black first, unknown colours dropped');
  assert.equal(out.unrated, null);
  assert.deepEqual(changeWords(out.changes[0]), { color: 'black', name: 'Ada', change: '+20', rating: '1520?', up: 'up' });
  assert.deepEqual(changeWords(out.changes[1]), { color: 'white', name: 'Bob', change: '\u221210', rating: '1790', up: 'down' });
  assert.deepEqual(ratingOutcome({ changes: [], unrated: 'repeat' }), { changes: [], unrated: 'repeat' });
  assert.equal(ratingOutcome(msg.changes).changes.length, 2, 'a bare list of changes is read too');
  assert.equal(ratingOutcome({ changes: [] }), null);
  assert.equal(ratingOutcome(null), null);
  assert.equal(ratingOutcome('rated'), null);
});
