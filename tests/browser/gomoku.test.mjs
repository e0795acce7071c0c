// Browser tests of a Gomoku room: two players and a spectator through a game to five, an undo offered and accepted, and chat shown as text only.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, openPlayer, assertClean, screenshot, byId, createRoom, openRoom, playCell, waitMyTurn,
  waitStone, moveTexts, WAIT_MS,
} from './harness.mjs';

const hall = useHall('gomoku');

/** Alice (black) creates a freestyle room, Bob takes white, Carol watches. */
async function threeInRoom(tag) {
  const alice = await openPlayer(hall.browser, { name: `Alice${tag}` });
  const bob = await openPlayer(hall.browser, { name: `Bob${tag}` });
  const carol = await openPlayer(hall.browser, { name: `Carol${tag}` });
  const room = await createRoom(alice, hall.server, { game: 'gomoku', rule: 'freestyle', seat: 'black' });
  await openRoom(bob, hall.server, room);
  await byId(bob.page, 'player-name-white').filter({ hasText: bob.name }).waitFor({ timeout: WAIT_MS });
  await openRoom(carol, hall.server, room);
  // Carol is a spectator: the seats are taken and her page shows no move input.
  await byId(carol.page, 'move-input').waitFor({ state: 'hidden', timeout: WAIT_MS });
  await byId(alice.page, 'spectators').filter({ hasText: '1' }).waitFor({ timeout: WAIT_MS });
  return { alice, bob, carol, room, all: [alice, bob, carol] };
}

async function closeAll(players) {
  for (const p of players) await p.context.close();
}

test('two players play to five and a spectator sees every move and the winning line', async () => {
  const { alice, bob, carol, all } = await threeInRoom('1');
  const black = ['h8', 'i8', 'j8', 'k8', 'l8'];
  const white = ['h9', 'i9', 'j9', 'k9'];
  for (let i = 0; i < black.length; i++) {
    await playCell(alice, black[i], 'black', all);
    if (i === 2) {
      await screenshot(alice.page, 'gomoku-in-progress');
    }
    if (i < white.length) await playCell(bob, white[i], 'white', all);
  }
  for (const p of all) {
    const over = byId(p.page, 'game-over');
    await over.waitFor({ timeout: WAIT_MS });
    assert.equal(await over.getAttribute('data-result'), 'black');
    assert.equal(await over.getAttribute('data-reason'), 'five');
    assert.match(await over.textContent(), /five in a row/i);
    for (const cell of black) await byId(p.page, `win-${cell}`).waitFor({ timeout: WAIT_MS });
    assert.equal(await p.page.locator('[data-testid^="win-"]').count(), 5);
    assert.deepEqual(await moveTexts(p.page), ['h8', 'h9', 'i8', 'i9', 'j8', 'j9', 'k8', 'k9', 'l8']);
  }
  assert.match(await byId(alice.page, 'game-over').textContent(), /you win/i);
  assert.match(await byId(bob.page, 'game-over').textContent(), /you lose/i);
  assert.match(await byId(carol.page, 'game-over').textContent(), /\(black\) wins/i);
  await screenshot(carol.page, 'gomoku-game-over-spectator');
  await carol.page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(carol.page, 'gomoku-game-over-dark');
  await screenshot(alice.page, 'gomoku-game-over-winner');
  assertClean(...all);
  await closeAll(all);
});

test('an undo offered by one player and accepted by the other takes the move back everywhere', async () => {
  const { alice, bob, carol, all } = await threeInRoom('3');
  await playCell(alice, 'h8', 'black', all);
  await playCell(bob, 'h9', 'white', all);
  await byId(bob.page, 'btn-undo').click();
  await byId(bob.page, 'undo-asked').waitFor({ timeout: WAIT_MS });
  const offer = byId(alice.page, 'undo-offer');
  await offer.waitFor({ timeout: WAIT_MS });
  assert.match(await offer.textContent(), new RegExp(`^${bob.name} asks to take back a move`));
  // Only the opponent is asked; the spectator gets no buttons.
  assert.equal(await byId(carol.page, 'undo-offer').count(), 0);
  await byId(alice.page, 'btn-accept-undo').click();
  await waitStone(all, 'h9', '');
  for (const p of all) {
    await p.page.locator('[data-testid="move-list"] button.mv').nth(1).waitFor({ state: 'detached', timeout: WAIT_MS });
    assert.deepEqual(await moveTexts(p.page), ['h8']);
  }
  await byId(alice.page, 'undo-offer').waitFor({ state: 'detached', timeout: WAIT_MS });
  await byId(bob.page, 'undo-asked').waitFor({ state: 'detached', timeout: WAIT_MS });
  // White is to move again and the game goes on.
  await waitMyTurn(bob);
  await playCell(bob, 'j10', 'white', all);
  await playCell(alice, 'i8', 'black', all);
  assert.deepEqual(await moveTexts(carol.page), ['h8', 'j10', 'i8']);
  assertClean(...all);
  await closeAll(all);
});

