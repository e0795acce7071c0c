// Browser tests of correspondence games (its own server with KIBITZ_TEST_CLOCK, so that POST /api/test/clock makes days pass): Ann (an account, 1280x720) makes a rated game of 3 days per move in the lobby's form and Bob (an account, a phone) joins it; the clocks (the move's own time, the vacation beside it: "2 d 23 h" and "+ 7 d vacation") and the room's line read in days, the title says whose turn it is, leaving asks nothing; Bob's lobby lists the game under "Your turn" and Ann's under the games waiting for Bob; the server stops and starts again on the same data and the game goes on; a day passes on the hall's clock and Bob's list, asked again when the page comes back into view, shows a day less; Ann, her page in the background with notifications allowed ("Notify me when it's my turn"), is told of Bob's move once, and the notification opens the room; Bob resigns and the ratings move under "Gomoku · correspondence" on the leaderboard and the player page; axe and in view at 1280x720 and on a phone. Then a challenge by correspondence from the challenge dialog.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, startServer, openPlayer, assertClean, assertInView, byId, gotoLobby, openMoreOptions, openRoom, playCell,
  waitOnline, seriousViolations, screenshot, moveTexts, SIZES, WAIT_MS, registerAccount } from './harness.mjs';

const TEST_CLOCK = { KIBITZ_TEST_CLOCK: 'true' };
const hall = useHall('correspondence', { env: TEST_CLOCK });

const DESK720 = { viewport: { width: 1280, height: 720 } };
const DAY_MS = 86_400_000;
// While the server is down Chromium itself logs each refused connection; the page cannot stop that.
const REFUSED = [/WebSocket connection to 'ws:\/\/[^']+\/ws' failed/, /Failed to load resource: net::ERR_CONNECTION_REFUSED/];

/** Records every notification the page raises in window.__notes ({ title, body, tag }) and
 *  keeps the objects in window.__noteObjects, the real constructor doing what it does. */
async function recordNotifications(player) {
  await player.context.addInitScript(() => {
    window.__notes = [];
    window.__noteObjects = [];
    const Real = window.Notification;
    if (typeof Real !== 'function') return;
    window.Notification = class extends Real {
      constructor(title, options = {}) {
        super(title, options);
        window.__notes.push({ title, body: options.body ?? '', tag: options.tag ?? '' });
        window.__noteObjects.push(this);
      }
    };
  });
}

/** Puts the page in the background (`hidden`) or brings it back, as a switch of tabs would. */
async function setHidden(player, hidden) {
  await player.page.evaluate((h) => {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => (h ? 'hidden' : 'visible') });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => h });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
}

/** Moves the hall's clock ahead (from node: no Origin header, a same-site write). */
async function advanceClock(server, ms) {
  const res = await fetch(`${server.url}api/test/clock`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ advance_ms: ms }),
  });
  const body = await res.text();
  assert.equal(res.status, 200, body);
  return JSON.parse(body);
}

async function noSeriousViolations(player, where) {
  assert.deepEqual(await seriousViolations(player.page), [], `${player.name}: axe on ${where}`);
}

/** The text of a testid, trimmed. */
const text = async (page, testid) => (await byId(page, testid).textContent()).trim();

