// Browser tests of the clocks at the start of a timed game: nothing runs until a side has made its first move, the Abort button stands in for Resign until both sides have moved and ends the game without a result, the countdown to the abort of a first move not made (its own server with a short first-move time), and from move three on the clocks run.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, withServer, openPlayer, assertClean, screenshot, byId, createRoom, openRoom, playCell,
  waitMyTurn, assertInView, SIZES, WAIT_MS,
} from './harness.mjs';

/** A 3+2 clock: three minutes each. */
const FULL_MS = '180000';

const hall = useHall('clocks');

/** Two players seated in a fresh 3+2 Gomoku room of `host` (the file's server by default),
 *  black the creator; the game has started. */
async function timedPair(blackName, whiteName, host = hall.server, clock = '3+2', sizes = {}) {
  const black = await openPlayer(hall.browser, { name: blackName, ...sizes.black });
  const white = await openPlayer(hall.browser, { name: whiteName, ...sizes.white });
  const room = await createRoom(black, host, { clock });
  await openRoom(white, host, room);
  for (const p of [black, white]) {
    await byId(p.page, 'player-name-white').filter({ hasText: whiteName }).waitFor({ timeout: WAIT_MS });
  }
  await waitMyTurn(black);
  return { black, white, room, both: [black, white] };
}

/** Asserts that on every page both clocks show a full, standing 3+2 clock. */
async function assertClocksStand(players, why) {
  for (const p of players) {
    for (const seat of ['black', 'white']) {
      const clock = byId(p.page, `clock-${seat}`);
      assert.equal(await clock.getAttribute('data-ms'), FULL_MS, `${p.name}: ${seat}'s clock ${why}`);
      assert.equal(await clock.evaluate((el) => el.classList.contains('running')), false, `${p.name}: ${seat}'s clock runs ${why}`);
      assert.equal(await clock.textContent(), '3:00');
    }
  }
}

test('the clocks stand until each side has made its first move, and Abort ends the game without a result', async () => {
  const { black, white, room, both } = await timedPair('Ann', 'Ben');
  await assertClocksStand(both, 'before black\'s first move');
  await byId(black.page, 'status').filter({ hasText: /clock starts with your first move/ }).waitFor({ timeout: WAIT_MS });
  // A chat line there and back: time passes on both pages, and still nothing runs.
  await byId(white.page, 'chat-input').fill('ready when you are');
  await byId(white.page, 'chat-input').press('Enter');
  await byId(black.page, 'chat-list').getByText('ready when you are').waitFor({ timeout: WAIT_MS });
  await assertClocksStand(both, 'while black thinks over its first move');
  for (const p of both) {
    assert.equal(await byId(p.page, 'btn-abort').isVisible(), true, `${p.name} can abort`);
    assert.equal(await byId(p.page, 'btn-resign').isVisible(), false, `${p.name} has no Resign yet`);
  }
  await screenshot(black.page, 'clocks-before-first-move');

  await playCell(black, 'h8', 'black', both);
  await assertClocksStand(both, 'before white\'s first move');
  await byId(white.page, 'status').filter({ hasText: /clock starts with your first move/ }).waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(white.page, 'btn-abort').isVisible(), true);

  await byId(white.page, 'btn-abort').click();
  for (const p of both) {
    await byId(p.page, 'game-over-dialog').waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(p.page, 'over-title').textContent(), 'Game aborted');
    assert.equal(await byId(p.page, 'btn-abort').isVisible(), false);
  }
  await screenshot(white.page, 'clocks-game-aborted');
  // Stored as an ending without a winner.
  const stored = await (await fetch(`${hall.server.url}api/games/${room}`)).json();
  assert.equal(stored.status, 'over');
  assert.deepEqual([stored.result.result, stored.result.reason], ['aborted', 'aborted']);
  assertClean(black, white);
  await black.context.close();
  await white.context.close();
});

test('once both sides have moved Resign replaces Abort and black\'s clock runs', async () => {
  const { black, white, both } = await timedPair('Cat', 'Dan');
  await playCell(black, 'h8', 'black', both);
  await playCell(white, 'a1', 'white', both);
  for (const p of both) {
    await byId(p.page, 'btn-abort').waitFor({ state: 'hidden', timeout: WAIT_MS });
    assert.equal(await byId(p.page, 'btn-resign').isVisible(), true);
    // Black's time now runs down on screen, white's stands.
    await p.page.locator('[data-testid="clock-black"].running').waitFor({ timeout: WAIT_MS });
    await p.page.waitForFunction(() => Number(document.querySelector('[data-testid="clock-black"]').dataset.ms) < 180000, null, { timeout: WAIT_MS });
    assert.equal(await byId(p.page, 'clock-white').getAttribute('data-ms'), FULL_MS);
  }
  assertClean(black, white);
  await black.context.close();
  await white.context.close();
});