test('a chat line with markup shows as text to players and spectators, and spectator chat stays among spectators', async () => {
  const { alice, bob, carol, all } = await threeInRoom('4');
  const evil = '<img src=x onerror=alert(1)>';
  await byId(alice.page, 'chat-input').fill(evil);
  await byId(alice.page, 'chat-input').press('Enter');
  for (const p of [alice, bob]) {
    const line = byId(p.page, 'chat-list').locator('.chat-text').last();
    await line.waitFor({ timeout: WAIT_MS });
    assert.equal(await line.textContent(), evil);
    assert.equal(await byId(p.page, 'chat-list').locator('img').count(), 0);
  }
  // Carol watches: the players' line reaches her too (in the players' tab).
  await byId(carol.page, 'chat-tab-game').click();
  const seen = byId(carol.page, 'chat-list').locator('.chat-text').last();
  await seen.waitFor({ timeout: WAIT_MS });
  assert.equal(await seen.textContent(), evil);
  assert.equal(await carol.page.locator('main img').count(), 0);

  // A spectator's line goes to the spectators' tab of spectators only.
  await byId(carol.page, 'chat-tab-spectators').click();
  await byId(carol.page, 'chat-input').fill(`<b>hi</b> from ${carol.name}`);
  await byId(carol.page, 'chat-input').press('Enter');
  const mine = byId(carol.page, 'chat-list-spectators').locator('.chat-text').last();
  await mine.waitFor({ timeout: WAIT_MS });
  assert.equal(await mine.textContent(), `<b>hi</b> from ${carol.name}`);
  assert.equal(await byId(carol.page, 'chat-list-spectators').locator('b').count(), 0);
  // The players' next line still arrives in order after it (no seq confusion).
  await byId(bob.page, 'chat-input').fill('gl hf');
  await byId(bob.page, 'chat-input').press('Enter');
  await byId(carol.page, 'chat-list').locator('.chat-text', { hasText: 'gl hf' }).waitFor({ state: 'attached', timeout: WAIT_MS });
  await byId(alice.page, 'chat-list').locator('.chat-text', { hasText: 'gl hf' }).waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(alice.page, 'chat-list').locator('.chat-text', { hasText: 'from' }).count(), 0);
  assertClean(...all);
  await closeAll(all);
});

test('a draw by agreement, then a rematch asked by both moves everyone to a new game with colours swapped', async () => {
  const { alice, bob, carol, room, all } = await threeInRoom('5');
  await playCell(alice, 'h8', 'black', all);
  await playCell(bob, 'h9', 'white', all);
  await byId(alice.page, 'btn-draw').click();
  await byId(alice.page, 'draw-asked').waitFor({ timeout: WAIT_MS });
  await byId(bob.page, 'draw-offer').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(carol.page, 'draw-offer').count(), 0);
  await byId(bob.page, 'btn-accept-draw').click();
  for (const p of all) {
    const over = byId(p.page, 'game-over');
    await over.waitFor({ timeout: WAIT_MS });
    assert.equal(await over.getAttribute('data-result'), 'draw');
    assert.equal(await over.getAttribute('data-reason'), 'agreement');
  }
  await byId(alice.page, 'draw-asked').waitFor({ state: 'detached', timeout: WAIT_MS });

  // Alice asks first, from the game-over dialog: Bob is told in the chat and offered a button
  // (once he has closed his own dialog); Alice waits.
  await byId(alice.page, 'btn-over-rematch').click();
  await bob.page.keyboard.press('Escape');
  await byId(bob.page, 'game-over-dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });
  await byId(alice.page, 'rematch-asked').waitFor({ timeout: WAIT_MS });
  await byId(bob.page, 'rematch-offer').waitFor({ timeout: WAIT_MS });
  const note = byId(bob.page, 'chat-note').last();
  await note.waitFor({ timeout: WAIT_MS });
  assert.match(await note.textContent(), new RegExp(`${alice.name} offers a rematch`));
  assert.equal(await byId(alice.page, 'rematch-offer').count(), 0);
  await byId(bob.page, 'btn-accept-rematch').click();

  // Everyone follows to the new room, where the colours are swapped.
  for (const p of all) {
    await p.page.waitForURL((url) => url.searchParams.get('room') && url.searchParams.get('room') !== room, { timeout: WAIT_MS });
    await byId(p.page, 'player-name-black').filter({ hasText: bob.name }).waitFor({ timeout: WAIT_MS });
    await byId(p.page, 'player-name-white').filter({ hasText: alice.name }).waitFor({ timeout: WAIT_MS });
  }
  // Each page knows its new seat; Carol still only watches.
  assert.match(await byId(bob.page, 'player-black').textContent(), /you/);
  assert.match(await byId(alice.page, 'player-white').textContent(), /you/);
  assert.doesNotMatch(await byId(carol.page, 'room').locator('.player-bar').allTextContents().then((t) => t.join(' ')), /you/);
  // The new game starts at once: Bob, now black, moves first.
  await playCell(bob, 'h8', 'black', all);
  await playCell(alice, 'g7', 'white', all);
  assert.deepEqual(await moveTexts(carol.page), ['h8', 'g7']);
  assertClean(...all);
  await closeAll(all);
});

test('a resignation confirmed in two steps ends the game for everyone', async () => {
  const { alice, bob, all } = await threeInRoom('6');
  await playCell(alice, 'h8', 'black', all);
  // Until both sides have moved the game is aborted, not resigned.
  assert.equal(await byId(bob.page, 'btn-resign').isVisible(), false);
  await playCell(bob, 'a1', 'white', all);
  await byId(bob.page, 'btn-resign').click();
  // The first click only arms the button: nothing is sent yet.
  await byId(bob.page, 'btn-resign-confirm').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(bob.page, 'game-over').isVisible(), false);
  await byId(bob.page, 'btn-resign-confirm').click();
  for (const p of all) {
    const over = byId(p.page, 'game-over');
    await over.waitFor({ timeout: WAIT_MS });
    assert.equal(await over.getAttribute('data-result'), 'black');
    assert.equal(await over.getAttribute('data-reason'), 'resign');
  }
  assert.match(await byId(alice.page, 'game-over').textContent(), /you win/i);
  assertClean(...all);
  await closeAll(all);
});
