// Browser tests of accounts and ratings: registering a name, signing in from a second browser (the same player, the name in any case), a wrong password, signing out, a guest refused an account's name, a rated game between two accounts with both rating changes in the game-over dialog, and the leaderboard and player page it leads to, and a game under way followed to a second device.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, openPlayer, assertClean, screenshot, byId, gotoLobby, openRoom, openMoreOptions, playCell, createRoom,
  waitOnline, dumpFrames, assertInView, SIZES, WAIT_MS,
} from './harness.mjs';

const hall = useHall('accounts');

const PASSWORD = 'correct horse 42';

/** Chromium logs every refused request ("Failed to load resource: … status of 401"): a wrong
 *  password is one on purpose, and the page cannot keep the browser from logging it. */
const REFUSED_SIGN_IN = [/Failed to load resource: the server responded with a status of 401/];

/** The header's name, once the server has said whether it is an account's. */
const myName = (page) => byId(page, 'my-name');

/** Waits until the header shows the account `name` (a link to its page, with "Sign out"). */
async function waitSignedIn(page, name) {
  await page.locator('[data-testid="my-name"][data-account="true"]').filter({ hasText: new RegExp(`^${name}$`) }).waitFor({ timeout: WAIT_MS });
  await byId(page, 'btn-signout').waitFor({ timeout: WAIT_MS });
  await waitOnline(page);
}

/** Our player id, as the last welcome gave it (the header keeps it). */
const playerId = (page) => myName(page).getAttribute('data-player');

/** Fills the account form on screen and sends it. */
async function submitAccountForm(page, name, password) {
  await byId(page, 'account-form').waitFor({ timeout: WAIT_MS });
  await byId(page, 'account-name').fill(name);
  await byId(page, 'account-password').fill(password);
  await byId(page, 'btn-account-submit').click();
}

/** Registers the guest `player` under `name` from the header's link; resolves once the header
 *  shows the account, in the lobby. */
async function registerAccount(player, name) {
  const { page } = player;
  await gotoLobby(player, hall.server);
  await byId(page, 'link-register').click();
  assert.match(page.url(), /\?account=register$/);
  await submitAccountForm(page, name, PASSWORD);
  await byId(page, 'open-rooms').waitFor({ timeout: WAIT_MS });
  await waitSignedIn(page, name);
}

/** Everything the page keeps in localStorage, as one string. */
const storedText = (page) => page.evaluate(() => Object.keys(localStorage).map((k) => `${k}=${localStorage.getItem(k)}`).join('\n'));

