// Browser tests of tournaments: two accounts in a round-robin made from the tournaments page (one creates it, the other joins from its page, the creator starts it, each is taken into the game, one resigns, the standings and the rounds show the result and the tournament is over), a watcher whose page follows it live and stops asking once it leaves the page or the tournament ends, and a bot-only round-robin made from the page that runs to its end unattended.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, openPlayer, assertClean, screenshot, byId, gotoLobby, playCell, waitOnline, dumpFrames,
  seriousViolations, assertInView, assertShown, SIZES, WAIT_MS,
} from './harness.mjs';

const BOT_NAMES = ['Turing', 'Zuse'];
// The bots of this file move at once (their pacing is for people watching): a bot-only game
// then lasts its thinking time alone. `kibitz bot` reads it from its environment, which the
// harness passes on.
process.env.KIBITZ_BOT_PACE_MS = process.env.KIBITZ_BOT_PACE_MS || '50';

const hall = useHall('tournaments', { bots: BOT_NAMES });

const PASSWORD = 'correct horse 42';
/** The page asks for a tournament every 2 s: a change shows within this. */
const POLL_WAIT_MS = WAIT_MS;
/** A bot-only game to its end: the thinking of every move, in a debug build on a busy machine. */
const BOT_GAME_MS = 90_000;

/** Registers the guest `player` under `name` from the header's link; resolves once the header
 *  shows the account, back in the lobby. */
async function registerAccount(player, name) {
  const { page } = player;
  await gotoLobby(player, hall.server);
  await byId(page, 'link-register').click();
  await byId(page, 'account-form').waitFor({ timeout: WAIT_MS });
  await byId(page, 'account-name').fill(name);
  await byId(page, 'account-password').fill(PASSWORD);
  await byId(page, 'btn-account-submit').click();
  await byId(page, 'open-rooms').waitFor({ timeout: WAIT_MS });
  await page.locator('[data-testid="my-name"][data-account="true"]').filter({ hasText: new RegExp(`^${name}$`) }).waitFor({ timeout: WAIT_MS });
  await waitOnline(page);
}

/** Fills the create form on the tournaments page and sends it; resolves with the new
 *  tournament's id once its page shows it open. */
async function createTournament(page, { name, kind = 'round_robin', game = 'gomoku-freestyle', clock = '5+3', rounds = null, rated = false, bots = [], levels = {} }) {
  await byId(page, 'tournament-form').waitFor({ timeout: WAIT_MS });
  await byId(page, 'tournament-name').fill(name);
  await byId(page, 'tournament-kind').selectOption(kind);
  await byId(page, 'tournament-game').selectOption(game);
  await byId(page, 'tournament-clock').selectOption(clock);
  if (rounds != null) await byId(page, 'tournament-rounds').fill(String(rounds));
  if (rated) await byId(page, 'tournament-rated').check();
  for (const bot of bots) await byId(page, `tournament-bot-${bot}`).check();
  for (const [bot, level] of Object.entries(levels)) await byId(page, `tournament-bot-level-${bot}`).selectOption(String(level));
  await byId(page, 'btn-create-tournament').click();
  const view = page.locator('[data-testid="tournament-page"][data-status="open"]');
  await view.waitFor({ timeout: WAIT_MS });
  const id = await view.getAttribute('data-id');
  assert.equal(new URL(page.url()).searchParams.get('tournament'), id);
  await byId(page, 'tournament-title').filter({ hasText: name }).waitFor({ timeout: WAIT_MS });
  return id;
}

/** Records the requests `page` makes for tournament `id` (GET /api/tournaments/<id>). */
function countPolls(page, id) {
  const seen = { n: 0 };
  page.on('request', (req) => {
    if (new URL(req.url()).pathname === `/api/tournaments/${encodeURIComponent(id)}`) seen.n += 1;
  });
  return seen;
}

/** Bob's account name: as long as a name may be (20 characters). */
const BOB = 'Bob_Babbage_Engine_2';

/** Fails when `page`, seen on a 390 px phone screen, is wider than the screen; then puts its
 *  own size back. */
