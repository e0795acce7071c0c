// Browser tests of follows and head to head: Ann (an account, 1280x720) follows Bob (an account, 1366x768) from his player page — the "Follow" toggle pressed (aria-pressed, "Following", the focus kept, heard), the server's list holding him, still so after a reload — while the page's "Head to head" card says "You 0 – 0 – 0 Bob"; Bob plays Cid (a guest on the wire) and Ann's lobby shows the "Following" card with "Playing now": the game (both names, the game) whose link opens it for her as a spectator; Ann and Bob play a Connect Four game that Ann wins, and Bob's page shows "You 1 – 0 – 0 Bob" with that game (a link to its room, "Ann won") and not the one with Cid; a guest opens `?player=Ann&vs=Bob` and reads "Ann 1 – 0 – 0 Bob"; the page in Chinese (light and dark); Ann unfollows from the keyboard and her lobby's card is gone. axe and in view at 1280x720 and on a phone (the player page, the lobby's card).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, openPlayer, assertClean, assertShown, byId, gotoLobby, createRoom, openRoom, waitOnline, waitMyTurn,
  seriousViolations, screenshot, SIZES, WAIT_MS, registerAccount } from './harness.mjs';
import { wireClient } from './wire.mjs';

// No first-move abort while a game waits for its first move.
const hall = useHall('follows', { env: { KIBITZ_FIRST_MOVE_SECS: '600' } });

const DESK720 = { viewport: { width: 1280, height: 720 } };
const PHONE = SIZES.phone.viewport;

/** Opens the player page at `query` (`Bob`, or `Ann&vs=Bob`) and waits for its title. */
async function openPlayerPage(player, query, name = query) {
  await player.page.goto(`${hall.server.url}?player=${query}`);
  await waitOnline(player.page);
  await byId(player.page, 'player-title').filter({ hasText: name }).waitFor({ timeout: WAIT_MS });
}

/** Whom the account signed in on `page` follows, as the server says (GET /api/follows). */
const serverFollows = (page) => page.evaluate(async () => {
  const res = await fetch('/api/follows', { headers: { Authorization: `Bearer ${localStorage.getItem('kibitz.token')}` } });
  return res.json();
});

async function noSeriousViolations(player, where) {
  assert.deepEqual(await seriousViolations(player.page), [], `${player.name}: axe on ${where}`);
}

/** Checks `testids` at 1280x720 and at a phone's size (scrolled to, as a player would), axe at
 *  each, and goes back to 1280x720. */
async function inViewBothSizes(player, testids, where) {
  await assertShown(player, testids, `${where} at 1280x720`);
  await noSeriousViolations(player, `${where} at 1280x720`);
  await screenshot(player.page, `follows-${where.replace(/\W+/g, '-')}-desktop`);
  await player.page.setViewportSize(PHONE);
  await assertShown(player, testids, `${where} on a phone`);
  await noSeriousViolations(player, `${where} on a phone`);
  await screenshot(player.page, `follows-${where.replace(/\W+/g, '-')}-phone`);
  await player.page.setViewportSize(DESK720.viewport);
}