test('registering keeps the player; a second browser signs in with the name in another case and is the same player', async () => {
  const ada = await openPlayer(hall.browser, { name: 'Ada' });
  await gotoLobby(ada, hall.server);
  // A guest: its own name, "Sign in" and "Register", no account.
  await byId(ada.page, 'link-signin').waitFor({ timeout: WAIT_MS });
  assert.equal(await myName(ada.page).getAttribute('data-account'), null);
  const guestId = await playerId(ada.page);
  assert.ok(guestId, 'the header knows the player id');

  await registerAccount(ada, 'Ada');
  // The account is the player the browser was: same id, now with its page one click away.
  assert.equal(await playerId(ada.page), guestId);
  assert.equal(await byId(ada.page, 'link-register').count(), 0);
  assert.match(await byId(ada.page, 'lobby-signed-in').textContent(), /Signed in as\s*Ada/);
  assert.ok(!(await storedText(ada.page)).includes(PASSWORD), 'the password is never stored');
  // A reload resumes the account (the token is kept).
  await ada.page.reload();
  await waitSignedIn(ada.page, 'Ada');
  assert.equal(await playerId(ada.page), guestId);

  // A second, fresh browser: a wrong password first, then the right one with the name in
  // lower case.
  const other = await openPlayer(hall.browser, { name: 'Visitor', allowConsole: REFUSED_SIGN_IN });
  const { page } = other;
  await gotoLobby(other, hall.server);
  const visitorId = await playerId(page);
  assert.notEqual(visitorId, guestId);
  await byId(page, 'link-signin').click();
  assert.match(page.url(), /\?account=signin$/);
  assert.equal(await byId(page, 'account-name').getAttribute('autocomplete'), 'username');
  assert.equal(await byId(page, 'account-password').getAttribute('autocomplete'), 'current-password');
  assert.equal(await byId(page, 'account-password').getAttribute('type'), 'password');
  await submitAccountForm(page, 'ada', 'not the password');
  const error = byId(page, 'account-form-error');
  await error.waitFor({ timeout: WAIT_MS });
  assert.match(await error.textContent(), /wrong name or password/);
  assert.equal(await myName(page).textContent(), 'Visitor', 'still the guest');
  await submitAccountForm(page, 'ada', PASSWORD);
  // Signed in: back in the lobby as Ada, the same player as the first browser.
  await byId(page, 'open-rooms').waitFor({ timeout: WAIT_MS });
  await waitSignedIn(page, 'Ada');
  assert.equal(await playerId(page), guestId, dumpFrames(other));
  const stored = await page.evaluate(() => ({ token: localStorage.getItem('kibitz.token'), name: localStorage.getItem('kibitz.name') }));
  assert.equal(stored.name, 'Ada');
  assert.match(stored.token || '', /\S{16,}/);
  assert.ok(!(await storedText(page)).includes(PASSWORD), 'the password is never stored');
  assert.ok(!page.url().includes(encodeURIComponent(PASSWORD)) && !page.url().includes(PASSWORD));
  // The name in the header is the way to the account's page.
  await myName(page).click();
  await byId(page, 'player-page').waitFor({ timeout: WAIT_MS });
  assert.match(page.url(), /\?player=Ada$/);
  await byId(page, 'player-title').filter({ hasText: 'Ada' }).waitFor({ timeout: WAIT_MS });

  // Signing out: a fresh guest under a guest name, "Sign in" offered again; the first browser
  // stays signed in.
  await byId(page, 'btn-signout').click();
  await byId(page, 'link-signin').waitFor({ timeout: WAIT_MS });
  await waitOnline(page);
  assert.equal(await myName(page).getAttribute('data-account'), null);
  assert.match(await myName(page).textContent(), /^Guest\d{4}$/);
  const after = await playerId(page);
  assert.ok(after && after !== guestId && after !== visitorId, `a fresh guest (${after})`);
  assert.equal(await page.evaluate(() => localStorage.getItem('kibitz.token')) === stored.token, false, 'the token is dropped');
  await ada.page.reload();
  await waitSignedIn(ada.page, 'Ada');

  assertClean(ada, other);
  await ada.context.close();
  await other.context.close();
});

test('a guest cannot go by an account\'s name: the server refuses it and the page keeps its own', async () => {
  const owner = await openPlayer(hall.browser, { name: 'Owner' });
  await registerAccount(owner, 'Grace');
  const zed = await openPlayer(hall.browser, { name: 'Zed' });
  await gotoLobby(zed, hall.server);
  await byId(zed.page, 'name-input').fill('GRACE');
  await byId(zed.page, 'btn-save-name').click();
  const error = byId(zed.page, 'error-msg');
  await error.waitFor({ timeout: WAIT_MS });
  assert.match(await error.textContent(), /account/);
  await waitOnline(zed.page);
  await myName(zed.page).filter({ hasText: /^Zed$/ }).waitFor({ timeout: WAIT_MS });
  assert.equal(await zed.page.evaluate(() => localStorage.getItem('kibitz.name')), 'Zed');
  assertClean(owner, zed);
  await owner.context.close();
  await zed.context.close();
});

