// A hall behind a real TLS reverse proxy, for the browser tests and page-load.mjs: Debian's nginx in the foreground on deploy/nginx/kibitz.conf (its ports, host name, certificate and server address substituted, nothing else; the main configuration around it has nginx reach the server from 127.0.0.2, the browser being 127.0.0.1), with a certificate for kibitz.test that a test CA made by openssl signed, and the Chromium switches that trust exactly that certificate. `startProxy(server, dir)` does all of it.

import { execFile, spawn } from 'node:child_process';
import { X509Certificate, createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import assert from 'node:assert/strict';
import { WAIT_MS } from './harness.mjs';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The file operators copy; nginx runs on it here, edited only where a test must differ. */
export const SITE = join(REPO, 'deploy', 'nginx', 'kibitz.conf');
export const HOST = 'kibitz.test';
/** Every connection to a loopback address leaves from 127.0.0.1 (the route's source), whatever
 *  its destination, and Chromium cannot pick another: this is the browser's address. */
export const BROWSER_ADDR = '127.0.0.1';
/** nginx reaches the server from here (`proxy_bind`), as a proxy on its own machine would, so
 *  that the proxy's address and the browser's differ; a server behind it trusts this one alone
 *  (`KIBITZ_TRUSTED_PROXIES`). */
export const PROXY_ADDR = '127.0.0.2';

const run = promisify(execFile);

/** nginx: $NGINX, else Debian's /usr/sbin/nginx, else one on the PATH; undefined when none is. */
export function findNginx() {
  if (process.env.NGINX) return existsSync(process.env.NGINX) ? process.env.NGINX : undefined;
  const dirs = ['/usr/sbin', ...(process.env.PATH || '').split(delimiter)];
  return dirs.map((d) => join(d, 'nginx')).find((p) => existsSync(p));
}

/** A port free on 127.0.0.1 just now. */
export function freePort() {
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
export async function makeCertificates(dir) {
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

/** deploy/nginx/kibitz.conf as it runs here: every edit must find its text in the file, so a
 *  test fails (naming the edit) rather than run another configuration than the one shipped. */
export async function siteConfig({ httpPort, tlsPort, tls, server }) {
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
export async function startNginx(bin, dir, site, tlsPort) {
  await writeFile(join(dir, 'kibitz.conf'), site);
  // Its own main context: one process (no workers to leave behind, no user to switch to; 1024
  // connections, as Debian's 768 give room for a first visit's every script at once), its
  // pid, logs and temporary files here, the server reached from the proxy's own address
  // (PROXY_ADDR), and the site included as Debian's nginx.conf includes sites-enabled.
  await writeFile(join(dir, 'nginx.conf'), `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log stderr notice;
events { worker_connections 1024; }
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
  // A process that ends abruptly still stops nginx.
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

/**
 * Puts nginx with TLS in front of `server` (from `startServer`, which should trust PROXY_ADDR),
 * its certificates and files in `dir`/tls and `dir`/nginx. Resolves with { url (https:// on
 * kibitz.test), tls (from makeCertificates), httpPort, tlsPort, browserArgs (the switches a
 * Chromium needs to reach and trust it), log(), stop() }.
 */
export async function startProxy(server, dir) {
  const bin = findNginx();
  if (!bin) {
    throw new Error(`nginx is not installed${process.env.NGINX ? ` at NGINX=${process.env.NGINX}` : ''}, and the hall `
      + 'runs behind it here: install Debian\'s package (apt-get install -y --no-install-recommends nginx; '
      + '.ci/run does so when it is missing)');
  }
  for (const sub of ['tls', 'nginx']) await mkdir(join(dir, sub), { recursive: true });
  const tls = await makeCertificates(join(dir, 'tls')).catch((e) => {
    throw e.code === 'ENOENT' ? new Error('openssl is not installed, and the hall\'s certificates are made with it: apt-get install openssl') : e;
  });
  const httpPort = await freePort();
  const tlsPort = await freePort();
  const site = await siteConfig({ httpPort, tlsPort, tls, server });
  const nginx = await startNginx(bin, join(dir, 'nginx'), site, tlsPort);
  // How Chromium trusts the test CA's certificate: by the SHA-256 of the leaf's public key,
  // --ignore-certificate-errors-spki-list. It overlooks the errors of a chain that holds that
  // one key, and of no other certificate, whoever signed it (a blanket switch would take any).
  // The CA in an NSS database ($HOME/.pki/nssdb) would have Chromium check the chain and the
  // name itself, but that needs certutil (libnss3-tools), one more package; proxy-tls.test.mjs
  // checks the chain against the CA and the host name with node instead, and shows Chromium
  // refusing the site without the pin.
  const browserArgs = [`--host-resolver-rules=MAP ${HOST} ${BROWSER_ADDR}`, `--ignore-certificate-errors-spki-list=${tls.spki}`];
  return { url: `https://${HOST}:${tlsPort}/`, tls, httpPort, tlsPort, browserArgs, log: nginx.log, stop: nginx.stop };
}
