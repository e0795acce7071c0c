// Browser tests with real bot processes: inviting a bot from the form and from the room, an Othello pass against a bot, the lobby's bots and a watched bot-vs-bot game, a rematch with a bot, and "play a bot instead" after a seek.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, openPlayer, assertClean, screenshot, byId, gotoLobby, createRoom, openMoreOptions,
  waitOnline, waitMyTurn, waitStone, moveTexts, sendRaw, playCell, SIZES, WAIT_MS,
} from './harness.mjs';
import { replay, othelloLegal, stoneOf, cellName } from '../../web-client/js/rules.js';

const BOT_NAMES = ['Ada', 'Babbage'];
/** A bot's move may take its thinking time (0.3 s × level, more in a debug build on a busy
 *  machine) plus its pacing: a wider bound than a page reaction. */
const BOT_WAIT_MS = 20_000;

const hall = useHall('bots', { bots: BOT_NAMES });

/** Waits until the move list shows ply `k` (the opening counts) and returns its text. */
async function waitPly(page, k, timeout = BOT_WAIT_MS) {
  const item = byId(page, `move-${k}`);
  await item.waitFor({ timeout });
  return item.textContent();
}

/** The Othello cells offered as legal on `page` (from the `legal-*` dots), sorted. */
async function legalDots(page) {
  const ids = await page.locator('[data-testid^="legal-"]').evaluateAll((els) => els.map((e) => e.dataset.testid));
  return ids.map((id) => id.slice('legal-'.length)).sort();
}

/** The seat of `player` in the room on screen (their name is on it). */
async function seatOf(player) {
  const black = await byId(player.page, 'player-name-black').textContent();
  return black === player.name ? 'black' : 'white';
}

test('a level-3 bot invited from the new-game form plays Connect Four: badge, greeting and replies', async () => {
  const human = await openPlayer(hall.browser, { name: 'Hugo' });
  const { page } = human;
  await createRoom(human, hall.server, { game: 'connect4', seat: 'black', botLevel: 3 });
  // The bot takes the white seat at once and says hello in the players' chat, marked as a bot.
  await byId(page, 'bot-badge-white').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(page, 'bot-badge-black').count(), 0);
  assert.ok(BOT_NAMES.includes(await byId(page, 'player-name-white').textContent()));
  const greeting = byId(page, 'chat-list').locator('li.chat-line.bot');
  await greeting.first().waitFor({ timeout: BOT_WAIT_MS });
  assert.match(await greeting.first().textContent(), /level 3/);
  assert.equal(await greeting.first().locator('.bot-badge').count(), 1);
  assert.equal(await greeting.first().evaluate((el) => getComputedStyle(el).fontStyle), 'italic');

  // Three drops in the middle columns (the bot cannot connect four in three replies); each
  // reply of the bot lands on the board.
  const columns = [4, 3, 5];
  for (let i = 0; i < columns.length; i++) {
    await waitMyTurn(human);
    await byId(page, `col-${columns[i]}`).click();
    await waitPly(page, 2 * i + 1, WAIT_MS);
    const reply = await waitPly(page, 2 * i + 2);
    assert.match(reply, /^[1-7]$/);
  }
  await waitMyTurn(human);
  const moves = await moveTexts(page);
  assert.equal(moves.length, 6);
  assert.deepEqual(moves.filter((_, k) => k % 2 === 0), ['4', '3', '5']);
  assert.equal(await page.locator('[data-testid^="cell-"][data-stone="white"]').count(), 3);
  assert.equal(await byId(page, 'game-over').isHidden(), true);
  await screenshot(page, 'bot-game-connect4');
  await page.emulateMedia({ colorScheme: 'dark' });
  await screenshot(page, 'bot-game-connect4-dark');
  assertClean(human);
  await human.context.close();
});

