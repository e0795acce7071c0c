// Browser tests of the lobby: a new room listed within a second, joining from the list on a phone-size touch screen, the Chinese UI, a list longer than the server sends, leaving a game and the way back to it, and the theme switch.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, withServer, openPlayer, assertClean, screenshot, byId, gotoLobby, createRoom, openRoom,
  openMoreOptions, playCell, waitMyTurn, waitStone, moveTexts, waitOnline, assertInView, SIZES, WAIT_MS,
} from './harness.mjs';

const PHONE = { width: 390, height: 844 };

const hall = useHall('lobby');

// Issue 52's sizes: Wendy on a phone, Hank at 1366x768, his tab opened again at 1280x800.
test('a room created by one player shows in another lobby within a second', async () => {
  const watcher = await openPlayer(hall.browser, { name: 'Wendy', ...SIZES.phone });
  const host = await openPlayer(hall.browser, { name: 'Hank', ...SIZES.desk768 });
  await gotoLobby(watcher, hall.server);
  await gotoLobby(host, hall.server);
  assert.equal(await watcher.page.locator('[data-testid^="btn-join-"]').count(), 0);
  await openMoreOptions(host.page);
  await byId(host.page, 'new-game-kind').selectOption('othello');
  await byId(host.page, 'new-game-clock').selectOption('3+2');
  await byId(host.page, 'new-game-seat').selectOption('white');
  const started = Date.now();
  await byId(host.page, 'btn-new-game').click();
  const join = watcher.page.locator('[data-testid^="btn-join-"]');
  await join.first().waitFor({ timeout: WAIT_MS });
  const elapsed = Date.now() - started;
  assert.ok(elapsed < 1000, `the room took ${elapsed} ms to reach the other lobby`);
  const item = byId(watcher.page, 'open-rooms').locator('li.room-item');
  assert.match(await item.textContent(), /Othello/);
  assert.match(await item.textContent(), /3\+2/);
  assert.match(await item.textContent(), /Hank/);
  await screenshot(watcher.page, 'lobby');

  // Joining from the list seats Wendy on the free (black) seat and starts the game.
  await join.first().click();
  await byId(watcher.page, 'player-name-black').filter({ hasText: 'Wendy' }).waitFor({ timeout: WAIT_MS });
  await byId(host.page, 'player-name-black').filter({ hasText: 'Wendy' }).waitFor({ timeout: WAIT_MS });
  // Leaving a game under way asks first, "Stay" in focus: staying keeps the room on screen.
  await byId(host.page, 'btn-lobby').click();
  await byId(host.page, 'leave-dialog').waitFor({ timeout: WAIT_MS });
  assert.equal(await host.page.evaluate(() => document.activeElement?.dataset?.testid), 'btn-leave-stay');
  assert.match(await byId(host.page, 'leave-dialog').textContent(), /your clock runs/);
  await assertInView(host, ['leave-dialog', 'btn-leave-stay', 'btn-leave-confirm'], 'the leave dialog');
  await host.page.keyboard.press('Escape');
  await byId(host.page, 'leave-dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });
  await byId(host.page, 'board').waitFor({ timeout: WAIT_MS });
  await byId(host.page, 'btn-lobby').click();
  await byId(host.page, 'btn-leave-confirm').click();
  // The room left the open list and is now a live game: Hank's own, offered as the way back
  // (first on the page too), not as one to watch.
  const mine = host.page.locator('[data-testid="live-games"] li.live-item.mine');
  await mine.waitFor({ timeout: WAIT_MS });
  const room = await mine.getAttribute('data-room');
  assert.equal(await host.page.locator(`[data-testid="btn-watch-${room}"]`).count(), 0);
  await byId(host.page, `btn-back-${room}`).waitFor({ timeout: WAIT_MS });
  assert.equal(await host.page.locator('[data-testid^="btn-join-"]').count(), 0);
  await assertInView(host, ['btn-back-to-game'], 'the way back, unscrolled');
  await byId(host.page, 'btn-back-to-game').click();
  await byId(host.page, 'player-name-white').filter({ hasText: 'Hank' }).waitFor({ timeout: WAIT_MS });
  await byId(host.page, 'board').waitFor({ timeout: WAIT_MS });
  // A tab closed and opened again (in a 1280x800 window) comes back to the game the same way.
  const again = await host.context.newPage();
  await again.setViewportSize(SIZES.desk800.viewport);
  await again.goto(hall.server.url);
  await byId(again, 'btn-back-to-game').waitFor({ timeout: WAIT_MS });
  await assertInView({ name: 'Hank (again)', page: again }, ['btn-back-to-game'], 'the way back, unscrolled');
  await again.close();
  // On the phone: Wendy's leave asks first too, with both buttons in view, and her lobby leads
  // her back from the top of the page.
  await byId(watcher.page, 'btn-lobby').click();
  await byId(watcher.page, 'leave-dialog').waitFor({ timeout: WAIT_MS });
  await assertInView(watcher, ['leave-dialog', 'btn-leave-stay', 'btn-leave-confirm'], 'the leave dialog');
  await byId(watcher.page, 'btn-leave-confirm').tap();
  await byId(watcher.page, 'btn-back-to-game').waitFor({ timeout: WAIT_MS });
  await assertInView(watcher, ['btn-back-to-game'], 'the way back, unscrolled');
  await byId(watcher.page, 'btn-back-to-game').tap();
  await byId(watcher.page, 'player-name-black').filter({ hasText: 'Wendy' }).waitFor({ timeout: WAIT_MS });
  await assertInView(watcher, ['board'], 'the board, back in the game');
  assertClean(watcher, host);
  await watcher.context.close();
  await host.context.close();
});

test('two players who ask to play now with the same game and clock are paired into a running game', async () => {
  const ann = await openPlayer(hall.browser, { name: 'Ann' });
  const ben = await openPlayer(hall.browser, { name: 'Ben' });
  await gotoLobby(ann, hall.server);
  await gotoLobby(ben, hall.server);
  await byId(ann.page, 'btn-play-now-connect4-1-0').click();
  await byId(ann.page, 'seek-status').waitFor({ timeout: WAIT_MS });
  // Ben's lobby counts Ann as waiting on that button.
  await byId(ben.page, 'btn-play-now-connect4-1-0').filter({ hasText: /1/ }).waitFor({ timeout: WAIT_MS });
  await byId(ben.page, 'btn-play-now-connect4-1-0').click();
  const both = [ann, ben];
  for (const p of both) {
    await byId(p.page, 'room').waitFor({ timeout: WAIT_MS });
    await byId(p.page, 'player-name-black').filter({ hasText: /Ann|Ben/ }).waitFor({ timeout: WAIT_MS });
    await byId(p.page, 'player-name-white').filter({ hasText: /Ann|Ben/ }).waitFor({ timeout: WAIT_MS });
  }
  const blackName = await byId(ann.page, 'player-name-black').textContent();
  const [black, white] = blackName === 'Ann' ? [ann, ben] : [ben, ann];
  // A 1+0 clock: a minute each, standing until each side's first move.
  assert.equal(await byId(black.page, 'clock-white').getAttribute('data-ms'), '60000');
  assert.equal(await byId(white.page, 'clock-black').getAttribute('data-ms'), '60000');
  assert.match(await byId(black.page, 'clock-black').textContent(), /^0?[01]:[0-5]\d/);
  await waitMyTurn(black);
  await byId(black.page, 'col-4').click();
  await waitStone(both, 'd1', 'black');
  await waitMyTurn(white);
  await byId(white.page, 'col-3').click();
  await waitStone(both, 'c1', 'white');
  assert.deepEqual(await moveTexts(black.page), ['4', '3']);
  assertClean(ann, ben);
  await ann.context.close();
  await ben.context.close();
});

test('on a phone-size touch screen the lobby and a room fit, and a Gomoku point is played with two taps', async () => {
  const desk = await openPlayer(hall.browser, { name: 'Dora' });
  const phone = await openPlayer(hall.browser, { name: 'Pat', viewport: PHONE, mobile: true });
  await gotoLobby(phone, hall.server);
  await screenshot(phone.page, 'phone-lobby');
  const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= PHONE.width, `the phone lobby is ${width} px wide`);
  const room = await createRoom(desk, hall.server, { game: 'gomoku', seat: 'black' });
  await byId(phone.page, `btn-join-${room}`).tap();
  await byId(phone.page, 'player-name-white').filter({ hasText: 'Pat' }).waitFor({ timeout: WAIT_MS });
  const both = [desk, phone];
  await playCell(desk, 'h8', 'black', both);
  await waitMyTurn(phone);
  // The two taps are explained once, on the touch screen only.
  const hint = byId(phone.page, 'touch-hint');
  await hint.waitFor({ timeout: WAIT_MS });
  assert.match(await hint.textContent(), /tap the same point again/);
  assert.equal(await byId(desk.page, 'touch-hint').isHidden(), true);
  // The first tap only previews (small points are easy to miss); the second plays.
  await byId(phone.page, 'cell-i9').tap();
  await phone.page.locator('.layer-preview .stone.preview').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(phone.page, 'cell-i9').getAttribute('data-stone'), '');
  await byId(phone.page, 'cell-i9').tap();
  await waitStone(both, 'i9', 'white');
  await hint.waitFor({ state: 'hidden', timeout: WAIT_MS });
  await playCell(desk, 'j10', 'black', both);
  // Understood once is enough: after a reload, on the player's turn again, no hint.
  await phone.page.reload();
  await waitMyTurn(phone);
  assert.equal(await byId(phone.page, 'touch-hint').isHidden(), true);
  assert.deepEqual(await moveTexts(phone.page), ['h8', 'i9', 'j10']);
  const roomWidth = await phone.page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(roomWidth <= PHONE.width, `the phone room is ${roomWidth} px wide`);
  await screenshot(phone.page, 'phone-room');
  assertClean(desk, phone);
  await desk.context.close();
  await phone.context.close();
});

