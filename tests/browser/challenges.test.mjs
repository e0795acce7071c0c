// Browser tests of challenges: a guest (1280x720) challenges an account (a phone) from his player page (the dialog audited with axe) — the prompt in view, reachable by Tab, heard and audited with axe, declined as too fast with the reason shown to the challenger — then again, accepted, both pages in the same room with the chosen colours; from that room's seat the other way, the prompt in view and audited at 1280x720, withdrawn; a bot challenged from its page at a level (the dialog's level field audited with axe and in view at 1280x720 and on a phone, forced to 10 when rated), the room made at once and the bot's reply on the board.

import { join } from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, openPlayer, assertClean, assertInView, byId, gotoLobby, waitOnline, seriousViolations, screenshot,
  dumpFrames, startBot, waitBots, waitMyTurn, SIZES, WAIT_MS, registerAccount } from './harness.mjs';

// No first-move abort while the test looks at the new room's seats (a 5+3 game).
const hall = useHall('challenges', { env: { KIBITZ_FIRST_MOVE_SECS: '600' } });

const DESK720 = { viewport: { width: 1280, height: 720 } };

/** The challenge dialog filled in and sent; `fields` are select test ids and their values. */
async function sendChallenge(page, fields) {
  const dialog = byId(page, 'challenge-dialog');
  await dialog.waitFor({ timeout: WAIT_MS });
  for (const [id, value] of fields) await byId(page, id).selectOption(value);
  await byId(page, 'btn-challenge-send').click();
  await dialog.waitFor({ state: 'hidden', timeout: WAIT_MS });
}

/** The open prompt of a challenge to `player`. */
const openPrompt = (player) => player.page.locator('[data-testid="challenge-in"][data-status="open"]');

/** Presses Tab from the top of the page until the focus is on `testid`; fails after 40. */
async function tabTo(page, testid) {
  await page.evaluate(() => { document.activeElement?.blur(); window.scrollTo(0, 0); });
  await page.locator('body').focus();
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((id) => document.activeElement?.dataset?.testid === id, testid)) return;
  }
  assert.fail(`Tab never reached ${testid}`);
}

async function noSeriousViolations(player, where) {
  assert.deepEqual(await seriousViolations(player.page), [], `${player.name}: axe on ${where}`);
}

