// Shared harness of the browser tests: sets up each file's server, bots and browser (`useHall`), starts the real `kibitz serve` binary, launches Debian's Chromium through playwright-core, opens isolated pages that record console errors, page errors and dialogs, and keeps screenshots in artifacts/.

import { spawn } from 'node:child_process';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = resolve(HERE, '..', '..');
export const ARTIFACTS = join(HERE, 'artifacts');

/** The server binary: $KIBITZ_BIN, else the debug build in $CARGO_TARGET_DIR (or ./target). */
export const KIBITZ_BIN = process.env.KIBITZ_BIN
  || join(process.env.CARGO_TARGET_DIR || join(REPO, 'target'), 'debug', 'kibitz');
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
export const BOT_KEY = 'browser-test-bot-key';

/** The three window sizes issue 52 asks every defect's test to hold at: two laptops and a phone
 *  held upright (a touch screen that lays out like a phone). Spread over a test's pages, or
 *  looped over where a test has one page: `openPlayer(browser, { name, ...SIZES.phone })`. */
export const SIZES = {
  desk800: { viewport: { width: 1280, height: 800 } },
  desk768: { viewport: { width: 1366, height: 768 } },
  phone: { viewport: { width: 390, height: 844 }, mobile: true },
};

/** How long any single expectation may take before the test fails (a bound, never a sleep). */
export const WAIT_MS = 10_000;

const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

/** A fresh temporary directory, removed by `removeDir`. */
export function freshDir(prefix) {
  return mkdtemp(join(tmpdir(), prefix));
}

export async function removeDir(dir) {
  if (dir) await rm(dir, { recursive: true, force: true });
}

/**
 * Starts `kibitz serve` (or `command`: `up` adds its bots and the showcase game) on `bind`
 * (port 0 by default) with the data directory `dataDir` and resolves once it prints its
 * address; `env` adds environment variables (limits such as KIBITZ_LOBBY_LIST_MAX). Returns { url, bind, dataDir, stop(signal) }; `stop` resolves when
 * the process has exited.
 */
export function startServer({ dataDir, bind = '127.0.0.1:0', env = {}, command = 'serve' }) {
  const child = spawn(KIBITZ_BIN, [command, '--bind', bind, '--data', dataDir, '--bot-key', BOT_KEY], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn', ...env },
  });
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  let log = '';
  child.stderr.on('data', (chunk) => {
    log = (log + chunk).slice(-8000);
  });
  return new Promise((resolveStart, rejectStart) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rejectStart(new Error(`kibitz did not print its address within ${WAIT_MS} ms\n${out}\n${log}`));
    }, WAIT_MS);
    child.once('error', (e) => {
      clearTimeout(timer);
      rejectStart(new Error(`cannot start ${KIBITZ_BIN} (build it with cargo build --bin kibitz): ${e.message}`));
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      rejectStart(new Error(`kibitz exited early (code ${code}, signal ${signal})\n${out}\n${log}`));
    });
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const m = out.match(/Kibitz is listening on (http:\/\/([^/\s]+)\/)/);
      if (!m) return;
      clearTimeout(timer);
      child.stdout.removeAllListeners('data');
      child.stdout.resume();
      resolveStart({
        url: m[1],
        bind: m[2],
        dataDir,
        log: () => log,
        async stop(signal = 'SIGTERM') {
          if (child.exitCode == null && child.signalCode == null) child.kill(signal);
          return exited;
        },
      });
    });
  });
}

/**
 * Starts a bot process (`kibitz bot`) that connects to `server` with the server's bot key, under
 * `name`, playing at most `capacity` games, keeping its identity in `stateFile`. Returns
 * { name, log(), stop(signal) }; `stop` resolves when the process has exited. The caller waits
 * for the bot to show in a lobby (`waitBots`): that is when it can be invited.
 */
export function startBot(server, { name, stateFile, capacity = 4 }) {
  const child = spawn(KIBITZ_BIN, [
    'bot', '--server', `ws://${server.bind}/ws`, '--key', BOT_KEY, '--name', name,
    '--capacity', String(capacity), '--state', stateFile,
  ], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'warn' },
  });
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  let log = '';
  child.stderr.on('data', (chunk) => {
    log = (log + chunk).slice(-8000);
  });
  child.once('error', (e) => {
    log += `\ncannot start ${KIBITZ_BIN}: ${e.message}`;
  });
  return {
    name,
    log: () => log,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode == null && child.signalCode == null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Launches Chromium. Plain `launch` gives the browser a new temporary profile directory every
 * time (playwright passes its own fresh --user-data-dir and deletes it on close), and every
 * `newContext` inside it is a separate incognito-like context with its own storage, so two
 * contexts are two different players (their tokens live in their own localStorage). `args`
 * adds command-line switches (a host name mapped to an address, a certificate trusted).
 */
export async function launchBrowser({ args = [] } = {}) {
  const launch = () => chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...args] });
  try {
    return await launch();
  } catch (e) {
    // Chromium has been seen to crash (SIGSEGV) while starting up on a loaded CI machine,
    // before any page exists: a second start is a fresh process. The error of a second failure
    // is the test's.
    console.error(`Chromium did not start (${String(e.message).split('\n')[0]}); starting it again`);
    return launch();
  }
}