test('othello against a bot: legal dots on the human turn, and a forced pass in the move list', async () => {
  // Found by tests/browser/othello-pass.mjs: after these seven moves white (the human) plays c1
  // and black has no move left, so the server passes for the bot.
  const opening = ['d3', 'c3', 'b3', 'b2', 'f5', 'a3', 'a1'];
  const game = { kind: 'othello' };
  const atStart = replay(game, opening).at(-1);
  assert.equal(atStart.toMove, 'white');
  const expectedDots = othelloLegal(atStart.cells, stoneOf('white')).map((i) => cellName(game, i)).sort();
  assert.ok(expectedDots.includes('c1'));

  const human = await openPlayer(hall.browser, { name: 'Olga' });
  const { page } = human;
  await gotoLobby(human, hall.server);
  // The new-game form sets openings for Gomoku only: this `create` goes out on the page's own
  // connection, and the page follows the new room as it does for its own.
  await sendRaw(human, { t: 'create', game, seat: 'white', clock: null, opening, bots: { black: 3 }, private: false });
  await byId(page, 'player-name-white').filter({ hasText: human.name }).waitFor({ timeout: WAIT_MS });
  await byId(page, 'bot-badge-black').waitFor({ timeout: WAIT_MS });
  await waitMyTurn(human);
  assert.deepEqual(await legalDots(page), expectedDots);
  assert.deepEqual(await moveTexts(page), opening);

  await byId(page, 'cell-c1').click();
  await waitStone([human], 'c1', 'white');
  // Black is out of moves: the server plays its pass and it is the human's turn again.
  assert.equal(await waitPly(page, opening.length + 2, WAIT_MS), 'pass');
  await waitMyTurn(human);
  assert.deepEqual(await legalDots(page), ['e3', 'f6']);
  assert.match(await byId(page, 'status').textContent(), /your move/i);
  await screenshot(page, 'othello-bot-pass');

  // The game goes on: a move of the human, then a reply of the bot (unless the game ended).
  await byId(page, 'cell-f6').click();
  await waitStone([human], 'f6', 'white');
  const reply = await waitPly(page, opening.length + 4);
  assert.match(reply, /^([a-h][1-8]|pass)$/);
  if (await byId(page, 'game-over').isHidden()) {
    await waitMyTurn(human);
    assert.ok((await legalDots(page)).length > 0, 'no legal-move dots on the human turn');
  }
  assertClean(human);
  await human.context.close();
});

test('the lobby lists the bots and a live bot-vs-bot game, which a third page watches move by move', async () => {
  const host = await openPlayer(hall.browser, { name: 'Hosta' });
  const lobbyist = await openPlayer(hall.browser, { name: 'Lobby' });
  const watcher = await openPlayer(hall.browser, { name: 'Watt' });
  await gotoLobby(host, hall.server);
  await gotoLobby(lobbyist, hall.server);
  for (const name of BOT_NAMES) {
    const item = byId(lobbyist.page, 'bots-list').locator('li.bot-item').filter({ hasText: name });
    await item.waitFor({ timeout: WAIT_MS });
    assert.match(await item.textContent(), /Connect Four/);
    assert.match(await item.textContent(), /\d+\/4 games/);
  }

  // Bot vs bot from the form: the creator watches.
  await openMoreOptions(host.page);
  await byId(host.page, 'new-game-kind').selectOption('connect4');
  await byId(host.page, 'new-game-clock').selectOption('none');
  await byId(host.page, 'new-game-opp-botbot').check();
  await byId(host.page, 'new-game-level-black').selectOption('1');
  await byId(host.page, 'new-game-level-white').selectOption('2');
  assert.equal(await byId(host.page, 'new-game-seat').isHidden(), true);
  await byId(host.page, 'btn-new-game').click();
  await byId(host.page, 'bot-badge-black').waitFor({ timeout: WAIT_MS });
  await byId(host.page, 'bot-badge-white').waitFor({ timeout: WAIT_MS });
  const room = await byId(host.page, 'room').getAttribute('data-room');
  await waitPly(host.page, 1);
  assert.equal(await byId(host.page, 'btn-undo').isHidden(), true);

  // The other lobby shows it live, both seats marked as bots, and the bots now busy.
  const live = byId(lobbyist.page, 'live-games').locator(`li.room-item[data-room="${room}"]`);
  await live.waitFor({ timeout: WAIT_MS });
  assert.equal(await live.locator('.bot-badge').count(), 2);
  assert.match(await live.textContent(), /Connect Four/);
  await byId(lobbyist.page, 'bots-list').locator('li.bot-item').filter({ hasText: /[1-4]\/4 games/ }).first().waitFor({ timeout: WAIT_MS });
  await screenshot(lobbyist.page, 'lobby-with-bots');

  // A third page watches from the lobby and sees new moves arrive.
  await gotoLobby(watcher, hall.server);
  await byId(watcher.page, `btn-watch-${room}`).click();
  await byId(watcher.page, 'bot-badge-white').waitFor({ timeout: WAIT_MS });
  const seen = (await moveTexts(watcher.page)).length;
  await waitPly(watcher.page, seen + 2);
  assert.match(await byId(watcher.page, 'status').textContent(), /to move|over/i);
  assert.equal(await byId(watcher.page, 'btn-resign').isHidden(), true);
  assert.ok(Number(await byId(watcher.page, 'spectators').textContent()) >= 2);
  await screenshot(watcher.page, 'bot-vs-bot-watched');
  assertClean(host, lobbyist, watcher);
  for (const p of [host, lobbyist, watcher]) await p.context.close();
});

