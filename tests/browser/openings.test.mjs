// Browser tests of the opening rules: a swap2 opening between two people (the swap moves them between the seats), a swap2 opening against a real bot process, and a Soosõrv-8 opening with its declaration, offered 5th moves and choice; each from the new-game form's "opening rule".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  useHall, openPlayer, assertClean, screenshot, byId, gotoLobby, createRoom, openRoom, playCell,
  waitMyTurn, waitStone, moveTexts, WAIT_MS,
} from './harness.mjs';

/** The screenshot web-client/README.md shows: rewritten when UPDATE_README_IMAGES=1. */
const README_IMAGES = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'web-client', 'docs');

const hall = useHall('openings', { bots: ['Gauss'] });

/** Waits until the opening panel on `page` is at `phase` and says whether it is ours. */
async function waitStep(page, phase, mine) {
  await page.locator(`[data-testid="opening-panel"][data-phase="${phase}"][data-mine="${mine}"]`).waitFor({ timeout: WAIT_MS });
}

/** Two people in a fresh room of the opening rule `openingRule`, the creator first (black). */
async function openingPair(openingRule, rule, firstName, secondName) {
  const first = await openPlayer(hall.browser, { name: firstName });
  const second = await openPlayer(hall.browser, { name: secondName });
  const room = await createRoom(first, hall.server, { rule, openingRule });
  await openRoom(second, hall.server, room);
  for (const p of [first, second]) {
    await byId(p.page, 'player-name-white').filter({ hasText: secondName }).waitFor({ timeout: WAIT_MS });
  }
  return { first, second, room, both: [first, second] };
}

/** Whether `page`'s board marks `cell` as the last move (the mark's centre is the cell's). */
function lastMoveAt(page, cell) {
  return page.evaluate((name) => {
    const marks = document.querySelectorAll('[data-testid="board"] [data-testid="last-move"]');
    const hit = document.querySelector(`[data-testid="cell-${name}"]`).getBoundingClientRect();
    if (marks.length !== 1) return false;
    const m = marks[0].getBoundingClientRect();
    return Math.abs(m.x + m.width / 2 - (hit.x + hit.width / 2)) < 1 && Math.abs(m.y + m.height / 2 - (hit.y + hit.height / 2)) < 1;
  }, cell);
}

test('swap2 between two people: three stones, a swap that exchanges the seats, then the game', async () => {
  const { first: ann, second: ben, room, both } = await openingPair('swap2', 'freestyle', 'Ann', 'Ben');
  const vic = await openPlayer(hall.browser, { name: 'Vic' });
  await gotoLobby(vic, hall.server);
  await waitStep(ann.page, 'place', true);
  await waitStep(ben.page, 'place', false);
  assert.match(await byId(ann.page, 'opening-step').textContent(), /Your choice: place 3 stone\(s\) anywhere/);
  assert.match(await byId(ben.page, 'opening-step').textContent(), /Ann \(Black\) chooses/);
  assert.match(await byId(ann.page, 'room-title').textContent(), /Swap2/);
  await playCell(ann, 'h8', 'black', both);
  await playCell(ann, 'j9', 'white', both);
  await playCell(ann, 'i7', 'black', both);

  await waitStep(ben.page, 'swap2', true);
  await waitStep(ann.page, 'swap2', false);
  assert.equal(await byId(ann.page, 'btn-opening-swap').count(), 0, 'only the player whose choice it is has buttons');
  assert.match(await byId(ben.page, 'opening-step').textContent(), /stay as White, swap colours, or place two more stones/);
  await byId(ben.page, 'btn-opening-stay').waitFor({ timeout: WAIT_MS });
  await ben.page.mouse.move(0, 0);
  await screenshot(ben.page, 'openings-swap2-choice');
  if (process.env.UPDATE_README_IMAGES === '1') {
    await mkdir(README_IMAGES, { recursive: true });
    await ben.page.screenshot({ path: join(README_IMAGES, 'swap2-choice.png'), animations: 'disabled', scale: 'css' });
  }
  await byId(ben.page, 'btn-opening-swap').click();

  // Ben holds black now; Ann, white, plays the 4th stone and the panel is gone.
  for (const p of both) {
    await byId(p.page, 'player-name-black').filter({ hasText: 'Ben' }).waitFor({ timeout: WAIT_MS });
    await byId(p.page, 'opening-panel').waitFor({ state: 'hidden', timeout: WAIT_MS });
    // The swap placed nothing: the last stone, i7, keeps its mark.
    assert.ok(await lastMoveAt(p.page, 'i7'), `${p.name}: the last-move mark after the swap`);
  }
  // So does the lobby's small board of the game (its feed's last move is the last stone).
  await vic.page.waitForFunction((id) => {
    const board = document.querySelector(`[data-testid="mini-${id}-board"]`);
    return board && board.querySelectorAll('circle.stone').length === 3 && board.querySelectorAll('.last-move').length === 1;
  }, room, { timeout: WAIT_MS });
  await vic.context.close();
  await playCell(ann, 'k10', 'white', both);
  await playCell(ben, 'g6', 'black', both);
  assert.deepEqual(await moveTexts(ann.page), ['h8', 'j9', 'i7', 'swap', 'k10', 'g6']);
  assertClean(ann, ben);
  await ann.context.close();
  await ben.context.close();
});