test('the page speaks Chinese for a Chinese browser and switches languages on demand', async () => {
  const li = await openPlayer(hall.browser, { name: 'Li', locale: 'zh-CN' });
  await gotoLobby(li, hall.server);
  assert.equal(await li.page.locator('html').getAttribute('lang'), 'zh-CN');
  assert.equal(await byId(li.page, 'btn-new-game').textContent(), '创建对局');
  await screenshot(li.page, 'lobby-zh');
  const room = await createRoom(li, hall.server, { game: 'gomoku', rule: 'renju', seat: 'black' });
  const wang = await openPlayer(hall.browser, { name: 'Wang', locale: 'zh-CN' });
  await openRoom(wang, hall.server, room);
  await playCell(li, 'h8', 'black', [li, wang]);
  await playCell(wang, 'i9', 'white', [li, wang]);
  assert.match(await byId(li.page, 'room-title').textContent(), /连珠/);
  assert.match(await byId(li.page, 'status').textContent(), /轮到/);
  await screenshot(li.page, 'room-zh');
  await wang.context.close();
  // Switching to English retranslates the page in place and is remembered.
  await byId(li.page, 'lang-select').selectOption('en');
  await byId(li.page, 'btn-lobby').filter({ hasText: 'Lobby' }).waitFor({ timeout: WAIT_MS });
  await li.page.reload();
  await byId(li.page, 'btn-lobby').filter({ hasText: 'Lobby' }).waitFor({ timeout: WAIT_MS });
  assert.equal(await li.page.locator('html').getAttribute('lang'), 'en');
  assertClean(li);
  await li.context.close();
});

