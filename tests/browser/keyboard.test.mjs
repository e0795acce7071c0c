// Browser tests of play without a mouse: a Gomoku game to five from the keyboard alone on both sides, a Connect Four game in screen-reader mode (moves typed and played from the keyboard, each read out on both pages, the clocks on demand, the end), and an Othello move from the keyboard on each side.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, openPlayer, assertClean, screenshot, byId, createRoom, openRoom, waitMyTurn, waitStone,
  moveTexts, assertInView, SIZES, WAIT_MS,
} from './harness.mjs';

const hall = useHall('keyboard');

/** Alice (at 1366x768) creates a room of `spec` as black and Bob (at 1280x800) joins it as
 *  white. */
async function twoInRoom(tag, spec) {
  const alice = await openPlayer(hall.browser, { name: `Alice${tag}`, ...SIZES.desk800 });
  const bob = await openPlayer(hall.browser, { name: `Bob${tag}`, ...SIZES.desk768 });
  const room = await createRoom(alice, hall.server, { ...spec, seat: 'black' });
  await openRoom(bob, hall.server, room);
  for (const p of [alice, bob]) await byId(p.page, 'player-name-white').filter({ hasText: bob.name }).waitFor({ timeout: WAIT_MS });
  return { alice, bob, both: [alice, bob] };
}

/** Presses Tab until the board has the focus (as someone without a mouse gets there). */
async function tabToBoard(page) {
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.getAttribute('data-testid') === 'board')) return;
  }
  assert.fail('Tab never reached the board');
}

/** Tabs to the board on each page; the board then lies in the window. */
async function tabToBoards(players) {
  for (const p of players) {
    await tabToBoard(p.page);
    await assertInView(p, ['board'], 'the board with the focus');
  }
}

/** Waits for `player`'s turn, then presses `keys` on the focused board. */
async function keys(player, ...pressed) {
  await waitMyTurn(player);
  for (const k of pressed) await player.page.keyboard.press(k);
}

/** The last line the screen-reader region said on `page`. */
const lastSaid = (page) => byId(page, 'sr-announce').locator('p').last().textContent();

/** Waits until the last line said on every page matches `re`. */
async function waitSaid(players, re) {
  for (const p of players) {
    await p.page.waitForFunction((src) => {
      const last = document.querySelector('[data-testid="sr-announce"] p:last-child');
      return !!last && new RegExp(src, 'i').test(last.textContent);
    }, re.source, { timeout: WAIT_MS }).catch(async () => assert.fail(`${p.name}: last said "${await lastSaid(p.page)}", not ${re}`));
  }
}

/** Types `move` into the move box and sends it with Enter, when it is `player`'s turn. */
async function typeMove(player, move) {
  await waitMyTurn(player);
  await byId(player.page, 'move-input').fill(move);
  await byId(player.page, 'move-input').press('Enter');
}

test('a Gomoku game to five played from the keyboard alone by both players', async () => {
  const { alice, bob, both } = await twoInRoom('G', { game: 'gomoku' });
  await tabToBoards(both);
  // The cursor starts on the centre, h8: black plays there, white goes one up, and each then
  // steps one to the right per move.
  await keys(alice, 'Enter');
  await waitStone(both, 'h8', 'black');
  await keys(bob, 'ArrowUp', 'Enter');
  await waitStone(both, 'h9', 'white');
  for (const [b, w] of [['i8', 'i9'], ['j8', 'j9'], ['k8', 'k9'], ['l8', null]]) {
    await keys(alice, 'ArrowRight', 'Enter');
    await waitStone(both, b, 'black');
    if (!w) break;
    await keys(bob, 'ArrowRight', 'Enter');
    await waitStone(both, w, 'white');
  }
  for (const p of both) {
    const over = byId(p.page, 'game-over');
    await over.waitFor({ timeout: WAIT_MS });
    assert.equal(await over.getAttribute('data-result'), 'black');
    assert.equal(await over.getAttribute('data-reason'), 'five');
    assert.deepEqual(await moveTexts(p.page), ['h8', 'h9', 'i8', 'i9', 'j8', 'j9', 'k8', 'k9', 'l8']);
  }
  assert.match(await byId(alice.page, 'game-over').textContent(), /you win/i);
  assert.match(await byId(bob.page, 'game-over').textContent(), /you lose/i);
  assertClean(...both);
  for (const p of both) await p.context.close();
});