async function assertFitsPhone(page) {
  const own = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  const wide = await page.evaluate(() => document.documentElement.scrollWidth);
  // What sticks out, for the message.
  const out = await page.evaluate(() => [...document.querySelectorAll('body *')]
    .filter((el) => el.getBoundingClientRect().right > innerWidth + 1)
    .slice(0, 6).map((el) => `${el.tagName.toLowerCase()}.${el.className || el.dataset.testid || ''}`));
  assert.ok(wide <= 390, `the page is ${wide} px wide on a 390 px screen: ${out.join(', ')}`);
  await page.setViewportSize(own);
}

/** The standings' lines on `page`, best first: [[name, points, games, wins], ...] as shown. */
async function standings(page) {
  const rows = page.locator('[data-testid="standings-table"] tbody tr');
  const out = [];
  for (let i = 0; i < await rows.count(); i++) {
    const cells = (await rows.nth(i).locator('td').allTextContents()).map((c) => c.trim());
    out.push([await rows.nth(i).getAttribute('data-name'), cells[2], cells[3], cells[4]]);
  }
  return out;
}

/** The element of `testid` on `page` once its `attr` is `value`. */
const withAttr = (page, testid, attr, value) => page.locator(`[data-testid="${testid}"][${attr}="${value}"]`);

