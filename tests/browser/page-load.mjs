// Not a test: measures the page's load on a throttled network (Chrome DevTools' "Fast 3G": 562.5 ms latency, 180,000 B/s down, 84,375 B/s up) in Chromium — the bytes on the wire and the time until a room's board is drawn, on a first visit (empty cache) and a second one (the same browser profile) — and prints one JSON line per run and the medians, with the protocols the responses came by. `node page-load.mjs [runs] [--via-nginx]`: straight to the server over plain HTTP/1.1, or with --via-nginx (or PAGE_LOAD_VIA=nginx) through nginx on deploy/nginx/kibitz.conf with TLS and HTTP/2, as docs/deployment.md serves a hall (nginx.mjs). KIBITZ_BIN names the server binary (a release build for figures), CHROMIUM the browser.

import { join } from 'node:path';
import { startServer, launchBrowser, freshDir, removeDir, openPlayer, createRoom } from './harness.mjs';
import { PROXY_ADDR, startProxy } from './nginx.mjs';

const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: 180_000, uploadThroughput: 84_375 };
const args = process.argv.slice(2);
const runs = Number(args.find((a) => /^\d+$/.test(a))) || 3;
const viaNginx = args.includes('--via-nginx') || process.env.PAGE_LOAD_VIA === 'nginx';
const unknown = args.filter((a) => !/^\d+$/.test(a) && a !== '--via-nginx');
if (unknown.length) throw new Error(`unknown arguments ${unknown.join(' ')}: node page-load.mjs [runs] [--via-nginx]`);

/** A room of the hall at `site` waiting for its second player, made by a page on an open network. */
async function waitingRoom(browser, site) {
  const host = await openPlayer(browser, { name: 'Host' });
  const room = await createRoom(host, site);
  return { room, context: host.context };
}

/** { value: count } of `values`, in the order first seen. */
const tally = (values) => values.reduce((t, v) => ({ ...t, [v]: (t[v] || 0) + 1 }), {});

/** One visit of `url` by `page` on Fast 3G: ms until the board is drawn, bytes received
 *  (headers included), the requests answered over the network, and how those came: their
 *  protocols (`http/1.1`, `h2`) and content encodings. */
async function visit(page, cdp, url) {
  let bytes = 0;
  const responses = new Map();
  const cached = new Set();
  const finished = (e) => {
    bytes += e.encodedDataLength;
  };
  // Answers that came over the network: every response, less those the browser's cache gave.
  const answered = (e) => {
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), v]));
    responses.set(e.requestId, { protocol: e.response.protocol, encoding: headers['content-encoding'] || 'none' });
  };
  const kept = (e) => {
    cached.add(e.requestId);
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
  const network = [...responses].filter(([id]) => !cached.has(id)).map(([, r]) => r);
  return {
    ms, bytes, requests: network.length,
    protocols: tally(network.map((r) => r.protocol)), encodings: tally(network.map((r) => r.encoding)),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const dataDir = await freshDir('kibitz-page-load-');
// Behind nginx the server trusts the proxy's address, as deploy/nginx/kibitz.conf asks of it.
const server = await startServer({
  dataDir: join(dataDir, 'data'),
  env: viaNginx ? { KIBITZ_TRUSTED_PROXIES: PROXY_ADDR } : {},
});
let proxy;
let browser;
const results = [];
try {
  proxy = viaNginx ? await startProxy(server, dataDir) : undefined;
  const site = { url: proxy ? proxy.url : server.url };
  browser = await launchBrowser({ args: proxy ? proxy.browserArgs : [] });
  console.log(JSON.stringify({ via: viaNginx ? 'nginx (TLS, HTTP/2)' : 'direct (HTTP/1.1)', url: site.url, chromium: browser.version() }));
  for (let i = 0; i < runs; i++) {
    const { room, context: host } = await waitingRoom(browser, site);
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    const url = `${site.url}?room=${encodeURIComponent(room)}`;
    const first = await visit(page, cdp, url);
    const second = await visit(page, cdp, url);
    const run = { first, second };
    console.log(JSON.stringify(run));
    // The point of --via-nginx: a figure over another protocol than HTTP/2 would be no figure.
    if (viaNginx) {
      const other = [first, second].flatMap((v) => Object.keys(v.protocols)).filter((p) => p !== 'h2');
      if (other.length) throw new Error(`through nginx a response came by ${other.join(', ')}, not h2`);
    }
    results.push(run);
    await context.close();
    await host.close();
  }
  const pick = (which, key) => median(results.map((r) => r[which][key]));
  const protocols = (which) => tally(results.flatMap((r) => Object.entries(r[which].protocols).flatMap(([p, n]) => Array(n).fill(p))));
  console.log(JSON.stringify({
    runs,
    via: viaNginx ? 'nginx' : 'direct',
    first: { ms: pick('first', 'ms'), bytes: pick('first', 'bytes'), requests: pick('first', 'requests'), protocols: protocols('first') },
    second: { ms: pick('second', 'ms'), bytes: pick('second', 'bytes'), requests: pick('second', 'requests'), protocols: protocols('second') },
  }));
} finally {
  await browser?.close();
  await proxy?.stop();
  await server.stop();
  await removeDir(dataDir);
}
