// A plain protocol client for browser tests that need players who are not pages: a WebSocket opened inside a bare Chromium page of the server's origin, its messages kept in order and waited for with a bound.

import { WAIT_MS } from './harness.mjs';

/**
 * Connects to `server` and says hello as `name`. Returns { player, send(msg), waitFor(t, fields),
 * close() }: `waitFor` resolves with the first message of type `t` whose fields equal
 * `fields` (compared as JSON), received at any time since the connection opened.
 */
export async function wireClient(browser, server, name) {
  const context = await browser.newContext();
  const page = await context.newPage();
  // Any file of the server gives the page its origin; the web client itself never runs here.
  await page.goto(`${server.url}favicon.svg`);
  const welcome = await page.evaluate(async ({ url, who }) => {
    window.received = [];
    const ws = new WebSocket(url);
    window.socket = ws;
    ws.onmessage = (ev) => window.received.push(JSON.parse(ev.data));
    await new Promise((done, fail) => {
      ws.onopen = done;
      ws.onerror = fail;
    });
    ws.send(JSON.stringify({ t: 'hello', name: who }));
    for (;;) {
      const w = window.received.find((m) => m.t === 'welcome');
      if (w) return w;
      await new Promise((r) => setTimeout(r, 20));
    }
  }, { url: `ws://${server.bind}/ws`, who: name });

  async function waitFor(t, fields = {}) {
    const handle = await page.waitForFunction(({ type, want }) => window.received.find((m) => m.t === type
      && Object.entries(want).every(([k, v]) => JSON.stringify(m[k]) === JSON.stringify(v))), { type: t, want: fields }, { timeout: WAIT_MS, polling: 20 });
    return handle.jsonValue();
  }

  return {
    player: welcome.player,
    send: (msg) => page.evaluate((m) => window.socket.send(JSON.stringify(m)), msg),
    waitFor,
    close: () => context.close(),
  };
}

/** Two wire clients seated in a new untimed room of `game`, the game started; resolves with
 *  { room, black, white }. */
export async function livePair(browser, server, game, names) {
  const black = await wireClient(browser, server, names[0]);
  const white = await wireClient(browser, server, names[1]);
  await black.send({ t: 'create', game, seat: 'black', clock: null });
  const { room } = await black.waitFor('created');
  await white.send({ t: 'join', room, as: 'player' });
  await black.waitFor('state', { room, status: 'playing' });
  return { room, black, white };
}