// Issue 52's sizes: Ada at 1280x800, Bob (the longest name) on a phone, Eve at 1366x768.
test('two accounts: created, joined and started from the page, played, resigned, and the standings show it', async () => {
  const ada = await openPlayer(hall.browser, { name: 'Ada', ...SIZES.desk800 });
  const bob = await openPlayer(hall.browser, { name: BOB, ...SIZES.phone });
  const eve = await openPlayer(hall.browser, { name: 'Eve', ...SIZES.desk768 });

  // A guest sees the tournaments but no form: only accounts play.
  await gotoLobby(eve, hall.server);
  await byId(eve.page, 'link-tournaments').click();
  await byId(eve.page, 'tournaments-page').waitFor({ timeout: WAIT_MS });
  assert.match(eve.page.url(), /\?tournaments$/);
  await byId(eve.page, 'tournament-sign-in').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(eve.page, 'tournament-form').count(), 0);

  await registerAccount(ada, 'Ada');
  // The longest name an account may have: the pages must still fit a phone.
  await registerAccount(bob, BOB);

  // Ada creates a round-robin from the header's link; the connected bots are offered.
  const { page } = ada;
  await byId(page, 'header-link-tournaments').click();
  await byId(page, 'tournament-form').waitFor({ timeout: WAIT_MS });
  for (const bot of BOT_NAMES) await byId(page, `tournament-bot-${bot}`).waitFor({ timeout: WAIT_MS });
  // Each bot with its level box, within reach.
  for (const bot of BOT_NAMES) await assertShown(ada, [`tournament-bot-${bot}`, `tournament-bot-level-${bot}`], 'a bot and its level');
  await screenshot(page, 'tournaments-page');
  assert.equal(await byId(page, 'tournament-rounds').isVisible(), false, 'rounds are a Swiss\'s');
  await byId(page, 'tournament-kind').selectOption('swiss');
  assert.equal(await byId(page, 'tournament-rounds').isVisible(), true);
  const id = await createTournament(page, { name: 'Autumn Cup', kind: 'round_robin', game: 'gomoku-freestyle', clock: '5+3' });
  assert.equal(await byId(page, 'tournament-kind').getAttribute('data-kind'), 'round_robin');
  assert.match(await byId(page, 'tournament-game').textContent(), /Gomoku 15×15/);
  assert.equal(await byId(page, 'tournament-status').getAttribute('data-status'), 'open');
  // Making it does not enter its creator: Ada joins like anyone, and may start it.
  await byId(page, 'tournament-no-players').waitFor({ timeout: WAIT_MS });
  await byId(page, 'btn-tournament-join').click();
  await byId(page, 'tournament-player-Ada').waitFor({ timeout: WAIT_MS });
  await byId(page, 'btn-tournament-start').waitFor({ timeout: WAIT_MS });

  // Listed, open, with a link to its page.
  await byId(eve.page, 'btn-page-lobby').click();
  await byId(eve.page, 'link-tournaments').click();
  const item = byId(eve.page, `tournament-item-${id}`);
  await item.waitFor({ timeout: POLL_WAIT_MS });
  assert.equal(await item.getAttribute('data-status'), 'open');
  // A guest on the page: no buttons, a word on signing in.
  await byId(eve.page, `tournament-link-${id}`).click();
  await byId(eve.page, 'tournament-page').waitFor({ timeout: WAIT_MS });
  await byId(eve.page, 'tournament-sign-in').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(eve.page, 'btn-tournament-join').count(), 0);

  // On Bob's phone the form's bots and their level boxes fit and are within reach too.
  await bob.page.goto(`${hall.server.url}?tournaments`);
  await byId(bob.page, 'tournament-form').waitFor({ timeout: WAIT_MS });
  for (const bot of BOT_NAMES) {
    await byId(bob.page, `tournament-bot-${bot}`).waitFor({ timeout: WAIT_MS });
    await assertShown(bob, [`tournament-bot-${bot}`, `tournament-bot-level-${bot}`], 'a bot and its level');
  }

  // Bob joins from the tournament's page, leaves, and joins again; Ada's page follows.
  await bob.page.goto(`${hall.server.url}?tournament=${encodeURIComponent(id)}`);
  await waitOnline(bob.page);
  await byId(bob.page, 'btn-tournament-join').waitFor({ timeout: WAIT_MS });
  await assertInView(bob, ['tournament-title'], 'the tournament, on a phone');
  await byId(bob.page, 'btn-tournament-join').click();
  await byId(bob.page, `tournament-player-${BOB}`).waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(bob.page, 'btn-tournament-start').count(), 0, 'only the creator starts it');
  await byId(bob.page, 'btn-tournament-leave').click();
  await byId(bob.page, `tournament-player-${BOB}`).waitFor({ state: 'detached', timeout: WAIT_MS });
  await byId(bob.page, 'btn-tournament-join').click();
  await byId(bob.page, `tournament-player-${BOB}`).waitFor({ timeout: WAIT_MS });
  await byId(page, `tournament-player-${BOB}`).waitFor({ timeout: POLL_WAIT_MS });
  await screenshot(page, 'tournament-open');

  // Ada starts it: each is taken into the game of round 1.
  await byId(page, 'btn-tournament-start').click();
  for (const p of [ada, bob]) await byId(p.page, 'room').waitFor({ timeout: WAIT_MS });
  const room = await byId(page, 'room').getAttribute('data-room');
  assert.equal(await byId(bob.page, 'room').getAttribute('data-room'), room, dumpFrames(bob));
  for (const p of [ada, bob]) {
    await byId(p.page, 'player-name-black').filter({ hasText: new RegExp(`^(Ada|${BOB})$`) }).waitFor({ timeout: WAIT_MS });
    await byId(p.page, 'player-name-white').filter({ hasText: new RegExp(`^(Ada|${BOB})$`) }).waitFor({ timeout: WAIT_MS });
  }
  const blackName = await byId(page, 'player-name-black').textContent();
  const [black, white] = blackName === 'Ada' ? [ada, bob] : [bob, ada];

  // The watcher's page follows: running, the game listed as being played, with a link.
  await withAttr(eve.page, 'tournament-status', 'data-status', 'running').waitFor({ timeout: POLL_WAIT_MS });
  await withAttr(eve.page, `tgame-${room}`, 'data-state', 'playing').waitFor({ timeout: POLL_WAIT_MS });
  assert.equal(await byId(eve.page, `tgame-watch-${room}`).getAttribute('href'), `/?room=${room}`);
  // Off the page, it asks no more.
  const polls = countPolls(eve.page, id);
  await byId(eve.page, 'btn-page-tournaments').click();
  await byId(eve.page, 'tournaments-page').waitFor({ timeout: WAIT_MS });
  const offAt = polls.n;
  await eve.page.waitForTimeout(4500);
  assert.equal(polls.n, offAt, 'no request for the tournament once its page is left');
  await eve.page.goBack();
  await byId(eve.page, `tgame-${room}`).waitFor({ timeout: WAIT_MS });

  // White steps out to the tournament's page (on a laptop by the header's link, on the phone,
  // whose header has no links in a room, by the room's line), which leads back to the game.
  if (white.mobile) {
    await assertInView(white, ['room-tournament'], 'the room\'s tournament line');
    await byId(white.page, 'room-tournament').click();
  } else {
    await byId(white.page, 'header-link-tournaments').click();
    await byId(white.page, `tournament-link-${id}`).click();
  }
  await byId(white.page, 'tournament-you-play').waitFor({ timeout: WAIT_MS });
  await assertShown(white, ['tournament-my-game'], 'the way back to the game');
  await byId(white.page, 'tournament-my-game').click();
  await white.page.locator(`[data-testid="room"][data-room="${room}"]`).waitFor({ timeout: WAIT_MS });
  await byId(white.page, 'player-name-white').filter({ hasText: white.name }).waitFor({ timeout: WAIT_MS });

  // The game says whose it is: the tournament, its round, a link to its page.
  const both = [black, white];
  for (const p of both) {
    await byId(p.page, 'room-tournament').filter({ hasText: 'Tournament “Autumn Cup”, round 1' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(p.page, 'room-tournament').getAttribute('href'), `/?tournament=${id}`);
    assert.equal(await byId(p.page, 'btn-rematch').isVisible(), false, `${p.name}: no rematch in a tournament`);
    await assertInView(p, ['room-tournament', 'board'], 'the room\'s tournament line, unscrolled');
  }

  // Both move, then black resigns: white wins.
  await playCell(black, 'h8', 'black', both);
  await playCell(white, 'i9', 'white', both);
  await byId(black.page, 'btn-resign').click();
  await byId(black.page, 'btn-resign-confirm').click();
  for (const p of both) {
    await byId(p.page, 'game-over-dialog').waitFor({ timeout: WAIT_MS });
    // The way on is the tournament, not a rematch.
    assert.equal(await byId(p.page, 'btn-over-rematch').isVisible(), false, `${p.name}: no rematch`);
    assert.equal(await byId(p.page, 'btn-over-tournament').isVisible(), true, `${p.name}: back to the tournament`);
    await assertInView(p, ['game-over-dialog', 'btn-over-tournament'], 'the game-over dialog');
  }
  await byId(black.page, 'btn-over-tournament').click();
  await byId(black.page, 'tournament-title').filter({ hasText: 'Autumn Cup' }).waitFor({ timeout: WAIT_MS });
  assert.match(black.page.url(), new RegExp(`\\?tournament=${id}$`));

  // The watcher's page shows the result without a reload: white 1, black 0, the tournament
  // over after its one round.
  await withAttr(eve.page, 'tournament-status', 'data-status', 'over').waitFor({ timeout: POLL_WAIT_MS });
  await withAttr(eve.page, `tgame-${room}`, 'data-result', 'white').waitFor({ timeout: POLL_WAIT_MS });
  await assertShown(eve, ['standings-table'], 'the standings');
  assert.equal((await byId(eve.page, `tgame-result-${room}`).textContent()).trim(), '0–1');
  assert.deepEqual(await standings(eve.page), [[white.name, '1', '1', '1'], [black.name, '0', '1', '0']]);
  // Over: no more requests.
  const overAt = polls.n;
  await eve.page.waitForTimeout(4500);
  assert.equal(polls.n, overAt, 'a tournament that is over is not asked for again');

  // The winner opens the tournament from the lobby: the standings, the round, the game.
  const wp = white.page;
  await byId(wp, 'btn-over-lobby').click();
  await byId(wp, 'link-tournaments').click();
  await withAttr(wp, `tournament-item-${id}`, 'data-status', 'over').waitFor({ timeout: POLL_WAIT_MS });
  await byId(wp, `tournament-link-${id}`).click();
  await byId(wp, 'standings-table').waitFor({ timeout: WAIT_MS });
  const first = byId(wp, 'standing-row-1');
  assert.equal(await first.getAttribute('data-name'), white.name);
  assert.equal(await first.getAttribute('data-points'), '1');
  assert.equal((await byId(wp, 'standing-points-1').textContent()).trim(), '1');
  assert.match(await first.textContent(), new RegExp(`^1${white.name}1110`), 'rank, name, points, games, wins, Buchholz…');
  assert.equal((await byId(wp, 'standing-points-2').textContent()).trim(), '0');
  await byId(wp, 'round-1').waitFor({ timeout: WAIT_MS });
  assert.match(await byId(wp, `tgame-${room}`).textContent(), new RegExp(`${black.name} – ${white.name}0–1`));
  assert.equal(await byId(wp, 'btn-tournament-join').count(), 0, 'no buttons once it is over');
  await screenshot(wp, 'tournament-over');
  await assertFitsPhone(wp);
  // A tournament's page passes the accessibility audit (see a11y.test.mjs for the others).
  assert.deepEqual(await seriousViolations(wp), []);
  // A name leads to the player's page; the game's link to its replay.
  await byId(wp, 'standing-player-1').click();
  await byId(wp, 'player-page').waitFor({ timeout: WAIT_MS });
  assert.match(wp.url(), new RegExp(`\\?player=${white.name}$`));
  await wp.goBack();
  await byId(wp, `tgame-watch-${room}`).click();
  await wp.locator(`[data-testid="room"][data-room="${room}"]`).waitFor({ timeout: WAIT_MS });
  await byId(wp, 'game-over').waitFor({ timeout: WAIT_MS });

  assertClean(ada, bob, eve);
  for (const p of [ada, bob, eve]) await p.context.close();
});

