// Browser tests of the opening explorer (`/?explorer=…`): three Connect Four games played to their end by wire players, then the explorer reached from the header, Connect Four chosen, the first move's counts, a move from the table and one from the board, a filter, the state restored from the address on a reload, a refused line's error (at 1280x800), the way back along the line (mouse and keyboard), the link from a finished game's replay, the axe audit, the page within the window at 1280x720, 1366x768 and on a phone; then a plain freestyle game and two swap2 games (one swapped, one stayed) and the opening-rule filter: swap2's games under swap2 only, through the stones its decisions placed, the rule in the address (the server's `@` key read too), kept by a game that has it and dropped by one that has not, renju's rules, no filter for Connect Four, at 1280x720 and on a phone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, openPlayer, assertClean, assertInView, assertShown, screenshot, byId, gotoLobby, waitOnline, openRoom,
  seriousViolations, SIZES, WAIT_MS,
} from './harness.mjs';
import { livePair } from './wire.mjs';

const C4 = { kind: 'connect4', cols: 7, rows: 6, blocked: [] };
const DESK720 = { viewport: { width: 1280, height: 720 } };
const hall = useHall('explorer');

/** A Connect Four game between two wire players: `moves` played in turn, then (when `resign`
 *  names a colour) that side resigns; resolves with the room once the game is over. */
async function playGame(names, moves, resign = null) {
  const { room, black, white } = await livePair(hall.browser, hall.server, C4, names);
  for (const [k, move] of moves.entries()) {
    await (k % 2 === 0 ? black : white).send({ t: 'move', room, move });
    await black.waitFor('moved', { room, ply: k + 1 });
  }
  if (resign) await (resign === 'black' ? black : white).send({ t: 'resign', room });
  await black.waitFor('over', { room });
  await black.close();
  await white.close();
  return room;
}

/** Waits until the explorer's table part stands at `moves` (a comma-separated line) in `state`
 *  ('rows', 'empty', 'deep', 'over', 'error'). */
function waitBody(page, moves, state) {
  return page.locator(`[data-testid="explorer-body"][data-moves="${moves}"][data-state="${state}"]`).waitFor({ timeout: WAIT_MS });
}

/** A row of the table as numbers: { games, black, draws, white }. */
async function row(page, move) {
  const r = byId(page, `explorer-row-${move}`);
  const [games, black, draws, white] = await Promise.all(['games', 'black', 'draws', 'white'].map((k) => r.getAttribute(`data-${k}`)));
  return { games: Number(games), black: Number(black), draws: Number(draws), white: Number(white) };
}

/** The moves of the table, in order. */
const tableMoves = (page) => page.locator('[data-testid^="explorer-row-"]').evaluateAll((rows) => rows.map((r) => r.dataset.move));

/** The data-testid of the element that has the focus. */
const focused = (page) => page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName);

/** Fails on any serious axe finding or a page without exactly one h1. */
async function audit(player, where) {
  const found = await seriousViolations(player.page, { also: ['aria-allowed-role', 'page-has-heading-one'] });
  assert.deepEqual(found, [], `${where}: ${JSON.stringify(found, null, 1)}`);
  assert.equal(await player.page.locator('h1').count(), 1, `${where}: one h1`);
}

let finished = null;