test('the lobby is compact: one row to play the computer, the new-game form folded, "Create game" in view', async () => {
  const ivy = await openPlayer(hall.browser, { name: 'Ivy' });
  const { page } = ivy;
  await gotoLobby(ivy, hall.server);
  const row = byId(page, 'vs-computer');
  for (const id of ['vs-computer-game', 'vs-computer-level', 'vs-computer-order', 'btn-vs-computer']) {
    assert.equal(await byId(page, id).isVisible(), true, id);
  }
  // One row: every control of it on the same line.
  const tops = await row.locator('select, button').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
  assert.equal(new Set(tops).size, 1, `the row wraps: ${tops}`);
  assert.deepEqual(await byId(page, 'vs-computer-order').locator('option').allTextContents(), ['You first', 'Computer first']);
  // Folded: the form's fields are hidden, and "Create game" is in the first screen anyway.
  assert.equal(await byId(page, 'more-options').evaluate((d) => d.open), false);
  assert.equal(await byId(page, 'new-game-kind').isVisible(), false);
  const inView = () => byId(page, 'btn-new-game').evaluate((b) => {
    const r = b.getBoundingClientRect();
    return r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  });
  assert.equal(await page.evaluate(() => scrollY), 0);
  assert.equal(await inView(), true, '"Create game" needs scrolling at 1280x900');
  assert.match(await byId(page, 'new-game-summary').textContent(), /·/);
  await screenshot(page, 'lobby-compact');
  await openMoreOptions(page);
  await byId(page, 'new-game-kind').selectOption('othello');
  assert.match(await byId(page, 'new-game-summary').textContent(), /Othello/);
  assert.equal(await inView(), true, '"Create game" moves out of view with the options open');
  assertClean(ivy);
  await ivy.context.close();
});

