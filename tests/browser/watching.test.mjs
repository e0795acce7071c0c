// Browser tests of watching: the lobby's live games drawn small and moving with each move, the TV page (/tv) showing the best live game and moving on when it ends, and the showcase of `kibitz up` never counted as a watcher.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, startServer, freshDir, removeDir, openPlayer, assertClean, screenshot, byId, gotoLobby,
  waitOnline, assertShown, SIZES, ARTIFACTS, WAIT_MS,
} from './harness.mjs';
import { wireClient, livePair } from './wire.mjs';

const GOMOKU = { kind: 'gomoku', size: 15, rule: 'freestyle' };
const C4 = { kind: 'connect4', cols: 7, rows: 6, blocked: [] };

const hall = useHall('watching');

/** Waits until the small board of `room` in the lobby on `page` shows `n` stones. */
function waitMiniStones(page, room, n) {
  return page.waitForFunction(({ id, count }) => {
    const board = document.querySelector(`[data-testid="mini-${id}-board"]`);
    return board && board.querySelectorAll('circle.stone').length === count;
  }, { id: room, count: n }, { timeout: WAIT_MS });
}

/** Three lobby pages, one at each of issue 52's sizes. */
async function viewers(names) {
  const out = [];
  for (const [i, size] of Object.values(SIZES).entries()) out.push(await openPlayer(hall.browser, { name: names[i], ...size }));
  for (const v of out) await gotoLobby(v, hall.server);
  return out;
}

test('the lobby draws a live game small and the picture follows its moves', async () => {
  // At 1280x800, 1366x768 and on a phone (Pia, who opens the game by its picture).
  const all = await viewers(['Vera', 'Vic', 'Pia']);
  const { room, black, white } = await livePair(hall.browser, hall.server, GOMOKU, ['Ada', 'Bo']);
  for (const v of all) {
    await byId(v.page, `mini-${room}`).waitFor({ timeout: WAIT_MS });
    await waitMiniStones(v.page, room, 0);
  }

  await black.send({ t: 'move', room, move: 'h8' });
  for (const v of all) await waitMiniStones(v.page, room, 1);
  await white.send({ t: 'move', room, move: 'j9' });
  for (const v of all) {
    await waitMiniStones(v.page, room, 2);
    const mini = byId(v.page, `mini-${room}-board`);
    assert.equal(await mini.locator('circle.stone.black').count(), 1);
    assert.equal(await mini.locator('circle.stone.white').count(), 1);
    assert.equal(await mini.locator('.last-move').count(), 1, 'the last move is marked');
    assert.equal(await byId(v.page, `mini-${room}`).getAttribute('data-ply'), '2');
    // Large enough to read a 15x15 board: stones of about 8 px, not 5.
    const side = await mini.evaluate((el) => el.getBoundingClientRect().width);
    assert.ok(side >= 128, `${v.name}: the small board is ${side} px wide`);
    await assertShown(v, [`mini-${room}`], 'the small board');
  }
  const [viewer, , phone] = all;
  await screenshot(viewer.page, 'lobby-live');
  await byId(phone.page, `mini-${room}`).scrollIntoViewIfNeeded();
  await phone.page.screenshot({ path: `${ARTIFACTS}/phone-lobby-live.png`, animations: 'disabled' });

  // The small board is a way in: it opens the game to watch.
  await byId(phone.page, `mini-${room}`).tap();
  await byId(phone.page, 'room').and(phone.page.locator(`[data-room="${room}"]`)).waitFor({ timeout: WAIT_MS });
  await phone.page.locator('[data-testid="cell-h8"][data-stone="black"]').waitFor({ state: 'attached', timeout: WAIT_MS });
  await black.send({ t: 'resign', room });
  assertClean(...all);
  for (const v of all) await v.context.close();
  await black.close();
  await white.close();
});

