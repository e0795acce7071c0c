// Browser test of a hall behind a real TLS reverse proxy: Debian's nginx (set up by nginx.mjs) runs deploy/nginx/kibitz.conf (its ports, host name, certificate and server address substituted, nothing else; the main configuration around it has nginx reach the server from 127.0.0.2, the browser being 127.0.0.1) in front of `kibitz serve --trusted-proxies 127.0.0.2`, with a certificate that a test CA made by openssl signed for kibitz.test. Chromium trusts exactly that certificate (and refuses it without being told); port 80 sends browsers to HTTPS; /healthz passes and /metrics stays inside; two players register (an account form's Origin checked through the proxy) and play a Gomoku game to five over https:// and wss://; and the WebSocket connections per address count the browser's own address, read from the proxy's X-Forwarded-For, not the proxy's — a forged header in front changes nothing, another client behind the same proxy is still served.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { join } from 'node:path';
import {
  startServer, launchBrowser, openPlayer, assertClean, assertShown, screenshot, byId, gotoLobby,
  createRoom, openRoom, playCell, moveTexts, waitOnline, seriousViolations, freshDir, removeDir,
  SIZES, WAIT_MS,
} from './harness.mjs';
import { HOST, BROWSER_ADDR, PROXY_ADDR, startProxy } from './nginx.mjs';

/** Another client of the same proxy (a node socket bound to it). */
const OTHER_ADDR = '127.0.0.3';
/** The server's WebSocket connections per address, small enough to reach. */
const CONNECTIONS_PER_ADDRESS = 4;
const PASSWORD = 'correct horse 42';

const hall = { dir: null, server: null, nginx: null, browser: null, tls: null, httpPort: 0, tlsPort: 0, url: '' };
/** WebSockets the test opened itself (not pages'), closed after each test. */
const held = [];

before(async () => {
  hall.dir = await freshDir('kibitz-browser-proxy-tls-');
  await mkdir(join(hall.dir, 'data'));
  hall.server = await startServer({
    dataDir: join(hall.dir, 'data'),
    env: { KIBITZ_TRUSTED_PROXIES: PROXY_ADDR, KIBITZ_CONNECTIONS_PER_ADDRESS: String(CONNECTIONS_PER_ADDRESS) },
  });
  // nginx.mjs: the certificates, deploy/nginx/kibitz.conf edited for this machine, nginx
  // itself, and the switches with which Chromium trusts the one certificate (node checks the
  // chain and the name against the CA on every request below, and the first test shows
  // Chromium refusing the site without them).
  hall.nginx = await startProxy(hall.server, hall.dir);
  ({ tls: hall.tls, httpPort: hall.httpPort, tlsPort: hall.tlsPort, url: hall.url } = hall.nginx);
  hall.browser = await launchBrowser({ args: hall.nginx.browserArgs });
});

after(async () => {
  for (const s of held.splice(0)) s.destroy();
  try {
    await hall.browser?.close();
  } finally {
    try {
      await hall.nginx?.stop();
    } finally {
      try {
        await hall.server?.stop();
      } finally {
        await removeDir(hall.dir);
      }
    }
  }
});

/** A request through nginx over TLS (checked against the test CA and the host name) from
 *  `from`, or with `direct` straight to the server; `upgrade` asks for a WebSocket. Resolves
 *  with { status, headers, body }; an upgraded socket is kept in `held`. */
function request(path, { from = BROWSER_ADDR, direct = false, upgrade = false, headers = {}, tls = {} } = {}) {
  const [host, port] = direct ? hall.server.bind.split(':') : [BROWSER_ADDR, hall.tlsPort];
  const options = {
    host, port, path, localAddress: from, agent: false,
    headers: { Host: direct ? hall.server.bind : `${HOST}:${hall.tlsPort}`, ...headers },
    ...(direct ? {} : { servername: HOST, ca: hall.tls.ca, ...tls }),
  };
  if (upgrade) {
    Object.assign(options.headers, {
      Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
    });
  }
  return new Promise((done, fail) => {
    const req = (direct ? http : https).request(options);
    req.setTimeout(WAIT_MS, () => req.destroy(new Error(`no answer to ${path} within ${WAIT_MS} ms`)));
    req.once('upgrade', (res, socket) => {
      held.push(socket);
      done({ status: res.statusCode, headers: res.headers, body: '' });
    });
    req.once('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { body += chunk; });
      res.once('end', () => done({ status: res.statusCode, headers: res.headers, body }));
    });
    req.once('error', fail);
    req.end();
  });
}

