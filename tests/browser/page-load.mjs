// Not a test: measures the page's load on a throttled network (Chrome DevTools' "Fast 3G": 562.5 ms latency, 180,000 B/s down, 84,375 B/s up) in Chromium — the bytes on the wire and the time until a room's board is drawn, on a first visit (empty cache) and a second one (the same browser profile) — and prints one JSON line per run and the medians. `node page-load.mjs [runs]`; KIBITZ_BIN names the server binary (a release build for figures), CHROMIUM the browser.

import { startServer, launchBrowser, freshDir, removeDir, openPlayer, createRoom } from './harness.mjs';

const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375 };
const runs = Number(process.argv[2]) || 3;

/** A room of `server` waiting for its second player, made by a page on an open network. */
async function waitingRoom(browser, server) {
  const host = await openPlayer(browser, { name: 'Host' });
  const room = await createRoom(host, server);
  return { room, context: host.context };
}

/** One visit of `url` by `page` on Fast 3G: ms until the board is drawn, bytes received
 *  (headers included) and the requests answered over the network. */
async function visit(page, cdp, url) {
  let bytes = 0;
  let requests = 0;
  const finished = (e) => {
    bytes += e.encodedDataLength;
  };
  // Answers that came over the network: every response, less those the browser's cache gave.
  const answered = () => {
    requests += 1;
  };
  const kept = () => {
    requests -= 1;
  };
  cdp.on('Network.loadingFinished', finished);
  cdp.on('Network.responseReceived', answered);
  cdp.on('Network.requestServedFromCache', kept);
  const started = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.locator('svg.board[data-testid="board"]').waitFor({ timeout: 120_000 });
  const ms = Date.now() - started;
  // What is still on its way after the board (nothing should be) counts too.
  await page.waitForLoadState('networkidle').catch(() => {});
  cdp.off('Network.loadingFinished', finished);
  cdp.off('Network.responseReceived', answered);
  cdp.off('Network.requestServedFromCache', kept);
  return { ms, bytes, requests };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dataDir = await freshDir('kibitz-page-load-');
const server = await startServer({ dataDir });
const browser = await launchBrowser();
const results = [];
try {
  for (let i = 0; i < runs; i++) {
    const { room, context: host } = await waitingRoom(browser, server);
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    const url = `${server.url}?room=${encodeURIComponent(room)}`;
    const first = await visit(page, cdp, url);
    const second = await visit(page, cdp, url);
    const run = { first, second };
    console.log(JSON.stringify(run));
    results.push(run);
    await context.close();
    await host.close();
  }
  const pick = (which, key) => median(results.map((r) => r[which][key]));
  console.log(JSON.stringify({
    runs,
    first: { ms: pick('first', 'ms'), bytes: pick('first', 'bytes'), requests: pick('first', 'requests') },
    second: { ms: pick('second', 'ms'), bytes: pick('second', 'bytes'), requests: pick('second', 'requests') },
  }));
} finally {
  await browser.close();
  await server.stop();
  await removeDir(dataDir);
}
