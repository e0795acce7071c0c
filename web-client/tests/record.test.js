// Unit tests of js/record.js: move strings, numbered move rows, clock keys, game matching.
import test from 'node:test';
import assert from 'node:assert/strict';
import { moveString, moveRows, clockKey, clockFromKey, sameGame, exportLinks } from '../js/record.js';

test('move strings per game', () => {
  assert.equal(moveString({ kind: 'gomoku', size: 15 }, ['h8'], ['i9', 'h10']), 'h8i9h10');
  assert.equal(moveString({ kind: 'othello' }, [], ['f5', 'd6', 'pass', 'c3']), 'f5d6c3');
  assert.equal(moveString({ kind: 'connect4', cols: 7, rows: 6 }, [], ['4', '4', '5']), '445');
  assert.equal(moveString({ kind: 'connect4', cols: 12, rows: 9 }, [], ['10', '4']), '10 4');
  assert.equal(moveString({ kind: 'gomoku' }, null, []), '');
});

test('move rows number full moves and start mid-row', () => {
  const rows = moveRows(['h8', 'h9', 'i9'], 1);
  assert.equal(rows.length, 2);
  assert.deepEqual(rows[0], { number: 1, black: { ply: 1, move: 'h8' }, white: { ply: 2, move: 'h9' } });
  assert.deepEqual(rows[1], { number: 2, black: { ply: 3, move: 'i9' }, white: null });
  const after = moveRows(['j10', 'k11'], 4);
  assert.deepEqual(after[0], { number: 2, black: null, white: { ply: 4, move: 'j10' } });
  assert.equal(after[1].number, 3);
});

test('clock keys round-trip', () => {
  assert.equal(clockKey(null), 'none');
  assert.equal(clockKey({ initial_ms: 180000, increment_ms: 2000 }), '3+2');
  assert.equal(clockKey({ move_ms: 5000 }), '5s');
  for (const k of ['1+0', '3+2', '5+3', '10+5', '5s', '30s', 'none']) assert.equal(clockKey(clockFromKey(k)), k);
  assert.deepEqual(clockFromKey('3+2'), { initial_ms: 180000, increment_ms: 2000 });
  assert.equal(clockFromKey('junk'), null);
});

test('game matching', () => {
  assert.ok(sameGame({ kind: 'gomoku', size: 15, rule: 'renju' }, { kind: 'gomoku', size: 15, rule: 'renju' }));
  assert.ok(!sameGame({ kind: 'gomoku', size: 15, rule: 'renju' }, { kind: 'gomoku', size: 15, rule: 'freestyle' }));
  assert.ok(sameGame({ kind: 'gomoku' }, { kind: 'gomoku', size: 15, rule: 'freestyle' }));
  assert.ok(sameGame({ kind: 'connect4', cols: 7, rows: 6, blocked: [] }, { kind: 'connect4' }));
  assert.ok(!sameGame({ kind: 'connect4', blocked: [[1, 1]] }, { kind: 'connect4' }));
  assert.ok(!sameGame({ kind: 'othello' }, { kind: 'connect4' }));
});

test('export links', () => {
  const g = exportLinks('abc', { kind: 'gomoku' });
  assert.deepEqual(g.map((l) => l.href), ['/api/games/abc', '/api/games/abc/sgf', '/api/games/abc/psq']);
  assert.equal(exportLinks('abc', { kind: 'othello' }).length, 2);
});
