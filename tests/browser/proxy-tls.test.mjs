// Browser test of a hall behind a real TLS reverse proxy: Debian's nginx runs deploy/nginx/kibitz.conf (its ports, host name, certificate and server address substituted, nothing else; the main configuration around it has nginx reach the server from 127.0.0.2, the browser being 127.0.0.1) in front of `kibitz serve --trusted-proxies 127.0.0.2`, with a certificate that a test CA made by openssl signed for kibitz.test. Chromium trusts exactly that certificate (and refuses it without being told); port 80 sends browsers to HTTPS; /healthz passes and /metrics stays inside; two players register (an account form's Origin checked through the proxy) and play a Gomoku game to five over https:// and wss://; and the WebSocket connections per address count the browser's own address, read from the proxy's X-Forwarded-For, not the proxy's — a forged header in front changes nothing, another client behind the same proxy is still served.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { X509Certificate, createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  startServer, launchBrowser, openPlayer, assertClean, assertShown, screenshot, byId, gotoLobby,
  createRoom, openRoom, playCell, moveTexts, waitOnline, seriousViolations, freshDir, removeDir,
  SIZES, WAIT_MS,
} from './harness.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The file operators copy; the test runs nginx on it, edited only where a test must differ. */
const SITE = join(REPO, 'deploy', 'nginx', 'kibitz.conf');
const HOST = 'kibitz.test';
/** Every connection to a loopback address leaves from 127.0.0.1 (the route's source), whatever
 *  its destination, and Chromium cannot pick another: this is the browser's address. */
const BROWSER_ADDR = '127.0.0.1';
/** nginx reaches the server from here (`proxy_bind`), as a proxy on its own machine would, so
 *  that the proxy's address and the browser's differ; the server trusts this one alone. */
const PROXY_ADDR = '127.0.0.2';
/** Another client of the same proxy (a node socket bound to it). */
const OTHER_ADDR = '127.0.0.3';
/** The server's WebSocket connections per address, small enough to reach. */
const CONNECTIONS_PER_ADDRESS = 4;
const PASSWORD = 'correct horse 42';

const run = promisify(execFile);

/** nginx: $NGINX, else Debian's /usr/sbin/nginx, else one on the PATH; undefined when none is. */
function findNginx() {
  if (process.env.NGINX) return existsSync(process.env.NGINX) ? process.env.NGINX : undefined;
  const dirs = ['/usr/sbin', ...(process.env.PATH || '').split(delimiter)];
  return dirs.map((d) => join(d, 'nginx')).find((p) => existsSync(p));
}

/** A port free on 127.0.0.1 just now. */
function freePort() {
  return new Promise((done, fail) => {
    const s = net.createServer();
    s.once('error', fail);
    s.listen(0, BROWSER_ADDR, () => {
      const { port } = s.address();
      s.close(() => done(port));
    });
  });
}

/** A test CA and a certificate it signs for kibitz.test (and 127.0.0.1), by openssl, in `dir`.
 *  Resolves with the paths of the chain (leaf then CA, as certbot's fullchain.pem) and key,
 *  the CA's PEM, and the base64 SHA-256 of the leaf's public key (SPKI). */
