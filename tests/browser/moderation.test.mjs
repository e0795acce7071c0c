// Browser tests of the moderators' tools: Mod (made a moderator by the real binary's `kibitz admin grant-moderator`, 1280x720), Ann (1280x720) and Bob (a phone), all accounts; Mod's header gets "Moderation", the others' not (their probe's 403 no console error); Bob says a line in Ann's room and Ann reports it from its flag; on /?moderation Mod hides the line from the report (Ann's and Bob's pages say "line hidden by a moderator"; the report stays open), then mutes Bob for 1 hour from it with a reason of her own (the report closes, the status line says so): Bob's page shows the notice with the reason and the time in local words (an alert; axe and in view on his phone), and his next chat line shows the server's refusal; "Muted and banned" lists Bob's mute (until, reason, by Mod) and the tabs go by the arrow keys to the audit log (hide_chat, mute; axe and in view at 1280x720 and a phone's width); Mod lifts the mute (a reason asked first): Bob reads "A moderator lifted your mute", dismisses it, and chats again; Bob's chat setting "Nobody" hides Ann's lines (his own still shown; kept in the browser) and "Everyone" shows them again; Ann blocks Bob from his chat line (the blocks' question) and his next line never reaches her; Mod bans Bob for a day from "Act on a player": Bob's page says he was banned, then the refused hello in the server's sentence, and no longer reconnects (one socket in four seconds, one more on "Try again"); axe and in view with the notices; the audit log lists ban, lift, mute, hide_chat.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import {
  useHall, openPlayer, assertClean, assertInView, byId, gotoLobby, createRoom, openRoom, waitOnline,
  seriousViolations, screenshot, SIZES, WAIT_MS, KIBITZ_BIN, registerAccount } from './harness.mjs';

// No first-move abort while they chat in the new room.
const hall = useHall('moderation', { env: { KIBITZ_FIRST_MOVE_SECS: '600' } });

const DESK720 = { viewport: { width: 1280, height: 720 } };
const PHONE_VIEW = { width: 390, height: 844 };

/** Makes the account `name` a moderator the way an operator does, beside the running server. */
async function grantModerator(name) {
  await promisify(execFile)(KIBITZ_BIN, ['admin', 'grant-moderator', name, '--data', hall.dataDir], { timeout: WAIT_MS });
}

/** Sends a chat line from `player`'s room page and waits until every page of `everyone` shows it. */
async function say(player, text, everyone) {
  await byId(player.page, 'chat-input').fill(text);
  await byId(player.page, 'chat-input').press('Enter');
  for (const p of everyone) await chatText(p, text).waitFor({ timeout: WAIT_MS });
}

const chatText = (player, text) => byId(player.page, 'chat-list').locator('.chat-text').filter({ hasText: text });
const chatLine = (player, text) => byId(player.page, 'chat-list').locator('li.chat-line').filter({ hasText: text });
const focusedTestid = (page) => page.evaluate(() => document.activeElement?.dataset?.testid ?? null);
const text = (page, testid) => byId(page, testid).first().textContent();

async function noSeriousViolations(player, where) {
  assert.deepEqual(await seriousViolations(player.page), [], `${player.name}: axe on ${where}`);
}