test('three finished Connect Four games are in the explorer: counts, a move from the table and the board, a filter, the address', async () => {
  // Black wins up column 4; black wins along the bottom row after 4 4; black resigns after 3 3.
  const up = await playGame(['Ada', 'Bo'], ['4', '5', '4', '5', '4', '5', '4']);
  finished = await playGame(['Cy', 'Di'], ['4', '4', '3', '3', '5', '5', '6']);
  await playGame(['Ed', 'Flo'], ['3', '3'], 'black');
  assert.ok(up);

  const ann = await openPlayer(hall.browser, { name: 'Ann', ...DESK720 });
  const { page } = ann;
  await gotoLobby(ann, hall.server);
  await byId(page, 'header-link-explorer').click();
  await page.waitForURL(/\?explorer=gomoku-freestyle$/, { timeout: WAIT_MS });
  // No Gomoku game has been played: the table says so.
  await waitBody(page, '', 'empty');
  assert.match(await byId(page, 'explorer-empty').textContent(), /No game of the hall went through this position/);
  assert.equal(await byId(page, 'explorer-tab-gomoku-freestyle').getAttribute('aria-current'), 'page');

  // Connect Four: the first moves, the most played first.
  await byId(page, 'explorer-tab-connect4').click();
  await page.waitForURL(/\?explorer=connect4$/, { timeout: WAIT_MS });
  await waitBody(page, '', 'rows');
  assert.deepEqual(await tableMoves(page), ['4', '3']);
  assert.deepEqual(await row(page, '4'), { games: 2, black: 2, draws: 0, white: 0 });
  assert.deepEqual(await row(page, '3'), { games: 1, black: 0, draws: 0, white: 1 });
  assert.match(await byId(page, 'explorer-status').textContent(), /Start position · Black to move · 3 games/);
  assert.match(await byId(page, 'explorer-row-4').textContent(), /Black won 2, 0 drawn, White won 0/);
  await assertInView(ann, ['board', 'explorer-table', 'explorer-filter-rated', 'explorer-status', 'header-link-explorer'], 'the explorer at 1280x720');
  await audit(ann, 'explorer at 1280x720');

  // A move from the table, then one on the board (a click on column 5).
  await byId(page, 'explorer-move-4').click();
  await waitBody(page, '4', 'rows');
  assert.deepEqual((await tableMoves(page)).sort(), ['4', '5']);
  assert.deepEqual(await row(page, '5'), { games: 1, black: 1, draws: 0, white: 0 });
  assert.match(await byId(page, 'explorer-status').textContent(), /After 1\. 4 · White to move · 2 games/);
  await page.locator('[data-testid="cell-d1"][data-stone="black"]').waitFor({ state: 'attached', timeout: WAIT_MS });
  await byId(page, 'col-5').click();
  await waitBody(page, '4,5', 'rows');
  assert.deepEqual(await tableMoves(page), ['4']);
  await page.waitForURL(/\?explorer=connect4&moves=4,5$/, { timeout: WAIT_MS });
  await screenshot(page, 'explorer-desktop');

  // Rated games only: none of these was rated.
  await byId(page, 'explorer-filter-rated').selectOption('yes');
  await waitBody(page, '4,5', 'empty');
  assert.match(await byId(page, 'explorer-empty').textContent(), /with these filters/);
  await page.waitForURL(/\?explorer=connect4&moves=4,5&rated=yes$/, { timeout: WAIT_MS });

  // A reload by the address: the same game, line and filter.
  await page.reload();
  await waitOnline(page);
  await waitBody(page, '4,5', 'empty');
  assert.equal(await byId(page, 'explorer-filter-rated').inputValue(), 'yes');
  assert.equal(await byId(page, 'explorer-tab-connect4').getAttribute('aria-current'), 'page');
  assert.equal(await page.locator('[data-testid="cell-e1"][data-stone="white"]').count(), 1, 'the line is on the board');
  await byId(page, 'explorer-filter-rated').selectOption('no');
  await byId(page, 'explorer-filter-bots').selectOption('no');
  await waitBody(page, '4,5', 'rows');
  assert.deepEqual(await row(page, '4'), { games: 1, black: 1, draws: 0, white: 0 });
  // Another game's tab keeps the filters, from its start position.
  assert.match(await byId(page, 'explorer-tab-othello').getAttribute('href'), /\?explorer=othello&rated=no&bots=no$/);

  // Back along the line: its first move, then the start.
  await byId(page, 'explorer-ply-1').click();
  await waitBody(page, '4', 'rows');
  await byId(page, 'explorer-back').click();
  await waitBody(page, '', 'rows');
  assert.equal(await byId(page, 'explorer-back').isDisabled(), true);
  await page.waitForURL(/\?explorer=connect4&rated=no&bots=no$/, { timeout: WAIT_MS });

  // From the keyboard: Enter on a move of the table plays it and leaves the focus in the
  // table; ← goes back.
  await byId(page, 'explorer-move-3').focus();
  await page.keyboard.press('Enter');
  await waitBody(page, '3', 'rows');
  assert.equal(await focused(page), 'explorer-move-3', 'the focus on the new table\'s first move');
  // Black resigned there: no game went on from it, and the focus waits on the table's place.
  await page.keyboard.press('Enter');
  await waitBody(page, '3,3', 'empty');
  assert.equal(await focused(page), 'explorer-body');
  await page.keyboard.press('ArrowLeft');
  await waitBody(page, '3', 'rows');

  assertClean(ann);
  await ann.context.close();
});