// Issue 52's sizes, one page each; each makes its own account name in Chinese.
const CHINESE_NAMES = { desk800: '棋手小王', desk768: '棋手小李', phone: '棋手小张' };
for (const [tag, size] of Object.entries(SIZES)) {
  test(`names as a player types them (${tag}): an account in Chinese, a blank guest name explained, the name box as long as the server allows`, async () => {
    const wang = await openPlayer(hall.browser, { name: `Wang${tag}`, ...size });
    const { page } = wang;
    await gotoLobby(wang, hall.server);
    await waitOnline(page);
    // The name box takes what the server takes (its welcome says: 32 by default), no more.
    assert.equal(await byId(page, 'name-input').getAttribute('maxlength'), '32');
    await byId(page, 'name-input').fill('x'.repeat(40));
    assert.equal((await byId(page, 'name-input').inputValue()).length, 32);
    // A blank name is not dropped silently: the page says why (in view), and the name stays.
    await byId(page, 'name-input').fill('   ');
    await byId(page, 'btn-save-name').click();
    await byId(page, 'name-note').filter({ hasText: /cannot be blank/ }).waitFor({ timeout: WAIT_MS });
    await assertInView(wang, ['name-input', 'btn-save-name', 'name-note'], 'the name box and its note');
    await myName(page).filter({ hasText: new RegExp(`^Wang${tag}$`) }).waitFor({ timeout: WAIT_MS });
    // An account name in the page's other language.
    await registerAccount(wang, CHINESE_NAMES[tag]);
    await myName(page).click();
    await byId(page, 'player-title').filter({ hasText: CHINESE_NAMES[tag] }).waitFor({ timeout: WAIT_MS });
    await assertInView(wang, ['player-title'], 'the player page title');
    assertClean(wang);
    await wang.context.close();
  });
}

