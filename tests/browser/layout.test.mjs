// Browser tests of the room's layout: at laptop sizes and on a phone held either way, the board, both player bars, the status line and whatever the game asks or tells the player (the opening rule's buttons, a refusal, the renju note, the result) lie in the window without scrolling.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, openPlayer, assertClean, screenshot, byId, createRoom, openRoom, playCell, waitStone,
  sendRaw, WAIT_MS,
} from './harness.mjs';

const hall = useHall('layout');

const SIZES = [
  { tag: '1280x720', viewport: { width: 1280, height: 720 } },
  { tag: '1280x800', viewport: { width: 1280, height: 800 } },
  { tag: '1366x768', viewport: { width: 1366, height: 768 } },
  { tag: 'phone-portrait', viewport: { width: 390, height: 844 }, mobile: true },
  { tag: 'phone-landscape', viewport: { width: 844, height: 390 }, mobile: true },
];

/** What is always on show to a player: the board, both bars and the status line. */
const ALWAYS = ['[data-testid="board"]', '[data-testid="player-black"]', '[data-testid="player-white"]', '[data-testid="status"]'];

/**
 * Fails unless the page is at its top (no scrolling) and every element of `selectors` is shown
 * and lies wholly inside the window.
 */
async function assertInView(player, selectors, what) {
  const seen = await player.page.evaluate((sels) => ({
    scrollX: window.scrollX,
    scrollY: window.scrollY,
    size: `${innerWidth}x${innerHeight}`,
    boxes: sels.flatMap((sel) => {
      const all = [...document.querySelectorAll(sel)];
      if (!all.length) return [{ sel, missing: true }];
      return all.map((e) => {
        const r = e.getBoundingClientRect();
        return { sel, top: Math.round(r.top), left: Math.round(r.left), bottom: Math.round(r.bottom), right: Math.round(r.right), w: r.width, h: r.height };
      });
    }),
  }), selectors);
  assert.equal(seen.scrollY, 0, `${what}: the page is not scrolled`);
  assert.equal(seen.scrollX, 0, `${what}: the page is not scrolled sideways`);
  const [w, h] = seen.size.split('x').map(Number);
  const out = seen.boxes.filter((b) => b.missing || !(b.w > 0 && b.h > 0) || b.top < 0 || b.left < 0 || b.bottom > h || b.right > w);
  assert.deepEqual(out, [], `${what} (${seen.size}): shown and inside the window: ${JSON.stringify(out)}`);
}

/** `helper` (a 1280x900 laptop) creates a room of `spec` in `seat`; the player at the size under
 *  test opens its link and takes the other seat. */
async function pair(size, tag, spec, helperSeat) {
  const helper = await openPlayer(hall.browser, { name: `Hal${tag}` });
  const tested = await openPlayer(hall.browser, { name: `Tess${tag}`, viewport: size.viewport, mobile: !!size.mobile });
  const room = await createRoom(helper, hall.server, { ...spec, seat: helperSeat });
  await openRoom(tested, hall.server, room);
  const other = helperSeat === 'black' ? 'white' : 'black';
  for (const p of [helper, tested]) {
    await byId(p.page, `player-name-${other}`).filter({ hasText: tested.name }).waitFor({ timeout: WAIT_MS });
  }
  return { helper, tested, room, both: [helper, tested] };
}

/** The tested player's move sent as the page would send it (no click: a click scrolls). */
async function sendMove(player, room, move, stone, everyone) {
  await player.page.locator('svg.board.interactive[data-testid="board"]').waitFor({ timeout: WAIT_MS });
  await sendRaw(player, { t: 'move', room, move, id: `t${move}${Date.now().toString(36)}` });
  await waitStone(everyone, move, stone);
}

for (const size of SIZES) {
  test(`${size.tag}: the swap2 choice's buttons under the board are in view`, async () => {
    const tag = `S${size.tag.replace(/\W/g, '')}`;
    const { helper, tested, both } = await pair(size, tag, { game: 'gomoku', openingRule: 'swap2' }, 'black');
    await playCell(helper, 'h8', 'black', both);
    await playCell(helper, 'j9', 'white', both);
    await playCell(helper, 'i7', 'black', both);
    await tested.page.locator('[data-testid="opening-panel"][data-phase="swap2"][data-mine="true"]').waitFor({ timeout: WAIT_MS });
    await byId(tested.page, 'btn-opening-stay').waitFor({ timeout: WAIT_MS });
    await screenshot(tested.page, `layout-${size.tag}-swap2`);
    await assertInView(tested, [...ALWAYS, '[data-testid="opening-panel"]', '[data-testid="opening-panel"] button'], 'the swap2 choice');
    assertClean(...both);
    for (const p of both) await p.context.close();
  });

  test(`${size.tag}: the renju note, a refusal and the result are in view`, async () => {
    const tag = `R${size.tag.replace(/\W/g, '')}`;
    const { helper, tested, room, both } = await pair(size, tag, { game: 'gomoku', rule: 'renju' }, 'white');
    // Black (the tested player) builds h8 i8 and j10 j9: j8 is then a double three.
    const black = ['h8', 'i8', 'j10', 'j9'];
    const white = ['a1', 'a3', 'a5', 'a7'];
    for (let i = 0; i < black.length; i++) {
      await sendMove(tested, room, black[i], 'black', both);
      await playCell(helper, white[i], 'white', both);
    }
    await byId(tested.page, 'forbidden-j8').waitFor({ timeout: WAIT_MS });
    await byId(tested.page, 'forbidden-note').waitFor({ timeout: WAIT_MS });
    await screenshot(tested.page, `layout-${size.tag}-note`);
    await assertInView(tested, [...ALWAYS, '[data-testid="forbidden-note"]'], 'the renju note');
    await sendRaw(tested, { t: 'move', room, move: 'j8', id: 'tj8' });
    await byId(tested.page, 'error-msg').waitFor({ timeout: WAIT_MS });
    assert.match(await byId(tested.page, 'error-msg').textContent(), /forbidden/i);
    await screenshot(tested.page, `layout-${size.tag}-refused`);
    await assertInView(tested, [...ALWAYS, '[data-testid="forbidden-note"]', '[data-testid="error-msg"]'], 'the refused move');
    await byId(helper.page, 'btn-resign').click();
    await byId(helper.page, 'btn-resign-confirm').click();
    await byId(tested.page, 'game-over').waitFor({ timeout: WAIT_MS });
    assert.match(await byId(tested.page, 'game-over').textContent(), /you win/i);
    // The game-over dialog covers the page; the banner under the board stays in view behind it.
    await screenshot(tested.page, `layout-${size.tag}-over`);
    await assertInView(tested, [...ALWAYS, '[data-testid="game-over"]'], 'the result');
    assertClean(...both);
    for (const p of both) await p.context.close();
  });
}