test('a line the server refuses says why', async () => {
  // Chromium itself logs the refused request (400): the page cannot prevent that line.
  const ben = await openPlayer(hall.browser, { name: 'Ben', ...SIZES.desk800, allowConsole: [/status of 400/] });
  await ben.page.goto(`${hall.server.url}?explorer=connect4&moves=4,9`);
  await waitBody(ben.page, '4,9', 'error');
  assert.match(await byId(ben.page, 'explorer-error').textContent(), /move 2 \("9"\): 9 is off the board/);
  assert.equal(await byId(ben.page, 'explorer-error').getAttribute('role'), 'alert');
  await assertInView(ben, ['explorer-error', 'explorer-back'], 'the error and the way back');
  // Back from there is a line the server knows.
  await byId(ben.page, 'explorer-back').click();
  await waitBody(ben.page, '4', 'rows');
  assertClean(ben);
  await ben.context.close();
});

test('a finished game\'s replay links to the explorer at the position on show', async () => {
  assert.ok(finished, 'the first test played the games');
  const cleo = await openPlayer(hall.browser, { name: 'Cleo', ...SIZES.desk768 });
  const { page } = cleo;
  // A game under way has no link.
  const live = await livePair(hall.browser, hall.server, C4, ['Gus', 'Hal']);
  await openRoom(cleo, hall.server, live.room);
  await byId(page, 'player-name-white').filter({ hasText: 'Hal' }).waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(page, 'link-explore').count(), 0);

  await openRoom(cleo, hall.server, finished);
  await byId(page, 'link-explore').waitFor({ timeout: WAIT_MS });
  assert.match(await byId(page, 'link-explore').getAttribute('href'), /\?explorer=connect4&moves=4,4,3,3,5,5,6$/);
  // The replay at move 2: the link follows.
  await byId(page, 'move-2').click();
  await page.waitForFunction(() => /moves=4,4$/.test(document.querySelector('[data-testid="link-explore"]')?.getAttribute('href')), null, { timeout: WAIT_MS });
  await assertInView(cleo, ['link-explore'], 'the link beside the replay');
  await byId(page, 'link-explore').click();
  await page.waitForURL(/\?explorer=connect4&moves=4,4$/, { timeout: WAIT_MS });
  await waitBody(page, '4,4', 'rows');
  assert.deepEqual(await tableMoves(page), ['3']);
  await assertInView(cleo, ['board', 'explorer-table', 'explorer-line'], 'the explorer at 1366x768');
  assert.equal(await byId(page, 'explorer-ply-2').getAttribute('aria-current'), 'step');
  await live.black.close();
  await live.white.close();
  assertClean(cleo);
  await cleo.context.close();
});