test('a correspondence game: days on the clocks, a restart, a day passing, the Your turn list, the title and a notification', async () => {
  const ann = await openPlayer(hall.browser, { name: 'Ann', ...DESK720, allowConsole: REFUSED });
  const bob = await openPlayer(hall.browser, { name: 'Bob', ...SIZES.phone, allowConsole: REFUSED });
  const both = [ann, bob];
  await recordNotifications(ann);
  try {
    for (const p of both) {
      await gotoLobby(p, hall.server);
      await registerAccount(p, p.name);
    }
    // No correspondence game yet: no card, the plain title.
    for (const p of both) {
      assert.equal(await byId(p.page, 'corr-card').isHidden(), true, `${p.name}: no Your turn card`);
      assert.equal(await p.page.title(), 'Kibitz');
    }

    // Ann makes the game in the lobby's form: 3 days per move (7 vacation days), rated.
    const { page } = ann;
    await openMoreOptions(page);
    const clockSelect = byId(page, 'new-game-clock');
    assert.equal(await clockSelect.locator('optgroup').nth(1).getAttribute('label'), 'Correspondence (7 vacation days)');
    assert.deepEqual(await clockSelect.locator('optgroup').nth(1).locator('option').allTextContents(),
      ['1 day per move', '2 days per move', '3 days per move', '5 days per move', '7 days per move', '14 days per move']);
    await byId(page, 'new-game-kind').selectOption('gomoku');
    await byId(page, 'new-game-size').selectOption('15');
    await byId(page, 'new-game-rule').selectOption('freestyle');
    await clockSelect.selectOption('3d/7');
    await byId(page, 'new-game-opp-person').check();
    await byId(page, 'new-game-seat').selectOption('black');
    await byId(page, 'new-game-rated').check();
    assert.equal(await text(page, 'new-game-summary'), 'Gomoku 15×15 · freestyle · 3 days per move · A person (share the link) · Rated');
    await byId(page, 'btn-new-game').click();
    await byId(page, 'room').waitFor({ timeout: WAIT_MS });
    const room = await byId(page, 'room').getAttribute('data-room');
    await openRoom(bob, hall.server, room);
    for (const p of both) await byId(p.page, 'player-name-white').filter({ hasText: 'Bob' }).waitFor({ timeout: WAIT_MS });

    // The room says what it is, in days: the line, the clocks (the days per move and the
    // vacation), and the first move's time before the game is aborted.
    for (const p of both) {
      await byId(p.page, 'corr-note').waitFor({ timeout: WAIT_MS });
      assert.equal(await text(p.page, 'corr-room-clock'), 'Correspondence · 3 days per move · 7 vacation days');
      assert.equal(await text(p.page, 'corr-come-back'), 'You can leave and come back: the game waits for you, and the lobby lists it.');
      await byId(p.page, 'abort-countdown').filter({ hasText: 'Black must make a first move within 2 d 23 h or the game is aborted' }).waitFor({ timeout: WAIT_MS });
      // The move's own days, the vacation beside them.
      assert.equal(await text(p.page, 'clock-black'), '3 d 0 h');
      assert.equal(await text(p.page, 'clock-white'), '3 d 0 h');
      assert.equal(await text(p.page, 'clock-black-vacation'), '+ 7 d vacation');
      assert.equal(await text(p.page, 'clock-white-vacation'), '+ 7 d vacation');
    }
    assert.match(await ann.page.title(), /^\(1\) Your turn · Gomoku 15×15 · freestyle — Kibitz$/);
    assert.equal(await bob.page.title(), 'Gomoku 15×15 · freestyle — Kibitz');

    await playCell(ann, 'h8', 'black', both);
    await playCell(bob, 'h9', 'white', both);
    await playCell(ann, 'i8', 'black', both);
    // Bob's turn: his clock runs, in days; the titles follow the turn.
    await bob.page.locator('[data-testid="clock-white"].running').waitFor({ timeout: WAIT_MS });
    assert.equal(await text(bob.page, 'clock-white'), '2 d 23 h');
    assert.equal(await text(bob.page, 'clock-white-vacation'), '+ 7 d vacation');
    assert.equal(await text(bob.page, 'clock-black'), '3 d 0 h');
    await bob.page.waitForFunction(() => document.title.startsWith('(1) Your turn · '), null, { timeout: WAIT_MS });
    assert.equal(await ann.page.title(), 'Gomoku 15×15 · freestyle — Kibitz');
    // The room and its clocks in view, at 1280x720 and on a phone; axe.
    await assertInView(ann, ['board', 'clock-black', 'clock-white', 'status', 'corr-note'], 'the correspondence room');
    await assertInView(bob, ['board', 'clock-black', 'clock-white', 'clock-white-vacation', 'status'], 'the correspondence room');
    await bob.page.evaluate(() => window.scrollTo(0, 0));
    await byId(bob.page, 'corr-note').scrollIntoViewIfNeeded();
    await assertInView(bob, ['corr-note'], 'the correspondence line');
    await noSeriousViolations(ann, 'the correspondence room');
    await noSeriousViolations(bob, 'the correspondence room');
    await screenshot(bob.page, 'corr-room-phone');

    // Both leave for the lobby: nothing asked (a correspondence game waits for them).
    for (const p of both) {
      await byId(p.page, 'btn-lobby').click();
      await byId(p.page, 'open-rooms').waitFor({ timeout: WAIT_MS });
      assert.equal(await byId(p.page, 'leave-dialog').isVisible(), false, `${p.name}: no leave dialog`);
    }
    // Bob's lobby: the game under "Your turn", first on the page, with Ann, the game and his time.
    const bobItem = byId(bob.page, `corr-game-${room}`);
    await bobItem.waitFor({ timeout: WAIT_MS });
    assert.equal(await bobItem.getAttribute('data-your-turn'), 'true');
    assert.equal(await byId(bob.page, 'corr-yours').locator(`[data-testid="corr-game-${room}"]`).count(), 1);
    assert.match(await bobItem.textContent(), /^Gomoku 15×15 · freestylevs Ann2 d 23 h left \(\+7 d vacation\)moves played: 3 · rated$/);
    assert.equal(await bob.page.locator('#corr-title').textContent(), 'Your turn');
    assert.equal(await byId(bob.page, `corr-link-${room}`).getAttribute('href'), `/?room=${room}`);
    assert.equal(await bob.page.title(), '(1) Your turn · Kibitz');
    // The card says the way back: no "your clock runs while you are away" card for it.
    assert.equal(await byId(bob.page, 'back-to-game').isHidden(), true);
    const icon = bob.page.locator('link[rel="icon"]');
    assert.equal(await icon.getAttribute('data-turns'), '1');
    assert.match(await icon.getAttribute('href'), /^data:image\/svg\+xml,/);
    await assertInView(bob, ['corr-card', `corr-game-${room}`, `corr-left-${room}`], 'the Your turn list');
    await noSeriousViolations(bob, 'the lobby with the Your turn list');
    await screenshot(bob.page, 'corr-lobby-phone');
    // Ann's: the game waiting for Bob, with his time; no turn of hers in the title or the icon.
    const annItem = byId(ann.page, `corr-game-${room}`);
    await annItem.waitFor({ timeout: WAIT_MS });
    assert.equal(await annItem.getAttribute('data-your-turn'), 'false');
    assert.equal(await byId(ann.page, 'corr-waiting').locator(`[data-testid="corr-game-${room}"]`).count(), 1);
    assert.equal(await text(ann.page, `corr-left-${room}`), '2 d 23 h left for Bob (+7 d vacation)');
    assert.equal(await ann.page.locator('#corr-title').textContent(), 'Waiting for your opponent');
    assert.equal(await ann.page.title(), 'Kibitz');
    assert.equal(await ann.page.locator('link[rel="icon"]').getAttribute('data-turns'), '0');
    assert.match(await ann.page.locator('link[rel="icon"]').getAttribute('href'), /^favicon\.svg/);
    await assertInView(ann, ['corr-card', `corr-game-${room}`], 'the waiting list');

    // The server stops and starts again on the same data and address.
    const address = hall.server.bind;
    await hall.server.stop();
    for (const p of both) await byId(p.page, 'offline-banner').waitFor({ state: 'visible', timeout: WAIT_MS });
    hall.server = await startServer({ dataDir: hall.dataDir, bind: address, env: TEST_CLOCK });
    for (const p of both) await waitOnline(p.page);

    // A day passes on the hall's clock: Bob's list, asked again as his page comes back into
    // view, shows a day less.
    assert.equal((await advanceClock(hall.server, DAY_MS)).ahead_ms, DAY_MS);
    await setHidden(bob, false);
    await byId(bob.page, `corr-left-${room}`).filter({ hasText: /^1 d 23 h left \(\+7 d vacation\)$/ }).waitFor({ timeout: WAIT_MS });
    assert.ok(Number(await byId(bob.page, `corr-left-${room}`).getAttribute('data-ms')) < 9 * DAY_MS);
    assert.equal(await bob.page.title(), '(1) Your turn · Kibitz');
    await assertInView(bob, ['corr-card', `corr-game-${room}`], 'the Your turn list after a day');

    // Ann goes back to the room by her list and asks to be told of her turn.
    await byId(ann.page, `corr-link-${room}`).click();
    await byId(ann.page, 'corr-note').waitFor({ timeout: WAIT_MS });
    assert.deepEqual(await moveTexts(ann.page), ['h8', 'h9', 'i8']);
    const notifyBtn = byId(ann.page, 'btn-corr-notify-room');
    await notifyBtn.waitFor({ timeout: WAIT_MS });
    assert.equal(await notifyBtn.textContent(), 'Notify me when it’s my turn');
    await ann.context.grantPermissions(['notifications'], { origin: new URL(hall.server.url).origin });
    await notifyBtn.click();
    await byId(ann.page, 'btn-corr-notify-room-on').waitFor({ timeout: WAIT_MS });
    assert.equal(await ann.page.evaluate(() => Notification.permission), 'granted');
    await noSeriousViolations(ann, 'the correspondence room with notifications on');

    // Bob opens the game from his list (a day gone from his clock) and plays, while Ann's page
    // is in the background: she is told, once.
    await byId(bob.page, `corr-link-${room}`).click();
    await byId(bob.page, 'board').waitFor({ timeout: WAIT_MS });
    await bob.page.locator('[data-testid="clock-white"].running').waitFor({ timeout: WAIT_MS });
    assert.equal(await text(bob.page, 'clock-white'), '1 d 23 h');
    await setHidden(ann, true);
    await playCell(bob, 'i9', 'white', both);
    await ann.page.waitForFunction(() => window.__notes.length > 0, null, { timeout: WAIT_MS });
    const notes = await ann.page.evaluate(() => window.__notes);
    assert.equal(notes.length, 1, JSON.stringify(notes));
    assert.equal(notes[0].title, 'Your turn · Gomoku 15×15 · freestyle');
    assert.match(notes[0].body, /^Bob has moved\. (3 d 0 h|2 d 23 h) left \(\+7 d vacation\)\.$/);
    assert.equal(notes[0].tag, room);
    assert.match(await ann.page.title(), /^\(1\) Your turn · Gomoku 15×15 · freestyle — Kibitz$/);
    // Back in view, then away again: the same turn is not told twice.
    await setHidden(ann, false);
    await setHidden(ann, true);
    await byId(ann.page, 'btn-lobby').click();
    await byId(ann.page, `corr-game-${room}`).waitFor({ timeout: WAIT_MS });
    assert.equal((await ann.page.evaluate(() => window.__notes)).length, 1);
    await setHidden(ann, false);

    // Ann's lobby: the game under "Your turn" now, in view at 1280x720; axe.
    await byId(ann.page, 'corr-yours').locator(`[data-testid="corr-game-${room}"]`).waitFor({ timeout: WAIT_MS });
    assert.equal(await text(ann.page, `corr-left-${room}`), '2 d 23 h left (+7 d vacation)');
    assert.equal(await ann.page.title(), '(1) Your turn · Kibitz');
    await assertInView(ann, ['corr-card', `corr-game-${room}`, `corr-left-${room}`, 'btn-corr-notify-on'], 'the Your turn list');
    await noSeriousViolations(ann, 'the lobby with the Your turn list');
    await screenshot(ann.page, 'corr-lobby-desktop');

    // The notification, clicked, opens the room.
    await ann.page.evaluate(() => window.__noteObjects[0].onclick());
    await byId(ann.page, 'room').waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(ann.page, 'room').getAttribute('data-room'), room);
    await playCell(ann, 'j8', 'black', both);

    // Bob resigns: the ratings move under the correspondence key.
    await byId(bob.page, 'btn-resign').click();
    await byId(bob.page, 'btn-resign-confirm').click();
    for (const p of both) await byId(p.page, 'over-dialog-rating-black').waitFor({ timeout: WAIT_MS });
    await byId(ann.page, 'btn-over-lobby').click();
    await byId(ann.page, 'open-rooms').waitFor({ timeout: WAIT_MS });
    await ann.page.waitForFunction(() => document.title === 'Kibitz', null, { timeout: WAIT_MS });
    assert.equal(await byId(ann.page, 'corr-card').isHidden(), true, 'no game left: no card');

    await ann.page.goto(`${hall.server.url}?leaderboard=gomoku-freestyle-corr`);
    await byId(ann.page, 'leaderboard-table').waitFor({ timeout: WAIT_MS });
    assert.equal(await ann.page.locator('h1').textContent(), 'Leaderboard: Gomoku · correspondence');
    assert.equal(await byId(ann.page, 'leaderboard-corr').getAttribute('aria-current'), 'page');
    assert.equal(await byId(ann.page, 'leaderboard-row-1').getAttribute('data-name'), 'Ann');
    assert.equal(await byId(ann.page, 'leaderboard-row-2').getAttribute('data-name'), 'Bob');
    await noSeriousViolations(ann, 'the correspondence leaderboard');
    // The live table of the same game: nobody (the game was by correspondence).
    await byId(ann.page, 'leaderboard-live').click();
    await byId(ann.page, 'leaderboard-empty').waitFor({ timeout: WAIT_MS });
    assert.match(ann.page.url(), /\?leaderboard=gomoku-freestyle$/);
    await ann.page.goto(`${hall.server.url}?player=Bob`);
    const row = byId(ann.page, 'player-rating-gomoku-freestyle-corr');
    await row.waitFor({ timeout: WAIT_MS });
    assert.equal(await row.locator('td').first().textContent(), 'Gomoku · correspondence');
    assert.equal(await byId(ann.page, 'player-rating-gomoku-freestyle').count(), 0);
    assertClean(...both);
  } finally {
    for (const p of both) await p.context.close();
  }
});

