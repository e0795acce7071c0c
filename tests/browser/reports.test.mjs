// Browser tests of reports: Ann (a guest, 1280x720) and Bob (an account, a phone) in a room; Bob says a line among Ann's, Ann reports it from the chat by the keyboard (the line's flag, "Report this line by Bob"; the dialog in view, axe) with reason abuse and a note, then the game, then Bob from his page; Bob on his phone opens a report of Ann's line (in view, axe) and cancels; "Mod", made a moderator by the real binary (`kibitz admin grant-moderator Mod --data <the server's data dir>`), opens /?moderation: the three reports newest first, the chat one with Bob's line highlighted among the others, the game's move count, axe, in view at 1280x720 and on a phone; Ann there reads "Only moderators see this page"; on a server of its own, the eleventh report in an hour shows the server's sentence (Chinese, dark, axe).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { join } from 'node:path';
import {
  useHall, withServer, openPlayer, assertClean, assertInView, assertShown, byId, gotoLobby, createRoom, openRoom, playCell,
  waitOnline, seriousViolations, screenshot, SIZES, WAIT_MS, KIBITZ_BIN, ARTIFACTS, registerAccount } from './harness.mjs';

// No first-move abort while the two chat in the new room.
const hall = useHall('reports', { env: { KIBITZ_FIRST_MOVE_SECS: '600' } });

const DESK720 = { viewport: { width: 1280, height: 720 } };
const PHONE_VIEW = { width: 390, height: 844 };

/** Makes the account `name` a moderator the way an operator does, beside the running server. */
async function grantModerator(name, dataDir) {
  await promisify(execFile)(KIBITZ_BIN, ['admin', 'grant-moderator', name, '--data', dataDir], { timeout: WAIT_MS });
}

async function openPlayerPage(player, server, name) {
  await player.page.goto(`${server.url}?player=${encodeURIComponent(name)}`);
  await waitOnline(player.page);
  await byId(player.page, 'player-title').filter({ hasText: name }).waitFor({ timeout: WAIT_MS });
}

async function openModeration(player) {
  await player.page.goto(`${hall.server.url}?moderation`);
  await waitOnline(player.page);
  await byId(player.page, 'moderation-title').waitFor({ timeout: WAIT_MS });
}

/** Sends a chat line from `player`'s room page and waits until every page of `everyone` shows it. */
async function say(player, text, everyone) {
  await byId(player.page, 'chat-input').fill(text);
  await byId(player.page, 'chat-input').press('Enter');
  for (const p of everyone) await byId(p.page, 'chat-list').locator('.chat-text').filter({ hasText: text }).waitFor({ timeout: WAIT_MS });
}

const focusedTestid = (page) => page.evaluate(() => document.activeElement?.dataset?.testid ?? null);

async function noSeriousViolations(player, where) {
  assert.deepEqual(await seriousViolations(player.page), [], `${player.name}: axe on ${where}`);
}