test('on a phone the explorer fits the width, its board and table within reach; axe finds nothing serious', async () => {
  const pia = await openPlayer(hall.browser, { name: 'Pia', ...SIZES.phone });
  const { page } = pia;
  await page.goto(`${hall.server.url}?explorer=connect4&moves=4`);
  await waitOnline(page);
  await waitBody(page, '4', 'rows');
  await assertInView(pia, ['board'], 'the board on a phone');
  // A tap on a column plays it, as a click does.
  await byId(page, 'col-4').tap();
  await waitBody(page, '4,4', 'rows');
  await byId(page, 'explorer-table').scrollIntoViewIfNeeded();
  await assertInView(pia, ['explorer-table', 'explorer-move-3'], 'the table on a phone');
  await byId(page, 'explorer-filter-bots').scrollIntoViewIfNeeded();
  await assertInView(pia, ['explorer-filter-bots', 'explorer-line'], 'the filters and the line on a phone');
  await screenshot(page, 'explorer-phone');
  await audit(pia, 'explorer on a phone');
  // Othello and renju boards too: the legal squares, the forbidden points.
  await page.goto(`${hall.server.url}?explorer=othello`);
  await waitBody(page, '', 'empty');
  assert.equal(await page.locator('[data-testid^="legal-"]').count(), 4);
  await byId(page, 'cell-f5').tap();
  await waitBody(page, 'f5', 'empty');
  await audit(pia, 'othello explorer on a phone');
  assertClean(pia);
  await pia.context.close();
});

/** A Gomoku game of `rule` (an opening rule or none) between two wire players, the first one
 *  seated black: `steps` are [who, text] with who 'first' or 'second' (a stone or a choice of
 *  the opening, sent as a move), then `resigns` ('first' or 'second') resigns; resolves with
 *  the room once the game is over. */
async function playGomoku(names, openingRule, steps, resigns) {
  const game = { kind: 'gomoku', size: 15, rule: 'freestyle', ...(openingRule ? { opening_rule: openingRule } : {}) };
  const { room, black: first, white: second } = await livePair(hall.browser, hall.server, game, names);
  const by = { first, second };
  for (const [k, [who, move]] of steps.entries()) {
    await by[who].send({ t: 'move', room, move });
    await first.waitFor('moved', { room, ply: k + 1 });
  }
  await by[resigns].send({ t: 'resign', room });
  await first.waitFor('over', { room });
  await first.close();
  await second.close();
  return room;
}