test('a rated game between two accounts shows both rating changes, then the leaderboard and the player page', async () => {
  const cleo = await openPlayer(hall.browser, { name: 'Cleo' });
  const dan = await openPlayer(hall.browser, { name: 'Dan' });

  // A guest cannot ask for a rated game, and is told why.
  await gotoLobby(cleo, hall.server);
  await openMoreOptions(cleo.page);
  assert.equal(await byId(cleo.page, 'new-game-rated').isDisabled(), true);
  assert.equal(await byId(cleo.page, 'new-game-rated-why').getAttribute('data-reason'), 'ratedSignIn');
  assert.match(await byId(cleo.page, 'new-game-rated-why').textContent(), /Sign in/);

  await registerAccount(cleo, 'Cleo');
  await registerAccount(dan, 'Dan');

  // Cleo creates a rated Gomoku room: the box is usable now.
  const { page } = cleo;
  await openMoreOptions(page);
  await byId(page, 'new-game-kind').selectOption('gomoku');
  await byId(page, 'new-game-size').selectOption('15');
  await byId(page, 'new-game-rule').selectOption('freestyle');
  await byId(page, 'new-game-opening-rule').selectOption('none');
  await byId(page, 'new-game-clock').selectOption('none');
  await byId(page, 'new-game-opp-person').check();
  await byId(page, 'new-game-seat').selectOption('black');
  assert.equal(await byId(page, 'new-game-rated').isDisabled(), false);
  await byId(page, 'new-game-rated').check();
  assert.match(await byId(page, 'new-game-summary').textContent(), /Rated/);
  await byId(page, 'btn-new-game').click();
  await byId(page, 'room').waitFor({ timeout: WAIT_MS });
  await byId(page, 'player-name-black').filter({ hasText: 'Cleo' }).waitFor({ timeout: WAIT_MS });
  const room = await byId(page, 'room').getAttribute('data-room');
  await byId(page, 'room-rated').waitFor({ timeout: WAIT_MS });

  // A guest who opens the link may only watch, and is told why.
  const eve = await openPlayer(hall.browser, { name: 'Eve' });
  await openRoom(eve, hall.server, room);
  await byId(eve.page, 'error-msg').filter({ hasText: /account/ }).waitFor({ timeout: WAIT_MS });
  assert.doesNotMatch(await byId(eve.page, 'player-name-white').textContent(), /Eve/);

  // Dan joins by the link and takes the free seat.
  await openRoom(dan, hall.server, room);
  const both = [cleo, dan];
  for (const p of both) await byId(p.page, 'player-name-white').filter({ hasText: 'Dan' }).waitFor({ timeout: WAIT_MS });
  await byId(dan.page, 'room-rated').waitFor({ timeout: WAIT_MS });
  await playCell(cleo, 'h8', 'black', both);
  await playCell(dan, 'i9', 'white', both);
  await byId(page, 'btn-resign').click();
  await byId(page, 'btn-resign-confirm').click();

  // Both dialogs show each side's change with the new rating: Cleo lost, Dan won, both
  // provisional after one game.
  for (const p of both) {
    await byId(p.page, 'game-over-dialog').waitFor({ timeout: WAIT_MS });
    const black = byId(p.page, 'over-dialog-rating-black');
    const white = byId(p.page, 'over-dialog-rating-white');
    await black.waitFor({ timeout: WAIT_MS });
    await white.waitFor({ timeout: WAIT_MS });
    assert.match(await black.textContent(), /^Cleo \(Black\): −\d+ → \d+\?$/, `${p.name}: ${await black.textContent()}`);
    assert.match(await white.textContent(), /^Dan \(White\): \+\d+ → \d+\?$/, `${p.name}: ${await white.textContent()}`);
    assert.match(await black.getAttribute('data-change'), /^−[1-9]\d*$/);
    assert.match(await white.getAttribute('data-change'), /^\+[1-9]\d*$/);
  }
  assert.equal(await byId(cleo.page, 'over-dialog-rating-black').getAttribute('data-mine'), 'true');
  await screenshot(page, 'rated-game-over');
  // The watcher sees them in the result banner.
  await byId(eve.page, 'over-rating-white').waitFor({ timeout: WAIT_MS });
  assertClean(eve);
  await eve.context.close();

  // The lobby's link leads to the leaderboard: Dan above Cleo, ratings marked provisional.
  await byId(page, 'btn-over-lobby').click();
  await byId(page, 'link-leaderboard').click();
  await byId(page, 'leaderboard-table').waitFor({ timeout: WAIT_MS });
  assert.match(page.url(), /\?leaderboard=gomoku-freestyle$/);
  assert.equal(await byId(page, 'leaderboard-row-1').getAttribute('data-name'), 'Dan');
  assert.equal(await byId(page, 'leaderboard-row-2').getAttribute('data-name'), 'Cleo');
  // Dan's row offers Cleo a challenge; her own row does not (challenges.test.mjs sends one).
  assert.match(await byId(page, 'leaderboard-row-1').textContent(), /^1DanChallenge\d+\?1$/);
  assert.equal(await byId(page, 'leaderboard-row-2').locator('[data-testid="btn-challenge"]').count(), 0);
  await screenshot(page, 'leaderboard');
  // The bots' table of the same game (no bot has played here) and another game's tab.
  await byId(page, 'leaderboard-bots').click();
  await byId(page, 'leaderboard-empty').waitFor({ timeout: WAIT_MS });
  assert.match(page.url(), /\?leaderboard=gomoku-freestyle&bots=true$/);
  await byId(page, 'leaderboard-people').click();
  await byId(page, 'leaderboard-row-2').waitFor({ timeout: WAIT_MS });
  await byId(page, 'leaderboard-tab-othello').click();
  await byId(page, 'leaderboard-empty').waitFor({ timeout: WAIT_MS });
  await page.goBack();
  await byId(page, 'leaderboard-row-2').waitFor({ timeout: WAIT_MS });

  // Cleo's page: her rating, the history plotted, the game (rated, lost), a link to its replay.
  await byId(page, 'leaderboard-player-2').click();
  await byId(page, 'player-page').waitFor({ timeout: WAIT_MS });
  assert.match(page.url(), /\?player=Cleo$/);
  await byId(page, 'player-rating-gomoku-freestyle').waitFor({ timeout: WAIT_MS });
  assert.match(await byId(page, 'player-rating-gomoku-freestyle').textContent(), /\d+\?1$/);
  const line = page.locator('svg[data-testid="rating-plot"] polyline[data-testid="plot-line-gomoku-freestyle"]');
  await line.waitFor({ state: 'attached', timeout: WAIT_MS });
  assert.match(await line.getAttribute('points'), /^[\d.]+,[\d.]+( [\d.]+,[\d.]+)*$/);
  assert.match(await byId(page, 'plot-y-min').textContent(), /^\d+$/);
  assert.match(await byId(page, 'plot-y-max').textContent(), /^\d+$/);
  const game = byId(page, `player-game-${room}`);
  await game.waitFor({ timeout: WAIT_MS });
  assert.equal(await game.getAttribute('data-rated'), 'true');
  assert.equal(await game.getAttribute('data-result'), 'loss');
  await screenshot(page, 'player-page');
  await byId(page, `player-game-link-${room}`).click();
  await page.locator(`[data-testid="room"][data-room="${room}"]`).waitFor({ timeout: WAIT_MS });
  await byId(page, 'game-over').waitFor({ timeout: WAIT_MS });
  // The finished room, loaded afresh, still says how the ratings moved.
  await byId(page, 'over-rating-black').waitFor({ timeout: WAIT_MS });

  assertClean(cleo, dan);
  await cleo.context.close();
  await dan.context.close();
});

