// Tests of the room's intents (room/intents.js): the view emits, the controls handle, and what a handler returns goes back to the one who asked.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createIntents } from '../js/room/intents.js';

test('an intent reaches its handler with its arguments, and the handler answers', () => {
  const { on, emit } = createIntents();
  const seen = [];
  on('reply', (kind, accept) => seen.push([kind, accept]));
  on('playTyped', (text) => text === 'h8');
  emit('reply', 'draw', false);
  assert.deepEqual(seen, [['draw', false]]);
  assert.equal(emit('playTyped', 'h8'), true);
  assert.equal(emit('playTyped', 'zz'), false);
});

test('an intent without a handler does nothing; a second handler for one intent is refused', () => {
  const { on, emit } = createIntents();
  assert.equal(emit('flip'), undefined);
  on('flip', () => 1);
  assert.throws(() => on('flip', () => 2), /flip/);
  assert.equal(emit('flip'), 1);
});
