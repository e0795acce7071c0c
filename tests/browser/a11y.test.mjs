// Accessibility audit of every page with axe-core (the version tests/browser/package.json pins), in the light and the dark theme and in English and Chinese: the lobby, a room of each game in play, the leave dialog, a finished game with its dialog, the TV, a leaderboard, a player's page, the tournaments, the account form and the opening explorer. No serious or critical violation anywhere, no disallowed ARIA role, and exactly one h1 on each page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, openPlayer, assertClean, byId, createRoom, openRoom, gotoLobby, playCell, waitOnline,
  seriousViolations, SIZES, WAIT_MS,
} from './harness.mjs';

const hall = useHall('a11y');

/** Moderate findings that count as failures too: a role the element may not take, a page
 *  without an h1. */
const ALSO = ['aria-allowed-role', 'page-has-heading-one'];

/** Audits `player`'s page as it stands; `found` collects what fails, named by `where`. Each
 *  page has exactly one h1. */
async function audit(player, where, found) {
  for (const v of await seriousViolations(player.page, { also: ALSO })) {
    found.push(`${where}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
  }
  const h1 = await player.page.locator('h1').count();
  if (h1 !== 1) found.push(`${where}: ${h1} h1 elements, not one`);
}

for (const scheme of ['light', 'dark']) {
  for (const locale of ['en-US', 'zh-CN']) {
    test(`no serious accessibility violation, disallowed role or missing h1 on any page, ${scheme} theme, ${locale}`, async () => {
      // Issue 52's sizes: Ann at 1280x800 (English) or 1366x768 (Chinese), Ben on a phone.
      const ann = await openPlayer(hall.browser, { name: 'Ann', locale, ...(locale === 'en-US' ? SIZES.desk800 : SIZES.desk768) });
      const ben = await openPlayer(hall.browser, { name: 'Ben', locale, ...SIZES.phone });
      for (const p of [ann, ben]) await p.page.emulateMedia({ colorScheme: scheme });
      const found = [];
      await gotoLobby(ann, hall.server);
      await audit(ann, 'lobby', found);
      await gotoLobby(ben, hall.server);
      await audit(ben, 'lobby on a phone', found);

      for (const game of ['gomoku', 'othello', 'connect4']) {
        const room = await createRoom(ann, hall.server, { game, seat: 'black' });
        await openRoom(ben, hall.server, room);
        await byId(ann.page, 'player-name-white').filter({ hasText: 'Ben' }).waitFor({ timeout: WAIT_MS });
        await audit(ann, `${game} room in play`, found);
        if (game === 'gomoku') await audit(ben, 'gomoku room in play on a phone', found);
      }
      // The last room (Connect Four): the leave dialog.
      await byId(ann.page, 'btn-lobby').click();
      await byId(ann.page, 'leave-dialog').waitFor({ timeout: WAIT_MS });
      await audit(ann, 'leave dialog', found);
      await byId(ann.page, 'btn-leave-stay').click();
      // A Gomoku game resigned: the game over and its dialog.
      const room = await createRoom(ann, hall.server, { game: 'gomoku', seat: 'black' });
      await openRoom(ben, hall.server, room);
      await byId(ann.page, 'player-name-white').filter({ hasText: 'Ben' }).waitFor({ timeout: WAIT_MS });
      await playCell(ann, 'h8', 'black', [ann, ben]);
      await playCell(ben, 'i9', 'white', [ann, ben]);
      await byId(ann.page, 'btn-resign').click();
      await byId(ann.page, 'btn-resign-confirm').click();
      await byId(ann.page, 'game-over-dialog').waitFor({ timeout: WAIT_MS });
      await audit(ann, 'game over dialog', found);

      for (const [where, path] of [
        ['tv', '/tv'], ['leaderboard', '/?leaderboard=gomoku-freestyle'], ['player page', '/?player=Ann'],
        ['tournaments', '/?tournaments'], ['register form', '/?account=register'], ['sign-in form', '/?account=signin'],
        ['opening explorer', '/?explorer=gomoku-freestyle'],
      ]) {
        await ann.page.goto(`${hall.server.url.replace(/\/$/, '')}${path}`);
        await waitOnline(ann.page);
        await ann.page.locator('main, #app').first().waitFor({ timeout: WAIT_MS });
        // The explorer's table, with the resigned game's first move in it.
        if (path.includes('explorer')) await ann.page.locator('[data-testid="explorer-body"][data-state="rows"]').waitFor({ timeout: WAIT_MS });
        await audit(ann, where, found);
      }
      assert.deepEqual(found, [], found.join('\n'));
      assertClean(ben);
      await ann.context.close();
      await ben.context.close();
    });
  }
}