test('a game under way follows its player to a second device: signed in there, the lobby leads back to it and the move is played from there', async () => {
  // Issue 52's sizes: Hal's first device at 1280x800, Ivy at 1366x768, Hal's phone 390x844.
  const hal = await openPlayer(hall.browser, { name: 'Hal', ...SIZES.desk800 });
  await registerAccount(hal, 'Hal');
  const ivy = await openPlayer(hall.browser, { name: 'Ivy', ...SIZES.desk768 });
  const room = await createRoom(hal, hall.server);
  await openRoom(ivy, hall.server, room);
  await byId(hal.page, 'player-name-white').filter({ hasText: 'Ivy' }).waitFor({ timeout: WAIT_MS });
  await playCell(hal, 'h8', 'black', [hal, ivy]);
  await playCell(ivy, 'j10', 'white', [hal, ivy]);

  // The phone: a fresh browser, signed in as Hal.
  const phone = await openPlayer(hall.browser, { name: 'Someone', ...SIZES.phone });
  await gotoLobby(phone, hall.server);
  await byId(phone.page, 'link-signin').click();
  await submitAccountForm(phone.page, 'Hal', PASSWORD);
  await waitSignedIn(phone.page, 'Hal');
  // The lobby offers Hal's game as his own, not to watch.
  await byId(phone.page, `btn-back-${room}`).waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(phone.page, `btn-watch-${room}`).count(), 0);
  // ... and first on the page, in view unscrolled (it was at the foot of a phone's lobby).
  await byId(phone.page, 'btn-back-to-game').waitFor({ timeout: WAIT_MS });
  await assertInView(phone, ['btn-back-to-game'], 'the way back, unscrolled');
  await byId(phone.page, 'btn-back-to-game').tap();
  await phone.page.locator(`[data-testid="room"][data-room="${room}"]`).waitFor({ timeout: WAIT_MS });
  await byId(phone.page, 'player-name-black').filter({ hasText: 'Hal' }).waitFor({ timeout: WAIT_MS });
  // In the seat: the move from the phone is Hal's, seen by Ivy and by Hal's first device.
  await assertInView(phone, ['board'], 'the board');
  await playCell(phone, 'h9', 'black', [phone, hal, ivy]);
  assertClean(hal, ivy, phone);
  for (const p of [hal, ivy, phone]) await p.context.close();
});