/** Picks `reason`, writes `note`, sends, and waits for the thanks (the Close button focused). */
async function sendReport(player, reason, note = '') {
  await byId(player.page, 'report-reason').selectOption(reason);
  if (note) await byId(player.page, 'report-note').fill(note);
  await byId(player.page, 'btn-report-send').click();
  await byId(player.page, 'report-thanks').filter({ hasText: 'Thanks — a moderator will look at it.' }).waitFor({ timeout: WAIT_MS });
  assert.equal(await focusedTestid(player.page), 'btn-report-close');
  await assertInView(player, ['report-thanks', 'btn-report-close'], 'the thanks');
  await byId(player.page, 'btn-report-close').click();
  await byId(player.page, 'report-dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });
}

test('a chat line, a game and a player reported; the moderator reads them with the line among the others; others may not', async () => {
  // Ann's /?moderation is refused (403): Chromium logs the refused request itself.
  const ann = await openPlayer(hall.browser, { name: 'Ann', ...DESK720, allowConsole: [/status of 403/] });
  const bob = await openPlayer(hall.browser, { name: 'Bob', ...SIZES.phone });
  const mod = await openPlayer(hall.browser, { name: 'Mod', ...DESK720 });
  try {
    for (const p of [ann, bob, mod]) await gotoLobby(p, hall.server);
    await registerAccount(bob, 'Bob');
    await registerAccount(mod, 'Mod');
    const annId = await byId(ann.page, 'my-name').getAttribute('data-player');
    const bobId = await byId(bob.page, 'my-name').getAttribute('data-player');

    const room = await createRoom(ann, hall.server);
    await openRoom(bob, hall.server, room);
    for (const p of [ann, bob]) await byId(p.page, 'player-name-white').filter({ hasText: 'Bob' }).waitFor({ timeout: WAIT_MS });
    await say(ann, 'hello Bob', [ann, bob]);
    await say(bob, 'you play like a potato', [ann, bob]);
    await say(ann, 'that is rude', [ann, bob]);

    // Only Bob's line has a flag on Ann's page, named for whom it reports.
    const flags = byId(ann.page, 'chat-list').locator('[data-testid="btn-report-line"]');
    assert.equal(await flags.count(), 1);
    assert.equal(await flags.getAttribute('aria-label'), 'Report this line by Bob');
    // Out of the way until the line is hovered.
    await ann.page.mouse.move(0, 0);
    assert.equal(await flags.evaluate((b) => getComputedStyle(b).opacity), '0');
    await byId(ann.page, 'chat-list').locator('li', { hasText: 'you play like a potato' }).hover();
    assert.equal(await flags.evaluate((b) => getComputedStyle(b).opacity), '1');
    await ann.page.mouse.move(0, 0);
    // From the keyboard: back from the chat box, past Ann's own line, onto Bob's flag (shown
    // while it has the focus), and Enter.
    await byId(ann.page, 'chat-input').focus();
    await ann.page.keyboard.press('Shift+Tab');
    assert.equal(await focusedTestid(ann.page), 'btn-report-line');
    assert.equal(await flags.evaluate((b) => getComputedStyle(b).opacity), '1');
    await ann.page.keyboard.press('Enter');
    const dialog = byId(ann.page, 'report-dialog');
    await dialog.waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(ann.page, 'report-title').textContent(), 'Report a line by Bob');
    assert.equal(await byId(ann.page, 'report-quote').textContent(), '“you play like a potato”');
    assert.equal(await focusedTestid(ann.page), 'report-reason');
    assert.deepEqual(await byId(ann.page, 'report-reason').locator('option').allTextContents(),
      ['Choose a reason…', 'Abuse or harassment', 'Cheating', 'Spam', 'Offensive name', 'Something else']);
    // Send without a reason: asked for one, nothing sent.
    await byId(ann.page, 'btn-report-send').click();
    await byId(ann.page, 'report-error').filter({ hasText: 'Choose a reason.' }).waitFor({ timeout: WAIT_MS });
    await byId(ann.page, 'report-note').fill('said it twice');
    assert.equal(await byId(ann.page, 'report-count').textContent(), '13 of 500 characters');
    assert.equal(await byId(ann.page, 'report-note').getAttribute('maxlength'), '500');
    await assertInView(ann, ['report-dialog', 'report-reason', 'report-note', 'btn-report-send', 'btn-report-cancel'], 'the report dialog');
    await noSeriousViolations(ann, 'the report dialog');
    await screenshot(ann.page, 'report-dialog-desktop');
    await sendReport(ann, 'abuse');
    // The focus is back on the line's flag.
    assert.equal(await focusedTestid(ann.page), 'btn-report-line');

    // A move, then "Report game" among the room's actions, against Bob.
    await playCell(ann, 'h8', 'black', [ann, bob]);
    const reportGame = byId(ann.page, 'btn-report-game');
    assert.equal(await reportGame.getAttribute('aria-label'), 'Report game against Bob');
    await reportGame.click();
    await dialog.waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(ann.page, 'report-title').textContent(), 'Report the game against Bob');
    assert.equal(await byId(ann.page, 'report-quote').isHidden(), true);
    await sendReport(ann, 'cheating');

    // Bob, on his phone: the flag on Ann's lines is there without hovering; the dialog in view,
    // audited; Cancel gives the focus back and sends nothing.
    const bobFlags = byId(bob.page, 'chat-list').locator('[data-testid="btn-report-line"]');
    assert.equal(await bobFlags.count(), 2);
    assert.equal(await bobFlags.last().evaluate((b) => getComputedStyle(b).opacity), '1');
    await bobFlags.last().scrollIntoViewIfNeeded();
    // (An element's picture: a full-page one re-lays the page out as if it could hover.)
    await bob.page.locator('.panel.chat').screenshot({ path: join(ARTIFACTS, 'report-chat-phone.png') });
    await bobFlags.last().tap();
    await byId(bob.page, 'report-dialog').waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(bob.page, 'report-title').textContent(), 'Report a line by Ann');
    await assertInView(bob, ['report-dialog', 'report-reason', 'report-note', 'btn-report-send', 'btn-report-cancel'], 'the report dialog on a phone');
    await noSeriousViolations(bob, 'the report dialog on a phone');
    await screenshot(bob.page, 'report-dialog-phone');
    await byId(bob.page, 'btn-report-cancel').click();
    await byId(bob.page, 'report-dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });
    assert.equal(await focusedTestid(bob.page), 'btn-report-line');
    // Bob's "Report game" is against Ann (a guest: reported by id all the same).
    assert.equal(await byId(bob.page, 'btn-report-game').getAttribute('aria-label'), 'Report game against Ann');

    // Ann (a guest) on Bob's page: "Report" beside the name.
    await openPlayerPage(ann, hall.server, 'Bob');
    const reportBtn = byId(ann.page, 'btn-report');
    await reportBtn.waitFor({ timeout: WAIT_MS });
    assert.equal(await reportBtn.getAttribute('aria-label'), 'Report Bob');
    await assertInView(ann, ['player-title', 'btn-report'], 'the player page');
    await reportBtn.click();
    assert.equal(await byId(ann.page, 'report-title').textContent(), 'Report Bob');
    await sendReport(ann, 'offensive_name', 'B0b is fine, just testing');
    assert.equal(await focusedTestid(ann.page), 'btn-report');
    // Bob has none on his own page.
    await openPlayerPage(bob, hall.server, 'Bob');
    assert.equal(await byId(bob.page, 'btn-report').count(), 0);

    // Mod, once the operator names it a moderator: the three reports, newest first.
    await grantModerator('Mod', hall.dataDir);
    await openModeration(mod);
    const items = byId(mod.page, 'report-item');
    await items.first().waitFor({ timeout: WAIT_MS });
    assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.dataset.kind)), ['player', 'game', 'chat']);
    assert.equal(await byId(mod.page, 'moderation-count').textContent(), 'Open reports: 3');
    assert.equal(await mod.page.locator('h1').count(), 1);

    const chat = mod.page.locator('[data-testid="report-item"][data-kind="chat"]');
    assert.equal(await chat.locator('h2').textContent(), 'Chat line by Bob');
    assert.equal(await chat.locator('[data-testid="report-reason"]').textContent(), 'Abuse or harassment');
    assert.equal(await chat.locator('[data-testid="report-note"]').textContent(), 'said it twice');
    assert.equal(await chat.locator('[data-testid="report-kind"]').textContent(), 'Chat line');
    assert.ok((await chat.locator('[data-testid="report-reporter"]').textContent()).includes(annId), 'the reporter\'s id');
    assert.equal(await chat.locator('[data-testid="report-player"] a').textContent(), 'Bob');
    assert.ok((await chat.locator('[data-testid="report-player"]').textContent()).includes(bobId));
    assert.equal(await chat.locator('[data-testid="report-room-link"]').textContent(), room);
    assert.ok(await chat.locator('[data-testid="report-when"]').getAttribute('datetime'));
    // The line among the others, highlighted, and said so to screen readers.
    const lines = await chat.locator('[data-testid="report-chat"] li .chat-text').allTextContents();
    assert.deepEqual(lines, ['hello Bob', 'you play like a potato', 'that is rude']);
    const reported = chat.locator('[data-testid="report-chat-reported"]');
    assert.equal(await reported.count(), 1);
    assert.equal(await reported.locator('.chat-text').textContent(), 'you play like a potato');
    assert.equal(await reported.getAttribute('data-player'), bobId);
    assert.ok((await reported.textContent()).startsWith('Reported line:'));
    const bg = (loc) => loc.evaluate((e) => getComputedStyle(e).backgroundColor);
    assert.notEqual(await bg(reported), await bg(chat.locator('[data-testid="report-chat-line"]').first()), 'the reported line stands out');

    const game = mod.page.locator('[data-testid="report-item"][data-kind="game"]');
    assert.equal(await game.locator('h2').textContent(), 'Game of Bob');
    assert.equal(await game.locator('[data-testid="report-reason"]').textContent(), 'Cheating');
    assert.equal(await game.locator('[data-testid="report-game-line"]').getAttribute('data-moves'), '1');
    assert.equal(await game.locator('[data-testid="report-game-line"]').textContent(), 'playing · moves: 1');
    assert.ok((await game.locator('[data-testid="report-game"]').textContent()).includes('Black: Ann · White: Bob'));
    const player = mod.page.locator('[data-testid="report-item"][data-kind="player"]');
    assert.equal(await player.locator('h2').textContent(), 'Player Bob');
    assert.equal(await player.locator('[data-testid="report-room-link"]').count(), 0);

    await assertInView(mod, ['moderation-title', 'btn-moderation-refresh'], 'the moderation page');
    await assertShown(mod, ['report-chat-reported'], 'the reported line at 1280x720');
    await noSeriousViolations(mod, 'the moderation page');
    await screenshot(mod.page, 'moderation-desktop');
    await mod.page.setViewportSize(PHONE_VIEW);
    for (const part of ['h2', '[data-testid="report-room-link"]', '[data-testid="report-chat-reported"]']) {
      await chat.locator(part).scrollIntoViewIfNeeded();
      await assertInView(mod, [`[data-kind="chat"] ${part}`], 'the chat report at a phone\'s width');
    }
    await noSeriousViolations(mod, 'the moderation page at a phone\'s width');
    await screenshot(mod.page, 'moderation-narrow');
    await mod.page.setViewportSize(DESK720.viewport);
    // The room's link opens it to watch.
    await chat.locator('[data-testid="report-room-link"]').click();
    await mod.page.locator(`[data-testid="room"][data-room="${room}"]`).waitFor({ timeout: WAIT_MS });
    await byId(mod.page, 'player-name-white').filter({ hasText: 'Bob' }).waitFor({ timeout: WAIT_MS });

    // Ann is no moderator: the page says so, in words, audited.
    await openModeration(ann);
    await byId(ann.page, 'moderation-error').filter({ hasText: 'Only moderators see this page.' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(ann.page, 'report-item').count(), 0);
    await noSeriousViolations(ann, 'the refused moderation page');
    assertClean(ann, bob, mod);
  } finally {
    await ann.context.close();
    await bob.context.close();
    await mod.context.close();
  }
});