test('Connect Four in screen-reader mode: each move read out on both pages, the clocks on demand, the end', async () => {
  const { alice, bob, both } = await twoInRoom('C', { game: 'connect4', clock: '3+2' });
  for (const p of both) {
    const toggle = byId(p.page, 'btn-screen-reader');
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    assert.equal(await byId(p.page, 'btn-hear-clocks').isVisible(), false, 'no clocks button while the mode is off');
    await toggle.click();
    assert.equal(await toggle.getAttribute('aria-pressed'), 'true');
    await waitSaid([p], /screen reader mode on/);
  }
  // Remembered in this browser: on after a reload.
  await alice.page.reload();
  await byId(alice.page, 'board').waitFor({ timeout: WAIT_MS });
  await alice.page.locator('[data-testid="btn-screen-reader"][aria-pressed="true"]').waitFor({ timeout: WAIT_MS });

  // Black's first move from the keyboard: the cursor starts on the middle column, the 4th.
  await tabToBoards([alice]);
  await keys(alice, 'ArrowLeft', 'ArrowRight', 'Enter');
  await waitStone(both, 'd1', 'black');
  await waitSaid(both, /^black column 4$/);
  await typeMove(bob, '5');
  await waitStone(both, 'e1', 'white');
  await waitSaid(both, /^white column 5$/);

  // The clocks: C on the board for Alice, the button for Bob.
  await alice.page.keyboard.press('c');
  await waitSaid([alice], /^black \d+:\d\d, white \d+:\d\d$/);
  await byId(bob.page, 'btn-hear-clocks').click();
  await waitSaid([bob], /^black \d+:\d\d, white \d+:\d\d$/);

  // The rest typed: black fills column 4 to four in a row.
  for (const [k, row] of [[2, 2], [3, 3]]) {
    await typeMove(alice, '4');
    await waitStone(both, `d${row}`, 'black');
    await waitSaid(both, /^black column 4$/);
    await typeMove(bob, '5');
    await waitStone(both, `e${k}`, 'white');
    await waitSaid(both, /^white column 5$/);
  }
  await typeMove(alice, '4');
  await waitStone(both, 'd4', 'black');
  await waitSaid(both, /^game over: /);
  for (const p of both) {
    const said = await byId(p.page, 'sr-announce').locator('p').allTextContents();
    assert.equal(said.at(-2), 'black column 4', `${p.name}: the winning move, then the end`);
    assert.equal(await byId(p.page, 'game-over').getAttribute('data-result'), 'black');
  }
  assert.match(await lastSaid(alice.page), /you win/i);
  assert.match(await lastSaid(bob.page), /you lose/i);
  await screenshot(alice.page, 'connect4-screen-reader');
  assertClean(...both);
  for (const p of both) await p.context.close();
});

test('Othello from the keyboard: a move on each side with the arrows and Enter', async () => {
  const { alice, bob, both } = await twoInRoom('O', { game: 'othello' });
  await tabToBoards(both);
  // The cursor starts on e5: black goes one down to e6 (flipping e5), white then to d6.
  await keys(alice, 'ArrowDown', 'Enter');
  await waitStone(both, 'e6', 'black');
  await waitStone(both, 'e5', 'black');
  // White's turn drawn (d6 one of its legal points) before the keys.
  await byId(bob.page, 'legal-d6').waitFor({ state: 'attached', timeout: WAIT_MS });
  await keys(bob, 'ArrowDown', 'ArrowLeft', 'Enter');
  await waitStone(both, 'd6', 'white');
  for (const p of both) assert.deepEqual(await moveTexts(p.page), ['e6', 'd6']);
  assertClean(...both);
  for (const p of both) await p.context.close();
});