test('the opening-rule filter: swap2 games counted under swap2 only, the rule in the address, dropped by a game without it', async () => {
  // A plain freestyle game, then two swap2 games with the same three stones: one swapped (the
  // first player, now white, places the 4th stone and resigns: black wins), one stayed (the
  // first player, still black, resigns after the 5th: white wins).
  await playGomoku(['Gil', 'Hu'], null, [['first', 'h8'], ['second', 'i9'], ['first', 'h9']], 'second');
  const opening = [['first', 'h8'], ['first', 'j9'], ['first', 'i7']];
  await playGomoku(['Ivy', 'Jo'], 'swap2', [...opening, ['second', 'swap'], ['first', 'k10'], ['second', 'g6']], 'first');
  await playGomoku(['Kai', 'Lu'], 'swap2', [...opening, ['second', 'stay'], ['second', 'k10'], ['first', 'g6']], 'first');

  const ann = await openPlayer(hall.browser, { name: 'Nia', ...DESK720 });
  const { page } = ann;
  await page.goto(`${hall.server.url}?explorer=gomoku-freestyle`);
  await waitOnline(page);
  // Without a rule: the plain game only.
  await waitBody(page, '', 'rows');
  assert.deepEqual(await tableMoves(page), ['h8']);
  assert.deepEqual(await row(page, 'h8'), { games: 1, black: 1, draws: 0, white: 0 });
  const select = byId(page, 'explorer-filter-opening');
  assert.equal(await select.inputValue(), 'none');
  assert.deepEqual(await select.locator('option').allTextContents(), ['None (free opening)', 'Swap2']);

  // Swap2: its two games, the stones its decisions placed; a swap or a stay is no move.
  await select.selectOption('swap2');
  await page.waitForURL(/\?explorer=gomoku-freestyle&opening=swap2$/, { timeout: WAIT_MS });
  await page.locator('[data-testid="explorer-body"][data-opening="swap2"][data-state="rows"]').waitFor({ timeout: WAIT_MS });
  assert.deepEqual(await tableMoves(page), ['h8']);
  assert.deepEqual(await row(page, 'h8'), { games: 2, black: 1, draws: 0, white: 1 });
  assert.match(await byId(page, 'explorer-status').textContent(), /Start position · Black to move · 2 games/);
  await assertInView(ann, ['board', 'explorer-filter-opening', 'explorer-filter-rated', 'explorer-table'], 'the opening-rule filter at 1280x720');
  await audit(ann, 'explorer with the opening-rule filter at 1280x720');
  for (const move of ['h8', 'j9', 'i7']) await byId(page, `explorer-move-${move}`).click();
  await waitBody(page, 'h8,j9,i7', 'rows');
  assert.deepEqual(await row(page, 'k10'), { games: 2, black: 1, draws: 0, white: 1 });
  await page.waitForURL(/\?explorer=gomoku-freestyle&opening=swap2&moves=h8,j9,i7$/, { timeout: WAIT_MS });

  // Standard has swap2 too; renju and Connect Four have not: their tabs drop it.
  assert.match(await byId(page, 'explorer-tab-gomoku-standard').getAttribute('href'), /\?explorer=gomoku-standard&opening=swap2$/);
  assert.match(await byId(page, 'explorer-tab-gomoku-renju').getAttribute('href'), /\?explorer=gomoku-renju$/);
  assert.match(await byId(page, 'explorer-tab-connect4').getAttribute('href'), /\?explorer=connect4$/);

  // The server's @ key is an address too, written back as the filter; a reload keeps it.
  await page.goto(`${hall.server.url}?explorer=gomoku-freestyle@swap2&moves=h8`);
  await waitOnline(page);
  await waitBody(page, 'h8', 'rows');
  await page.waitForURL(/\?explorer=gomoku-freestyle&opening=swap2&moves=h8$/, { timeout: WAIT_MS });
  assert.equal(await select.inputValue(), 'swap2');
  assert.deepEqual(await row(page, 'j9'), { games: 2, black: 1, draws: 0, white: 1 });
  await page.reload();
  await waitOnline(page);
  await waitBody(page, 'h8', 'rows');
  assert.equal(await select.inputValue(), 'swap2');
  // Back to no rule: the plain game's 2nd move, none of swap2's.
  await select.selectOption('none');
  await page.locator('[data-testid="explorer-body"][data-opening="none"][data-moves="h8"][data-state="rows"]').waitFor({ timeout: WAIT_MS });
  assert.deepEqual(await tableMoves(page), ['i9']);
  await page.waitForURL(/\?explorer=gomoku-freestyle&moves=h8$/, { timeout: WAIT_MS });

  // Renju's rules; Connect Four has none and no filter.
  await byId(page, 'explorer-tab-gomoku-renju').click();
  await waitBody(page, '', 'empty');
  assert.deepEqual(await select.locator('option').allTextContents(), ['None (free opening)', 'Soosõrv-8', 'Taraguchi-10']);
  await select.selectOption('taraguchi10');
  await page.waitForURL(/\?explorer=gomoku-renju&opening=taraguchi10$/, { timeout: WAIT_MS });
  await page.locator('[data-testid="explorer-body"][data-opening="taraguchi10"][data-state="empty"]').waitFor({ timeout: WAIT_MS });
  assert.match(await byId(page, 'explorer-empty').textContent(), /with these filters/);
  await byId(page, 'explorer-tab-connect4').click();
  await page.waitForURL(/\?explorer=connect4$/, { timeout: WAIT_MS });
  await waitBody(page, '', 'rows');
  assert.equal(await select.isVisible(), false, 'no opening rule for Connect Four');
  assertClean(ann);
  await ann.context.close();

  // On a phone: the filter within reach, axe content.
  const pia = await openPlayer(hall.browser, { name: 'Pat', ...SIZES.phone });
  await pia.page.goto(`${hall.server.url}?explorer=gomoku-freestyle&opening=swap2&moves=h8`);
  await waitOnline(pia.page);
  await waitBody(pia.page, 'h8', 'rows');
  await assertShown(pia, ['explorer-filter-opening'], 'the opening-rule filter on a phone');
  await assertShown(pia, ['explorer-table'], 'the swap2 table on a phone');
  await screenshot(pia.page, 'explorer-swap2-phone');
  await audit(pia, 'explorer with the opening-rule filter on a phone');
  assertClean(pia);
  await pia.context.close();
});