test('when the server lists only the newest rooms, the lobby says how many more there are', async () => {
  await withServer('lobby-short', { KIBITZ_LOBBY_LIST_MAX: '2' }, async (short) => {
    const hosts = [];
    try {
      for (const name of ['Hana', 'Ivo', 'Jan']) {
        const host = await openPlayer(hall.browser, { name });
        await createRoom(host, short, { game: 'othello', seat: 'black' });
        hosts.push(host);
      }
      const watcher = await openPlayer(hall.browser, { name: 'Wendy' });
      await gotoLobby(watcher, short);
      await byId(watcher.page, 'open-more').filter({ hasText: '1 more' }).waitFor({ timeout: WAIT_MS });
      assert.equal(await byId(watcher.page, 'open-rooms').locator('li.room-item').count(), 2);
      // The newest two are listed: Ivo's and Jan's.
      const listed = await byId(watcher.page, 'open-rooms').textContent();
      assert.match(listed, /Jan/);
      assert.match(listed, /Ivo/);
      assert.doesNotMatch(listed, /Hana/);
      assertClean(watcher, ...hosts);
      await watcher.context.close();
    } finally {
      for (const host of hosts) await host.context.close();
    }
  });
});

for (const [tag, size] of Object.entries(SIZES)) {
  test(`the theme switch (${tag}): light or dark whatever the system says, remembered over a reload`, async () => {
    const tess = await openPlayer(hall.browser, { name: `Tess${tag}`, ...size });
    const { page } = tess;
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await page.emulateMedia({ colorScheme: 'light' });
    await gotoLobby(tess, hall.server);
    assert.equal(await background(), 'rgb(243, 239, 230)');
    await assertInView(tess, ['theme-select'], 'the theme switch, unscrolled');
    await byId(page, 'theme-select').selectOption('dark');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.equal(await background(), 'rgb(22, 24, 28)');
    await page.reload();
    await waitOnline(page);
    assert.equal(await byId(page, 'theme-select').inputValue(), 'dark');
    assert.equal(await background(), 'rgb(22, 24, 28)');
    // Light on a dark system; then the system's again.
    await page.emulateMedia({ colorScheme: 'dark' });
    await byId(page, 'theme-select').selectOption('light');
    assert.equal(await background(), 'rgb(243, 239, 230)');
    await byId(page, 'theme-select').selectOption('system');
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme ?? null), null);
    assert.equal(await background(), 'rgb(22, 24, 28)');
    assertClean(tess);
    await tess.context.close();
  });
}

test('a waiting room goes from the lobby with the last person in it, a grace period after the page closes', async () => {
  // Its own server with a grace period of 3 s. The host on a phone; the lobbies that see the
  // room go at 1280x800 and 1366x768.
  const GRACE_S = 3;
  await withServer('lobby-room-goes', { KIBITZ_GRACE_SECS: String(GRACE_S) }, async (short) => {
    const host = await openPlayer(hall.browser, { name: 'Hope', ...SIZES.phone });
    const lobbies = [
      await openPlayer(hall.browser, { name: 'Lew', ...SIZES.desk800 }),
      await openPlayer(hall.browser, { name: 'Lin', ...SIZES.desk768 }),
    ];
    try {
      for (const p of lobbies) await gotoLobby(p, short);
      const room = await createRoom(host, short, { game: 'gomoku' });
      for (const p of lobbies) {
        await byId(p.page, `btn-join-${room}`).waitFor({ timeout: WAIT_MS });
        await assertInView(p, [`btn-join-${room}`], 'the open room, unscrolled');
      }
      // The host closes the page: the room waits out the grace period, then goes.
      const closed = Date.now();
      await host.page.close();
      for (const p of lobbies) {
        await byId(p.page, `btn-join-${room}`).waitFor({ state: 'detached', timeout: WAIT_MS });
        await byId(p.page, 'open-rooms').filter({ hasText: /No open games/ }).waitFor({ timeout: WAIT_MS });
      }
      const took = Date.now() - closed;
      assert.ok(took >= (GRACE_S - 1) * 1000, `the room went ${took} ms after the page closed, before the grace period`);
      assertClean(host, ...lobbies);
    } finally {
      for (const p of [host, ...lobbies]) await p.context.close();
    }
  });
});
