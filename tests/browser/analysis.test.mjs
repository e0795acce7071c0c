// Browser tests of the analysis board (`/?analysis=…`): a Gomoku position set up by hand (edit mode), moves, a variation made, switched to with the keys, promoted and deleted, the screen reader's words, the share link opened in another browser (the tree and the move on show restored), the SGF export downloaded; a pasted renju SGF with its forbidden point marked and refused, a bad paste refused with nothing changed, a move played from the keyboard; an Othello position and Connect Four's move string and position; "Analyse from here" from a finished Connect Four game's replay, with the explorer's panel; the axe audit and the page in view at 1280x720 and on a phone (in Chinese); the engine's panel without a worker (the server's reason, a set-up whose side does not fit the stones refused) and with a real bot process (lines streamed depth by depth, replaced after a move, one request for a quick walk, a proven win and a VCF named, the best move on the board and in the explorer, the explorer's listed moves rated by the engine in its table, switched off mid-analysis and remembered, the live region's first and last line, axe and in view at 1280x720 and on a phone).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  useHall, openPlayer, assertClean, assertInView, assertShown, screenshot, byId, gotoLobby, waitOnline, openRoom,
  seriousViolations, startBot, waitBots, dumpFrames, SIZES, WAIT_MS,
} from './harness.mjs';
import { livePair } from './wire.mjs';

const DESK720 = { viewport: { width: 1280, height: 720 } };
const C4 = { kind: 'connect4', cols: 7, rows: 6, blocked: [] };
const GOMOKU = { kind: 'gomoku', size: 15, rule: 'freestyle' };
// No bot at first: the engine's worker is started by the test that needs it.
const hall = useHall('analysis');

/** Fails on any serious axe finding or a page without exactly one h1. */
async function audit(player, where) {
  const found = await seriousViolations(player.page, { also: ['aria-allowed-role', 'page-has-heading-one'] });
  assert.deepEqual(found, [], `${where}: ${JSON.stringify(found, null, 1)}`);
  assert.equal(await player.page.locator('h1').count(), 1, `${where}: one h1`);
}