/** Waits until `check()` holds (polled), at most WAIT_MS. */
async function until(check, what) {
  const end = Date.now() + WAIT_MS;
  while (!check()) {
    if (Date.now() > end) assert.fail(`not within ${WAIT_MS} ms: ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** The local words of a moment on `page` (its language and time zone), as the page says them. */
const localTime = (page, ms) => page.evaluate((m) => new Date(m).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' }), ms);

test('a moderator hides a line, mutes, lifts and bans; the player is told; a block and the chat setting from the room', async () => {
  const mod = await openPlayer(hall.browser, { name: 'Mod', ...DESK720 });
  const ann = await openPlayer(hall.browser, { name: 'Ann', ...DESK720 });
  const bob = await openPlayer(hall.browser, { name: 'Bob', ...SIZES.phone });
  // Bob's page's WebSockets, to see that a ban stops the reconnecting.
  let bobSockets = 0;
  bob.page.on('websocket', () => { bobSockets++; });
  try {
    for (const p of [mod, ann, bob]) {
      await gotoLobby(p, hall.server);
      await registerAccount(p, p.name);
    }
    const bobId = await byId(bob.page, 'my-name').getAttribute('data-player');

    // The operator names Mod a moderator: her next page has the header's link, the others none.
    await grantModerator('Mod');
    await mod.page.reload();
    await waitOnline(mod.page);
    await byId(mod.page, 'header-link-moderation').waitFor({ timeout: WAIT_MS });
    assert.equal(await text(mod.page, 'header-link-moderation'), 'Moderation');
    for (const p of [ann, bob]) assert.equal(await byId(p.page, 'header-link-moderation').isHidden(), true, `${p.name}: no link`);

    // Bob's line in Ann's room, reported by Ann from its flag.
    const room = await createRoom(ann, hall.server);
    await openRoom(bob, hall.server, room);
    for (const p of [ann, bob]) await byId(p.page, 'player-name-white').filter({ hasText: 'Bob' }).waitFor({ timeout: WAIT_MS });
    await say(ann, 'hello Bob', [ann, bob]);
    const spam = 'buy cheap gold at spam.example';
    await say(bob, spam, [ann, bob]);
    await chatLine(ann, spam).hover();
    await chatLine(ann, spam).locator('[data-testid="btn-report-line"]').click();
    await byId(ann.page, 'report-dialog').waitFor({ timeout: WAIT_MS });
    await byId(ann.page, 'report-reason').selectOption('spam');
    await byId(ann.page, 'btn-report-send').click();
    await byId(ann.page, 'report-thanks').filter({ hasText: 'Thanks' }).waitFor({ timeout: WAIT_MS });
    await byId(ann.page, 'btn-report-close').click();

    // Mod's page, by the header's link: the report with its Act form.
    await byId(mod.page, 'header-link-moderation').click();
    await byId(mod.page, 'moderation-title').filter({ hasText: 'Moderation' }).waitFor({ timeout: WAIT_MS });
    const item = mod.page.locator('[data-testid="report-item"][data-kind="chat"]');
    await item.waitFor({ timeout: WAIT_MS });
    assert.equal(await mod.page.locator('h1').count(), 1);
    assert.deepEqual(await mod.page.locator('[role="tab"]').allTextContents(), ['Reports', 'Act on a player', 'Muted and banned', 'Audit log']);
    assert.equal(await byId(mod.page, 'mod-tab-reports').getAttribute('aria-selected'), 'true');
    const act = (testid) => item.locator(`[data-testid="${testid}"]`);
    assert.deepEqual(await act('act-action').locator('option').allTextContents(),
      ['Warn', 'Mute', 'Ban from rated games', 'Ban', 'Close the account', 'Rename', 'Hide the reported line']);
    // The reason from the report's, to edit.
    assert.equal(await act('act-reason').inputValue(), 'Spam');
    await assertInView(mod, ['moderation-title', 'moderation-tabs', 'btn-moderation-refresh'], 'the moderation page');
    await noSeriousViolations(mod, 'the moderation page with a report to act on');
    await screenshot(mod.page, 'moderation-act-desktop');

    // Hide the line: the report stays open (its player is still to be dealt with).
    await act('act-action').selectOption('hide_chat');
    assert.equal(await act('act-close-report').isChecked(), false);
    assert.equal(await act('act-duration').isHidden(), true);
    await act('btn-act-apply').click();
    await byId(mod.page, 'moderation-status').filter({ hasText: 'Done: Hide the reported line — Bob.' }).waitFor({ timeout: WAIT_MS });
    await act('report-line-hidden').filter({ hasText: 'Hidden by a moderator' }).waitFor({ timeout: WAIT_MS });
    for (const p of [ann, bob]) {
      await chatText(p, spam).waitFor({ state: 'detached', timeout: WAIT_MS });
      assert.equal(await chatLine(p, 'Bob').filter({ hasText: 'line hidden by a moderator' }).count(), 1, `${p.name}: the line says it was hidden`);
      assert.equal(await chatText(p, 'hello Bob').count(), 1);
    }

    // Mute Bob for an hour from the report, in words of Mod's own: the report closes.
    await act('act-action').selectOption('mute');
    assert.deepEqual(await act('act-duration').locator('option').allTextContents(), ['10 minutes', '1 hour', '1 day', '7 days', 'For good']);
    await act('act-duration').selectOption('60');
    assert.equal(await act('act-close-report').isChecked(), true);
    await act('act-reason').fill('spam in the chat');
    await act('btn-act-apply').click();
    await byId(mod.page, 'moderation-status').filter({ hasText: 'Done: Mute (1 hour) — Bob. The report is closed.' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(mod.page, 'report-item').count(), 0);
    assert.equal(await text(mod.page, 'moderation-count'), 'Open reports: 0');
    assert.equal(await focusedTestid(mod.page), 'moderation-status');

    // Bob is told, with the reason and until when in his own time.
    const notice = byId(bob.page, 'mod-notice');
    await notice.filter({ hasText: 'spam in the chat' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await notice.getAttribute('role'), 'alert');

    // "Muted and banned": Bob's mute, until an hour from now, by Mod.
    await byId(mod.page, 'mod-tab-sanctions').click();
    const sanction = mod.page.locator(`[data-testid="sanction"][data-player="${bobId}"][data-kind="mute"]`);
    await sanction.waitFor({ timeout: WAIT_MS });
    const untilMs = Number(await sanction.locator('[data-testid="sanction-until"]').getAttribute('data-ms'));
    assert.ok(Math.abs(untilMs - Date.now() - 3_600_000) < 120_000, 'an hour from now');
    assert.equal(await sanction.locator('[data-testid="sanction-until"]').textContent(), await localTime(mod.page, untilMs));
    assert.equal(await sanction.locator('[data-testid="sanction-kind"]').textContent(), 'Muted');
    assert.equal(await sanction.locator('[data-testid="sanction-reason"]').textContent(), 'spam in the chat');
    assert.equal(await sanction.locator('[data-testid="sanction-by"]').textContent(), 'Mod');
    assert.equal(await sanction.locator('[data-testid="sanction-player"] a').textContent(), 'Bob');
    assert.equal(await text(bob.page, 'mod-notice-text'), `A moderator muted you until ${await localTime(bob.page, untilMs)}: spam in the chat`);
    await assertInView(bob, ['mod-notice', 'btn-mod-notice-dismiss'], 'the mute notice');
    await noSeriousViolations(bob, 'the room with a moderator\'s notice');
    await screenshot(bob.page, 'moderation-notice-phone');

    // Bob's next line is refused in the server's words, where the room says its refusals.
    await byId(bob.page, 'chat-input').fill('anyone there?');
    await byId(bob.page, 'chat-input').press('Enter');
    await byId(bob.page, 'error-msg').filter({ hasText: /^you are muted until .+ \(spam in the chat\)$/ }).waitFor({ timeout: WAIT_MS });

    // The tabs by the keyboard: to the audit log, newest first.
    await byId(mod.page, 'mod-tab-sanctions').focus();
    await mod.page.keyboard.press('ArrowRight');
    assert.equal(await focusedTestid(mod.page), 'mod-tab-log');
    assert.equal(await byId(mod.page, 'mod-tab-log').getAttribute('aria-selected'), 'true');
    assert.equal(await byId(mod.page, 'mod-panel-sanctions').isHidden(), true);
    const entries = byId(mod.page, 'log-entry');
    await entries.first().waitFor({ timeout: WAIT_MS });
    assert.deepEqual(await entries.evaluateAll((els) => els.map((e) => e.dataset.action)), ['mute', 'hide_chat']);
    const muted = entries.first();
    assert.equal(await muted.locator('[data-testid="log-action"]').textContent(), 'Mute');
    assert.equal(await muted.locator('[data-testid="log-moderator"]').textContent(), 'Mod');
    assert.equal(await muted.locator('[data-testid="log-player"] a').textContent(), 'Bob');
    assert.equal(await muted.locator('[data-testid="log-reason"]').textContent(), 'spam in the chat');
    assert.equal(await muted.locator('[data-testid="log-until"]').getAttribute('data-ms'), String(untilMs));
    assert.equal(await entries.nth(1).locator('[data-testid="log-detail"]').textContent(), spam);
    await assertInView(mod, ['mod-tab-log', '[data-testid="log-entry"]:first-child'], 'the audit log');
    await noSeriousViolations(mod, 'the audit log');
    await screenshot(mod.page, 'moderation-log-desktop');
    await mod.page.setViewportSize(PHONE_VIEW);
    await entries.nth(1).scrollIntoViewIfNeeded();
    await assertInView(mod, ['[data-testid="log-entry"]:nth-child(2)'], 'the audit log at a phone\'s width');
    await noSeriousViolations(mod, 'the audit log at a phone\'s width');
    await mod.page.keyboard.press('Home');
    assert.equal(await focusedTestid(mod.page), 'mod-tab-reports');
    await mod.page.keyboard.press('End');
    await mod.page.keyboard.press('ArrowLeft');
    assert.equal(await focusedTestid(mod.page), 'mod-tab-sanctions');
    await sanction.scrollIntoViewIfNeeded();
    await assertInView(mod, ['[data-testid="sanction"]', '[data-testid="btn-lift"]'], 'the sanctions at a phone\'s width');
    await noSeriousViolations(mod, 'the sanctions at a phone\'s width');
    await screenshot(mod.page, 'moderation-sanctions-phone');
    await mod.page.setViewportSize(DESK720.viewport);

    // Lift the mute: a reason asked first.
    const lift = sanction.locator('[data-testid="btn-lift"]');
    assert.equal(await lift.getAttribute('aria-label'), 'Lift: Muted — Bob');
    await lift.click();
    assert.equal(await focusedTestid(mod.page), 'lift-reason');
    await byId(mod.page, 'btn-lift-confirm').click();
    await byId(mod.page, 'lift-error').filter({ hasText: 'Say why: the player reads it.' }).waitFor({ timeout: WAIT_MS });
    await byId(mod.page, 'lift-reason').fill('served');
    await byId(mod.page, 'btn-lift-confirm').click();
    await byId(mod.page, 'moderation-status').filter({ hasText: 'Lifted: Muted — Bob.' }).waitFor({ timeout: WAIT_MS });
    await byId(mod.page, 'mod-sanctions-none').filter({ hasText: 'Nobody is muted or banned.' }).waitFor({ timeout: WAIT_MS });
    // Bob reads it in place of the mute's notice, dismisses it, and chats again.
    await byId(bob.page, 'mod-notice-text').filter({ hasText: 'A moderator lifted your mute: served' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(bob.page, 'mod-notice').count(), 1);
    await byId(bob.page, 'btn-mod-notice-dismiss').click();
    await byId(bob.page, 'mod-notices').waitFor({ state: 'hidden', timeout: WAIT_MS });
    await say(bob, 'sorry, all good', [ann, bob]);

    // Bob's chat setting: "Nobody" hides Ann's lines, never his own; kept in his browser.
    const filter = byId(bob.page, 'chat-filter');
    assert.deepEqual(await filter.locator('option').allTextContents(), ['Everyone', 'Players only', 'Nobody']);
    assert.equal(await bob.page.locator('label[for="chat-filter"]').textContent(), 'Chat in my games');
    await filter.selectOption('nobody');
    assert.equal(await chatLine(bob, 'hello Bob').isHidden(), true);
    assert.equal(await chatLine(bob, 'sorry, all good').isVisible(), true);
    assert.equal(await text(bob.page, 'chat-filtered'), 'Other people’s chat is hidden (your setting).');
    await byId(ann.page, 'chat-input').fill('still there?');
    await byId(ann.page, 'chat-input').press('Enter');
    await chatLine(bob, 'still there?').waitFor({ state: 'attached', timeout: WAIT_MS });
    assert.equal(await chatLine(bob, 'still there?').isHidden(), true);
    assert.equal(await bob.page.evaluate(() => localStorage.getItem('kibitz.chatFilter')), 'nobody');
    await filter.scrollIntoViewIfNeeded();
    await assertInView(bob, ['chat-filter', 'chat-filtered'], 'the chat setting');
    await filter.selectOption('everyone');
    assert.equal(await chatLine(bob, 'still there?').isVisible(), true);
    assert.equal(await byId(bob.page, 'chat-filtered').isHidden(), true);

    // Ann blocks Bob from his line: the blocks' question, then his next line never reaches her.
    const blockBtn = chatLine(ann, 'sorry, all good').locator('[data-testid="btn-block-line"]');
    assert.equal(await blockBtn.getAttribute('aria-label'), 'Block Bob');
    await chatLine(ann, 'sorry, all good').hover();
    await blockBtn.click();
    await byId(ann.page, 'block-dialog').waitFor({ timeout: WAIT_MS });
    assert.equal(await text(ann.page, 'block-title'), 'Block Bob?');
    await byId(ann.page, 'btn-block-confirm').click();
    await byId(ann.page, 'blocks-live').filter({ hasText: 'You blocked Bob.' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await focusedTestid(ann.page), 'chat-input');
    assert.equal(await byId(ann.page, 'chat-list').locator('[data-testid="btn-block-line"]').count(), 0);
    await say(bob, 'can you hear me', [bob]);
    await say(ann, 'quiet now', [ann, bob]);
    assert.equal(await chatText(ann, 'can you hear me').count(), 0, 'Bob\'s line after the block');

    // Mod bans Bob for a day from "Act on a player".
    await byId(mod.page, 'mod-tab-act').click();
    const form = byId(mod.page, 'act-player-form');
    await form.locator('[data-testid="act-player"]').fill('Bob');
    await form.locator('[data-testid="act-action"]').selectOption('ban');
    assert.deepEqual(await form.locator('[data-testid="act-duration"] option').allTextContents(), ['1 day', '7 days', 'For good']);
    await form.locator('[data-testid="act-duration"]').selectOption('1440');
    // No reason: asked for one, nothing sent.
    await form.locator('[data-testid="btn-act-apply"]').click();
    await form.locator('[data-testid="act-error"]').filter({ hasText: 'Say why: the player reads it.' }).waitFor({ timeout: WAIT_MS });
    assert.equal(await focusedTestid(mod.page), 'act-reason');
    await form.locator('[data-testid="act-reason"]').fill('ban evasion');
    await assertInView(mod, ['act-player-form', 'btn-act-apply'], 'the form for a player');
    await noSeriousViolations(mod, 'the form for a player');
    await form.locator('[data-testid="btn-act-apply"]').click();
    await byId(mod.page, 'moderation-status').filter({ hasText: 'Done: Ban (1 day) — Bob.' }).waitFor({ timeout: WAIT_MS });

    // Bob is told, then his page says why it cannot come back, and stops trying.
    await bob.page.locator('[data-testid="mod-notice"][data-action="ban"]').filter({ hasText: /^A moderator banned you from this hall until .+: ban evasion/ }).waitFor({ timeout: WAIT_MS });
    await byId(bob.page, 'refused-text').filter({ hasText: /^you are banned from this hall until .+ \(ban evasion\)$/ }).waitFor({ timeout: WAIT_MS });
    assert.equal(await text(bob.page, 'refused-notice').then((s) => s.startsWith('You cannot enter this hall')), true);
    await bob.page.locator('[data-testid="net-status"].refused').waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(bob.page, 'offline-banner').isHidden(), true);
    const sockets = bobSockets;
    await bob.page.waitForTimeout(4000);
    assert.equal(bobSockets, sockets, 'no reconnecting in a loop');
    await bob.page.evaluate(() => window.scrollTo(0, 0));
    await assertInView(bob, ['refused-notice', 'btn-refused-retry', 'mod-notice'], 'the ban on a phone');
    await noSeriousViolations(bob, 'the room with the ban said');
    await screenshot(bob.page, 'moderation-banned-phone');
    // "Try again": one more hello, refused the same.
    await byId(bob.page, 'btn-refused-retry').click();
    await until(() => bobSockets === sockets + 1, 'a socket for the try');
    await byId(bob.page, 'refused-text').filter({ hasText: 'ban evasion' }).waitFor({ timeout: WAIT_MS });
    await bob.page.waitForTimeout(2000);
    assert.equal(bobSockets, sockets + 1, 'one socket for one try');

    // The audit log: every action, newest first.
    await byId(mod.page, 'mod-tab-log').click();
    await mod.page.waitForFunction(() => document.querySelectorAll('[data-testid="log-entry"]').length === 4, null, { timeout: WAIT_MS });
    assert.deepEqual(await entries.evaluateAll((els) => els.map((e) => e.dataset.action)), ['ban', 'lift', 'mute', 'hide_chat']);
    assert.equal(await entries.nth(1).locator('[data-testid="log-detail"]').textContent(), 'Muted');
    assertClean(mod, ann, bob);
  } finally {
    await mod.context.close();
    await ann.context.close();
    await bob.context.close();
  }
});