/** One of the server's metrics, read on its own port (nginx does not pass /metrics). */
async function metric(name) {
  const { body } = await request('/metrics', { direct: true });
  const line = body.split('\n').find((l) => l.startsWith(`${name} `));
  assert.ok(line, `${name} in /metrics`);
  return Number(line.split(' ')[1]);
}

/** Registers the guest `player` under its name from the header's link (a POST whose Origin the
 *  server compares with the Host nginx passes on). */
async function register(player) {
  const { page } = player;
  await byId(page, 'link-register').click();
  await byId(page, 'account-form').waitFor({ timeout: WAIT_MS });
  await byId(page, 'account-name').fill(player.name);
  await byId(page, 'account-password').fill(PASSWORD);
  await byId(page, 'btn-account-submit').click();
  await page.locator('[data-testid="my-name"][data-account="true"]').filter({ hasText: player.name }).waitFor({ timeout: WAIT_MS });
  await waitOnline(page);
}

test('the hall answers over TLS with the test certificate alone; port 80 redirects, /healthz passes, /metrics stays inside', async () => {
  const health = await request('/healthz');
  assert.equal(health.status, 200);
  assert.equal(health.body.trim(), 'ok');
  // The certificate is the test CA's for kibitz.test: without the CA it is refused, and under
  // another name too.
  await assert.rejects(request('/healthz', { tls: { ca: undefined } }), /self[- ]signed certificate in certificate chain|unable to/i);
  await assert.rejects(request('/healthz', { tls: { servername: 'other.test' } }), /does not match|not in the cert's altnames/i);
  // The server answers /metrics to whoever reaches it; the proxy keeps it to this machine.
  assert.equal((await request('/metrics')).status, 404);
  assert.equal((await request('/metrics', { direct: true })).status, 200);
  // Port 80 sends every path to HTTPS, the query kept.
  const plain = await new Promise((done, fail) => {
    http.get({ host: BROWSER_ADDR, port: hall.httpPort, path: '/?room=abc', headers: { Host: HOST } }, (res) => {
      res.resume();
      done(res);
    }).once('error', fail);
  });
  assert.equal(plain.statusCode, 301);
  assert.equal(plain.headers.location, `https://${HOST}/?room=abc`);
  // A Chromium that is not told of the key refuses the site: the pin is what it trusts.
  const stranger = await launchBrowser({ args: [`--host-resolver-rules=MAP ${HOST} ${BROWSER_ADDR}`] });
  try {
    const page = await stranger.newPage();
    await assert.rejects(page.goto(hall.url), /ERR_CERT_AUTHORITY_INVALID/);
  } finally {
    await stranger.close();
  }
});

test('two players register and play a Gomoku game to five over https and wss through nginx', async () => {
  const alice = await openPlayer(hall.browser, { name: 'Alice', ...SIZES.desk800 });
  const bob = await openPlayer(hall.browser, { name: 'Bob', ...SIZES.phone });
  const both = [alice, bob];
  try {
    await twoPlayGomoku(alice, bob);
  } finally {
    for (const p of both) await p.context.close();
  }
});

/** Alice (black) and Bob (white) register and play a freestyle game to five. */
async function twoPlayGomoku(alice, bob) {
  const both = [alice, bob];
  const site = { url: hall.url };
  for (const p of both) {
    await gotoLobby(p, site);
    assert.equal(await p.page.evaluate(() => window.isSecureContext), true);
    await register(p);
  }
  const room = await createRoom(alice, site, { game: 'gomoku', rule: 'freestyle', seat: 'black' });
  await openRoom(bob, site, room);
  await byId(alice.page, 'player-name-white').filter({ hasText: 'Bob' }).waitFor({ timeout: WAIT_MS });
  for (const p of both) {
    assert.equal(await p.page.evaluate(() => window.__kibitzTestSocket.url), `wss://${HOST}:${hall.tlsPort}/ws`);
  }
  const black = ['h8', 'i8', 'j8', 'k8', 'l8'];
  const white = ['h9', 'i9', 'j9', 'k9'];
  for (let i = 0; i < black.length; i++) {
    await playCell(alice, black[i], 'black', both);
    if (i < white.length) await playCell(bob, white[i], 'white', both);
  }
  for (const p of both) {
    const over = byId(p.page, 'game-over');
    await over.waitFor({ timeout: WAIT_MS });
    assert.equal(await over.getAttribute('data-result'), 'black');
    assert.equal(await over.getAttribute('data-reason'), 'five');
    assert.deepEqual(await moveTexts(p.page), ['h8', 'h9', 'i8', 'i9', 'j8', 'j9', 'k8', 'k9', 'l8']);
    await assertShown(p, 'game-over', 'the result through the proxy');
  }
  assert.match(await byId(alice.page, 'game-over').textContent(), /you win/i);
  assert.match(await byId(bob.page, 'game-over').textContent(), /you lose/i);
  await screenshot(bob.page, 'proxy-tls-game-over-phone');
  assert.deepEqual(await seriousViolations(bob.page), [], 'the finished room over HTTPS, on a phone');
  // The store has it, read back through the proxy.
  const stored = await request(`/api/games/${encodeURIComponent(room)}`);
  assert.equal(stored.status, 200);
  const game = JSON.parse(stored.body);
  assert.equal(game.move_string, 'h8h9i8i9j8j9k8k9l8');
  assertClean(...both);
}

test('the connections per address count the browser\'s address from X-Forwarded-For, not the proxy\'s', async () => {
  const carol = await openPlayer(hall.browser, { name: 'Carol', ...SIZES.desk768 });
  const dan = await openPlayer(hall.browser, { name: 'Dan', ...SIZES.desk800 });
  try {
    for (const p of [carol, dan]) await gotoLobby(p, { url: hall.url });
    // Only these two pages are connected now (the last test's have gone).
    const deadline = Date.now() + WAIT_MS;
    while ((await metric('kibitz_connections')) !== 2) {
      assert.ok(Date.now() < deadline, `two connections, not ${await metric('kibitz_connections')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const refusedBefore = await metric('kibitz_connections_refused_total');
    // Every WebSocket reaches the server from the proxy's address, 127.0.0.2. The pages' two
    // count for the browser's, 127.0.0.1: from there two more fill its four places and the
    // next is refused.
    for (let i = 0; i < CONNECTIONS_PER_ADDRESS - 2; i++) {
      assert.equal((await request('/ws', { upgrade: true })).status, 101, `connection ${i + 3} of ${BROWSER_ADDR}`);
    }
    const full = await request('/ws', { upgrade: true });
    assert.equal(full.status, 429);
    assert.match(full.body, new RegExp(`too many connections from your address \\(at most ${CONNECTIONS_PER_ADDRESS} at once\\)`));
    // A header the client writes itself does not make it another client: nginx appends the
    // address it sees to X-Forwarded-For, and drops a Forwarded the server would read first.
    const forgedXff = await request('/ws', { upgrade: true, headers: { 'X-Forwarded-For': '203.0.113.9' } });
    assert.equal(forgedXff.status, 429, 'X-Forwarded-For written by the client');
    const forgedForwarded = await request('/ws', { upgrade: true, headers: { Forwarded: 'for=203.0.113.9' } });
    assert.equal(forgedForwarded.status, 429, 'Forwarded written by the client');
    // Another client behind the same proxy is served: the server tells them apart by the
    // header alone, its peer being 127.0.0.2 for both.
    assert.equal((await request('/ws', { upgrade: true, from: OTHER_ADDR })).status, 101, `a client at ${OTHER_ADDR}`);
    // Straight to the server, not through the proxy, the browser's address is just as full.
    assert.equal((await request('/ws', { upgrade: true, direct: true })).status, 429, `${BROWSER_ADDR} directly`);
    assert.equal(await metric('kibitz_connections_refused_total'), refusedBefore + 4);
    assert.equal(await metric('kibitz_connections'), CONNECTIONS_PER_ADDRESS + 1);
    // The pages were not touched.
    for (const p of [carol, dan]) await waitOnline(p.page);
    assertClean(carol, dan);
  } finally {
    for (const s of held.splice(0)) s.destroy();
    for (const p of [carol, dan]) await p.context.close();
  }
});