test('the TV shows the best live game and moves on to the next when it ends', async () => {
  const quiet = await livePair(hall.browser, hall.server, C4, ['Cy', 'Di']);
  const best = await livePair(hall.browser, hall.server, GOMOKU, ['Ed', 'Flo']);
  // A watcher makes the Gomoku game the most watched.
  const fan = await wireClient(hall.browser, hall.server, 'Fan');
  await fan.send({ t: 'join', room: best.room, as: 'spectator' });
  await fan.waitFor('state', { room: best.room });
  await best.black.send({ t: 'move', room: best.room, move: 'h8' });
  await best.white.waitFor('moved', { room: best.room, ply: 1 });

  const tv = await openPlayer(hall.browser, { name: 'Tess' });
  await gotoLobby(tv, hall.server);
  await byId(tv.page, `mini-${best.room}`).waitFor({ timeout: WAIT_MS });
  // The lobby links the TV page; a short pause keeps the test quick (the page waits 6 s).
  await byId(tv.page, 'link-tv').click();
  await tv.page.waitForURL(/\/tv$/, { timeout: WAIT_MS });
  await tv.page.goto(`${hall.server.url}tv?tv_pause_ms=1500`);
  await waitOnline(tv.page);
  await byId(tv.page, 'tv-room').and(tv.page.locator(`[data-room="${best.room}"]`)).waitFor({ timeout: WAIT_MS });
  await tv.page.locator('[data-testid="cell-h8"][data-stone="black"]').waitFor({ state: 'attached', timeout: WAIT_MS });
  // The TV is a watcher like any other: Fan and the TV.
  await byId(tv.page, 'spectators').filter({ hasText: '2' }).waitFor({ timeout: WAIT_MS });
  const moves = ['h9', 'g7', 'j10', 'i7', 'g10', 'j7'];
  for (const [k, move] of moves.entries()) {
    const mover = k % 2 === 0 ? best.white : best.black;
    await mover.send({ t: 'move', room: best.room, move });
    await mover.waitFor('moved', { room: best.room, ply: k + 2 });
  }
  await tv.page.locator('[data-testid="cell-j7"][data-stone="black"]').waitFor({ state: 'attached', timeout: WAIT_MS });
  await byId(tv.page, 'tv-status').and(tv.page.locator('[data-state="watching"]')).waitFor({ timeout: WAIT_MS });
  await screenshot(tv.page, 'tv');
  if (process.env.UPDATE_README_IMAGES) {
    await tv.page.mouse.move(0, 0);
    await tv.page.screenshot({ path: new URL('../../web-client/docs/tv.png', import.meta.url).pathname, animations: 'disabled' });
  }

  // The game ends: its result shows for a moment, with no dialog in the way, then the next game.
  await best.black.send({ t: 'resign', room: best.room });
  await byId(tv.page, 'game-over').and(tv.page.locator('[data-result="white"]')).waitFor({ timeout: WAIT_MS });
  await byId(tv.page, 'tv-status').and(tv.page.locator('[data-state="over"]')).waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(tv.page, 'game-over-dialog').evaluate((d) => d.open), false);
  await byId(tv.page, 'tv-room').and(tv.page.locator(`[data-room="${quiet.room}"]`)).waitFor({ timeout: WAIT_MS });
  await byId(tv.page, 'board').and(tv.page.locator('.board-connect4')).waitFor({ timeout: WAIT_MS });
  await quiet.black.send({ t: 'move', room: quiet.room, move: '4' });
  await tv.page.locator('[data-testid="cell-d1"][data-stone="black"]').waitFor({ state: 'attached', timeout: WAIT_MS });

  // When the last live game ends, the TV says it waits, and shows the next game that starts.
  await quiet.white.send({ t: 'resign', room: quiet.room });
  await byId(tv.page, 'tv-status').and(tv.page.locator('[data-state="waiting"]')).waitFor({ timeout: WAIT_MS });
  const later = await livePair(hall.browser, hall.server, GOMOKU, ['Gus', 'Hal']);
  await byId(tv.page, 'tv-room').and(tv.page.locator(`[data-room="${later.room}"]`)).waitFor({ timeout: WAIT_MS });
  await later.black.send({ t: 'resign', room: later.room });
  assertClean(tv);
  await tv.context.close();
  for (const c of [quiet.black, quiet.white, best.black, best.white, fan, later.black, later.white]) await c.close();
});

test('a live game that ends stays in the lobby, marked just finished, until the next one starts', async () => {
  // At 1280x800, 1366x768 and on a phone.
  const all = await viewers(['Lea', 'Lou', 'Liv']);
  const first = await livePair(hall.browser, hall.server, GOMOKU, ['Ed', 'Flo']);
  for (const v of all) await byId(v.page, `mini-${first.room}`).waitFor({ timeout: WAIT_MS });
  await first.black.send({ t: 'resign', room: first.room });
  // Not "No games in progress" at once: the game stays, said to be over.
  for (const v of all) {
    await byId(v.page, `ended-${first.room}`).waitFor({ timeout: WAIT_MS });
    assert.match(await byId(v.page, 'live-games').textContent(), /just finished/);
    await assertShown(v, [`ended-${first.room}`, `mini-${first.room}`], 'the game just finished');
  }
  // The next game takes its place.
  const next = await livePair(hall.browser, hall.server, GOMOKU, ['Gus', 'Hal']);
  for (const v of all) {
    await byId(v.page, `mini-${next.room}`).waitFor({ timeout: WAIT_MS });
    await byId(v.page, `mini-${first.room}`).waitFor({ state: 'detached', timeout: WAIT_MS });
  }
  assertClean(...all);
  for (const v of all) await v.context.close();
  for (const c of [first.black, first.white, next.black, next.white]) await c.close();
});

test('the showcase of kibitz up is not counted as a watcher', async () => {
  const upDir = await freshDir('kibitz-browser-up-');
  const up = await startServer({ dataDir: upDir, command: 'up' });
  try {
    const viewer = await openPlayer(hall.browser, { name: 'Uma' });
    await viewer.page.goto(up.url);
    await waitOnline(viewer.page);
    // The showcase's bot-vs-bot game shows in the lobby once the bots are connected.
    const item = byId(viewer.page, 'live-games').locator('li.live-item').first();
    await item.waitFor({ timeout: 3 * WAIT_MS });
    const room = await item.getAttribute('data-room');
    assert.match(await byId(viewer.page, `spectators-${room}`).textContent(), /^0\b/, 'nobody watches the showcase yet');
    await byId(viewer.page, `btn-watch-${room}`).click();
    await byId(viewer.page, 'room').waitFor({ timeout: WAIT_MS });
    await byId(viewer.page, 'player-name-black').filter({ hasText: /\S/ }).waitFor({ timeout: WAIT_MS });
    // Uma alone watches: the showcase, which made the room and follows it, does not count.
    await viewer.page.waitForFunction(() => document.querySelector('[data-testid="spectators"]')?.textContent === '1', null, { timeout: WAIT_MS });
    assertClean(viewer);
    await viewer.context.close();
  } finally {
    await up.stop();
    await removeDir(upDir);
  }
});
