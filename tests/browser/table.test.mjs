// Browser tests of the player's table: the game-over dialog (in view on a laptop and a phone, keyboard and screen-reader friendly), offers that name the player, and the replay of a finished game (its result, Othello disc counts, the move list following the move on show).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  useHall, openPlayer, assertClean, screenshot, byId, createRoom, openRoom, playCell, waitMyTurn,
  assertInView, SIZES, WAIT_MS,
} from './harness.mjs';
import { replay, othelloLegal, stoneOf, countDiscs, cellName } from '../../web-client/js/rules.js';

const PHONE = SIZES.phone.viewport;
const DESK = SIZES.desk800.viewport;
/** The screenshots web-client/README.md shows: rewritten when UPDATE_README_IMAGES=1. */
const README_IMAGES = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web-client', 'docs');

const hall = useHall('table');

/** Whether the element of `testid` lies wholly inside the page's viewport. */
function inViewport(page, testid) {
  return byId(page, testid).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
  });
}

/** Whether the element of `testid` lies wholly inside the move list's scrolled window. */
function inMoveList(page, testid) {
  return byId(page, testid).evaluate((el) => {
    const list = el.closest('[data-testid="move-list"]').getBoundingClientRect();
    const r = el.getBoundingClientRect();
    return r.top >= list.top - 1 && r.bottom <= list.bottom + 1;
  });
}

/** The data-testid of the element that has the focus. */
const focused = (page) => page.evaluate(() => document.activeElement?.dataset?.testid ?? document.activeElement?.tagName);

/** A viewport screenshot in artifacts/, and in web-client/docs/ when asked to refresh those. */
async function dialogShot(page, file) {
  await screenshot(page, file);
  if (process.env.UPDATE_README_IMAGES === '1') {
    await mkdir(README_IMAGES, { recursive: true });
    await page.mouse.move(0, 0);
    await page.screenshot({ path: join(README_IMAGES, `${file}.png`), animations: 'disabled', scale: 'css' });
  }
}

