// Which clock reading shows as low: under ten seconds, or under a quarter of a per-move clock's allowance; a correspondence clock's own time and vacation.

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

/** A stand-in for a clock's element: what createClocks writes to it. */
function fakeEl() {
  const classes = new Set();
  return { textContent: '', hidden: true, dataset: {}, classList: { toggle: (c, on) => (on ? classes.add(c) : classes.delete(c)), has: (c) => classes.has(c) } };
}

test('a correspondence clock shows the move\'s own time, the vacation left beside it', async () => {
  const { createClocks } = await import('../js/clock.js');
  const els = { black: fakeEl(), white: fakeEl(), blackVacation: fakeEl(), whiteVacation: fakeEl(), abort: null };
  const clocks = createClocks(els);
  const DAY = 86_400_000;
  clocks.control({ days: 3, vacation_days: 7 });
  clocks.set({ black_ms: 10 * DAY, white_ms: 5 * DAY, black_vacation_ms: 7 * DAY, white_vacation_ms: 7 * DAY, running: null }, 'black');
  assert.equal(els.black.textContent, '3 d 0 h');
  assert.equal(els.blackVacation.textContent, '+ 7 d vacation');
  assert.equal(els.blackVacation.hidden, false);
  assert.equal(els.black.dataset.ms, String(10 * DAY));
  // White's own days are spent: 0:00, low, and the vacation counts down beside it.
  assert.equal(els.white.textContent, '0:00');
  assert.ok(els.white.classList.has('low'));
  assert.equal(els.whiteVacation.textContent, '+ 5 d vacation');
  // No vacation left, or a live clock: nothing beside it.
  clocks.set({ black_ms: 2 * DAY, white_ms: 2 * DAY, black_vacation_ms: 0, white_vacation_ms: 0, running: null }, 'black');
  assert.equal(els.black.textContent, '2 d 0 h');
  assert.equal(els.blackVacation.hidden, true);
  clocks.control({ initial_ms: 180000, increment_ms: 2000 });
  clocks.set({ black_ms: 61000, white_ms: 61000, running: null }, 'black');
  assert.equal(els.black.textContent, '1:01');
  assert.equal(els.blackVacation.hidden, true);
});
