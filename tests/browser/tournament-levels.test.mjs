// Browser test of bots at levels in a tournament: one real bot process entered from the form at two levels (its level box and "another level"), so that the one game of the round-robin is the bot playing itself, each side at its level, run to its end; the levels shown in the players, the standings and the round.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useHall, openPlayer, assertClean, byId, gotoLobby, waitOnline, WAIT_MS } from './harness.mjs';

// The bot moves at once (its pacing is for people watching).
process.env.KIBITZ_BOT_PACE_MS = process.env.KIBITZ_BOT_PACE_MS || '50';
const BOT = 'Leibniz';
const hall = useHall('tournament-levels', { bots: [BOT] });

/** A bot-only game to its end, in a debug build on a busy machine. */
const BOT_GAME_MS = 90_000;

test('one bot entered at two levels from the form plays itself, each side at its level', async () => {
  const ida = await openPlayer(hall.browser, { name: 'Ida' });
  const { page } = ida;
  await gotoLobby(ida, hall.server);
  await byId(page, 'link-register').click();
  await byId(page, 'account-name').fill('Ida');
  await byId(page, 'account-password').fill('correct horse 42');
  await byId(page, 'btn-account-submit').click();
  await page.locator('[data-testid="my-name"][data-account="true"]').waitFor({ timeout: WAIT_MS });
  await waitOnline(page);

  await byId(page, 'link-tournaments').click();
  await byId(page, 'tournament-form').waitFor({ timeout: WAIT_MS });
  await byId(page, 'tournament-name').fill('Mirror match');
  await byId(page, 'tournament-game').selectOption('connect4');
  await byId(page, 'tournament-clock').selectOption('5s');
  await byId(page, `tournament-bot-${BOT}`).waitFor({ timeout: WAIT_MS });
  // The bot at level 1, and once more at level 3 (the second level ticks the bot too).
  await byId(page, `tournament-bot-more-${BOT}`).click();
  await byId(page, `tournament-bot-level-${BOT}`).selectOption('1');
  await byId(page, `tournament-bot-level-${BOT}-2`).selectOption('3');
  assert.equal(await byId(page, `tournament-bot-${BOT}`).isChecked(), true);
  await byId(page, 'btn-create-tournament').click();
  await page.locator('[data-testid="tournament-page"][data-status="open"]').waitFor({ timeout: WAIT_MS });
  const levels = await page.locator(`[data-testid="tournament-players"] li`).allTextContents();
  assert.deepEqual(levels.map((l) => [l.startsWith(BOT), /level (\d+)$/.exec(l)?.[1]]), [[true, '1'], [true, '3']], levels.join(' | '));

  await byId(page, 'btn-tournament-start').click();
  await page.locator('[data-testid="tournament-page"][data-status="over"]').waitFor({ timeout: BOT_GAME_MS });
  // One game, played to a result: the bot against itself, both levels named in the round and
  // the standings.
  const games = page.locator('[data-testid="round-1"] [data-testid^="tgame-"][data-state]');
  assert.equal(await games.count(), 1);
  assert.equal(await games.first().getAttribute('data-state'), 'over');
  assert.match(await games.first().textContent(), new RegExp(`${BOT} level [13] – ${BOT} level [13]`));
  const rows = page.locator('[data-testid="standings-table"] tbody tr');
  assert.equal(await rows.count(), 2);
  const named = (await rows.locator('td:nth-child(2)').allTextContents()).map((r) => /level (\d+)$/.exec(r.trim())?.[1]).sort();
  assert.deepEqual(named, ['1', '3']);
  // Its replay: both seats are the bot, and the game ended on the board.
  const room = (await games.first().getAttribute('data-testid')).slice('tgame-'.length);
  await byId(page, `tgame-watch-${room}`).click();
  const over = byId(page, 'game-over');
  await over.waitFor({ timeout: WAIT_MS });
  assert.match(await over.getAttribute('data-reason'), /^(four|full)$/);
  for (const seat of ['black', 'white']) assert.equal(await byId(page, `player-name-${seat}`).textContent(), BOT);
  assertClean(ida);
  await ida.context.close();
});
