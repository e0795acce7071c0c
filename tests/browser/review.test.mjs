// Browser test of the engine review after a game: a real bot process reviews a finished Gomoku game as the analysis worker; the page draws the evaluation graph with the losing move marked, shows the engine's line on the board, plays a variation and goes back, and a later watcher sees the stored review.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  startServer, startBot, launchBrowser, freshDir, removeDir, openPlayer, assertClean, screenshot, byId,
  createRoom, openRoom, playCell, seriousViolations, assertShown, SIZES, WAIT_MS,
} from './harness.mjs';

/** The screenshot web-client/README.md shows: rewritten when UPDATE_README_IMAGES=1. */
const README_IMAGES = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web-client', 'docs');
/** A review of nine positions at the bot's 200 ms a position, with room for a slow machine. */
const REVIEW_WAIT_MS = 60_000;

let dataDir;
let server;
let bot;
let browser;

before(async () => {
  dataDir = await freshDir('kibitz-browser-review-');
  server = await startServer({ dataDir });
  bot = startBot(server, { name: 'Reviewer', stateFile: join(dataDir, 'bot.json') });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await bot?.stop();
  await server?.stop();
  await removeDir(dataDir);
});

/** Fails unless the evaluation in words, the sentence on the better move and its mark on the
 *  board can each be brought into `player`'s window (and the page is no wider than it). */
async function assertBetterShown(player, better) {
  assert.match(await byId(player.page, 'review-eval').textContent(), /\S/);
  await assertShown(player, ['review-eval'], 'the evaluation in words');
  await assertShown(player, ['review-better'], 'the better move, in words');
  await assertShown(player, [`better-${better}`], 'the better move, on the board');
}

test('a finished game is reviewed: graph, the mistake marked, the best line, a variation', async () => {
  // Issue 52's sizes: Ann at 1280x800, Ben (who asks for the review) at 1366x768, the later
  // watcher Cy on a phone.
  const ann = await openPlayer(browser, { name: 'Ann', ...SIZES.desk800 });
  const ben = await openPlayer(browser, { name: 'Ben', ...SIZES.desk768 });
  const both = [ann, ben];
  const room = await createRoom(ann, server, { game: 'gomoku', seat: 'black' });
  await openRoom(ben, server, room);
  await byId(ann.page, 'player-name-white').filter({ hasText: 'Ben' }).waitFor({ timeout: WAIT_MS });
  // White leaves black's open three (a1 instead of a block), and black wins in two moves.
  const black = ['h8', 'i8', 'j8', 'k8', 'l8'];
  const white = ['h9', 'i9', 'a1', 'a2'];
  for (let i = 0; i < black.length; i++) {
    await playCell(ann, black[i], 'black', both);
    if (white[i]) await playCell(ben, white[i], 'white', both);
  }

  const { page } = ben;
  await byId(page, 'game-over-dialog').waitFor({ timeout: WAIT_MS });
  await byId(page, 'btn-over-review').click();
  // Both players see the graph once the bot has answered for every position.
  for (const p of both) await byId(p.page, 'eval-graph').waitFor({ timeout: REVIEW_WAIT_MS });
  const points = page.locator('[data-testid="eval-graph"] circle[role="button"]');
  assert.equal(await points.count(), 9);

  // White's a1 (the sixth move, from position 5) is the mistake, on the graph and in the list.
  const mistake = byId(page, 'eval-mistake-5');
  await mistake.waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(page, 'move-6').getAttribute('data-mark'), 'mistake');
  // Keyboard: the point takes the focus and Enter shows its position.
  await mistake.focus();
  await page.keyboard.press('Enter');
  assert.equal(await byId(page, 'move-5').getAttribute('aria-current'), 'step');
  assert.match(await byId(page, 'review-mark').textContent(), /mistake/);
  const pv = (await byId(page, 'review-pv').textContent()).split(' ');
  assert.ok(pv.length >= 1 && /^[a-o]\d+$/.test(pv[0]), `a best line: ${pv}`);
  // The line's first move is a numbered ghost stone on the board.
  const ghost = byId(page, `best-${pv[0]}`);
  await ghost.waitFor({ state: 'attached', timeout: WAIT_MS });
  // The review panel passes the accessibility audit too (see a11y.test.mjs for the others).
  assert.deepEqual(await seriousViolations(page), []);
  // The evaluation in words, with its scale.
  assert.match(await byId(page, 'review-eval').textContent(), /^(black|white) (wins in \d+|has a forced win)$|^[+−]?\d+\.\d: (black is better|white is better|level)$/);
  // The position after the mistake says what should have been played instead of it.
  await byId(page, 'move-6').click();
  assert.equal(await byId(page, 'review-better').textContent(), `a1 was a mistake: ${pv[0]} was better.`);
  // …and draws it on the board, where it would have gone.
  await byId(page, `better-${pv[0]}`).waitFor({ state: 'attached', timeout: WAIT_MS });
  await assertBetterShown(ben, pv[0]);
  await byId(page, 'move-5').click();

  if (process.env.UPDATE_README_IMAGES === '1') {
    await mkdir(README_IMAGES, { recursive: true });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(README_IMAGES, 'review.png'), animations: 'disabled', scale: 'css' });
  }
  await screenshot(page, 'review');

  // A variation: white blocks at k8 this time, on the page alone.
  await byId(page, 'cell-k8').click();
  await byId(page, 'variation').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(page, 'variation-moves').textContent(), 'k8');
  assert.equal(await page.locator('[data-testid="cell-k8"][data-stone="white"]').count(), 1);
  // An occupied point is no move.
  await byId(page, 'cell-h8').click();
  assert.equal(await byId(page, 'variation-moves').textContent(), 'k8');
  await byId(page, 'cell-g8').click();
  assert.equal(await byId(page, 'variation-moves').textContent(), 'k8 g8');
  await screenshot(page, 'review-variation');
  await byId(page, 'btn-variation-back').click();
  await byId(page, 'variation').waitFor({ state: 'detached', timeout: WAIT_MS });
  assert.equal(await page.locator('[data-testid="cell-k8"][data-stone="white"]').count(), 0);

  // A later watcher gets the stored review without asking.
  const cy = await openPlayer(browser, { name: 'Cy' });
  await openRoom(cy, server, room);
  await byId(cy.page, 'eval-graph').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(cy.page, 'eval-mistake-5').count(), 1);
  // The words and the better move at each of the other sizes too: Ann's laptop, Cy's phone.
  for (const p of [ann, cy]) {
    // Ann's game-over dialog is still up: Escape closes it.
    if (await byId(p.page, 'game-over-dialog').isVisible()) {
      await p.page.keyboard.press('Escape');
      await byId(p.page, 'game-over-dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });
    }
    await byId(p.page, 'move-6').scrollIntoViewIfNeeded();
    await byId(p.page, 'move-6').click();
    await byId(p.page, 'review-better').filter({ hasText: `a1 was a mistake: ${pv[0]} was better.` }).waitFor({ timeout: WAIT_MS });
    await byId(p.page, `better-${pv[0]}`).waitFor({ state: 'attached', timeout: WAIT_MS });
    await assertBetterShown(p, pv[0]);
  }

  assertClean(ann, ben, cy);
  for (const p of [ann, ben, cy]) await p.context.close();
});