// At 1366x768 (the form's level boxes are seen at 1280x800 and on a phone in the test above).
test('a bot-only round-robin made from the page runs to its end unattended', async (t) => {
  const cleo = await openPlayer(hall.browser, { name: 'Cleo', ...SIZES.desk768 });
  await registerAccount(cleo, 'Cleo');
  const { page } = cleo;
  await byId(page, 'link-tournaments').click();
  await byId(page, 'tournament-form').waitFor({ timeout: WAIT_MS });
  // The bots that play the game are offered: both play Connect Four.
  for (const bot of BOT_NAMES) await byId(page, `tournament-bot-${bot}`).waitFor({ timeout: WAIT_MS });
  // The second bot plays at level 2: the level goes with it, and its games are played there.
  const weak = BOT_NAMES[1];
  for (const bot of BOT_NAMES) await assertShown(cleo, [`tournament-bot-${bot}`, `tournament-bot-level-${bot}`], 'a bot and its level');
  const id = await createTournament(page, { name: 'Bot Derby', kind: 'round_robin', game: 'connect4', clock: '5s', bots: BOT_NAMES, levels: { [weak]: 2 } });
  for (const bot of BOT_NAMES) await byId(page, `tournament-player-${bot}`).waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(page, `tournament-player-level-${weak}`).textContent(), 'level 2');
  assert.equal(await byId(page, `tournament-player-level-${BOT_NAMES[0]}`).count(), 0, 'a bot at its best shows no level');
  // Cleo made it and does not play (the bots are its players): she starts it and watches.
  assert.equal(await byId(page, 'tournament-player-Cleo').count(), 0);
  await byId(page, 'btn-tournament-join').waitFor({ timeout: WAIT_MS });
  await byId(page, 'btn-tournament-start').click();
  await page.locator('[data-testid="tournament-page"][data-status="running"]').waitFor({ timeout: POLL_WAIT_MS });
  assert.equal(await byId(page, 'room').count(), 0, 'a creator who does not play stays on the page');
  const started = Date.now();
  await page.locator('[data-testid="tournament-page"][data-status="over"]').waitFor({ timeout: BOT_GAME_MS });
  const took = Date.now() - started;
  // One round, one game with a result; the points add up to 1, each bot played once.
  await byId(page, 'round-1').waitFor({ timeout: WAIT_MS });
  const games = page.locator('[data-testid="round-1"] [data-testid^="tgame-"][data-state]');
  assert.equal(await games.count(), 1);
  assert.equal(await games.first().getAttribute('data-state'), 'over');
  const lines = await standings(page);
  assert.deepEqual(lines.map(([name]) => name).sort(), [...BOT_NAMES].sort());
  const value = (s) => (s === '½' ? 0.5 : Number(s));
  assert.equal(value(lines[0][1]) + value(lines[1][1]), 1, JSON.stringify(lines));
  assert.deepEqual(lines.map((l) => l[2]), ['1', '1'], 'one game each');
  await screenshot(page, 'tournament-bots-over');
  await assertFitsPhone(page);
  t.diagnostic(`bot-only round-robin: ${took} ms from start to over`);
  // Played to a real end: four in a row (or a full board), after moves on the board.
  const room = (await games.first().getAttribute('data-testid')).slice('tgame-'.length);
  await byId(page, `tgame-watch-${room}`).click();
  const over = byId(page, 'game-over');
  await over.waitFor({ timeout: WAIT_MS });
  assert.match(await over.getAttribute('data-reason'), /^(four|full)$/);
  assert.ok((await page.locator('[data-testid="move-list"] button.mv').count()) >= 7);
  assertClean(cleo);
  await cleo.context.close();
});