/** Waits until the status line says `text` (a string: its start, or a RegExp). */
async function waitStatus(page, text) {
  const want = text instanceof RegExp ? text.source : `^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
  await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('[data-testid="analysis-status"]')?.textContent || ''), want, { timeout: WAIT_MS })
    .catch(async (e) => { throw new Error(`${e.message}\nstatus: ${await byId(page, 'analysis-status').textContent()}`); });
}

/** The move list as `line:main` texts ("k11,m13:false"), in the list's order. */
const moveList = (page) => page.locator('[data-testid="analysis-move"]').evaluateAll((bs) => bs.map((b) => `${b.dataset.line}:${b.dataset.main}`));

/** The line of the move on show ('' at the start). */
const shownLine = (page) => page.evaluate(() => document.querySelector('[data-testid="analysis-move"][aria-current="step"]')?.dataset.line ?? '');

/** The last thing the live region said. */
const lastSaid = (page) => page.locator('[data-testid="analysis-announce"] p').last().textContent();

/** The stone on `cell` ('black', 'white' or ''). */
const stoneAt = (page, cell) => byId(page, `cell-${cell}`).getAttribute('data-stone');

/** Pastes `text` into the paste box (opening it first) and loads it. */
async function paste(page, text) {
  if (!(await byId(page, 'analysis-paste').isVisible())) await byId(page, 'analysis-paste-open').click();
  await byId(page, 'analysis-paste').fill(text);
  await byId(page, 'analysis-paste-load').click();
  await byId(page, 'analysis-paste-msg').waitFor({ timeout: WAIT_MS });
  return byId(page, 'analysis-paste-msg').textContent();
}

test('a Gomoku position set up by hand: moves, a variation promoted and deleted, the keys; the share link restores it; the SGF downloaded', async () => {
  const ann = await openPlayer(hall.browser, { name: 'Ann', ...DESK720 });
  const { page } = ann;
  await gotoLobby(ann, hall.server);
  await byId(page, 'header-link-analysis').click();
  await page.waitForURL(/\?analysis=gomoku-freestyle$/, { timeout: WAIT_MS });
  await waitStatus(page, 'Start position · Black to move');
  await assertInView(ann, ['board', 'analysis-status', 'analysis-moves', 'analysis-back', 'analysis-forward', 'header-link-analysis'], 'the analysis board at 1280x720');

  // Edit mode: two black stones, a white one, a stone placed and taken away again, white to move.
  await byId(page, 'analysis-setup-open').click();
  await byId(page, 'analysis-edit').click();
  await waitStatus(page, 'Editing');
  await byId(page, 'cell-h8').click();
  await byId(page, 'cell-i9').click();
  await byId(page, 'analysis-tool-white').check();
  await byId(page, 'cell-j10').click();
  await byId(page, 'cell-a1').click();
  await byId(page, 'cell-a1').click();
  await byId(page, 'analysis-edit-side').selectOption('white');
  await byId(page, 'analysis-edit-done').click();
  await waitStatus(page, 'Set-up position · White to move');
  assert.deepEqual(await Promise.all(['h8', 'i9', 'j10', 'a1'].map((c) => stoneAt(page, c))), ['black', 'black', 'white', '']);
  await page.waitForURL(/setup=i9h8\.j10\.w/, { timeout: WAIT_MS });
  assert.equal(await byId(page, 'analysis-explorer').getAttribute('data-state'), 'setup', 'the explorer covers games from the start only');

  // Moves: white k11, black l12; back, and m13 instead of l12 is a variation.
  await byId(page, 'cell-k11').click();
  await byId(page, 'cell-l12').click();
  await waitStatus(page, 'After 2. l12 · White to move');
  assert.equal(await lastSaid(page), '2. black l12');
  await page.keyboard.press('ArrowLeft');
  await waitStatus(page, 'After 1… k11 · Black to move');
  await byId(page, 'cell-m13').click();
  await waitStatus(page, 'After 2. m13 (variation) · White to move');
  assert.deepEqual(await moveList(page), ['k11:true', 'k11,l12:true', 'k11,m13:false']);
  assert.equal(await lastSaid(page), 'New variation: 2. black m13, variation');
  assert.equal(await byId(page, 'analysis-promote').isDisabled(), false);

  // ↑ and ↓ switch between the two, from the move list's own button too.
  await page.keyboard.press('ArrowUp');
  await waitStatus(page, 'After 2. l12 · White');
  assert.equal(await shownLine(page), 'k11,l12');
  await page.locator('[data-testid="analysis-move"][data-line="k11,l12"]').focus();
  await page.keyboard.press('ArrowDown');
  await waitStatus(page, 'After 2. m13 (variation)');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.line), 'k11,m13', 'the focus follows the move on show');

  // Promote m13: the main line now; delete l12 (now the variation): gone, back to k11.
  await byId(page, 'analysis-promote').click();
  await page.waitForFunction(() => document.querySelector('[data-line="k11,m13"]')?.dataset.main === 'true', null, { timeout: WAIT_MS });
  assert.deepEqual(await moveList(page), ['k11:true', 'k11,m13:true', 'k11,l12:false']);
  assert.equal(await byId(page, 'analysis-promote').isDisabled(), true);
  await page.locator('[data-testid="analysis-move"][data-line="k11,l12"]').click();
  await byId(page, 'analysis-delete').click();
  await waitStatus(page, 'After 1… k11 · Black to move');
  assert.deepEqual(await moveList(page), ['k11:true', 'k11,m13:true']);
  assert.match(await lastSaid(page), /^Deleted; back to 1… white k11/);
  await page.keyboard.press('ArrowRight');
  await waitStatus(page, 'After 2. m13 · White to move');
  await byId(page, 'cell-n14').click();
  await byId(page, 'cell-o15').click();
  // Home, End, and a variation of white's second move kept for the link.
  await page.keyboard.press('Home');
  await waitStatus(page, 'Set-up position · White to move');
  await page.keyboard.press('End');
  await waitStatus(page, 'After 3. o15');
  await page.locator('[data-testid="analysis-move"][data-line="k11,m13"]').click();
  await byId(page, 'cell-a15').click();
  await waitStatus(page, 'After 2… a15 (variation)');

  // The share link is the page's address: opened in another browser, the same tree and move.
  await byId(page, 'analysis-share-open').click();
  const link = await byId(page, 'analysis-share-url').inputValue();
  assert.equal(link, page.url());
  assert.match(link, /\?analysis=gomoku-freestyle&setup=i9h8\.j10\.w&tree=k11m13n14\(a15\)o15&at=4$/);
  const ben = await openPlayer(hall.browser, { name: 'Ben', ...SIZES.desk800 });
  await ben.page.goto(link);
  await waitOnline(ben.page);
  await waitStatus(ben.page, 'After 2… a15 (variation) · Black to move');
  assert.deepEqual(await moveList(ben.page), await moveList(page));
  assert.equal(await shownLine(ben.page), 'k11,m13,a15');
  assert.deepEqual(await Promise.all(['h8', 'j10', 'a15', 'o15'].map((c) => stoneAt(ben.page, c))), ['black', 'white', 'white', '']);
  assertClean(ben);
  await ben.context.close();

  // Export: the whole tree as SGF, shown and downloaded.
  await byId(page, 'analysis-export-sgf').click();
  const sgf = await byId(page, 'analysis-export-text').inputValue();
  assert.equal(sgf, '(;FF[4]GM[4]SZ[15]RU[freestyle]AB[ig][hh]AW[jf]PL[W];W[ke];B[mc](;W[nb];B[oa])(;W[aa]))\n');
  const [download] = await Promise.all([page.waitForEvent('download'), byId(page, 'analysis-download').click()]);
  assert.equal(download.suggestedFilename(), 'analysis-gomoku-freestyle-tree.sgf');
  assert.equal(await readFile(await download.path(), 'utf8'), sgf);
  await byId(page, 'analysis-export-scope-line').check();
  await byId(page, 'analysis-export-json').click();
  assert.deepEqual(JSON.parse(await byId(page, 'analysis-export-text').inputValue()).moves, ['k11', 'm13', 'a15']);
  assert.equal(await byId(page, 'analysis-export-psq').count(), 0, 'no PSQ from a set-up position');
  await screenshot(page, 'analysis-desktop');
  await audit(ann, 'the analysis board at 1280x720, every part open');
  assertClean(ann);
  await ann.context.close();
});

test('a pasted renju SGF: its variations, the forbidden point marked and refused, a bad paste refused, a move from the keyboard', async () => {
  const cy = await openPlayer(hall.browser, { name: 'Cy', ...SIZES.desk768 });
  const { page } = cy;
  await page.goto(`${hall.server.url}?analysis=gomoku-renju`);
  await waitOnline(page);
  // h8 a1 i8 a2 j9 a3 j10 a4 (a variation g9 for black's third move): j8 is black's double three.
  const said = await paste(page, '(;FF[4]GM[4]SZ[15]RU[renju];B[hh];W[ao];B[ih];W[an](;B[jg];W[am];B[jf];W[al])(;B[gg]))');
  assert.equal(said, 'Read an SGF record: 9 moves.');
  await waitStatus(page, 'After 4… a4 · Black to move');
  assert.deepEqual((await moveList(page)).filter((m) => m.endsWith(':false')), ['h8,a1,i8,a2,g9:false']);
  await byId(page, 'forbidden-j8').waitFor({ state: 'attached', timeout: WAIT_MS });
  assert.equal(await byId(page, 'forbidden-j8').getAttribute('data-kind'), 'double-three');
  // From the keyboard: Tab from the link before it to the board, the cursor from the centre (h8)
  // to j8, Enter: refused, with the reason beside the board.
  await byId(page, 'analysis-other').focus();
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'board');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await byId(page, 'analysis-refused').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(page, 'analysis-refused').textContent(), 'j8: Forbidden for black: double three.');
  assert.equal(await stoneAt(page, 'j8'), '');
  await assertInView(cy, ['board', 'analysis-refused', 'analysis-status'], 'the refusal beside the board');
  const url = page.url();

  // A bad paste says why and changes nothing.
  assert.equal(await paste(page, 'h8h8'), 'Move 2 (h8) cannot be played: the point is taken.');
  assert.equal(await byId(page, 'analysis-paste-msg').getAttribute('data-state'), 'error');
  assert.equal(page.url(), url);
  assert.equal((await moveList(page)).length, 9);

  // Back on the board: the cursor from j8 to h9, Enter plays it.
  await byId(page, 'analysis-other').focus();
  await page.keyboard.press('Tab');
  for (const key of ['ArrowLeft', 'ArrowLeft', 'ArrowUp', 'Enter']) await page.keyboard.press(key);
  await waitStatus(page, 'After 5. h9 · White to move');
  assert.equal(await lastSaid(page), '5. black h9');
  await page.keyboard.press('Escape');
  assertClean(cy);
  await cy.context.close();
});

test('Othello from a pasted position, Connect Four from a move string and a position', async () => {
  const dee = await openPlayer(hall.browser, { name: 'Dee', ...SIZES.desk800 });
  const { page } = dee;
  await page.goto(`${hall.server.url}?analysis=othello`);
  await waitOnline(page);
  assert.equal(await page.locator('[data-testid^="legal-"]').count(), 4);
  // After f5: white to move, three legal squares.
  const cells = Array(64).fill('-');
  cells[27] = 'O';
  for (const i of [28, 35, 36, 37]) cells[i] = 'X';
  assert.equal(await paste(page, `${cells.join('')} O`), 'Read a position.');
  await waitStatus(page, 'Set-up position · White to move');
  assert.deepEqual((await page.locator('[data-testid^="legal-"]').evaluateAll((ls) => ls.map((l) => l.dataset.testid))).sort(), ['legal-d6', 'legal-f4', 'legal-f6']);
  // Back up from the paste box (under the engine's panel, below the fold) to the board.
  await page.evaluate(() => window.scrollTo(0, 0));
  await byId(page, 'cell-f6').click();
  await waitStatus(page, 'After 1… f6 · Black to move');
  assert.equal(await stoneAt(page, 'e5'), 'white', 'e5 turned');
  await assertInView(dee, ['board', 'analysis-status', 'analysis-moves'], 'Othello at 1280x800');
  await audit(dee, 'Othello analysis');

  // Connect Four: a move string from the start, then a column clicked.
  await byId(page, 'analysis-tab-connect4').click();
  await page.waitForURL(/\?analysis=connect4$/, { timeout: WAIT_MS });
  assert.equal(await paste(page, '4453'), 'Read a move string: 4 moves.');
  await waitStatus(page, 'After 2… 3 · Black to move');
  assert.equal(await stoneAt(page, 'c1'), 'white');
  await byId(page, 'col-5').click();
  await waitStatus(page, 'After 3. 5 · White to move');
  assert.equal(await stoneAt(page, 'e2'), 'black');
  // A position: a floating disc is refused, a standing one set up.
  assert.equal(await paste(page, '-------/-------/-------/---O---/-------/---XX--'), 'The disc on d3 has an empty cell under it.');
  assert.equal(await paste(page, '-------/-------/-------/-------/---O---/---XX--'), 'Read a position.');
  await waitStatus(page, 'Set-up position · White to move');
  assert.deepEqual(await Promise.all(['d1', 'e1', 'd2'].map((c) => stoneAt(page, c))), ['black', 'black', 'white']);
  assert.match(page.url(), /\?analysis=connect4&setup=d1e1\.d2\.w$/);
  assertClean(dee);
  await dee.context.close();
});

test('"Analyse from here" in a finished game\'s replay opens the game as the main line at the move on show, with the explorer', async () => {
  const { room, black, white } = await livePair(hall.browser, hall.server, C4, ['Ed', 'Flo']);
  const moves = ['4', '4', '3', '3', '5', '5', '6'];
  for (const [k, move] of moves.entries()) {
    await (k % 2 === 0 ? black : white).send({ t: 'move', room, move });
    await black.waitFor('moved', { room, ply: k + 1 });
  }
  await black.waitFor('over', { room });
  await black.close();
  await white.close();

  const gus = await openPlayer(hall.browser, { name: 'Gus', ...DESK720 });
  const { page } = gus;
  await openRoom(gus, hall.server, room);
  await byId(page, 'link-analyse').waitFor({ timeout: WAIT_MS });
  assert.match(await byId(page, 'link-analyse').getAttribute('href'), /\?analysis=connect4&tree=ddcceef&at=7$/);
  await byId(page, 'move-2').click();
  await page.waitForFunction(() => /&at=2$/.test(document.querySelector('[data-testid="link-analyse"]')?.getAttribute('href')), null, { timeout: WAIT_MS });
  await assertShown(gus, ['link-analyse'], 'the link beside the replay');
  await byId(page, 'link-analyse').click();
  await page.waitForURL(/\?analysis=connect4&tree=ddcceef&at=2$/, { timeout: WAIT_MS });
  await waitStatus(page, 'After 1… 4 · Black to move');
  assert.equal((await moveList(page)).length, 7);
  // The explorer's panel: the hall's game went on with 3 here.
  await page.locator('[data-testid="analysis-explorer"][data-state="rows"]').waitFor({ timeout: WAIT_MS });
  await byId(page, 'analysis-explorer-move-3').click();
  await waitStatus(page, 'After 2. 3 · White to move');
  assert.equal((await moveList(page)).length, 7, 'the game\'s own move: no variation');
  await page.keyboard.press('End');
  await waitStatus(page, 'After 4. 6 · Game over: Black wins');
  assert.equal(await page.locator('[data-testid^="win-"]').count(), 4);
  await page.locator('[data-testid="analysis-explorer"][data-state="empty"]').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(page, 'analysis-explorer-empty').textContent(), 'The game is over in this position.');
  assertClean(gus);
  await gus.context.close();
});

test('on a phone (in Chinese) the board, the moves and the panels are within reach; axe finds nothing serious', async () => {
  const pia = await openPlayer(hall.browser, { name: 'Pia', locale: 'zh-CN', ...SIZES.phone });
  const { page } = pia;
  await page.goto(`${hall.server.url}?analysis=gomoku-renju&tree=h8i9(j10)h10&at=3`);
  await waitOnline(page);
  assert.match(await page.locator('h1').textContent(), /研究棋盘/);
  await assertInView(pia, ['board'], 'the board on a phone');
  // A finger previews a Gomoku point with the first tap and plays it with the second.
  await byId(page, 'cell-k11').tap();
  assert.equal(await stoneAt(page, 'k11'), '');
  await byId(page, 'cell-k11').tap();
  await page.locator('[data-testid="cell-k11"][data-stone="black"]').waitFor({ state: 'attached', timeout: WAIT_MS });
  for (const id of ['analysis-status', 'analysis-moves', 'analysis-back', 'analysis-promote']) await assertShown(pia, [id], `${id} on a phone`);
  for (const part of ['setup', 'paste', 'share']) await byId(page, `analysis-${part}-open`).tap();
  await byId(page, 'analysis-edit').tap();
  for (const id of ['analysis-edit-done', 'analysis-paste-load', 'analysis-share-url', 'engine-panel']) await assertShown(pia, [id], `${id} on a phone`);
  await screenshot(page, 'analysis-phone');
  await audit(pia, 'the analysis board on a phone, in Chinese');
  assertClean(pia);
  await pia.context.close();
});

// ---------- the engine's panel ----------

/** Every WebSocket frame of `page` from now on, parsed: [{ dir: '>' | '<', msg }] (the harness
 *  keeps the last 200 only, as text). */
function recordFrames(page) {
  const all = [];
  page.on('websocket', (ws) => {
    const keep = (dir) => (frame) => {
      try {
        all.push({ dir, msg: JSON.parse(String(frame.payload)) });
      } catch {
        // not JSON: not ours
      }
    };
    ws.on('framesent', keep('>'));
    ws.on('framereceived', keep('<'));
  });
  return all;
}

/** The `analyse` requests sent, and the frames received about request `id`. */
const asked = (frames) => frames.filter((f) => f.dir === '>' && f.msg.t === 'analyse').map((f) => f.msg);
const about = (frames, id) => frames.filter((f) => f.dir === '<' && f.msg.id === id && /^analysis_/.test(f.msg.t)).map((f) => f.msg);

/** Waits until the engine's panel has `status` (a data-status value), for a request other than
 *  `notId` when given, up to `timeout` ms (an analysis that rates moves runs its whole 10 s). */
async function waitEngine(page, status, notId = null, timeout = WAIT_MS) {
  await page.waitForFunction(([st, not]) => {
    const p = document.querySelector('[data-testid="engine-panel"]');
    return p?.dataset.status === st && (not == null || (p.dataset.id && p.dataset.id !== not));
  }, [status, notId], { timeout }).catch(async (e) => {
    throw new Error(`${e.message}\nengine: ${await byId(page, 'engine-panel').getAttribute('data-status')} ${await byId(page, 'engine-panel').textContent()}`);
  });
  return byId(page, 'engine-panel').getAttribute('data-id');
}

/** Waits until `check()` holds (polled: the recorded frames come as events). */
async function until(check, what) {
  const end = Date.now() + WAIT_MS;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** The explorer's engine cell as the page writes a rated move's value (`analysis_move`): points
 *  from black's view, or who wins in how many plies and, when the server says how, VCF or VCT. */
function cellText(m) {
  if (m.proven && Math.abs(m.eval) === 1000) {
    const who = (m.win_in ?? m.eval) > 0 ? 'Black' : 'White';
    if (m.win_in == null) return `${who} wins`;
    return `${who} wins in ${Math.abs(m.win_in)}${m.proof ? ` (${m.proof.toUpperCase()})` : ''}`;
  }
  const score = m.eval / 10;
  return `${score > 0 ? '+' : score < 0 ? '−' : ''}${Math.abs(score).toFixed(1)}`;
}

/** Waits until every move the explorer's panel lists shows the engine's value; answers
 *  { move: text } (the text seen, without the words for screen readers). */
async function engineCells(page) {
  const rows = '[data-testid="analysis-explorer-table"] tbody tr[data-move]';
  await page.waitForFunction((sel) => {
    const all = [...document.querySelectorAll(sel)];
    return all.length > 0 && all.every((tr) => tr.querySelector('.an-engine-cell')?.dataset.state === 'value');
  }, rows, { timeout: WAIT_MS }).catch(async (e) => {
    throw new Error(`${e.message}\nexplorer: ${await byId(page, 'analysis-explorer').innerHTML()}`);
  });
  return Object.fromEntries(await page.locator(rows).evaluateAll((trs) => trs.map((tr) => [tr.dataset.move, tr.querySelector('.an-engine-cell [aria-hidden="true"]').textContent])));
}

/** The rated moves' values received for request `id`, as the table should show them. */
const ratedCells = (frames, id) => Object.fromEntries(about(frames, id).filter((m) => m.t === 'analysis_move').map((m) => [m.move, cellText(m)]));

/** What the engine's live region said, oldest first. */
const engineSaid = (page) => page.locator('[data-testid="engine-announce"] p').allTextContents();

test('the engine without a worker says why; a set-up whose side does not fit the stones is refused with the server\'s reason', async () => {
  const hal = await openPlayer(hall.browser, { name: 'Hal', ...DESK720 });
  const { page } = hal;
  const frames = recordFrames(page);
  await page.goto(`${hall.server.url}?analysis=gomoku-freestyle`);
  await waitOnline(page);
  const id = await waitEngine(page, 'failed');
  assert.match(await byId(page, 'engine-status').textContent(), /^The analysis failed\. no analysis worker is connected/);
  assert.equal(await byId(page, 'engine-lines').isHidden(), true);
  assert.deepEqual(asked(frames), [{ t: 'analyse', id, game: GOMOKU, position: null, moves: [] }], 'one request for the position on show');
  assert.match((await engineSaid(page)).at(-1), /^The analysis failed\. no analysis worker is connected/);
  assert.equal(await byId(page, 'engine-toggle').isChecked(), true, 'on by default');
  await assertInView(hal, ['board', 'analysis-status', 'engine-panel', 'engine-status', 'engine-toggle'], 'the engine\'s failure at 1280x720');

  // Edit mode: the engine waits; one black stone with black to move cannot stand.
  await byId(page, 'analysis-setup-open').click();
  await byId(page, 'analysis-edit').click();
  await waitEngine(page, 'editing');
  await byId(page, 'cell-h8').click();
  await byId(page, 'analysis-edit-done').click();
  await waitStatus(page, 'Set-up position · Black to move');
  const bad = await waitEngine(page, 'refused');
  assert.match(await byId(page, 'engine-status').textContent(), /^The server refused this position: \S/);
  const error = frames.find((f) => f.dir === '<' && f.msg.t === 'error' && f.msg.ref === 'analyse');
  assert.equal(error?.msg.code, 'bad_game', JSON.stringify(error));
  assert.ok((await byId(page, 'engine-status').textContent()).endsWith(error.msg.message), 'the server\'s own words');
  assert.equal(asked(frames).at(-1).id, bad);
  assert.match(asked(frames).at(-1).position, /^-{112}X-{112} X$/, 'the set-up as text, black to move');
  assert.match((await engineSaid(page)).at(-1), /^The server refused this position/);
  await audit(hal, 'the engine refused, at 1280x720');
  assertClean(hal);
  await hal.context.close();
});

test('with a bot: lines streamed depth by depth, replaced after a move; a quick walk asks once; a proven win; the best move on the board and in the explorer; switched off mid-analysis and remembered', async () => {
  // A finished game from h8 in the hall, for the explorer's list at the start.
  const { room, black, white } = await livePair(hall.browser, hall.server, GOMOKU, ['Ivy', 'Jon']);
  const moves = ['h8', 'a1', 'i8', 'a2', 'j8', 'a3', 'k8', 'a4', 'l8'];
  for (const [k, move] of moves.entries()) {
    await (k % 2 === 0 ? black : white).send({ t: 'move', room, move });
    await black.waitFor('moved', { room, ply: k + 1 });
  }
  await black.waitFor('over', { room });
  await black.close();
  await white.close();

  const bot = startBot(hall.server, { name: 'Kibot', stateFile: join(hall.dataDir, 'bot-Kibot.json') });
  const kay = await openPlayer(hall.browser, { name: 'Kay', ...DESK720 });
  const { page } = kay;
  const frames = recordFrames(page);
  try {
    await gotoLobby(kay, hall.server);
    await waitBots(page, ['Kibot']);
    await byId(page, 'header-link-analysis').click();
    await waitStatus(page, 'Start position · Black to move');

    // The start: lines depth by depth, then done (after its 10 s: the explorer's move is rated);
    // the evaluation in words and points.
    const id1 = await waitEngine(page, 'done', null, 2 * WAIT_MS);
    const lines1 = about(frames, id1).filter((m) => m.t === 'analysis_line');
    assert.ok(lines1.length >= 2, `lines depth by depth: ${JSON.stringify(lines1)}`);
    assert.ok(lines1.every((l, k) => k === 0 || l.depth > lines1[k - 1].depth), 'deeper and deeper');
    const last1 = lines1.at(-1);
    assert.equal(await byId(page, 'engine-depth').textContent(), `depth ${last1.depth}`);
    assert.match(await byId(page, 'engine-eval').textContent(), /^[+−]?\d+\.\d: (black is better|white is better|level)$/);
    assert.equal(await byId(page, 'engine-best').textContent(), last1.best);
    assert.equal(await byId(page, 'engine-pv').textContent(), last1.pv.join(' '));
    assert.match(await byId(page, 'engine-by').textContent(), /^by Kibot · [\d,]+ nodes in \d+\.\d s$/);
    assert.match(await byId(page, 'engine-status').textContent(), /^Analysis finished\./);
    // The best move: a ghost stone on the board and badged in the explorer's list (h8 is the
    // hall's game's first move and the engine's choice on the empty board).
    assert.equal(last1.best, 'h8');
    await byId(page, 'best-h8').waitFor({ state: 'attached', timeout: WAIT_MS });
    await page.locator('[data-testid="analysis-explorer"][data-state="rows"]').waitFor({ timeout: WAIT_MS });
    await page.locator('tr[data-move="h8"] [data-testid="analysis-explorer-engine"]').waitFor({ timeout: WAIT_MS });
    assert.equal(await byId(page, 'analysis-explorer-engine').count(), 1);
    // The explorer's listed move rated: the request named it, the worker's value of it came
    // before done, and the table's Engine column shows it as the panel writes evaluations.
    assert.deepEqual(asked(frames).find((m) => m.id === id1).rate, ['h8'], 'the explorer\'s list at the start');
    assert.deepEqual(await engineCells(page), ratedCells(frames, id1));
    assert.match((await engineCells(page)).h8, /^[+−]?\d+\.\d$/);
    assert.equal(await byId(page, 'analysis-explorer-engine-head').textContent(), 'Engine');
    // Heard: the first line and the last, not each depth.
    const said1 = await engineSaid(page);
    assert.deepEqual(said1.map((t) => t.split(',')[0]), ['Engine', 'Engine finished'], said1.join(' | '));
    assert.match(said1[1], new RegExp(`^Engine finished, depth ${last1.depth}: .*; best move h8\\.$`));
    await assertInView(kay, ['board', 'analysis-status', 'engine-panel', 'engine-eval', 'engine-pv', 'engine-depth', 'engine-toggle'], 'the engine\'s lines at 1280x720');
    await screenshot(page, 'analysis-engine-desktop');
    await audit(kay, 'the engine\'s lines at 1280x720');

    // A move: a new request for the new position, whose lines replace the old (a position
    // that takes the worker its 10 s: its lines are looked at while they come).
    await byId(page, 'cell-h8').click();
    await waitStatus(page, 'After 1. h8 · White to move');
    const id2 = await waitEngine(page, 'running', id1);
    assert.deepEqual(asked(frames).at(-1), { t: 'analyse', id: id2, game: GOMOKU, position: null, moves: ['h8'], rate: ['a1'] });
    // The rated move waits for its value ("…": the worker rates moves in the second half of its time).
    assert.equal(await byId(page, 'analysis-explorer-eval-a1').getAttribute('data-state'), 'wait');
    assert.equal(await byId(page, 'analysis-explorer-eval-a1').textContent(), '…waiting for the engine');
    await page.waitForFunction(() => /^depth ([4-9]|\d\d)$/.test(document.querySelector('[data-testid="engine-depth"]')?.textContent || ''), null, { timeout: WAIT_MS });
    const shown = await page.evaluate(() => ['engine-depth', 'engine-best', 'engine-pv'].map((id) => document.querySelector(`[data-testid="${id}"]`).textContent));
    const line2 = about(frames, id2).find((m) => m.t === 'analysis_line' && `depth ${m.depth}` === shown[0]);
    assert.ok(line2, `the panel shows a line of ${id2}: ${shown}`);
    assert.deepEqual(shown.slice(1), [line2.best, line2.pv.join(' ')]);
    assert.notEqual(line2.best, 'h8');
    assert.equal(await byId(page, 'best-h8').count(), 0, 'the old best move is gone from the board');
    assert.equal(await page.locator('[data-testid^="best-"]').count(), 1, 'one best move on the board');
    const rated1 = Object.keys(ratedCells(frames, id1)).length;
    assert.equal(about(frames, id1).length, lines1.length + rated1 + 2, 'nothing more of the old request (running, its lines and rated moves, done)');

    // A quick walk (back and forward within the pause): one request, for where it ends.
    const before = asked(frames).length;
    await page.locator('[data-testid="analysis-move"][data-line="h8"]').focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowRight');
    await waitStatus(page, 'After 1. h8 · White to move');
    const id3 = await waitEngine(page, 'running', id2);
    assert.equal(asked(frames).length, before + 1, JSON.stringify(asked(frames).slice(before)));
    assert.deepEqual(asked(frames).at(-1).moves, ['h8']);

    // A proven win: black's open four, white to move.
    assert.equal(await paste(page, 'h8a1i8a2j8a3k8'), 'Read a move string: 7 moves.');
    await waitStatus(page, 'After 4. k8 · White to move');
    const id3b = await waitEngine(page, 'done', id3);
    assert.match(await byId(page, 'engine-eval').textContent(), /^Black wins: forced win in \d+ plies$/, 'white to move: no proof for the side to move');
    // The hall's game went on with a4 here, rated: black still wins after it (white's move: no
    // proof is named for the side that made it).
    assert.deepEqual(asked(frames).at(-1).rate, ['a4']);
    const cells3 = await engineCells(page);
    assert.deepEqual(cells3, ratedCells(frames, id3b));
    assert.match(cells3.a4, /^Black wins in \d+$/);
    assert.match(await byId(page, 'analysis-explorer-eval-a4').getAttribute('title'), /^Black wins: forced win in \d+ pl(y|ies)$/);
    assert.equal(await byId(page, 'engine-eval').getAttribute('data-proven'), 'true');
    assert.match((await engineSaid(page)).at(-1), /^Engine finished, depth \d+: Black wins: forced win in \d+ plies; best move [a-o]\d+\.$/);

    // Connect Four's start searches for seconds: switched off after a few depths, nothing more
    // of it comes (once the stop reached the server), and the switch is remembered.
    await byId(page, 'analysis-tab-connect4').click();
    await page.waitForURL(/\?analysis=connect4$/, { timeout: WAIT_MS });
    const id4 = await waitEngine(page, 'running', id3);
    await page.waitForFunction(() => /^depth (1[2-9]|[2-9]\d)$/.test(document.querySelector('[data-testid="engine-depth"]')?.textContent || ''), null, { timeout: WAIT_MS });
    await byId(page, 'engine-toggle').uncheck();
    await waitEngine(page, 'off');
    assert.equal(await byId(page, 'engine-status').textContent(), 'The engine is off.');
    assert.equal(await byId(page, 'engine-lines').isHidden(), true);
    assert.equal(await page.locator('[data-testid^="best-"]').count(), 0, 'no best move on the board');
    await new Promise((done) => setTimeout(done, 500));
    assert.deepEqual(frames.filter((f) => f.dir === '>').at(-1).msg, { t: 'analyse_stop' });
    const heard = about(frames, id4).length;
    await new Promise((done) => setTimeout(done, 3000));
    assert.equal(about(frames, id4).length, heard, `nothing of ${id4} after the stop: ${JSON.stringify(about(frames, id4).slice(heard))}`);
    assert.equal(about(frames, id4).some((m) => m.t === 'analysis_status' && m.status === 'done'), false, 'stopped, not finished');
    assert.equal(await page.evaluate(() => localStorage.getItem('kibitz.analysis.engine')), 'off');
    // Moves while off ask for nothing; after a reload it is still off.
    await byId(page, 'col-4').click();
    await waitStatus(page, 'After 1. 4 · White to move');
    await page.reload();
    await waitOnline(page);
    await waitStatus(page, 'After 1. 4 · White to move');
    assert.equal(await byId(page, 'engine-toggle').isChecked(), false);
    assert.equal(await byId(page, 'engine-panel').getAttribute('data-status'), 'off');
    const sentBefore = asked(frames).length;
    // On again: the position on show is asked for.
    await byId(page, 'engine-toggle').check();
    const id5 = await waitEngine(page, 'running', id4);
    assert.equal(asked(frames).length, sentBefore + 1);
    assert.deepEqual(asked(frames).at(-1), { t: 'analyse', id: id5, game: C4, position: null, moves: ['4'], rate: ['4'] });
    assert.equal(await page.evaluate(() => localStorage.getItem('kibitz.analysis.engine')), 'on');
    // Leaving the page stops it.
    const leaving = frames.length;
    await byId(page, 'btn-page-lobby').click();
    await byId(page, 'analysis').waitFor({ state: 'detached', timeout: WAIT_MS });
    await until(() => frames.slice(leaving).some((f) => f.dir === '>' && f.msg.t === 'analyse_stop'), 'analyse_stop on leaving');
    assertClean(kay);
    await kay.context.close();

    // On a phone: the panel and its lines within reach; axe.
    // Black to move with an open three: a win by continuous fours, named so.
    const lu = await openPlayer(hall.browser, { name: 'Lu', ...SIZES.phone });
    const luFrames = recordFrames(lu.page);
    await lu.page.goto(`${hall.server.url}?analysis=gomoku-freestyle&tree=h8a1i8a2j8a3&at=6`);
    await waitOnline(lu.page);
    const id6 = await waitEngine(lu.page, 'done');
    const last6 = about(luFrames, id6).filter((m) => m.t === 'analysis_line').at(-1);
    assert.equal(last6?.proof, 'vcf', `the server names the proof: ${JSON.stringify(last6)}`);
    assert.match(await byId(lu.page, 'engine-eval').textContent(), /^Black wins: VCF in \d+ plies$/);
    await assertInView(lu, ['board'], 'the board on a phone, with the engine');
    await assertShown(lu, ['engine-panel', 'engine-eval', 'engine-pv', 'engine-toggle'], 'the engine on a phone');
    // The explorer's move (k8, the hall's game) rated, within reach and no wider than the phone.
    assert.deepEqual(await engineCells(lu.page), ratedCells(luFrames, id6));
    await assertShown(lu, ['analysis-explorer-table', 'analysis-explorer-eval-k8'], 'the explorer\'s engine column on a phone');
    await screenshot(lu.page, 'analysis-engine-phone');
    await audit(lu, 'the engine on a phone');
    assertClean(lu);
    await lu.context.close();
  } catch (e) {
    throw new Error(`${e.message}\n${dumpFrames(kay)}\nKibot: ${bot.log()}`, { cause: e });
  } finally {
    await bot.stop();
  }
});
