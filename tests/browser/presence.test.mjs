// Browser tests of presence: a player who leaves a game is named with the time left to come back, counted down for the opponent and a watcher; once half the grace period has gone the one who stayed may claim the win or a draw, and one who comes back is no longer counted down (the server's grace period shortened to 16 s).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  useHall, openPlayer, assertClean, screenshot, byId, createRoom, openRoom, playCell, assertInView, SIZES, WAIT_MS,
} from './harness.mjs';

const GRACE_S = 16;
const README_IMAGES = join(import.meta.dirname, '..', '..', 'web-client', 'docs');
const hall = useHall('presence', { env: { KIBITZ_GRACE_SECS: String(GRACE_S) } });

/** Two players in a Gomoku game of the file's server, one move each, and a watcher; `sizes`
 *  gives each page one of issue 52's sizes ({ black, white, watcher }: keys of SIZES). */
async function gameUnderWay(blackName, whiteName, watcherName, sizes) {
  const black = await openPlayer(hall.browser, { name: blackName, ...SIZES[sizes.black] });
  const white = await openPlayer(hall.browser, { name: whiteName, ...SIZES[sizes.white] });
  const watcher = await openPlayer(hall.browser, { name: watcherName, ...SIZES[sizes.watcher] });
  const room = await createRoom(black, hall.server);
  await openRoom(white, hall.server, room);
  await byId(black.page, 'player-name-white').filter({ hasText: whiteName }).waitFor({ timeout: WAIT_MS });
  await openRoom(watcher, hall.server, room);
  const all = [black, white, watcher];
  await playCell(black, 'h8', 'black', all);
  await playCell(white, 'j10', 'white', all);
  return { black, white, watcher, room };
}

/** The seconds a presence line counts down to ("Ann left — 12 s to come back"). */
async function secondsLeft(page, seat) {
  const text = await byId(page, `presence-${seat}`).textContent();
  const m = /left — (\d+) s to come back/.exec(text);
  assert.ok(m, `presence line: ${text}`);
  return Number(m[1]);
}

test('a player who left is counted down for everyone, and the one who stayed claims the win after half the grace', async () => {
  // The one who stays at 1366x768, the watcher on a phone.
  const { black, white, watcher } = await gameUnderWay('Ann', 'Ben', 'Cid', { black: 'desk800', white: 'desk768', watcher: 'phone' });
  for (const p of [white, watcher]) assert.equal(await byId(p.page, 'presence').isVisible(), false, `${p.name}: nobody is away yet`);
  await black.page.close();
  for (const p of [white, watcher]) {
    await byId(p.page, 'presence-black').filter({ hasText: /^Ann left — \d+ s to come back$/ }).waitFor({ timeout: WAIT_MS });
    const s = await secondsLeft(p.page, 'black');
    assert.ok(s > 0 && s <= GRACE_S, `${p.name}: ${s} s`);
    await assertInView(p, ['presence-black', 'board'], 'the countdown, unscrolled');
  }
  // The countdown moves on by itself.
  const first = await secondsLeft(white.page, 'black');
  await white.page.waitForFunction((n) => {
    const m = /(\d+) s to come back/.exec(document.querySelector('[data-testid="presence-black"]')?.textContent ?? '');
    return m && Number(m[1]) < n;
  }, first, { timeout: WAIT_MS });
  // Only the one who stayed is offered the claim; the watcher only sees the countdown.
  const claim = byId(white.page, 'btn-claim-win');
  if (!(await claim.isVisible())) {
    await byId(white.page, 'claim-wait').filter({ hasText: /You may claim the game in \d+ s/ }).waitFor({ timeout: WAIT_MS });
  }
  await claim.waitFor({ timeout: WAIT_MS });
  assert.ok(await secondsLeft(white.page, 'black') <= GRACE_S / 2, 'the claim comes after half the grace');
  await assertInView(white, ['presence-black', 'btn-claim-win', 'btn-claim-draw'], 'the claim, unscrolled');
  assert.equal(await byId(watcher.page, 'btn-claim-win').count(), 0, 'a watcher cannot claim');
  await screenshot(white.page, 'presence-claim');
  if (process.env.UPDATE_README_IMAGES === '1') {
    await mkdir(README_IMAGES, { recursive: true });
    await white.page.screenshot({ path: join(README_IMAGES, 'presence-claim.png'), animations: 'disabled', scale: 'css' });
  }
  await claim.click();
  for (const [p, head] of [[white, /You win/], [watcher, /Ben \(white\) wins/i]]) {
    await byId(p.page, 'game-over').filter({ hasText: head }).waitFor({ timeout: WAIT_MS });
    await byId(p.page, 'game-over').filter({ hasText: /the opponent left/ }).waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(p.page, 'presence').isVisible(), false, `${p.name}: nobody is counted down after the game`);
  }
  assertClean(white, watcher);
  for (const p of [black, white, watcher]) await p.context.close();
});

test('one who comes back is no longer counted down; the next time away the one who stayed calls it a draw', async () => {
  // The one who stays on a phone, the watcher at 1280x800.
  const { black, white, watcher, room } = await gameUnderWay('Dee', 'Eli', 'Fox', { black: 'desk768', white: 'phone', watcher: 'desk800' });
  await black.page.close();
  await byId(white.page, 'presence-black').waitFor({ timeout: WAIT_MS });
  // Back by the link in the same browser: the same player, in its seat.
  black.page = await black.context.newPage();
  await openRoom(black, hall.server, room);
  for (const p of [white, watcher]) await byId(p.page, 'presence').waitFor({ state: 'hidden', timeout: WAIT_MS });
  await black.page.close();
  await byId(white.page, 'btn-claim-draw').waitFor({ timeout: WAIT_MS });
  for (const p of [white, watcher]) await assertInView(p, ['presence-black', 'board'], 'the countdown, unscrolled');
  await assertInView(white, ['btn-claim-win', 'btn-claim-draw'], 'the claim, unscrolled');
  await byId(white.page, 'btn-claim-draw').tap();
  for (const p of [white, watcher]) await byId(p.page, 'game-over').filter({ hasText: /Draw/ }).waitFor({ timeout: WAIT_MS });
  assertClean(white, watcher);
  for (const p of [black, white, watcher]) await p.context.close();
});