async function makeCertificates(dir) {
  const f = (name) => join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  await run('openssl', ['req', '-x509', ...ec, '-keyout', f('ca.key'), '-out', f('ca.pem'), '-days', '2',
    '-subj', '/CN=Kibitz test CA', '-addext', 'basicConstraints=critical,CA:TRUE',
    '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
  await run('openssl', ['req', ...ec, '-keyout', f('leaf.key'), '-out', f('leaf.csr'), '-subj', `/CN=${HOST}`]);
  await writeFile(f('leaf.ext'), [
    `subjectAltName=DNS:${HOST},IP:${BROWSER_ADDR}`, 'basicConstraints=critical,CA:FALSE',
    'keyUsage=critical,digitalSignature', 'extendedKeyUsage=serverAuth', '',
  ].join('\n'));
  await run('openssl', ['x509', '-req', '-in', f('leaf.csr'), '-CA', f('ca.pem'), '-CAkey', f('ca.key'),
    '-CAcreateserial', '-days', '2', '-extfile', f('leaf.ext'), '-out', f('leaf.pem')]);
  const leaf = await readFile(f('leaf.pem'), 'utf8');
  const ca = await readFile(f('ca.pem'), 'utf8');
  await writeFile(f('fullchain.pem'), leaf + ca);
  const spki = new X509Certificate(leaf).publicKey.export({ type: 'spki', format: 'der' });
  return { chain: f('fullchain.pem'), key: f('leaf.key'), ca, spki: createHash('sha256').update(spki).digest('base64') };
}

/** deploy/nginx/kibitz.conf as this test runs it: every edit must find its text in the file, so
 *  the test fails (naming the edit) rather than run another configuration than the one shipped. */
async function siteConfig({ httpPort, tlsPort, tls, server }) {
  let text = await readFile(SITE, 'utf8');
  const edits = [
    ['the IPv6 listens (none here)', /^[ \t]*listen \[::\]:.*\n/gm, ''],
    ['port 80', /^([ \t]*)listen 80;/m, `$1listen ${BROWSER_ADDR}:${httpPort};`],
    ['port 443', /^([ \t]*)listen 443 ssl( http2)?;/m, `$1listen ${BROWSER_ADDR}:${tlsPort} ssl$2;`],
    ['the certificate', /^([ \t]*)ssl_certificate\s+\S+;/m, `$1ssl_certificate ${tls.chain};`],
    ['its key', /^([ \t]*)ssl_certificate_key\s+\S+;/m, `$1ssl_certificate_key ${tls.key};`],
    ['the server', /^([ \t]*)server 127\.0\.0\.1:8080;/m, `$1server ${server.bind};`],
    ['the host name', /hall\.example\.org/g, HOST],
  ];
  for (const [what, pattern, by] of edits) {
    assert.match(text, pattern, `${SITE}: ${what} (${pattern}) not found`);
    text = text.replace(pattern, by);
  }
  // Nothing listens beyond the loopback, whatever the file comes to hold.
  assert.doesNotMatch(text, new RegExp(`^[ \\t]*listen (?!${BROWSER_ADDR.replaceAll('.', '\\.')}:)`, 'm'), 'a listen left unedited');
  return text;
}

/** Starts nginx in the foreground on the site `site`, everything it writes under `dir`;
 *  resolves once it accepts TLS connections. Returns { log(), stop() }. */
async function startNginx(bin, dir, site, tlsPort) {
  await writeFile(join(dir, 'kibitz.conf'), site);
  // The test's own main context: one process (no workers to leave behind, no user to switch
  // to), its pid, logs and temporary files here, the server reached from the proxy's own
  // address (PROXY_ADDR), and the site included as Debian's nginx.conf includes sites-enabled.
  await writeFile(join(dir, 'nginx.conf'), `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log stderr notice;
events { worker_connections 128; }
http {
    access_log ${dir}/access.log;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    proxy_bind ${PROXY_ADDR};
    include ${dir}/kibitz.conf;
}
`);
  const child = spawn(bin, ['-e', 'stderr', '-p', `${dir}/`, '-c', join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk) => {
    log = (log + chunk).slice(-8000);
  });
  const exited = new Promise((done) => child.once('exit', (code, signal) => done({ code, signal })));
  let failed = false;
  child.once('error', (e) => {
    log += `\ncannot start ${bin}: ${e.message}`;
    failed = true;
  });
  // A test process that ends abruptly still stops nginx.
  const onExit = () => child.kill('SIGKILL');
  process.once('exit', onExit);
  const stop = async () => {
    process.removeListener('exit', onExit);
    if (failed) return;
    if (child.exitCode == null && child.signalCode == null) child.kill('SIGTERM');
    await exited;
  };
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    if (failed || child.exitCode != null || child.signalCode != null) throw new Error(`nginx exited at start:\n${log}`);
    const open = await new Promise((done) => {
      const s = net.connect(tlsPort, BROWSER_ADDR, () => { s.destroy(); done(true); });
      s.once('error', () => done(false));
    });
    if (open) return { log: () => log, stop };
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not listen within ${WAIT_MS} ms:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

const hall = { dir: null, server: null, nginx: null, browser: null, tls: null, httpPort: 0, tlsPort: 0, url: '' };
/** WebSockets the test opened itself (not pages'), closed after each test. */
const held = [];

before(async () => {
  const nginxBin = findNginx();
  if (!nginxBin) {
    throw new Error(`nginx is not installed${process.env.NGINX ? ` at NGINX=${process.env.NGINX}` : ''}, and this test `
      + 'runs the hall behind it: install Debian\'s package (apt-get install -y --no-install-recommends nginx; '
      + '.ci/run does so when it is missing)');
  }
  hall.dir = await freshDir('kibitz-browser-proxy-tls-');
  for (const sub of ['data', 'tls', 'nginx']) await mkdir(join(hall.dir, sub));
  hall.tls = await makeCertificates(join(hall.dir, 'tls')).catch((e) => {
    throw e.code === 'ENOENT' ? new Error('openssl is not installed, and this test makes its certificates with it: apt-get install openssl') : e;
  });
  hall.server = await startServer({
    dataDir: join(hall.dir, 'data'),
    env: { KIBITZ_TRUSTED_PROXIES: PROXY_ADDR, KIBITZ_CONNECTIONS_PER_ADDRESS: String(CONNECTIONS_PER_ADDRESS) },
  });
  hall.httpPort = await freePort();
  hall.tlsPort = await freePort();
  const site = await siteConfig({ ...hall, server: hall.server });
  hall.nginx = await startNginx(nginxBin, join(hall.dir, 'nginx'), site, hall.tlsPort);
  hall.url = `https://${HOST}:${hall.tlsPort}/`;
  // How Chromium trusts the test CA's certificate: by the SHA-256 of the leaf's public key,
  // --ignore-certificate-errors-spki-list. It overlooks the errors of a chain that holds that
  // one key, and of no other certificate, whoever signed it (a blanket switch would take any).
  // The CA in an NSS database ($HOME/.pki/nssdb) would have Chromium check the chain and the
  // name itself, but that needs certutil (libnss3-tools), one more package for one test; node
  // checks the chain against the CA and the host name on every request below instead, and the
  // first test shows Chromium refusing the site without the pin.
  hall.browser = await launchBrowser({
    args: [`--host-resolver-rules=MAP ${HOST} ${BROWSER_ADDR}`, `--ignore-certificate-errors-spki-list=${hall.tls.spki}`],
  });
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