test('a per-move clock shows as low only near the end of the move, not for the whole of it', async () => {
  // Issue 52's sizes: black at 1280x800, white at 1366x768, a watcher on a phone.
  const { black, white, room, both } = await timedPair('Eve', 'Fay', hall.server, '5s', { black: SIZES.desk800, white: SIZES.desk768 });
  const watcher = await openPlayer(hall.browser, { name: 'Gus', ...SIZES.phone });
  await openRoom(watcher, hall.server, room);
  const all = [...both, watcher];
  await playCell(black, 'h8', 'black', all);
  await playCell(white, 'a1', 'white', all);
  const running = (p) => p.page.locator('[data-testid="clock-black"].running').waitFor({ timeout: WAIT_MS });
  await running(black);
  // Running, with most of its 5 s left: not red, on any page, and in view without scrolling.
  const read = (p) => byId(p.page, 'clock-black').evaluate((el) => ({ ms: Number(el.dataset.ms), low: el.classList.contains('low') }));
  for (const p of all) {
    await running(p);
    const early = await read(p);
    assert.ok(early.ms > 1250, `${p.name}: read at ${early.ms} ms`);
    assert.equal(early.low, false, `${p.name}: low at ${early.ms} ms of 5000`);
  }
  for (const p of all) await assertInView(p, ['clock-black', 'clock-white'], 'the clocks, unscrolled');
  // Red in the last quarter of the move, on every page.
  for (const p of all) {
    await p.page.locator('[data-testid="clock-black"].low').waitFor({ timeout: WAIT_MS });
    const late = await read(p);
    assert.ok(late.ms <= 1250, `${p.name}: low at ${late.ms} ms`);
  }
  assertClean(...all);
  for (const p of all) await p.context.close();
});

/** The abort countdown of `page` as { seat, secs } once it names `seat`. */
async function countdownOf(page, seat) {
  const el = page.locator(`[data-testid="abort-countdown"][data-seat="${seat}"]`);
  await el.waitFor({ state: 'visible', timeout: WAIT_MS });
  const text = await el.textContent();
  const secs = Number(await el.getAttribute('data-secs'));
  return { text, secs };
}

test('players and watchers see the countdown to the first-move abort, and the game is aborted at zero', async () => {
  // A server that allows 8 s for a first move, so the abort comes within the tests' bound.
  await withServer('clocks-first-move', { KIBITZ_FIRST_MOVE_SECS: '8' }, async (short) => {
    const players = [];
    try {
      const { black, white, room, both } = await timedPair('Eve', 'Fay', short);
      const watcher = await openPlayer(hall.browser, { name: 'Gil' });
      players.push(black, white, watcher);
      await openRoom(watcher, short, room);
      const all = [black, white, watcher];
      for (const p of all) {
        const { text, secs } = await countdownOf(p.page, 'black');
        assert.match(text, /^Black must move within \d+ s or the game is aborted$/, p.name);
        assert.ok(secs >= 0 && secs <= 8, `${p.name}: ${secs} s`);
      }
      // It counts down on screen between the server's readings.
      const first = (await countdownOf(watcher.page, 'black')).secs;
      await watcher.page.waitForFunction((s) => Number(document.querySelector('[data-testid="abort-countdown"]').dataset.secs) < s, first, { timeout: WAIT_MS });
      await screenshot(watcher.page, 'clocks-abort-countdown');

      // Black's first move hands the countdown to white, from the full 8 s again.
      await playCell(black, 'h8', 'black', both);
      for (const p of all) {
        const { text } = await countdownOf(p.page, 'white');
        assert.match(text, /^White must move within \d+ s or the game is aborted$/, p.name);
      }
      // White never moves: the server aborts the game and the countdown goes.
      for (const p of all) {
        await byId(p.page, 'game-over').waitFor({ timeout: WAIT_MS });
        assert.equal(await byId(p.page, 'game-over').getAttribute('data-result'), 'aborted');
        await byId(p.page, 'abort-countdown').waitFor({ state: 'hidden', timeout: WAIT_MS });
      }
      assertClean(...all);
    } finally {
      for (const p of players) await p.context.close();
    }
  });
});