test('a challenge from a player page: declined as too fast, sent again and accepted into one room; from its seat the other way, withdrawn', async () => {
  const ann = await openPlayer(hall.browser, { name: 'Ann', ...DESK720 });
  const bob = await openPlayer(hall.browser, { name: 'Bob', ...SIZES.phone });
  try {
    await gotoLobby(bob, hall.server);
    await registerAccount(bob, 'Bob');
    const bobId = await byId(bob.page, 'my-name').getAttribute('data-player');
    await gotoLobby(ann, hall.server);

    // Ann, a guest, opens Bob's page and challenges him (by his player id, as the page gives it).
    await ann.page.goto(`${hall.server.url}?player=Bob`);
    await waitOnline(ann.page);
    await byId(ann.page, 'player-title').filter({ hasText: 'Bob' }).waitFor({ timeout: WAIT_MS });
    await byId(ann.page, 'btn-challenge').click();
    await byId(ann.page, 'challenge-dialog').waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(ann.page, 'challenge-title').textContent(), 'Challenge Bob');
    await assertInView(ann, ['challenge-dialog', 'btn-challenge-send', 'challenge-clock', 'challenge-color'], 'the challenge dialog');
    await noSeriousViolations(ann, 'the challenge dialog');
    // A guest plays casual games only, and is told why.
    assert.equal(await byId(ann.page, 'challenge-rated').isDisabled(), true);
    assert.match(await byId(ann.page, 'challenge-rated-why').textContent(), /Sign in/);
    await sendChallenge(ann.page, [['challenge-kind', 'gomoku'], ['challenge-size', '15'], ['challenge-rule', 'renju'],
      ['challenge-clock', '1+0'], ['challenge-color', 'black']]);
    const waiting = ann.page.locator('[data-testid="challenge-out"][data-status="waiting"]');
    await waiting.waitFor({ timeout: WAIT_MS });
    assert.match(await waiting.locator('[data-testid="challenge-text"]').textContent(), /Challenge sent to Bob — waiting/);
    assert.ok(ann.frames.some((f) => f.startsWith('> ') && f.includes('"t":"challenge"') && f.includes(`"to":"${bobId}"`)
      && f.includes('"color":"black"') && f.includes('"rule":"renju"') && f.includes('"initial_ms":60000')), dumpFrames(ann));

    // Bob, in the lobby on his phone: the prompt in words, heard, in view, reachable by Tab.
    const prompt = openPrompt(bob);
    await prompt.waitFor({ timeout: WAIT_MS });
    assert.equal(await prompt.locator('[data-testid="challenge-text"]').textContent(),
      'Ann challenges you: Gomoku 15×15 · renju, 1+0, Ann plays black, casual');
    await byId(bob.page, 'challenge-live').filter({ hasText: 'Ann challenges you' }).waitFor({ timeout: WAIT_MS });
    await assertInView(bob, ['[data-testid="challenge-in"]', 'btn-challenge-accept', 'btn-challenge-decline', 'challenge-reason'], 'the prompt on a phone');
    await noSeriousViolations(bob, 'the lobby with a prompt, on a phone');
    await screenshot(bob.page, 'challenge-prompt-phone');
    await tabTo(bob.page, 'btn-challenge-accept');

    // Too fast: declined with that reason; Ann reads the server's sentence.
    await prompt.locator('[data-testid="challenge-reason"]').selectOption('too_fast');
    await prompt.locator('[data-testid="btn-challenge-decline"]').click();
    await byId(bob.page, 'challenges').waitFor({ state: 'hidden', timeout: WAIT_MS });
    assert.ok(bob.frames.some((f) => f.startsWith('> ') && f.includes('"t":"challenge_reply"') && f.includes('"accept":false')
      && f.includes('"reason":"too_fast"')), dumpFrames(bob));
    const declined = ann.page.locator('[data-testid="challenge-out"][data-status="declined"]');
    await declined.waitFor({ timeout: WAIT_MS });
    assert.match(await declined.locator('[data-testid="challenge-note"]').textContent(), /^Bob declined: .*too fast/);
    await byId(ann.page, 'challenge-live').filter({ hasText: 'Bob declined' }).waitFor({ timeout: WAIT_MS });
    await declined.locator('[data-testid="btn-challenge-dismiss"]').click();
    await byId(ann.page, 'challenges').waitFor({ state: 'hidden', timeout: WAIT_MS });

    // Again, slower: the dialog remembers the rest. Bob accepts; both in one room, as asked.
    await byId(ann.page, 'btn-challenge').click();
    assert.equal(await byId(ann.page, 'challenge-rule').inputValue(), 'renju');
    await sendChallenge(ann.page, [['challenge-clock', '5+3']]);
    await prompt.waitFor({ timeout: WAIT_MS });
    assert.equal(await prompt.locator('[data-testid="challenge-text"]').textContent(),
      'Ann challenges you: Gomoku 15×15 · renju, 5+3, Ann plays black, casual');
    await prompt.locator('[data-testid="btn-challenge-accept"]').click();
    for (const p of [ann, bob]) {
      await byId(p.page, 'room').waitFor({ timeout: WAIT_MS });
      await byId(p.page, 'player-name-black').filter({ hasText: 'Ann' }).waitFor({ timeout: WAIT_MS });
      await byId(p.page, 'player-name-white').filter({ hasText: 'Bob' }).waitFor({ timeout: WAIT_MS });
      await byId(p.page, 'challenges').waitFor({ state: 'hidden', timeout: WAIT_MS });
    }
    const room = await byId(ann.page, 'room').getAttribute('data-room');
    assert.equal(await byId(bob.page, 'room').getAttribute('data-room'), room);
    assert.match(bob.page.url(), new RegExp(`room=${room}`));
    assert.match(await byId(ann.page, 'room-title').textContent(), /renju/);

    // From the room's seat, the other way: Bob (an account) challenges Ann (a guest). No
    // button beside himself.
    assert.equal(await byId(bob.page, 'player-white').locator('[data-testid="btn-challenge"]').count(), 0);
    await byId(bob.page, 'player-black').locator('[data-testid="btn-challenge"]').click();
    await byId(bob.page, 'challenge-dialog').waitFor({ timeout: WAIT_MS });
    await assertInView(bob, ['btn-challenge-send', 'challenge-color'], 'the challenge dialog on a phone');
    await sendChallenge(bob.page, [['challenge-kind', 'othello'], ['challenge-clock', 'none'], ['challenge-color', 'random']]);
    const annPrompt = openPrompt(ann);
    await annPrompt.waitFor({ timeout: WAIT_MS });
    assert.equal(await annPrompt.locator('[data-testid="challenge-text"]').textContent(),
      'Bob challenges you: Othello, untimed, colours drawn at random, casual');
    await assertInView(ann, ['[data-testid="challenge-in"]', 'btn-challenge-accept', 'btn-challenge-decline', 'challenge-reason'], 'the prompt at 1280x720');
    await noSeriousViolations(ann, 'a room with a prompt, at 1280x720');
    await screenshot(ann.page, 'challenge-prompt-desktop');

    // Bob withdraws: Ann's prompt goes, with a short note.
    await bob.page.locator('[data-testid="challenge-out"][data-status="waiting"] [data-testid="btn-challenge-withdraw"]').click();
    const gone = ann.page.locator('[data-testid="challenge-in"][data-status="gone"]');
    await gone.waitFor({ timeout: WAIT_MS });
    assert.equal(await gone.locator('[data-testid="challenge-note"]').textContent(), 'Bob withdrew the challenge.');
    await gone.locator('[data-testid="btn-challenge-dismiss"]').click();
    await byId(ann.page, 'challenges').waitFor({ state: 'hidden', timeout: WAIT_MS });
    // Still in the same room, seated as before.
    assert.equal(await byId(ann.page, 'room').getAttribute('data-room'), room);
    assertClean(ann, bob);
  } finally {
    await ann.context.close();
    await bob.context.close();
  }
});