test('a drawn tournament game ties its two players "=1" in the standings, seen at the three sizes', async () => {
  // Issue 52's sizes: Tia at 1280x800, Tom on a phone, the guest Uli watching at 1366x768.
  const tia = await openPlayer(hall.browser, { name: 'Tia', ...SIZES.desk800 });
  const tom = await openPlayer(hall.browser, { name: 'Tom', ...SIZES.phone });
  const uli = await openPlayer(hall.browser, { name: 'Uli', ...SIZES.desk768 });
  await registerAccount(tia, 'Tia');
  await registerAccount(tom, 'Tom');
  await byId(tia.page, 'header-link-tournaments').click();
  const id = await createTournament(tia.page, { name: 'Winter Cup', kind: 'round_robin', game: 'gomoku-freestyle', clock: '5+3' });
  await byId(tia.page, 'btn-tournament-join').click();
  await byId(tia.page, 'tournament-player-Tia').waitFor({ timeout: WAIT_MS });
  await tom.page.goto(`${hall.server.url}?tournament=${encodeURIComponent(id)}`);
  await waitOnline(tom.page);
  await byId(tom.page, 'btn-tournament-join').click();
  await byId(tia.page, 'tournament-player-Tom').waitFor({ timeout: POLL_WAIT_MS });
  await byId(tia.page, 'btn-tournament-start').click();
  for (const p of [tia, tom]) await byId(p.page, 'room').waitFor({ timeout: WAIT_MS });
  for (const p of [tia, tom]) await byId(p.page, 'player-name-white').filter({ hasText: /^(Tia|Tom)$/ }).waitFor({ timeout: WAIT_MS });
  const [black, white] = (await byId(tia.page, 'player-name-black').textContent()) === 'Tia' ? [tia, tom] : [tom, tia];
  const both = [black, white];
  await playCell(black, 'h8', 'black', both);
  await playCell(white, 'i9', 'white', both);
  await byId(black.page, 'btn-draw').click();
  await byId(white.page, 'draw-offer').waitFor({ timeout: WAIT_MS });
  await assertInView(white, ['draw-offer', 'btn-accept-draw'], 'the draw offer, unscrolled');
  await byId(white.page, 'btn-accept-draw').click();
  for (const p of both) {
    await byId(p.page, 'btn-over-tournament').waitFor({ timeout: WAIT_MS });
    await byId(p.page, 'btn-over-tournament').click();
    await byId(p.page, 'tournament-title').filter({ hasText: 'Winter Cup' }).waitFor({ timeout: WAIT_MS });
  }
  await uli.page.goto(`${hall.server.url}?tournament=${encodeURIComponent(id)}`);
  await waitOnline(uli.page);
  // Both at ½ point share first place, "=1", on every page; the table in reach, the page no
  // wider than the window.
  for (const p of [tia, tom, uli]) {
    await withAttr(p.page, 'tournament-status', 'data-status', 'over').waitFor({ timeout: POLL_WAIT_MS });
    await byId(p.page, 'standings-table').waitFor({ timeout: WAIT_MS });
    const ranks = await p.page.locator('[data-testid="standings-table"] tbody td.rank').allTextContents();
    assert.deepEqual(ranks.map((r) => r.trim()), ['=1', '=1'], `${p.name}: the ranks`);
    assert.deepEqual((await standings(p.page)).map((l) => l[1]).sort(), ['½', '½'], `${p.name}: the points`);
    await assertShown(p, ['standings-table'], 'the standings');
  }
  assertClean(tia, tom, uli);
  for (const p of [tia, tom, uli]) await p.context.close();
});
