// Browser tests of the puzzle pages (`/?puzzles…`, `/?puzzle=<id>`) against the real server and its shipped puzzles: Connect Four, Gomoku (VCF) and Othello puzzles solved by clicks, taps and the keyboard, a wrong move refused with the server's sentence and a second correct move (not the solution's) accepted, the guest's and an account's puzzle rating changing after a result, hints, the solution stepped through, streak mode's count and best, the lobby's daily puzzle card, the axe audit, and the page within the window at 1280x720, 1366x768 and on a phone.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  useHall, openPlayer, assertClean, assertInView, assertShown, screenshot, byId, gotoLobby, waitOnline, seriousViolations, SIZES, WAIT_MS,
} from './harness.mjs';
import { positionAfter, toBoardMove, canPlay } from '../../web-client/js/puzzles/puzzle.js';
import { cellName, dims } from '../../web-client/js/rules.js';

const DESK720 = { viewport: { width: 1280, height: 720 } };
const PASSWORD = 'puzzle-pass-1';
const hall = useHall('puzzles');

// ---------- the server, from the test ----------

/** A JSON request to the server: { status, data }. */
async function call(method, path, { body, token } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${hall.server.url}${path.replace(/^\//, '')}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, data: text ? JSON.parse(text) : null };
}

async function ok(method, path, opts) {
  const res = await call(method, path, opts);
  assert.equal(res.status, 200, `${method} ${path}: ${JSON.stringify(res.data)}`);
  return res.data;
}

const puzzleOf = (id) => ok('GET', `/api/puzzles/${encodeURIComponent(id)}`);
const solutionOf = async (id) => (await ok('GET', `/api/puzzles/${encodeURIComponent(id)}/solution`)).line;
const checkMove = (id, line) => ok('POST', `/api/puzzles/${encodeURIComponent(id)}/move`, { body: { line } });
const hintOf = (id, line, level) => ok('GET', `/api/puzzles/${encodeURIComponent(id)}/hint?line=${line.map(encodeURIComponent).join(',')}&level=${level}`);

/** Distinct puzzles of `variant` (and `theme`) as the next route walks them, up to `n`. */
async function puzzlesOf(variant, { theme = null, n = 24 } = {}) {
  const seen = new Map();
  let after = null;
  for (let i = 0; i < n * 2 && seen.size < n; i++) {
    const q = new URLSearchParams({ variant });
    if (theme) q.set('theme', theme);
    if (after) q.set('after', after);
    const p = await ok('GET', `/api/puzzles/next?${q}`);
    assert.equal(p.variant, variant);
    if (theme) assert.ok(p.themes.includes(theme), `${p.id} is a ${theme} puzzle`);
    seen.set(p.id, p);
    after = p.id;
  }
  assert.ok(seen.size > 0, `the server has ${variant} puzzles`);
  return [...seen.values()];
}

/** The moves the player may play after `line` (the server's notation), as the page's rules
 *  see them; Gomoku's nearest the stones first. */
function legalMoves(p, line) {
  const { game } = p;
  const at = positionAfter(game, [...p.moves, ...line].map((m) => toBoardMove(game, m)));
  if (game.kind === 'othello') return at.legal.map((i) => cellName(game, i));
  const { cols, rows } = dims(game);
  if (game.kind === 'connect4') return Array.from({ length: cols }, (_, x) => String(x + 1)).filter((m) => canPlay(at, m));
  const stones = [];
  for (let i = 0; i < at.pos.cells.length; i++) if (at.pos.cells[i]) stones.push([i % cols, Math.floor(i / cols)]);
  const near = (i) => Math.min(...stones.map(([x, y]) => Math.max(Math.abs(x - (i % cols)), Math.abs(y - Math.floor(i / cols)))));
  return Array.from({ length: cols * rows }, (_, i) => i)
    .filter((i) => !at.pos.cells[i] && canPlay(at, cellName(game, i)))
    .sort((a, b) => near(a) - near(b) || a - b)
    .map((i) => cellName(game, i));
}

/** A legal move the server refuses as the first move: { move, message } (Gomoku's farthest
 *  points first), or null when every legal move wins. */
async function wrongMove(p) {
  const moves = legalMoves(p, []);
  for (const move of p.game.kind === 'gomoku' ? moves.reverse().slice(0, 20) : moves) {
    const answer = await checkMove(p.id, [move]);
    if (!answer.correct) return { move, message: answer.message };
  }
  return null;
}

/** Where along the solution the server accepts a move other than the solution's: { prefix
 *  (the solution's moves before it), move }, or null (Gomoku: the 40 points nearest the stones
 *  at each of the player's turns). */
async function alternativeMove(p) {
  const solution = await solutionOf(p.id);
  for (let k = 0; k < solution.length; k += 2) {
    const prefix = solution.slice(0, k);
    for (const move of legalMoves(p, prefix).slice(0, 40)) {
      if (move === solution[k]) continue;
      if ((await checkMove(p.id, [...prefix, move])).correct) return { prefix, move };
    }
  }
  return null;
}

/** A puzzle of `list` with a wrong first move: { p, wrong, alt }, the first with an
 *  alternative (`alt`, alternativeMove's) when one has it. */
async function puzzleWithWrongMove(list) {
  let plain = null;
  for (const p of [...list].sort((a, b) => Number(!!b.alternatives) - Number(!!a.alternatives))) {
    const wrong = await wrongMove(p);
    if (!wrong) continue;
    const alt = p.alternatives ? await alternativeMove(p) : null;
    if (alt) return { p, wrong, alt };
    plain ??= { p, wrong, alt: null };
  }
  assert.ok(plain, `a ${list[0].variant} puzzle has a wrong first move`);
  return plain;
}

/** After a refused move: the solution's moves up to the alternative, the alternative, then the
 *  rest as the hints say (or the solution's way without one). Returns whether one was played. */
async function solveWithAlternative(player, p, alt) {
  let at = [];
  for (const move of alt ? alt.prefix.filter((_, i) => i % 2 === 0) : []) {
    const { next } = await playAndWait(player, p, at, move);
    at = next;
  }
  if (!alt) {
    await solveFrom(player, p, at);
    return false;
  }
  const { next, solved } = await playAndWait(player, p, at, alt.move);
  if (!solved) await solveFrom(player, p, next);
  return true;
}

// ---------- the page ----------

/** Waits for the puzzle page in the state given (its data attributes: puzzle, line, state, outcome, posted, mode). */
function waitPage(page, attrs) {
  const sel = Object.entries(attrs).map(([k, v]) => `[data-${k}="${v}"]`).join('');
  return page.locator(`[data-testid="puzzles"]${sel}`).waitFor({ timeout: WAIT_MS });
}

const pageAttr = (page, name) => byId(page, 'puzzles').getAttribute(`data-${name}`);
const boardLine = (p, line) => line.map((m) => toBoardMove(p.game, m)).join(',');

/** Plays `move` (the server's notation) on the page's board: a click, or on a phone a tap
 *  (twice on a Gomoku point: the first only previews). */
async function playMove(player, p, move) {
  const point = byId(player.page, p.game.kind === 'connect4' ? `col-${toBoardMove(p.game, move)}` : `cell-${move}`);
  if (!player.mobile) {
    await point.click();
    return;
  }
  await point.tap();
  if (p.game.kind === 'gomoku') await point.tap();
}

/** Plays `move` after `line` on the page and waits until the server's answer is on the board
 *  (the reply after its beat); returns the line after it. */
async function playAndWait(player, p, line, move, play = playMove) {
  const answer = await checkMove(p.id, [...line, move]);
  assert.equal(answer.correct, true, `${move} after ${line} wins`);
  await play(player, p, move);
  const next = answer.solved ? [...line, move] : [...line, move, answer.reply];
  await waitPage(player.page, { puzzle: p.id, line: boardLine(p, next), state: answer.solved ? 'solved' : 'play' });
  return { next, solved: answer.solved };
}

/** Plays the puzzle to its end from `line` on the page, each move the one the server's hint names. */
async function solveFrom(player, p, line = []) {
  let at = line;
  for (let k = 0; k < 40; k++) {
    const { move } = await hintOf(p.id, at, 2);
    const { next, solved } = await playAndWait(player, p, at, move);
    if (solved) return next;
    at = next;
  }
  throw new Error(`${p.id} not solved in 40 moves`);
}

/** The rating the page shows as the player's (a number, `?` dropped). */
const shownRating = async (page) => Number((await byId(page, 'puzzle-my-rating').textContent()).replace('?', ''));

/** The result once posted and answered: { state, rating, change }. */
async function resultShown(page) {
  await page.locator('[data-testid="puzzle-result"][data-state="rated"], [data-testid="puzzle-result"][data-state="unrated"]').waitFor({ timeout: WAIT_MS });
  const state = await byId(page, 'puzzle-result').getAttribute('data-state');
  if (state !== 'rated') return { state };
  return {
    state,
    rating: Number(await byId(page, 'puzzle-result-rating').getAttribute('data-rating')),
    change: Number(await byId(page, 'puzzle-result-change').getAttribute('data-change')),
  };
}

/** Fails on any serious axe finding or a page without exactly one h1. */
async function audit(player, where) {
  const found = await seriousViolations(player.page, { also: ['aria-allowed-role', 'page-has-heading-one'] });
  assert.deepEqual(found, [], `${where}: ${JSON.stringify(found, null, 1)}`);
  assert.equal(await player.page.locator('h1').count(), 1, `${where}: one h1`);
}

const IN_VIEW = ['board', 'puzzle-goal', 'puzzle-status', 'puzzle-show-solution'];

/** Whether a puzzle of some game was played with a move other than the solution's. */
let alternativePlayed = false;

test('Connect Four from the header: solved from the keyboard and the mouse, the guest\'s rating up; a wrong move refused, another accepted, the solution stepped through', async (t) => {
  const ann = await openPlayer(hall.browser, { name: 'Ann', ...DESK720 });
  const { page } = ann;
  await gotoLobby(ann, hall.server);
  await byId(page, 'header-link-puzzles').click();
  await page.waitForURL(/\?puzzles$/, { timeout: WAIT_MS });
  await waitPage(page, { state: 'play' });
  await byId(page, 'puzzle-variant').selectOption('connect4');
  await page.waitForURL(/\?puzzles&variant=connect4$/, { timeout: WAIT_MS });
  await waitPage(page, { variant: 'connect4', state: 'play' });
  const p = await puzzleOf(await pageAttr(page, 'puzzle'));
  assert.equal(p.variant, 'connect4');
  assert.equal(await byId(page, 'puzzle-my-rating').textContent(), '1500?', 'a guest starts at 1500, provisional');
  assert.match(await byId(page, 'puzzle-goal').textContent(), new RegExp(`^ ?${p.to_move === 'black' ? 'Black' : 'White'} to play and win in ${p.length}$`));
  assert.match(await byId(page, 'puzzle-cost').textContent(), /counts as failed/);
  await assertInView(ann, [...IN_VIEW, 'puzzle-hint', 'header-link-puzzles'], 'a Connect Four puzzle at 1280x720');
  await audit(ann, 'a Connect Four puzzle at 1280x720');

  // The first move from the keyboard: the board's cursor starts on the middle column.
  const { move: first } = await hintOf(p.id, [], 2);
  const keys = async (_player, _p, move) => {
    await byId(page, 'board').focus();
    const steps = Number(toBoardMove(p.game, move)) - 4;
    for (let i = 0; i < Math.abs(steps); i++) await page.keyboard.press(steps > 0 ? 'ArrowRight' : 'ArrowLeft');
    await page.keyboard.press('Enter');
  };
  let { next, solved } = await playAndWait(ann, p, [], first, keys);
  if (!solved) {
    // The reply is said in words in the status line (a live region).
    assert.match(await byId(page, 'puzzle-status').textContent(), /Correct\. Reply: (white|black) column \d\. Your move/);
    assert.equal(await byId(page, 'puzzle-status').getAttribute('aria-live'), 'polite');
    await solveFrom(ann, p, next);
  }
  assert.equal(await byId(page, 'puzzle-status').textContent(), 'Solved!');
  const won = await resultShown(page);
  assert.ok(won.change > 0, `solved: the rating goes up (${won.change})`);
  assert.ok(won.rating > 1500);
  assert.equal(await shownRating(page), won.rating, 'the rating shown is the new one');
  assert.equal(await byId(page, 'puzzle-result').getAttribute('role'), 'status');
  const kept = JSON.parse(await page.evaluate(() => localStorage.getItem('kibitz.puzzleRatings')));
  assert.equal(Math.round(kept.connect4.rating), won.rating, 'kept in this browser');
  assert.equal(kept.connect4.plays, 1);
  await screenshot(page, 'puzzle-connect4-solved');

  // The next puzzle: a wrong move is refused with the server's sentence, taken back, and the
  // attempt fails (the rating down at once); another move is accepted.
  const { p: q, wrong, alt } = await puzzleWithWrongMove(await puzzlesOf('connect4'));
  await page.goto(`${hall.server.url}?puzzle=${encodeURIComponent(q.id)}`);
  await waitPage(page, { puzzle: q.id, state: 'play' });
  const before = await shownRating(page);
  await playMove(ann, q, wrong.move);
  await page.locator(`[data-testid="puzzle-status"][data-wrong="${toBoardMove(q.game, wrong.move)}"]`).waitFor({ timeout: WAIT_MS });
  assert.ok((await byId(page, 'puzzle-status').textContent()).includes(wrong.message), 'the server\'s sentence');
  assert.match(await byId(page, 'puzzle-status').textContent(), /Taken back: try another move\.$/);
  assert.equal(await page.locator('[data-testid^="refused-"]').count(), 1, 'the refused point ringed');
  assert.equal(await pageAttr(page, 'line'), '', 'taken back');
  await waitPage(page, { puzzle: q.id, outcome: 'failed', posted: 'true' });
  const lost = await resultShown(page);
  assert.ok(lost.change < 0, `failed: the rating goes down (${lost.change})`);
  assert.ok(lost.rating < before);
  assert.match(await byId(page, 'puzzle-result').textContent(), /Counted as failed: a move was refused/);
  await assertInView(ann, [...IN_VIEW, 'puzzle-next'], 'a refused move at 1280x720');
  t.diagnostic(`${q.id}: ${wrong.move} refused, ${alt ? `${alt.move} accepted after ${alt.prefix.join(',') || 'nothing'}` : 'no alternative'}`);
  if (await solveWithAlternative(ann, q, alt)) alternativePlayed = true;
  await waitPage(page, { puzzle: q.id, state: 'solved' });
  assert.equal(await byId(page, 'puzzle-status').textContent(), 'Solved, but counted as failed.');
  assert.equal((await resultShown(page)).rating, lost.rating, 'posted once');

  // The solution, step by step: the buttons and the arrow keys.
  const solution = await solutionOf(q.id);
  await byId(page, 'puzzle-show-solution').click();
  await waitPage(page, { state: 'solution', line: '' });
  assert.match(await byId(page, 'puzzle-status').textContent(), new RegExp(`Solution, move 0 of ${solution.length}`));
  await byId(page, 'puzzle-sol-next').click();
  await waitPage(page, { state: 'solution', line: boardLine(q, solution.slice(0, 1)) });
  await page.keyboard.press('ArrowRight');
  await waitPage(page, { state: 'solution', line: boardLine(q, solution.slice(0, Math.min(2, solution.length))) });
  await byId(page, 'puzzle-sol-last').click();
  await waitPage(page, { state: 'solution', line: boardLine(q, solution) });
  await page.keyboard.press('Home');
  await waitPage(page, { state: 'solution', line: '' });
  await audit(ann, 'the solution at 1280x720');
  assertClean(ann);
  await ann.context.close();
});

test('Gomoku VCF at 1366x768: a wrong move refused, a move other than the solution\'s accepted, solved', async (t) => {
  const ben = await openPlayer(hall.browser, { name: 'Ben', ...SIZES.desk768 });
  const { page } = ben;
  const { p, wrong, alt } = await puzzleWithWrongMove(await puzzlesOf('gomoku-freestyle', { theme: 'vcf', n: 12 }));
  await page.goto(`${hall.server.url}?puzzles&variant=gomoku-freestyle&theme=vcf`);
  await waitPage(page, { variant: 'gomoku-freestyle', state: 'play' });
  assert.equal(await byId(page, 'puzzle-theme').inputValue(), 'vcf');
  await page.goto(`${hall.server.url}?puzzle=${encodeURIComponent(p.id)}`);
  await waitOnline(page);
  await waitPage(page, { puzzle: p.id, state: 'play', mode: 'one' });
  assert.match(await byId(page, 'puzzle-goal').textContent(), new RegExp(`to play and win: VCF in ${p.length}$`));
  assert.equal(await byId(page, 'puzzle-title').textContent(), 'Puzzle');
  await assertInView(ben, [...IN_VIEW, 'puzzle-hint'], 'a Gomoku puzzle at 1366x768');

  await playMove(ben, p, wrong.move);
  await page.locator(`[data-testid="puzzle-status"][data-wrong="${wrong.move}"]`).waitFor({ timeout: WAIT_MS });
  assert.ok((await byId(page, 'puzzle-status').textContent()).includes(wrong.message));
  await byId(page, `refused-${wrong.move}`).waitFor({ state: 'attached', timeout: WAIT_MS });
  assert.equal(await byId(page, `cell-${wrong.move}`).getAttribute('data-stone'), '', 'no stone left there');
  const lost = await resultShown(page);
  assert.ok(lost.change < 0);

  const solution = await solutionOf(p.id);
  if (alt) assert.notEqual(alt.move, solution[alt.prefix.length], 'not the solution\'s move');
  t.diagnostic(`${p.id}: ${wrong.move} refused, ${alt ? `${alt.move} accepted after ${alt.prefix.join(',') || 'nothing'}` : 'no alternative'}`);
  if (await solveWithAlternative(ben, p, alt)) alternativePlayed = true;
  assert.equal(await page.locator('[data-testid^="refused-"]').count(), 0, 'the ring gone with the next move');
  await waitPage(page, { puzzle: p.id, state: 'solved', outcome: 'failed' });
  await page.locator('.win-ring').first().waitFor({ state: 'attached', timeout: WAIT_MS });
  await screenshot(page, 'puzzle-gomoku-solved');
  assertClean(ben);
  await ben.context.close();
});

test('Othello on a phone: in view, a wrong move refused, another accepted, solved by taps; axe finds nothing serious', async (t) => {
  const pia = await openPlayer(hall.browser, { name: 'Pia', ...SIZES.phone });
  const { page } = pia;
  const { p, wrong, alt } = await puzzleWithWrongMove(await puzzlesOf('othello', { n: 12 }));
  await page.goto(`${hall.server.url}?puzzle=${encodeURIComponent(p.id)}`);
  await waitOnline(page);
  await waitPage(page, { puzzle: p.id, state: 'play' });
  await assertInView(pia, [...IN_VIEW, 'puzzle-hint'], 'an Othello puzzle on a phone');
  assert.ok(await page.locator('[data-testid^="legal-"]').count() > 0, 'the legal squares marked');
  await audit(pia, 'an Othello puzzle on a phone');
  await playMove(pia, p, wrong.move);
  await page.locator(`[data-testid="puzzle-status"][data-wrong="${wrong.move}"]`).waitFor({ timeout: WAIT_MS });
  await assertInView(pia, [...IN_VIEW, 'puzzle-next'], 'a refused move on a phone');
  await resultShown(page);
  t.diagnostic(`${p.id}: ${wrong.move} refused, ${alt ? `${alt.move} accepted after ${alt.prefix.join(',') || 'nothing'}` : 'no alternative'}`);
  if (await solveWithAlternative(pia, p, alt)) alternativePlayed = true;
  await waitPage(page, { puzzle: p.id, state: 'solved' });
  await assertInView(pia, ['board', 'puzzle-goal', 'puzzle-status', 'puzzle-next'], 'solved, on a phone');
  await screenshot(page, 'puzzle-othello-phone');
  await audit(pia, 'a solved Othello puzzle on a phone');
  assertClean(pia);
  await pia.context.close();
  assert.ok(alternativePlayed, 'a puzzle was solved with a move other than the solution\'s');
});

test('hints: the area ringed, then the move; the attempt counted as failed', async () => {
  const hal = await openPlayer(hall.browser, { name: 'Hal', ...SIZES.desk800 });
  const { page } = hal;
  const [p] = await puzzlesOf('gomoku-freestyle', { n: 1 });
  const { area } = await hintOf(p.id, [], 1);
  const { move } = await hintOf(p.id, [], 2);
  assert.ok(area.includes(move), 'the move is in the area');
  await page.goto(`${hall.server.url}?puzzle=${encodeURIComponent(p.id)}`);
  await waitPage(page, { puzzle: p.id, state: 'play' });
  assert.equal(await byId(page, 'puzzle-hint').textContent(), 'Hint: where to look');
  assert.equal(await byId(page, 'puzzle-hint').getAttribute('aria-describedby'), 'puzzle-cost');
  await byId(page, 'puzzle-hint').click();
  const ring = '[data-testid^="hint-"]:not([data-testid^="hint-move-"])';
  await page.locator(ring).first().waitFor({ state: 'attached', timeout: WAIT_MS });
  assert.deepEqual((await page.locator(ring).evaluateAll((els) => els.map((e) => e.dataset.testid.slice(5)))).sort(), [...new Set(area)].sort());
  const hinted = await resultShown(page);
  assert.ok(hinted.change < 0, 'a hint counts as failed');
  assert.match(await byId(page, 'puzzle-result').textContent(), /you took a hint/);
  assert.equal(await byId(page, 'puzzle-hint').textContent(), 'Hint: the move');
  await byId(page, 'puzzle-hint').click();
  await byId(page, `hint-move-${move}`).waitFor({ state: 'attached', timeout: WAIT_MS });
  assert.equal(await byId(page, 'puzzle-hint').isHidden(), true, 'no third hint');
  const { solved } = await playAndWait(hal, p, [], move);
  assert.equal(await page.locator('[data-testid^="hint-"]').count(), 0, 'the hint gone with the move');
  assert.equal(solved || (await byId(page, 'puzzle-hint').textContent()) === 'Hint: where to look', true, 'the next move has its own hint');
  await audit(hal, 'hints at 1280x800');
  await page.emulateMedia({ colorScheme: 'dark' });
  await audit(hal, 'hints at 1280x800, dark');
  assertClean(hal);
  await hal.context.close();
});

test('streak mode: the count rises with each puzzle solved, the first failure ends it, the best is remembered', async () => {
  const sam = await openPlayer(hall.browser, { name: 'Sam', ...DESK720 });
  const { page } = sam;
  await page.goto(`${hall.server.url}?puzzles&variant=connect4`);
  await waitPage(page, { state: 'play' });
  await byId(page, 'puzzle-mode').selectOption('streak');
  await page.waitForURL(/\?puzzles&variant=connect4&mode=streak$/, { timeout: WAIT_MS });
  await waitPage(page, { mode: 'streak', state: 'play' });
  assert.equal(await byId(page, 'puzzle-title').textContent(), 'Puzzle streak');
  assert.equal(await byId(page, 'puzzle-hint').isHidden(), true, 'no hints in a streak');
  assert.equal(await byId(page, 'puzzle-streak').getAttribute('data-count'), '0');
  for (let k = 1; k <= 2; k++) {
    const p = await puzzleOf(await pageAttr(page, 'puzzle'));
    await solveFrom(sam, p, []);
    await page.locator(`[data-testid="puzzle-streak"][data-count="${k}"]`).waitFor({ timeout: WAIT_MS });
    assert.match(await byId(page, 'puzzle-streak').textContent(), new RegExp(`Streak: ${k} solved · best ${k}`));
    await byId(page, 'puzzle-next').click();
    await page.waitForFunction((id) => { const el = document.querySelector('[data-testid="puzzles"]'); return el.dataset.state === 'play' && el.dataset.puzzle !== id; }, p.id, { timeout: WAIT_MS });
  }
  // The third: a wrong move ends the streak.
  const p = await puzzleOf(await pageAttr(page, 'puzzle'));
  const wrong = await wrongMove(p);
  if (wrong) await playMove(sam, p, wrong.move);
  else await byId(page, 'puzzle-show-solution').click();
  await page.locator('[data-testid="puzzle-streak"][data-over="true"]').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(page, 'puzzle-streak').textContent(), 'Streak over: 2 solved · best 2');
  await byId(page, 'puzzle-restart').waitFor({ timeout: WAIT_MS });
  assert.equal(await byId(page, 'puzzle-next').isHidden(), true);
  await assertInView(sam, ['board', 'puzzle-goal', 'puzzle-status', 'puzzle-restart', 'puzzle-streak'], 'the streak over at 1280x720');
  await screenshot(page, 'puzzle-streak-over');
  await byId(page, 'puzzle-restart').click();
  await page.locator('[data-testid="puzzle-streak"][data-over="false"][data-count="0"][data-best="2"]').waitFor({ timeout: WAIT_MS });
  await page.reload();
  await waitPage(page, { mode: 'streak', state: 'play' });
  assert.equal(await byId(page, 'puzzle-streak').textContent(), 'Streak: 0 solved · best 2', 'the best kept over a reload');
  assertClean(sam);
  await sam.context.close();
});

test('an account\'s puzzle rating comes from the server, changes with a result, and a second try is not rated', async () => {
  const rita = await openPlayer(hall.browser, { name: 'Rita', ...SIZES.desk800 });
  const { page } = rita;
  await gotoLobby(rita, hall.server);
  await byId(page, 'link-register').click();
  await byId(page, 'account-name').fill('Rita');
  await byId(page, 'account-password').fill(PASSWORD);
  await byId(page, 'btn-account-submit').click();
  await page.locator('[data-testid="my-name"][data-account="true"]').waitFor({ timeout: WAIT_MS });
  const token = await page.evaluate(() => localStorage.getItem('kibitz.token'));
  assert.deepEqual((await ok('GET', '/api/puzzles/me', { token })).ratings.othello ?? null, null, 'no Othello puzzle yet');
  assert.equal((await call('GET', '/api/puzzles/me')).status, 401, 'not without the token');

  await byId(page, 'header-link-puzzles').click();
  await waitPage(page, { state: 'play' });
  await byId(page, 'puzzle-variant').selectOption('othello');
  await waitPage(page, { variant: 'othello', state: 'play' });
  assert.equal(await byId(page, 'puzzle-my-rating').textContent(), '1500?');
  assert.doesNotMatch(await byId(page, 'puzzle-rating').textContent(), /kept in this browser/);
  const p = await puzzleOf(await pageAttr(page, 'puzzle'));
  await solveFrom(rita, p, []);
  const won = await resultShown(page);
  assert.ok(won.change > 0);
  assert.equal(await shownRating(page), won.rating);
  const mine = (await ok('GET', '/api/puzzles/me', { token })).ratings.othello;
  assert.equal(Math.round(mine.rating), won.rating, 'the server keeps the account\'s rating');
  assert.equal(mine.plays, 1);
  assert.equal(await page.evaluate(() => localStorage.getItem('kibitz.puzzleRatings')), null, 'nothing kept in the browser');

  // The same puzzle again, by its link: solved, not rated.
  await page.goto(`${hall.server.url}?puzzle=${encodeURIComponent(p.id)}`);
  await waitOnline(page);
  await waitPage(page, { puzzle: p.id, state: 'play' });
  assert.equal(await shownRating(page), won.rating, 'the account\'s rating, from the server');
  await solveFrom(rita, p, []);
  assert.equal((await resultShown(page)).state, 'unrated');
  assert.match(await byId(page, 'puzzle-result').textContent(), /Not rated: you have tried this puzzle before/);
  assert.equal(Math.round((await ok('GET', '/api/puzzles/me', { token })).ratings.othello.rating), won.rating, 'unchanged');
  assertClean(rita);
  await rita.context.close();
});

test('the lobby\'s daily puzzle card leads to its puzzle; in Chinese too', async () => {
  const daily = await ok('GET', '/api/puzzles/daily');
  assert.match(daily.date, /^\d{4}-\d{2}-\d{2}$/);
  for (const [name, size] of [['Dee', SIZES.desk800], ['Dot', SIZES.phone]]) {
    const dee = await openPlayer(hall.browser, { name, ...size });
    const { page } = dee;
    await gotoLobby(dee, hall.server);
    const link = byId(page, 'daily-puzzle-link');
    await link.waitFor({ timeout: WAIT_MS });
    assert.equal(await link.getAttribute('data-puzzle'), daily.id);
    assert.match(await byId(page, 'daily-puzzle-goal').textContent(), new RegExp(`to play and win.* in ${daily.length}$`));
    await assertShown(dee, ['daily-puzzle-link'], 'the daily puzzle card');
    await audit(dee, `the lobby with the daily puzzle (${name})`);
    await link.click();
    await page.waitForURL(new RegExp(`\\?puzzle=${encodeURIComponent(daily.id)}$`), { timeout: WAIT_MS });
    await waitPage(page, { puzzle: daily.id, state: 'play' });
    await assertInView(dee, IN_VIEW, `the daily puzzle (${name})`);
    assertClean(dee);
    await dee.context.close();
  }
  const wu = await openPlayer(hall.browser, { name: 'Wu', ...SIZES.desk768, locale: 'zh-CN' });
  await gotoLobby(wu, hall.server);
  await byId(wu.page, 'daily-puzzle-link').waitFor({ timeout: WAIT_MS });
  assert.equal(await wu.page.locator('#daily-title').textContent(), '每日谜题');
  await byId(wu.page, 'header-link-puzzles').click();
  await waitPage(wu.page, { state: 'play' });
  assert.equal(await byId(wu.page, 'puzzle-title').textContent(), '谜题');
  assert.match(await byId(wu.page, 'puzzle-goal').textContent(), /先走/);
  await audit(wu, 'the puzzles in Chinese at 1366x768');
  assertClean(wu);
  await wu.context.close();
});