test('a bot invited with the room button answers, and a rematch with it starts at once', async () => {
  const human = await openPlayer(hall.browser, { name: 'Remy' });
  const { page } = human;
  const first = await createRoom(human, hall.server, { game: 'gomoku', seat: 'black' });
  await byId(page, 'bot-level').selectOption('2');
  await byId(page, 'btn-invite-bot').click();
  await byId(page, 'bot-badge-white').waitFor({ timeout: WAIT_MS });
  await byId(page, 'btn-invite-bot').waitFor({ state: 'hidden', timeout: WAIT_MS });
  await waitMyTurn(human);
  await byId(page, 'cell-h8').click();
  await waitPly(page, 2);
  await waitMyTurn(human);
  await byId(page, 'btn-resign').click();
  await byId(page, 'btn-resign-confirm').click();
  const over = byId(page, 'game-over');
  await over.waitFor({ timeout: WAIT_MS });
  assert.equal(await over.getAttribute('data-reason'), 'resign');
  assert.equal(await over.getAttribute('data-result'), 'white');

  // The bot always agrees: the new room opens with the colours swapped and the bot to move.
  await byId(page, 'btn-over-rematch').click();
  await page.locator(`[data-testid="room"]:not([data-room="${first}"])`).waitFor({ timeout: WAIT_MS });
  await byId(page, 'player-name-white').filter({ hasText: human.name }).waitFor({ timeout: WAIT_MS });
  await byId(page, 'bot-badge-black').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(page, 'game-over').isHidden(), true);
  await waitPly(page, 1);
  await waitMyTurn(human);
  const opener = (await moveTexts(page))[0];
  const reply = opener === 'h8' ? 'h9' : 'h8';
  await byId(page, `cell-${reply}`).click();
  await waitPly(page, 3);
  assertClean(human);
  await human.context.close();
});

test('a seek with nobody else offers a bot after the wait, and "play a bot instead" starts a timed game', async () => {
  const human = await openPlayer(hall.browser, { name: 'Quinn' });
  const { page } = human;
  // `bot_offer_ms` shortens the page's 10 s wait before it offers a bot (a test-only knob).
  await page.goto(`${hall.server.url}?bot_offer_ms=300`);
  await waitOnline(page);
  await byId(page, 'btn-play-now-connect4-3-2').click();
  await byId(page, 'seek-status').waitFor({ timeout: WAIT_MS });
  await byId(page, 'btn-play-bot').waitFor({ timeout: WAIT_MS });
  await byId(page, 'seek-bot-level').selectOption('2');
  await byId(page, 'btn-play-bot').click();
  await byId(page, 'room').waitFor({ timeout: WAIT_MS });
  await page.locator('[data-testid^="bot-badge-"]').waitFor({ timeout: WAIT_MS });
  await byId(page, 'player-name-black').filter({ hasText: /\S/ }).waitFor({ timeout: WAIT_MS });
  const seat = await seatOf(human);
  const botSeat = seat === 'black' ? 'white' : 'black';
  assert.equal(await byId(page, `bot-badge-${botSeat}`).count(), 1);
  assert.equal(await byId(page, `player-name-${seat}`).textContent(), human.name);
  // A 3+2 clock, running for the side to move.
  const myMs = Number(await byId(page, `clock-${seat}`).getAttribute('data-ms'));
  assert.ok(myMs > 150_000 && myMs <= 182_000, `the human has ${myMs} ms`);
  assert.match(await byId(page, 'room-title').textContent(), /Connect Four/);
  await waitMyTurn(human);
  const before = (await moveTexts(page)).length;
  await byId(page, 'col-4').click();
  await waitPly(page, before + 1, WAIT_MS);
  await waitPly(page, before + 2);
  await screenshot(page, 'bot-play-instead');
  assertClean(human);
  await human.context.close();
});