test('a game to five ends in a dialog in view on a laptop and a phone; offers name the player; the replay follows', async () => {
  const dana = await openPlayer(hall.browser, { name: 'Dana', viewport: DESK });
  const pete = await openPlayer(hall.browser, { name: 'Pete', viewport: PHONE, mobile: true });
  const both = [dana, pete];
  const room = await createRoom(dana, hall.server, { game: 'gomoku', seat: 'black' });
  await openRoom(pete, hall.server, room);
  await byId(dana.page, 'player-name-white').filter({ hasText: 'Pete' }).waitFor({ timeout: WAIT_MS });

  // Black: rows 1 and 5, white: rows 3 and 7, spread out; black's fifth on row 5 wins at move 25.
  const cols = 'acegikmo'.split('');
  const black = [...cols.map((c) => `${c}1`), 'a5', 'b5', 'c5', 'd5', 'e5'];
  const white = [...cols.map((c) => `${c}3`), 'a7', 'c7', 'e7', 'g7'];
  for (let i = 0; i < white.length; i++) {
    await playCell(dana, black[i], 'black', both);
    if (i === 1) {
      // Offers say who makes them.
      await byId(dana.page, 'btn-undo').click();
      const undo = byId(pete.page, 'undo-offer');
      await undo.waitFor({ timeout: WAIT_MS });
      assert.equal(await undo.textContent().then((s) => s.split('.')[0]), 'Dana asks to take back a move');
      await byId(pete.page, 'btn-decline-undo').click();
      await waitMyTurn(pete);
      await byId(pete.page, 'btn-draw').click();
      const draw = byId(dana.page, 'draw-offer');
      await draw.waitFor({ timeout: WAIT_MS });
      assert.match(await draw.textContent(), /^Pete offers a draw\./);
      assert.equal(await draw.getAttribute('aria-label'), 'Pete offers a draw.');
      await byId(dana.page, 'btn-decline-draw').click();
      await draw.waitFor({ state: 'hidden', timeout: WAIT_MS });
    }
    await playCell(pete, white[i], 'white', both);
  }
  await playCell(dana, black.at(-1), 'black', both);

  // The dialog, on both screens, wholly in view, for assistive technology a modal dialog.
  for (const [p, head] of [[dana, 'You win!'], [pete, 'You lose.']]) {
    const dialog = byId(p.page, 'game-over-dialog');
    await dialog.waitFor({ timeout: WAIT_MS });
    assert.equal(await inViewport(p.page, 'game-over-dialog'), true, `${p.name}: the dialog is not in view`);
    assert.equal(await dialog.getAttribute('role'), 'dialog');
    assert.equal(await dialog.getAttribute('aria-modal'), 'true');
    const title = p.page.locator(`#${await dialog.getAttribute('aria-labelledby')}`);
    assert.equal(await title.textContent(), head);
    assert.equal(await byId(p.page, 'over-dialog-reason').textContent(), 'five in a row');
    assert.equal(await p.page.locator('[data-testid^="over-dialog-rating"]').count(), 0, 'no rating line in a game that is not rated');
    for (const id of ['btn-over-rematch', 'btn-over-review', 'btn-over-lobby']) {
      assert.equal(await inViewport(p.page, id), true, `${p.name}: ${id} is not in view`);
    }
    assert.equal(await focused(p.page), 'btn-over-rematch');
  }
  await dialogShot(dana.page, 'game-over-desktop');
  await dialogShot(pete.page, 'game-over-phone');

  // The keyboard stays in the dialog, Escape closes it, the focus goes back to the board.
  const { page } = dana;
  const inside = [];
  for (let k = 0; k < 5; k++) {
    await page.keyboard.press('Tab');
    inside.push(await focused(page));
  }
  assert.deepEqual(inside, ['btn-over-review', 'btn-over-lobby', 'btn-over-close', 'btn-over-rematch', 'btn-over-review']);
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(page), 'btn-over-rematch');
  await page.keyboard.press('Escape');
  await byId(page, 'game-over-dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });
  assert.equal(await focused(page), 'board');

  // The phone reviews: the replay says how the game ended, never that it goes on.
  await byId(pete.page, 'btn-over-review').click();
  await byId(pete.page, 'game-over-dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });
  const status = await byId(pete.page, 'status').textContent();
  assert.match(status, /^Viewing the start \(ply 0 of 25\) — game over: You lose\./);
  assert.doesNotMatch(status, /goes on/);
  assert.equal(await focused(pete.page), 'btn-next');
  // On the phone too the replay numbers the move as the list does: ply 1 is black's 1st, "1. a1".
  await byId(pete.page, 'btn-next').click();
  await byId(pete.page, 'status').filter({ hasText: /^Viewing 1\. a1 \(ply 1 of 25\) — game over: You lose\./ }).waitFor({ timeout: WAIT_MS });
  // ... with the board, the status and the buttons that step it all in view at once (the focus
  // on "next" scrolled the board out of sight).
  await assertInView(pete, ['status', 'board', 'btn-prev', 'btn-next'], 'the replay');

  // The move list (13 rows, it scrolls) keeps the move on show in its window.
  await byId(page, 'btn-first').click();
  await byId(page, 'btn-next').click();
  assert.equal(await byId(page, 'move-1').getAttribute('aria-current'), 'step');
  assert.equal(await inMoveList(page, 'move-1'), true, 'move 1 is scrolled out of the list');
  assert.ok(await byId(page, 'move-list').evaluate((l) => l.scrollHeight > l.clientHeight), 'the move list does not scroll');
  await byId(page, 'btn-last').click();
  assert.equal(await inMoveList(page, 'move-25'), true, 'the last move is scrolled out of the list');
  for (let k = 0; k < 12; k++) await byId(page, 'btn-prev').click();
  assert.equal(await byId(page, 'move-13').getAttribute('aria-current'), 'step');
  assert.equal(await inMoveList(page, 'move-13'), true, 'move 13 is scrolled out of the list');
  // The status names the move as the list does: ply 13 is black's 7th, "7. m1".
  assert.match(await byId(page, 'status').textContent(), /^Viewing 7\. m1 \(ply 13 of 25\) — game over: You win!/);
  assert.equal(await byId(page, 'move-13').textContent(), 'm1');
  assert.match(await byId(page, 'move-13').evaluate((b) => b.closest('li').querySelector('.num').textContent), /^7\.$/);
  // The page itself never scrolled for it.
  assert.equal(await page.evaluate(() => scrollY), 0);
  await assertInView(dana, ['status', 'move-13'], 'the replay, unscrolled');
  assertClean(...both);
  for (const p of both) await p.context.close();
});

test('an Othello game that ended by resignation replays with its result and the disc counts of each position', async () => {
  // Otto, who replays it, at 1366x768.
  const olga = await openPlayer(hall.browser, { name: 'Olga', ...SIZES.desk800 });
  const otto = await openPlayer(hall.browser, { name: 'Otto', ...SIZES.desk768 });
  const both = [olga, otto];
  const game = { kind: 'othello' };
  const room = await createRoom(olga, hall.server, { game: 'othello', seat: 'black' });
  await openRoom(otto, hall.server, room);
  await byId(olga.page, 'player-name-white').filter({ hasText: 'Otto' }).waitFor({ timeout: WAIT_MS });
  // Four moves, each the first legal one.
  const moves = [];
  for (let i = 0; i < 4; i++) {
    const pos = replay(game, moves).at(-1);
    const move = cellName(game, othelloLegal(pos.cells, stoneOf(pos.toMove))[0]);
    await playCell(i % 2 === 0 ? olga : otto, move, pos.toMove, both);
    moves.push(move);
  }
  const positions = replay(game, moves);
  await waitMyTurn(olga);
  await byId(olga.page, 'btn-resign').click();
  await byId(olga.page, 'btn-resign-confirm').click();
  await byId(otto.page, 'game-over-dialog').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(otto.page, 'over-dialog-reason').textContent(), 'by resignation');
  await otto.page.keyboard.press('Escape');
  await byId(otto.page, 'game-over-dialog').waitFor({ state: 'hidden', timeout: WAIT_MS });

  const { page } = otto;
  const discs = async () => ({
    black: await byId(page, 'discs-black').textContent(),
    white: await byId(page, 'discs-white').textContent(),
  });
  const expected = (k) => {
    const n = countDiscs(positions[k].cells);
    return { black: `${n.black} discs`, white: `${n.white} discs` };
  };
  assert.deepEqual(await discs(), expected(4));
  await byId(page, 'btn-first').click();
  assert.deepEqual(await discs(), expected(0));
  assert.match(await byId(page, 'status').textContent(), /^Viewing the start \(ply 0 of 4\) — game over: You win!/);
  for (let k = 1; k <= 3; k++) {
    await byId(page, 'btn-next').click();
    assert.deepEqual(await discs(), expected(k), `discs at move ${k}`);
  }
  assert.notDeepEqual(expected(1), expected(0));
  // Ply 3 is black's 2nd move: "2. <move>", as the list numbers it.
  assert.match(await byId(page, 'status').textContent(), new RegExp(`^Viewing 2\\. ${moves[2]} \\(ply 3 of 4\\)`));
  await assertInView(otto, ['status', 'board', 'discs-black', 'discs-white', 'btn-next'], 'the replay, unscrolled');
  await screenshot(page, 'othello-replay-finished');
  assertClean(...both);
  for (const p of both) await p.context.close();
});