/** The moderators' probe's address (see openPlayer). */
const PROBE_URL = /\/api\/moderation\/sanctions$/;

/**
 * Opens a page in a new context under the player name `name` (`mobile`: a touch screen that
 * lays out like a phone), recording problems: console
 * errors, uncaught page errors and dialogs (alert/confirm/prompt, dismissed at once).
 * `allowConsole` lists patterns of console errors that the browser itself logs and the page
 * cannot prevent (a refused WebSocket while the server is down).
 */
export async function openPlayer(browser, { name, viewport = { width: 1280, height: 900 }, locale = 'en-US', mobile = false, allowConsole = [] }) {
  const context = await browser.newContext({ viewport, locale, isMobile: mobile, hasTouch: mobile, deviceScaleFactor: mobile ? 2 : 1 });
  await context.addInitScript((playerName) => {
    if (!localStorage.getItem('kibitz.name')) localStorage.setItem('kibitz.name', playerName);
    // Keeps the page's latest WebSocket reachable, so a test can send a message the page has no
    // control for (`sendRaw`); the page itself never looks at it.
    const PageSocket = window.WebSocket;
    window.WebSocket = class extends PageSocket {
      constructor(...args) {
        super(...args);
        window.__kibitzTestSocket = this;
      }
    };
  }, name);
  const page = await context.newPage();
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() !== 'error') return;
    const text = msg.text();
    if (allowConsole.some((re) => re.test(text))) return;
    // The page asks once whether its account is a moderator (mod-link.js): a 401 or 403 is the
    // answer "no", which Chromium logs as a failed resource whatever the page does with it.
    if (PROBE_URL.test(msg.location()?.url ?? '') && /status of 40[13]\b/.test(text)) return;
    problems.push(`console error: ${text}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  // The last WebSocket frames both ways, for diagnosing a failure (`dumpFrames`).
  const frames = [];
  page.on('websocket', (ws) => {
    const keep = (dir) => (frame) => {
      frames.push(`${dir} ${String(frame.payload).slice(0, 500)}`);
      if (frames.length > 200) frames.shift();
    };
    ws.on('framesent', keep('>'));
    ws.on('framereceived', keep('<'));
  });
  page.on('dialog', (dialog) => {
    problems.push(`dialog ${dialog.type()}: ${dialog.message()}`);
    dialog.dismiss().catch(() => {});
  });
  return { name, context, page, problems, frames, mobile, viewport };
}

/**
 * Fails unless every element matching each selector of `selectors` (a data-testid, or a CSS
 * selector when it has a space or a bracket) is shown and lies wholly inside `player`'s window as
 * it is scrolled now, and the page is no wider than the window (no sideways scroll).
 */
export async function assertInView(player, selectors, what = '') {
  const seen = await player.page.evaluate((sels) => ({
    size: [innerWidth, innerHeight],
    wide: document.documentElement.scrollWidth,
    boxes: sels.flatMap((sel) => {
      const css = /[\s\[.#>:]/.test(sel) ? sel : `[data-testid="${sel}"]`;
      const all = [...document.querySelectorAll(css)];
      if (!all.length) return [{ sel, missing: true }];
      return all.map((e) => {
        const r = e.getBoundingClientRect();
        return { sel, top: Math.round(r.top), left: Math.round(r.left), bottom: Math.round(r.bottom), right: Math.round(r.right), w: r.width, h: r.height };
      });
    }),
  }), selectors);
  const [w, h] = seen.size;
  const out = seen.boxes.filter((b) => b.missing || !(b.w > 0 && b.h > 0) || b.top < -1 || b.left < -1 || b.bottom > h + 1 || b.right > w + 1);
  assert.deepEqual(out, [], `${player.name} ${what} (${w}x${h}): shown and inside the window: ${JSON.stringify(out)}`);
  assert.ok(seen.wide <= w + 1, `${player.name} ${what} (${w}x${h}): the page is ${seen.wide} px wide`);
}

/** Scrolls the element of `testid` into view (as a player would), then `assertInView` on it. */
export async function assertShown(player, testids, what = '') {
  for (const id of [].concat(testids)) await byId(player.page, id).first().scrollIntoViewIfNeeded();
  await assertInView(player, [].concat(testids), what);
}

/** The recorded frames of a player, one per line ('>' sent, '<' received). */
export function dumpFrames(player) {
  return `${player.name}:\n${player.frames.join('\n')}`;
}

/** Fails when any page logged a console error, threw, or opened a dialog. */
export function assertClean(...players) {
  for (const p of players) assert.deepEqual(p.problems, [], `${p.name}: the page reported problems`);
}

/** Saves a full-page screenshot as artifacts/<file>.png, with animations run to their end and
 *  the mouse moved off the board (so no hover preview stone). */
export async function screenshot(page, file) {
  await mkdir(ARTIFACTS, { recursive: true });
  await page.mouse.move(0, 0);
  await page.screenshot({ path: join(ARTIFACTS, `${file}.png`), fullPage: true, animations: 'disabled' });
}

/** The locator of a data-testid. */
export function byId(page, testid) {
  return page.locator(`[data-testid="${testid}"]`);
}

/** Waits until the page is connected (the header dot says online and the banner is gone). */
export async function waitOnline(page) {
  await page.locator('[data-testid="net-status"].online').waitFor({ timeout: WAIT_MS });
  await byId(page, 'offline-banner').waitFor({ state: 'hidden', timeout: WAIT_MS });
}

/** Opens the lobby and waits for the first lobby lists. */
export async function gotoLobby(player, server) {
  await player.page.goto(server.url);
  await waitOnline(player.page);
  await byId(player.page, 'open-rooms').locator('li').first().waitFor({ timeout: WAIT_MS });
}

/** Unfolds the lobby's "More options" (the whole new-game form), when it is folded. */
export async function openMoreOptions(page) {
  const details = byId(page, 'more-options');
  if (!(await details.evaluate((d) => d.open))) await byId(page, 'btn-more-options').click();
  await byId(page, 'new-game-kind').waitFor({ timeout: WAIT_MS });
}

/**
 * Creates a room through the lobby's new-game form. `game` is 'gomoku' | 'othello' |
 * 'connect4'; `rule` for Gomoku; `blocked` a list of [col,row] cells for Connect Four;
 * `seat` the creator's seat; `botLevel` (1..10) makes the opponent a bot of that level;
 * `openingRule` ('swap2', 'soosorv8', 'taraguchi10') plays the game from that opening. Resolves with the room id once the room view shows its state.
 */
export async function createRoom(player, server, { game = 'gomoku', rule = 'freestyle', size = 15, blocked = [], seat = 'black', clock = 'none', botLevel = null, openingRule = 'none' } = {}) {
  const { page } = player;
  await gotoLobby(player, server);
  await openMoreOptions(page);
  await byId(page, 'new-game-kind').selectOption(game);
  if (game === 'gomoku') {
    await byId(page, 'new-game-size').selectOption(String(size));
    await byId(page, 'new-game-rule').selectOption(rule);
    await byId(page, 'new-game-opening-rule').selectOption(openingRule);
  }
  if (game === 'connect4') {
    for (const [c, r] of blocked) await byId(page, `blocked-${c}-${r}`).click();
  }
  await byId(page, 'new-game-clock').selectOption(clock);
  if (botLevel == null) {
    await byId(page, 'new-game-opp-person').check();
  } else {
    await byId(page, 'new-game-opp-bot').check();
    await byId(page, 'new-game-level').selectOption(String(botLevel));
  }
  await byId(page, 'new-game-seat').selectOption(seat);
  await byId(page, 'btn-new-game').click();
  const room = byId(page, 'room');
  await room.waitFor({ timeout: WAIT_MS });
  await byId(page, `player-name-${seat}`).filter({ hasText: player.name }).waitFor({ timeout: WAIT_MS });
  return room.getAttribute('data-room');
}

/** Opens a room by its link; the page takes the free seat, or watches when both are taken. */
export async function openRoom(player, server, room) {
  await player.page.goto(`${server.url}?room=${encodeURIComponent(room)}`);
  await waitOnline(player.page);
  await byId(player.page, 'board').waitFor({ timeout: WAIT_MS });
}

/** Waits until `player`'s board accepts input (it is their turn). */
export function waitMyTurn(player) {
  return player.page.locator('svg.board.interactive[data-testid="board"]').waitFor({ timeout: WAIT_MS });
}

/** Waits until the cell `cell` shows a stone of `stone` ('black' | 'white' | '') on every page. */
export async function waitStone(players, cell, stone) {
  for (const p of players) {
    await p.page.locator(`[data-testid="cell-${cell}"][data-stone="${stone}"]`).waitFor({ state: 'attached', timeout: WAIT_MS });
  }
}

/** Plays `cell` by clicking it when it is `player`'s turn, and waits until `everyone` sees it. */
export async function playCell(player, cell, stone, everyone) {
  await waitMyTurn(player);
  const point = byId(player.page, `cell-${cell}`);
  if (player.mobile) {
    // A finger: on a Gomoku board the first tap only previews the stone and a second tap on the
    // same point plays it; elsewhere the first tap plays.
    await point.tap();
    if (await player.page.locator('.layer-preview .stone.preview').count()) await point.tap();
  } else {
    await point.click();
  }
  await waitStone(everyone, cell, stone);
}

/** The texts of the move-list buttons, in order. */
export function moveTexts(page) {
  return page.locator('[data-testid="move-list"] button.mv').allTextContents();
}

/**
 * Sends `msg` on the page's own connection, as if the page had sent it (for what the page has no
 * control for, such as an Othello opening); the page handles the answer as usual.
 */
export async function sendRaw(player, msg) {
  const sent = await player.page.evaluate((m) => {
    const ws = window.__kibitzTestSocket;
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    ws.send(JSON.stringify(m));
    return true;
  }, msg);
  assert.ok(sent, `${player.name}: the page has no open WebSocket`);
}

/** Waits until the lobby on `page` lists every bot named in `names`. */
export async function waitBots(page, names) {
  for (const name of names) {
    await byId(page, 'bots-list').locator('li.bot-item').filter({ hasText: name }).waitFor({ timeout: WAIT_MS });
  }
}

/**
 * The setup every test file shares: before its tests, a fresh data directory, a server on it
 * (`env` as in `startServer`), a bot process for each name in `bots` (waited for until the lobby
 * lists them, so they can be invited) and Chromium; after them, all of it stopped and removed.
 * `name` names the data directory. Returns { dataDir, server, browser, bots }, filled in before
 * the first test; a test may put a restarted server in `server`, which is then the one stopped.
 */
export function useHall(name, { env = {}, bots = [] } = {}) {
  const hall = { dataDir: null, server: null, browser: null, bots: [] };
  before(async () => {
    hall.dataDir = await freshDir(`kibitz-browser-${name}-`);
    hall.server = await startServer({ dataDir: hall.dataDir, env });
    hall.bots = bots.map((bot) => startBot(hall.server, { name: bot, stateFile: join(hall.dataDir, `bot-${bot}.json`) }));
    hall.browser = await launchBrowser();
    if (!bots.length) return;
    // A bot can be invited once it is connected, which is when the lobby lists it.
    const probe = await openPlayer(hall.browser, { name: 'Probe' });
    try {
      await gotoLobby(probe, hall.server);
      await waitBots(probe.page, bots);
    } catch (e) {
      throw new Error(`${e.message}\n${hall.bots.map((b) => `${b.name}: ${b.log()}`).join('\n')}`);
    } finally {
      await probe.context.close();
    }
  });
  after(async () => {
    await hall.browser?.close();
    await Promise.all(hall.bots.map((b) => b.stop()));
    await hall.server?.stop();
    await removeDir(hall.dataDir);
  });
  return hall;
}

/**
 * Runs `fn(server)` against a server of its own, started with `env` on a fresh data directory
 * (for a setting the file's server has not), then stops it and removes the directory, whatever
 * `fn` comes to.
 */
export async function withServer(name, env, fn) {
  const dataDir = await freshDir(`kibitz-browser-${name}-`);
  try {
    const server = await startServer({ dataDir, env });
    try {
      return await fn(server);
    } finally {
      await server.stop();
    }
  } finally {
    await removeDir(dataDir);
  }
}

/** axe-core's own script (tests/browser/package.json pins it), injected into a page to audit it. */
const AXE_SCRIPT = join(HERE, 'node_modules', 'axe-core', 'axe.min.js');

/**
 * The serious and critical accessibility violations axe-core finds on the page as it stands:
 * [{ id, impact, help, targets }], empty when there is none. Moderate and minor findings are
 * left out (the bar is 0 serious or critical), but for the rules named in `also` (such as
 * 'page-has-heading-one'), which count whatever their impact.
 */
export async function seriousViolations(page, { also = [] } = {}) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.addScriptTag({ path: AXE_SCRIPT });
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({
      id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
    }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical' || also.includes(v.id));
}

/** Makes the guest `player` the account `name` through the API (the account form is tested in
 *  accounts.test.mjs), and waits until the page says hello again as it. */
export async function registerAccount(player, name) {
  const status = await player.page.evaluate(async (n) => {
    const res = await fetch('/api/accounts', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: localStorage.getItem('kibitz.token'), name: n, password: 'correct horse 42' }),
    });
    return res.status;
  }, name);
  assert.equal(status, 201, `${name} registered`);
  await player.page.reload();
  await player.page.locator('[data-testid="my-name"][data-account="true"]').waitFor({ timeout: WAIT_MS });
  await waitOnline(player.page);
}