test('"Play the computer" starts a game from one row; the bot grants three Undos and says why not to a fourth', async () => {
  const human = await openPlayer(hall.browser, { name: 'Una' });
  const { page } = human;
  await gotoLobby(human, hall.server);
  await byId(page, 'vs-computer-game').selectOption('gomoku');
  await byId(page, 'vs-computer-level').selectOption('1');
  await byId(page, 'vs-computer-order').selectOption('you');
  await byId(page, 'btn-vs-computer').click();
  await byId(page, 'player-name-black').filter({ hasText: human.name }).waitFor({ timeout: WAIT_MS });
  await byId(page, 'bot-badge-white').waitFor({ timeout: WAIT_MS });
  assert.match(await byId(page, 'room-title').textContent(), /Gomoku/);
  const botLines = byId(page, 'chat-list').locator('li.chat-line.bot');
  for (let n = 1; n <= 4; n++) {
    await waitMyTurn(human);
    await byId(page, 'cell-h8').click();
    await waitPly(page, 2);
    await waitMyTurn(human);
    await byId(page, 'btn-undo').click();
    if (n <= 3) {
      // Granted: both moves go, the board is empty again.
      await byId(page, 'move-1').waitFor({ state: 'detached', timeout: BOT_WAIT_MS });
      assert.equal(await byId(page, 'cell-h8').getAttribute('data-stone'), '');
    } else {
      // Refused, with the reason from the bot and the room's own line after it.
      await botLines.filter({ hasText: 'limit of 3 take-backs reached' }).waitFor({ timeout: BOT_WAIT_MS });
      await byId(page, 'chat-note').filter({ hasText: 'declines the take-back' }).waitFor({ timeout: WAIT_MS });
      assert.equal((await moveTexts(page)).length, 2);
    }
  }
  assert.equal(await botLines.filter({ hasText: 'last take-back' }).count(), 1);
  await screenshot(page, 'bot-take-back-refused');
  assertClean(human);
  await human.context.close();
});

/** Registers the guest `player` as an account of its own name from the header's link. */
async function registerAccount(player) {
  const { page } = player;
  await gotoLobby(player, hall.server);
  await byId(page, 'link-register').click();
  await byId(page, 'account-form').waitFor({ timeout: WAIT_MS });
  await byId(page, 'account-name').fill(player.name);
  await byId(page, 'account-password').fill('correct horse 42');
  await byId(page, 'btn-account-submit').click();
  await page.locator('[data-testid="my-name"][data-account="true"]').filter({ hasText: new RegExp(`^${player.name}$`) }).waitFor({ timeout: WAIT_MS });
  await waitOnline(page);
}

test('in a rated game the bot (at full strength) declines a take-back and says why, at each of three sizes', async () => {
  // Three accounts, one at each of issue 52's sizes, each in a rated game of its own against a
  // bot, played side by side (the bots think at the same time).
  const people = [];
  for (const [tag, size] of Object.entries(SIZES)) people.push(await openPlayer(hall.browser, { name: `Rae${tag}`, ...size }));
  for (const p of people) {
    await registerAccount(p);
    const { page } = p;
    await openMoreOptions(page);
    await byId(page, 'new-game-kind').selectOption('gomoku');
    await byId(page, 'new-game-opening-rule').selectOption('none');
    await byId(page, 'new-game-clock').selectOption('none');
    await byId(page, 'new-game-opp-bot').check();
    await byId(page, 'new-game-seat').selectOption('black');
    await byId(page, 'new-game-rated').check();
    await byId(page, 'btn-new-game').click();
    await byId(page, 'player-name-black').filter({ hasText: p.name }).waitFor({ timeout: WAIT_MS });
    await byId(page, 'bot-badge-white').waitFor({ timeout: WAIT_MS });
  }
  for (const p of people) await playCell(p, 'h8', 'black', [p]);
  for (const p of people) {
    const { page } = p;
    await waitPly(page, 2);
    await waitMyTurn(p);
    await byId(page, 'btn-undo').click();
  }
  for (const p of people) {
    const { page } = p;
    // Refused at once, with the bot's reason and the room's own line; both moves stay.
    const reason = byId(page, 'chat-list').locator('li.chat-line.bot').filter({ hasText: 'I decline the take-back: rated game.' });
    await reason.waitFor({ timeout: BOT_WAIT_MS });
    await byId(page, 'chat-note').filter({ hasText: 'declines the take-back' }).waitFor({ timeout: WAIT_MS });
    assert.equal((await moveTexts(page)).length, 2);
    // The reason can be read in the window (and the page is no wider than it).
    await reason.scrollIntoViewIfNeeded();
    const seen = await reason.evaluate((e) => {
      const r = e.getBoundingClientRect();
      return { inside: r.height > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth, wide: document.documentElement.scrollWidth <= innerWidth };
    });
    assert.deepEqual(seen, { inside: true, wide: true }, `${p.name}: the bot's reason in the window`);
  }
  await screenshot(people[2].page, 'bot-rated-take-back-phone');
  assertClean(...people);
  for (const p of people) await p.context.close();
});
