// Which clock reading shows as low: under ten seconds, or under a quarter of a per-move clock's allowance.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lowBelowMs, formatMs } from '../js/clock.js';

test('a clock is low under ten seconds, a per-move clock under a quarter of its allowance', () => {
  assert.equal(lowBelowMs({ initial_ms: 180000, increment_ms: 2000 }), 10000);
  assert.equal(lowBelowMs(null), 10000);
  // 4 s a move: red in its last second, not for the whole move.
  assert.equal(lowBelowMs({ move_ms: 4000 }), 1000);
  assert.equal(lowBelowMs({ move_ms: 120000 }), 10000);
  assert.equal(formatMs(3950), '3.9');
  assert.equal(formatMs(61000), '1:01');
});