test('Ann follows Bob, sees his game with Cid in her lobby and watches it, beats him head to head, unfollows', async () => {
  const ann = await openPlayer(hall.browser, { name: 'Ann', ...DESK720 });
  const bob = await openPlayer(hall.browser, { name: 'Bob', ...SIZES.desk768 });
  const eve = await openPlayer(hall.browser, { name: 'Eve', ...SIZES.phone });
  let cid = null;
  try {
    for (const p of [ann, bob]) {
      await gotoLobby(p, hall.server);
      await registerAccount(p, p.name);
    }
    const bobId = await byId(bob.page, 'my-name').getAttribute('data-player');

    // Ann follows nobody yet: no "Following" card in her lobby.
    await gotoLobby(ann, hall.server);
    assert.equal(await byId(ann.page, 'following-card').isHidden(), true);

    // On Bob's page: the toggle, not pressed, named "Follow Bob"; head to head with nothing yet.
    await openPlayerPage(ann, 'Bob');
    const toggle = byId(ann.page, 'btn-follow');
    await toggle.waitFor({ timeout: WAIT_MS });
    assert.equal(await toggle.getAttribute('aria-pressed'), 'false');
    assert.equal(await toggle.locator('.follow-word').textContent(), 'Follow');
    assert.equal(await toggle.evaluate((b) => b.textContent.replace(/^\+/, '').trim()), 'Follow Bob');
    await byId(ann.page, 'h2h-score').filter({ hasText: 'You 0 – 0 – 0 Bob' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(ann.page, 'h2h-none').textContent(), 'You have not played Bob yet.');
    await toggle.click();
    await ann.page.locator('[data-testid="btn-follow"][aria-pressed="true"]').waitFor({ timeout: WAIT_MS });
    assert.equal(await toggle.locator('.follow-word').textContent(), 'Following');
    assert.equal(await toggle.getAttribute('title'), 'You follow Bob: press again to unfollow');
    assert.equal(await ann.page.evaluate(() => document.activeElement?.dataset?.testid), 'btn-follow');
    await byId(ann.page, 'follow-live').filter({ hasText: 'You follow Bob now.' }).waitFor({ timeout: WAIT_MS });
    assert.deepEqual((await serverFollows(ann.page)).following, [{ player: bobId, name: 'Bob' }]);
    // Read again after a reload: still pressed.
    await openPlayerPage(ann, 'Bob');
    await ann.page.locator('[data-testid="btn-follow"][aria-pressed="true"]').waitFor({ timeout: WAIT_MS });
    await inViewBothSizes(ann, ['btn-follow', 'h2h', 'h2h-score'], 'the player page');
    // No toggle on one's own page, nor head to head with oneself.
    await openPlayerPage(bob, 'Bob');
    await byId(bob.page, 'player-ratings').or(byId(bob.page, 'player-no-ratings')).waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(bob.page, 'follow-control').count(), 0);
    assert.equal(await byId(bob.page, 'h2h').count(), 0);

    // Bob plays Cid (a guest on the wire): Ann's lobby lists the game under "Playing now".
    const room = await createRoom(bob, hall.server, { game: 'connect4', seat: 'black' });
    cid = await wireClient(hall.browser, hall.server, 'Cid');
    await cid.send({ t: 'join', room, as: 'player' });
    await byId(bob.page, 'player-name-white').filter({ hasText: 'Cid' }).waitFor({ timeout: WAIT_MS });
    await gotoLobby(ann, hall.server);
    const card = byId(ann.page, 'following-card');
    await card.waitFor({ timeout: WAIT_MS });
    const item = byId(ann.page, `following-game-${room}`);
    await item.waitFor({ timeout: WAIT_MS });
    const watch = byId(ann.page, `following-watch-${room}`);
    assert.equal((await watch.textContent()).replace(/\s+/g, ' ').trim(), 'Bob – Cid · Connect Four 7×6');
    assert.equal(await watch.locator('strong').textContent(), 'Bob', 'the followed player in bold');
    assert.match(await watch.getAttribute('href'), new RegExp(`\\?room=${room}$`));
    assert.deepEqual(await byId(ann.page, 'following-player').allTextContents(), ['Bob']);
    assert.equal(await card.locator('h2').textContent(), 'Following');
    await inViewBothSizes(ann, ['following-card', `following-watch-${room}`], 'the lobby\'s following card');
    // The link watches the game.
    await watch.click();
    await byId(ann.page, 'room').and(ann.page.locator(`[data-room="${room}"]`)).waitFor({ timeout: WAIT_MS });
    await byId(ann.page, 'board').waitFor({ timeout: WAIT_MS });
    await byId(bob.page, 'spectators').filter({ hasText: /^1$/ }).waitFor({ timeout: WAIT_MS });
    assert.ok(ann.frames.some((f) => f.startsWith('>') && f.includes('"t":"join"') && f.includes('"as":"spectator"')),
      'Ann joined as a spectator');
    assert.equal(await byId(ann.page, 'player-name-black').textContent(), 'Bob');
    await cid.send({ t: 'resign', room });
    await byId(bob.page, 'game-over-dialog').waitFor({ timeout: WAIT_MS });

    // Ann and Bob play Connect Four: Ann (black) fills column 1 while Bob answers in column 2.
    const game = await createRoom(ann, hall.server, { game: 'connect4', seat: 'black' });
    await openRoom(bob, hall.server, game);
    await byId(ann.page, 'player-name-white').filter({ hasText: 'Bob' }).waitFor({ timeout: WAIT_MS });
    for (let i = 0; i < 7; i++) {
      const [p, col] = i % 2 === 0 ? [ann, 1] : [bob, 2];
      await waitMyTurn(p);
      await byId(p.page, `col-${col}`).click();
      await byId(p.page, 'move-list').locator('button.mv').nth(i).waitFor({ timeout: WAIT_MS });
    }
    for (const p of [ann, bob]) await byId(p.page, 'game-over-dialog').waitFor({ timeout: WAIT_MS });

    // Bob's page as Ann sees it: "You 1 – 0 – 0 Bob" and the game, not Bob's game with Cid.
    await openPlayerPage(ann, 'Bob');
    await byId(ann.page, 'h2h-score').filter({ hasText: 'You 1 – 0 – 0 Bob' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(ann.page, 'h2h-note').textContent(), 'Wins – draws – losses, from your side.');
    assert.equal(await byId(ann.page, 'h2h-games').locator('li').count(), 1);
    const played = byId(ann.page, `h2h-game-${game}`);
    assert.equal(await played.getAttribute('data-result'), 'win');
    assert.equal(await byId(ann.page, `h2h-result-${game}`).textContent(), 'Ann won');
    assert.match(await byId(ann.page, `h2h-game-link-${game}`).getAttribute('href'), new RegExp(`\\?room=${game}$`));
    assert.equal(await byId(ann.page, `h2h-game-${room}`).count(), 0);
    await inViewBothSizes(ann, ['h2h', `h2h-game-link-${game}`], 'the head-to-head card');

    // Anyone, a guest too, may ask for two players head to head: `?player=Ann&vs=Bob`.
    await openPlayerPage(eve, 'Ann&vs=Bob', 'Ann');
    await byId(eve.page, 'h2h-score').filter({ hasText: 'Ann 1 – 0 – 0 Bob' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(eve.page, 'h2h-note').textContent(), 'Wins – draws – losses, from Ann\'s side.');
    await byId(eve.page, `h2h-game-${game}`).waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(eve.page, 'follow-control').count(), 0, 'a guest follows nobody');
    await assertShown(eve, ['h2h', `h2h-game-link-${game}`], 'the head to head of ?vs on a phone');
    await noSeriousViolations(eve, 'the head to head of ?vs on a phone');
    // The game's link opens its room.
    await byId(eve.page, `h2h-game-link-${game}`).click();
    await byId(eve.page, 'room').and(eve.page.locator(`[data-room="${game}"]`)).waitFor({ timeout: WAIT_MS });

    // In Chinese: the toggle, the card and the score in those words.
    await byId(ann.page, 'lang-select').selectOption('zh');
    await ann.page.locator('[data-testid="btn-follow"][aria-pressed="true"]').waitFor({ timeout: WAIT_MS });
    assert.equal(await toggle.locator('.follow-word').textContent(), '已关注');
    assert.equal(await byId(ann.page, 'h2h-title').textContent(), '交手记录');
    assert.equal(await byId(ann.page, 'h2h-score').textContent(), '你 1 – 0 – 0 Bob');
    await noSeriousViolations(ann, 'the player page in Chinese');
    await ann.page.emulateMedia({ colorScheme: 'dark' });
    await noSeriousViolations(ann, 'the player page in Chinese, dark');
    await ann.page.emulateMedia({ colorScheme: 'light' });
    await byId(ann.page, 'lang-select').selectOption('en');

    // Ann unfollows from the keyboard: the toggle let go, heard, the server's list empty.
    await toggle.focus();
    await ann.page.keyboard.press('Space');
    await ann.page.locator('[data-testid="btn-follow"][aria-pressed="false"]').waitFor({ timeout: WAIT_MS });
    assert.equal(await toggle.locator('.follow-word').textContent(), 'Follow');
    assert.equal(await toggle.getAttribute('title'), null);
    assert.equal(await ann.page.evaluate(() => document.activeElement?.dataset?.testid), 'btn-follow');
    await byId(ann.page, 'follow-live').filter({ hasText: 'You no longer follow Bob.' }).waitFor({ timeout: WAIT_MS });
    assert.deepEqual(await serverFollows(ann.page), { following: [], playing: [] });
    // Her lobby has no "Following" card again.
    await gotoLobby(ann, hall.server);
    await byId(ann.page, 'lobby-signed-in').waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(ann.page, 'following-card').isHidden(), true);
    assertClean(ann, bob, eve);
  } finally {
    await cid?.close();
    await ann.context.close();
    await bob.context.close();
    await eve.context.close();
  }
});