test('swap2 against the bot: the bot decides, the person answers, and the game goes on', async () => {
  const eve = await openPlayer(hall.browser, { name: 'Eve' });
  await createRoom(eve, hall.server, { openingRule: 'swap2', botLevel: 3 });
  await byId(eve.page, 'player-name-white').filter({ hasText: 'Gauss' }).waitFor({ timeout: WAIT_MS });
  await playCell(eve, 'h8', 'black', [eve]);
  await playCell(eve, 'h9', 'white', [eve]);
  await playCell(eve, 'i9', 'black', [eve]);
  // The bot stays, swaps, or places two stones and hands Eve the colour choice.
  await eve.page.locator('[data-testid="opening-panel"][data-phase="color"], [data-testid="opening-panel"][hidden]')
    .first().waitFor({ state: 'attached', timeout: WAIT_MS });
  if (await byId(eve.page, 'btn-opening-black').isVisible()) await byId(eve.page, 'btn-opening-black').click();
  await byId(eve.page, 'opening-panel').waitFor({ state: 'hidden', timeout: WAIT_MS });
  // Eve plays her move in the game proper when it is her turn, and the bot answers.
  await waitMyTurn(eve);
  const before = (await moveTexts(eve.page)).length;
  assert.ok(before >= 4, 'the opening took its choices');
  await byId(eve.page, 'cell-a1').click();
  await eve.page.waitForFunction((n) => document.querySelectorAll('[data-testid="move-list"] button.mv').length >= n, before + 2, { timeout: WAIT_MS });
  await screenshot(eve.page, 'openings-swap2-bot');
  assertClean(eve);
  await eve.context.close();
});

test('Soosõrv-8: a declaration, two offered 5th moves picked on the board, and white\'s choice', async () => {
  const { first: ida, second: jon, both } = await openingPair('soosorv8', 'renju', 'Ida', 'Jon');
  await playCell(ida, 'h8', 'black', both);
  await playCell(ida, 'i9', 'white', both);
  await playCell(ida, 'j10', 'black', both);
  await waitStep(jon.page, 'swap', true);
  await byId(jon.page, 'btn-opening-stay').click();
  await playCell(jon, 'g7', 'white', both);
  await waitStep(jon.page, 'declare', true);
  await byId(jon.page, 'opening-declare').selectOption('2');
  await byId(jon.page, 'btn-opening-declare').click();
  await waitStep(ida.page, 'swap', true);
  await byId(ida.page, 'btn-opening-stay').click();

  await waitStep(ida.page, 'fifth', true);
  assert.match(await byId(ida.page, 'opening-step').textContent(), /offer 2 5th moves anywhere/);
  assert.equal(await byId(ida.page, 'btn-opening-offer').isDisabled(), true);
  await byId(ida.page, 'cell-k5').click();
  await byId(ida.page, 'picked-k5').waitFor({ timeout: WAIT_MS });
  await byId(ida.page, 'cell-e12').click();
  assert.equal(await byId(ida.page, 'opening-picked').textContent(), '2 of 2 picked');
  await byId(ida.page, 'btn-opening-offer').click();

  await waitStep(jon.page, 'choose', true);
  for (const p of both) {
    for (const c of ['k5', 'e12']) await byId(p.page, `proposal-${c}`).waitFor({ timeout: WAIT_MS });
  }
  await screenshot(jon.page, 'openings-soosorv8-choose');
  await byId(jon.page, 'cell-e12').click();
  await waitStone(both, 'e12', 'black');
  await waitStone(both, 'k5', '');
  for (const p of both) await byId(p.page, 'opening-panel').waitFor({ state: 'hidden', timeout: WAIT_MS });
  await playCell(jon, 'a1', 'white', both);
  assert.deepEqual(await moveTexts(jon.page), ['h8', 'i9', 'j10', 'stay', 'g7', 'declare 2', 'stay', 'fifths k5,e12', 'choose e12', 'a1']);
  assertClean(ida, jon);
  await ida.context.close();
  await jon.context.close();
});