test('a challenge by correspondence: the dialog offers days per move, the room follows them', async () => {
  const cy = await openPlayer(hall.browser, { name: 'Cyril', ...DESK720 });
  const dee = await openPlayer(hall.browser, { name: 'Deena', ...SIZES.phone });
  const both = [cy, dee];
  try {
    for (const p of both) {
      await gotoLobby(p, hall.server);
      await registerAccount(p, p.name);
    }
    await cy.page.goto(`${hall.server.url}?player=Deena`);
    await waitOnline(cy.page);
    await byId(cy.page, 'player-title').filter({ hasText: 'Deena' }).waitFor({ timeout: WAIT_MS });
    await byId(cy.page, 'btn-challenge').click();
    await byId(cy.page, 'challenge-dialog').waitFor({ timeout: WAIT_MS });
    const clock = byId(cy.page, 'challenge-clock');
    assert.equal(await clock.locator('optgroup').nth(1).getAttribute('label'), 'Correspondence (7 vacation days)');
    await clock.selectOption('2d/7');
    assert.match(await text(cy.page, 'challenge-summary'), /2 days per move/);
    await noSeriousViolations(cy, 'the challenge dialog with days per move');
    await byId(cy.page, 'btn-challenge-send').click();
    const prompt = dee.page.locator('[data-testid="challenge-in"][data-status="open"]');
    await prompt.waitFor({ timeout: WAIT_MS });
    assert.match(await prompt.locator('[data-testid="challenge-text"]').textContent(), /^Cyril challenges you: Gomoku 15×15 · \w+, 2 days per move, /);
    await prompt.locator('[data-testid="btn-challenge-accept"]').click();
    for (const p of both) {
      await byId(p.page, 'corr-note').waitFor({ timeout: WAIT_MS });
      assert.equal(await text(p.page, 'corr-room-clock'), 'Correspondence · 2 days per move · 7 vacation days');
      assert.equal(await text(p.page, 'clock-black'), '2 d 0 h');
      assert.equal(await text(p.page, 'clock-black-vacation'), '+ 7 d vacation');
    }
    assertClean(...both);
  } finally {
    for (const p of both) await p.context.close();
  }
});
