// Browser tests of the rules on screen: a renju forbidden point marked and refused (explained by a tap on a phone), Othello legal-move dots, and a Connect Four drop past a blocked cell.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, openPlayer, assertClean, screenshot, byId, createRoom, openRoom, playCell, waitMyTurn,
  waitStone, moveTexts, WAIT_MS,
} from './harness.mjs';

const hall = useHall('games');

const PHONE = { width: 390, height: 844 };

/** Alice creates a room of `spec` as black and Bob joins as white; `phone`: Alice plays on a
 *  phone-size touch screen. */
async function twoInRoom(tag, spec, { phone = false } = {}) {
  const alice = await openPlayer(hall.browser, phone ? { name: `Alice${tag}`, viewport: PHONE, mobile: true } : { name: `Alice${tag}` });
  const bob = await openPlayer(hall.browser, { name: `Bob${tag}` });
  const room = await createRoom(alice, hall.server, { ...spec, seat: 'black' });
  await openRoom(bob, hall.server, room);
  await byId(alice.page, 'player-name-white').filter({ hasText: bob.name }).waitFor({ timeout: WAIT_MS });
  return { alice, bob, both: [alice, bob] };
}

/** A renju room where j8 is a double-three for black, black (Alice) to move. */
async function doubleThreeAtJ8(tag, options) {
  const pair = await twoInRoom(tag, { game: 'gomoku', rule: 'renju' }, options);
  // Black builds h8 i8 and j9 j10; j8 would then make two open threes at once.
  const black = ['h8', 'i8', 'j10', 'j9'];
  const white = ['a1', 'a3', 'a5', 'a7'];
  for (let i = 0; i < black.length; i++) {
    await playCell(pair.alice, black[i], 'black', pair.both);
    await playCell(pair.bob, white[i], 'white', pair.both);
  }
  await waitMyTurn(pair.alice);
  return pair;
}

test('a renju double-three is marked for black and refused when played anyway', async () => {
  const { alice, bob, both } = await doubleThreeAtJ8('R');
  const mark = byId(alice.page, 'forbidden-j8');
  await mark.waitFor({ timeout: WAIT_MS });
  assert.equal(await mark.getAttribute('data-kind'), 'double-three');
  // White's page marks it too (everyone may see black's forbidden points).
  await byId(bob.page, 'forbidden-j8').waitFor({ timeout: WAIT_MS });
  // Explained: a note under the board, the point's own title and label, and its reason on hover.
  const note = byId(alice.page, 'forbidden-note');
  await note.waitFor({ timeout: WAIT_MS });
  assert.match(await note.textContent(), /forbidden for Black/);
  const target = byId(alice.page, 'cell-j8');
  assert.equal(await target.getAttribute('aria-label'), 'j8: Forbidden for black: double three');
  assert.equal(await target.locator('title').textContent(), 'Forbidden for black: double three');
  await target.hover();
  const why = byId(alice.page, 'forbidden-why');
  await why.waitFor({ timeout: WAIT_MS });
  assert.equal(await why.textContent(), 'j8 — Forbidden for black: double three');
  assert.equal(await why.getAttribute('data-kind'), 'double-three');
  const before = await moveTexts(alice.page);
  await byId(alice.page, 'cell-j8').click();
  const error = byId(alice.page, 'error-msg');
  await error.waitFor({ timeout: WAIT_MS });
  assert.match(await error.textContent(), /forbidden/i);
  await screenshot(alice.page, 'renju-forbidden-refused');
  assert.deepEqual(await moveTexts(alice.page), before);
  assert.equal(await byId(alice.page, 'cell-j8').getAttribute('data-stone'), '');
  // The game goes on: black may still play elsewhere.
  await playCell(alice, 'c3', 'black', both);
  assert.deepEqual(await moveTexts(bob.page), [...before, 'c3']);
  assertClean(...both);
  for (const p of both) await p.context.close();
});

test('on a phone a tap on a renju forbidden point explains it and plays nothing', async () => {
  const { alice, bob, both } = await doubleThreeAtJ8('T', { phone: true });
  await byId(alice.page, 'forbidden-j8').waitFor({ timeout: WAIT_MS });
  const before = await moveTexts(alice.page);
  // Two taps play a point on a phone; on a forbidden point each tap only explains it.
  for (let tap = 0; tap < 2; tap++) {
    await byId(alice.page, 'cell-j8').tap();
    const why = byId(alice.page, 'forbidden-why');
    await why.waitFor({ state: 'visible', timeout: WAIT_MS });
    assert.equal(await why.textContent(), 'j8 — Forbidden for black: double three');
    assert.ok(await why.evaluate((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight;
    }), 'the explanation is on screen');
  }
  // Nothing was sent: the next move the server takes is the one played elsewhere.
  await byId(alice.page, 'cell-c3').tap();
  await byId(alice.page, 'cell-c3').tap();
  await waitStone(both, 'c3', 'black');
  assert.deepEqual(await moveTexts(bob.page), [...before, 'c3']);
  assert.equal(await byId(alice.page, 'error-msg').isVisible(), false, 'no refused move');
  assertClean(...both);
  for (const p of both) await p.context.close();
});

test('othello shows legal-move dots for the side to move and flips on a move', async () => {
  const { alice, bob, both } = await twoInRoom('O', { game: 'othello' });
  const firstMoves = ['d3', 'c4', 'f5', 'e6'];
  for (const p of both) {
    for (const cell of firstMoves) await byId(p.page, `legal-${cell}`).waitFor({ timeout: WAIT_MS });
    assert.equal(await p.page.locator('[data-testid^="legal-"]').count(), 4);
  }
  await screenshot(alice.page, 'othello-legal-dots');
  await playCell(alice, 'f5', 'black', both);
  // e5 was white and is now black; white's four replies are offered.
  await waitStone(both, 'e5', 'black');
  for (const cell of ['f4', 'd6', 'f6']) await byId(bob.page, `legal-${cell}`).waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(bob.page, 'legal-d3').count(), 0);
  assert.match(await byId(bob.page, 'discs-black').textContent(), /4/);
  assert.match(await byId(bob.page, 'discs-white').textContent(), /1/);
  await playCell(bob, 'f6', 'white', both);
  assert.deepEqual(await moveTexts(alice.page), ['f5', 'f6']);
  assertClean(...both);
  for (const p of both) await p.context.close();
});

test('connect four: a column click drops a stone, over a blocked cell', async () => {
  const { alice, bob, both } = await twoInRoom('C', { game: 'connect4', blocked: [[4, 1]] });
  for (const p of both) {
    assert.equal(await byId(p.page, 'cell-d1').getAttribute('data-blocked'), 'true');
  }
  await waitMyTurn(alice);
  await byId(alice.page, 'col-4').click();
  // The blocked cell d1 is never filled: the stone lands on d2.
  await waitStone(both, 'd2', 'black');
  await waitMyTurn(bob);
  await byId(bob.page, 'col-4').click();
  await waitStone(both, 'd3', 'white');
  await waitMyTurn(alice);
  await byId(alice.page, 'col-1').click();
  await waitStone(both, 'a1', 'black');
  assert.deepEqual(await moveTexts(bob.page), ['4', '4', '1']);
  assert.equal(await byId(bob.page, 'cell-d1').getAttribute('data-blocked'), 'true');
  await screenshot(bob.page, 'connect4-blocked');
  assertClean(...both);
  for (const p of both) await p.context.close();
});