test('a challenge the server refuses says why, and several challenges to one person are listed together', async () => {
  const cy = await openPlayer(hall.browser, { name: 'Cy', ...DESK720 });
  const dee = await openPlayer(hall.browser, { name: 'Dee', ...DESK720 });
  const eve = await openPlayer(hall.browser, { name: 'Eve', ...SIZES.phone });
  try {
    await gotoLobby(cy, hall.server);
    await registerAccount(cy, 'Cyril');
    for (const p of [dee, eve]) await gotoLobby(p, hall.server);

    // Dee and Eve challenge Cyril from his page: both prompts listed on his, each with its own
    // buttons, in view.
    for (const p of [dee, eve]) {
      await p.page.goto(`${hall.server.url}?player=Cyril`);
      await waitOnline(p.page);
      await byId(p.page, 'btn-challenge').click();
      await sendChallenge(p.page, [['challenge-kind', 'connect4'], ['challenge-cols', '7'], ['challenge-rows', '6'], ['challenge-clock', '3+2']]);
    }
    const prompts = openPrompt(cy);
    await prompts.nth(1).waitFor({ timeout: WAIT_MS });
    const texts = await prompts.locator('[data-testid="challenge-text"]').allTextContents();
    assert.deepEqual(texts.map((x) => x.split(' ')[0]).sort(), ['Dee', 'Eve']);
    await assertInView(cy, ['btn-challenge-accept', 'btn-challenge-decline'], 'two prompts at 1280x720');

    // Cyril goes offline: his challenges to nobody online are refused with the server's reason.
    await cy.context.close();
    await dee.page.goto(`${hall.server.url}?player=Cyril`);
    await waitOnline(dee.page);
    await byId(dee.page, 'btn-challenge').click();
    await sendChallenge(dee.page, [['challenge-clock', 'none']]);
    const failed = dee.page.locator('[data-testid="challenge-out"][data-status="failed"]');
    await failed.waitFor({ timeout: WAIT_MS });
    assert.match(await failed.locator('[data-testid="challenge-note"]').textContent(), /not online/);
    assertClean(dee, eve);
  } finally {
    for (const p of [cy, dee, eve]) await p.context.close().catch(() => {});
  }
});

