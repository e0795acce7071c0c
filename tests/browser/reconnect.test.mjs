// Browser test of a dropped connection: the server is killed mid-game and started again on the same address and data, and both pages resume the game without a reload.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, startServer, openPlayer, assertClean, screenshot, byId, createRoom, openRoom, playCell,
  moveTexts, waitOnline, WAIT_MS,
} from './harness.mjs';

// While the server is down Chromium itself logs each refused WebSocket; the page cannot stop that.
const REFUSED_SOCKET = /WebSocket connection to 'ws:\/\/[^']+\/ws' failed/;

const hall = useHall('reconnect');

test('a server restart shows the offline banner, then resumes the game in place', async () => {
  const alice = await openPlayer(hall.browser, { name: 'AliceN', allowConsole: [REFUSED_SOCKET] });
  const bob = await openPlayer(hall.browser, { name: 'BobN', allowConsole: [REFUSED_SOCKET] });
  const both = [alice, bob];
  const room = await createRoom(alice, hall.server, { game: 'gomoku', seat: 'black' });
  await openRoom(bob, hall.server, room);
  await playCell(alice, 'h8', 'black', both);
  await playCell(bob, 'h9', 'white', both);
  await playCell(alice, 'i8', 'black', both);
  // Mark the documents: a reload would lose the mark.
  for (const p of both) await p.page.evaluate(() => { window.kibitzTestMark = 'same page'; });

  const address = hall.server.bind;
  const exit = await hall.server.stop('SIGKILL');
  assert.equal(exit.signal, 'SIGKILL');
  for (const p of both) {
    await byId(p.page, 'offline-banner').waitFor({ state: 'visible', timeout: WAIT_MS });
    assert.match(await byId(p.page, 'offline-banner').textContent(), /offline|connecting/i);
  }
  await screenshot(bob.page, 'reconnect-offline');

  hall.server = await startServer({ dataDir: hall.dataDir, bind: address });
  assert.equal(hall.server.bind, address);
  for (const p of both) {
    await waitOnline(p.page);
    assert.equal(await p.page.evaluate(() => window.kibitzTestMark), 'same page');
    assert.deepEqual(await moveTexts(p.page), ['h8', 'h9', 'i8']);
  }
  assert.equal(await byId(bob.page, 'cell-i8').getAttribute('data-stone'), 'black');
  // The seats were kept (same tokens) and the game goes on.
  await byId(bob.page, 'player-name-white').filter({ hasText: 'BobN' }).waitFor({ timeout: WAIT_MS });
  await playCell(bob, 'i9', 'white', both);
  await playCell(alice, 'j8', 'black', both);
  assert.deepEqual(await moveTexts(bob.page), ['h8', 'h9', 'i8', 'i9', 'j8']);
  assertClean(...both);
  for (const p of both) await p.context.close();
});