test('the eleventh report in an hour shows the server\'s sentence; the dialog in Chinese and the dark theme', async () => {
  await withServer('reports-limit', {}, async (server) => {
    const cy = await openPlayer(hall.browser, { name: 'Cy', ...DESK720, allowConsole: [/status of 429/] });
    const dee = await openPlayer(hall.browser, { name: 'Dee', ...DESK720 });
    try {
      for (const p of [cy, dee]) await gotoLobby(p, server);
      await registerAccount(dee, 'Dee');
      const deeId = await byId(dee.page, 'my-name').getAttribute('data-player');
      // Ten reports through the API: the hour's allowance.
      const statuses = await cy.page.evaluate(async (player) => {
        const out = [];
        for (let i = 0; i < 10; i++) {
          const res = await fetch('/api/reports', {
            method: 'POST',
            headers: { 'content-type': 'application/json', Authorization: `Bearer ${localStorage.getItem('kibitz.token')}` },
            body: JSON.stringify({ kind: 'player', player, reason: 'spam' }),
          });
          out.push(res.status);
        }
        return out;
      }, deeId);
      assert.deepEqual(statuses, Array(10).fill(201));

      await cy.page.emulateMedia({ colorScheme: 'dark' });
      await byId(cy.page, 'lang-select').selectOption('zh');
      await openPlayerPage(cy, server, 'Dee');
      await byId(cy.page, 'btn-report').click();
      await byId(cy.page, 'report-dialog').waitFor({ timeout: WAIT_MS });
      assert.equal(await byId(cy.page, 'report-title').textContent(), '举报 Dee');
      await byId(cy.page, 'report-reason').selectOption('spam');
      await byId(cy.page, 'btn-report-send').click();
      await byId(cy.page, 'report-error').filter({ hasText: 'at most 10 reports an hour' }).waitFor({ timeout: WAIT_MS });
      // The dialog stays, its form too, the focus on Send.
      assert.equal(await byId(cy.page, 'report-thanks').textContent(), '');
      assert.equal(await focusedTestid(cy.page), 'btn-report-send');
      await assertInView(cy, ['report-dialog', 'report-error', 'btn-report-send'], 'the refused report');
      await noSeriousViolations(cy, 'the report dialog in Chinese, dark, refused');
      await screenshot(cy.page, 'report-dialog-refused-zh');
      await cy.page.keyboard.press('Escape');
      await byId(cy.page, 'report-dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });
      assert.equal(await focusedTestid(cy.page), 'btn-report');
      assertClean(cy, dee);
    } finally {
      await cy.context.close();
      await dee.context.close();
    }
  });
});