test('a bot challenged from its page at level 3: the room made at once, the bot seated and replying; rated forces level 10', async () => {
  const bot = startBot(hall.server, { name: 'Kibot', stateFile: join(hall.dataDir, 'bot-Kibot.json') });
  const fay = await openPlayer(hall.browser, { name: 'Fay', ...DESK720 });
  const gil = await openPlayer(hall.browser, { name: 'Gil', ...SIZES.phone });
  try {
    await gotoLobby(fay, hall.server);
    await waitBots(fay.page, ['Kibot']).catch((e) => assert.fail(`${e.message}\n${bot.log()}`));

    // Fay, a guest, opens the bot's page: the dialog has a level field, 5 to start with.
    await fay.page.goto(`${hall.server.url}?player=Kibot`);
    await waitOnline(fay.page);
    await byId(fay.page, 'player-title').filter({ hasText: 'Kibot' }).waitFor({ timeout: WAIT_MS });
    await byId(fay.page, 'btn-challenge').click();
    await byId(fay.page, 'challenge-dialog').waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(fay.page, 'challenge-title').textContent(), 'Challenge Kibot');
    assert.match(await byId(fay.page, 'challenge-bot-intro').textContent(), /Kibot is a bot: the game starts at once/);
    assert.equal(await byId(fay.page, 'challenge-level').inputValue(), '5');
    assert.equal(await byId(fay.page, 'challenge-level').isDisabled(), false);
    assert.equal(await byId(fay.page, 'btn-challenge-send').textContent(), 'Start the game');
    await byId(fay.page, 'challenge-kind').selectOption('connect4');
    await byId(fay.page, 'challenge-level').selectOption('3');
    await assertInView(fay, ['challenge-dialog', 'challenge-level', 'btn-challenge-send', 'challenge-color'], 'the challenge dialog to a bot at 1280x720');
    await noSeriousViolations(fay, 'the challenge dialog to a bot at 1280x720');
    assert.match(await byId(fay.page, 'challenge-summary').textContent(), /, level 3$/);
    await sendChallenge(fay.page, [['challenge-clock', 'none'], ['challenge-color', 'black']]);

    // No answer to wait for: the room opens, Fay on black, the bot on white.
    await byId(fay.page, 'room').waitFor({ timeout: WAIT_MS });
    await byId(fay.page, 'player-name-black').filter({ hasText: 'Fay' }).waitFor({ timeout: WAIT_MS });
    await byId(fay.page, 'player-name-white').filter({ hasText: 'Kibot' }).waitFor({ timeout: WAIT_MS });
    await byId(fay.page, 'bot-badge-white').waitFor({ timeout: WAIT_MS });
    // The bot says hello at the level asked.
    const greeting = byId(fay.page, 'chat-list').locator('li.chat-line.bot').first();
    await greeting.waitFor({ timeout: 20_000 });
    assert.match(await greeting.textContent(), /level 3/);
    await byId(fay.page, 'challenges').waitFor({ state: 'hidden', timeout: WAIT_MS });
    assert.match(fay.page.url(), /room=/);
    assert.ok(fay.frames.some((f) => f.startsWith('> ') && f.includes('"t":"challenge"') && f.includes('"level":3')
      && f.includes('"kind":"connect4"') && f.includes('"color":"black"')), dumpFrames(fay));
    assert.ok(!fay.frames.some((f) => f.includes('"t":"challenge_sent"')), dumpFrames(fay));
    // No "Challenge" beside the bot playing in this room.
    assert.equal(await byId(fay.page, 'player-white').locator('[data-testid="btn-challenge"]').count(), 0);

    // Fay drops in the middle; the bot replies (its thinking takes a while in a debug build).
    await waitMyTurn(fay);
    await byId(fay.page, 'col-4').click();
    await byId(fay.page, 'move-1').waitFor({ timeout: WAIT_MS });
    assert.match(await byId(fay.page, 'move-2').textContent({ timeout: 20_000 }), /^[1-7]$/);
    await waitMyTurn(fay);

    // Gil, an account on a phone: a rated game against the bot is played at level 10.
    await gotoLobby(gil, hall.server);
    await registerAccount(gil, 'Gilbert');
    await gil.page.goto(`${hall.server.url}?player=Kibot`);
    await waitOnline(gil.page);
    await byId(gil.page, 'btn-challenge').click();
    await byId(gil.page, 'challenge-dialog').waitFor({ timeout: WAIT_MS });
    await byId(gil.page, 'challenge-level').selectOption('2');
    await byId(gil.page, 'challenge-rated').check();
    assert.equal(await byId(gil.page, 'challenge-level').inputValue(), '10');
    assert.equal(await byId(gil.page, 'challenge-level').isDisabled(), true);
    assert.match(await byId(gil.page, 'challenge-level-why').textContent(), /level 10/);
    await assertInView(gil, ['challenge-level', 'challenge-rated', 'btn-challenge-send'], 'the challenge dialog to a bot on a phone');
    await noSeriousViolations(gil, 'the challenge dialog to a bot on a phone');
    await screenshot(gil.page, 'challenge-bot-phone');
    // Unrated again: back to the level picked.
    await byId(gil.page, 'challenge-rated').uncheck();
    assert.equal(await byId(gil.page, 'challenge-level').inputValue(), '2');
    await byId(gil.page, 'btn-challenge-dialog-cancel').click();
    await byId(gil.page, 'challenge-dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });
    assertClean(fay, gil);
  } catch (e) {
    e.message += `\n${bot.log()}`;
    throw e;
  } finally {
    for (const p of [fay, gil]) await p.context.close().catch(() => {});
    await bot.stop();
  }
});
