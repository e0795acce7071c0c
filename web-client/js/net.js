// WebSocket client of the Kibitz protocol: hello/welcome with the stored token, reconnect with backoff, status events, and the identity the welcome gave (player id, name, whether it is an account's); the token is replaced on sign-in and dropped on sign-out; a hello a moderator's sanction refuses (a ban) stops the reconnecting until asked again.

const TOKEN_KEY = 'kibitz.token';
const MIN_DELAY_MS = 500;
const MAX_DELAY_MS = 15000;

function storageGet(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function storageSet(key, value) {
  try {
    if (value == null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Private mode or storage disabled: the identity lasts for this page only.
  }
}

/** The WebSocket address on the page's own host, or null when the page has no host (file://). */
export function defaultUrl(loc = globalThis.location) {
  if (!loc || !loc.host) return null;
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws`;
}

/**
 * One logical connection that survives drops. `status` is 'connecting', 'online' (welcome
 * received), 'offline' (waiting to retry; `retryAt` says when) or 'refused' (the server will
 * not let us in: a ban; `refusal` is its error, and nothing is tried again until
 * `reconnectNow({ force: true })`, a sign-in or a sign-out). Listeners:
 * onStatus(status, info), onReady(welcome) after every welcome, onMessage(msg) for every message.
 * `onNameTaken(error)` is called when the server refuses our `hello` because its name belongs
 * to an account (`name_taken`); it must choose another name (`getName`), and we say hello
 * again under it.
 */
export class Net {
  constructor({ url = defaultUrl(), getName, onNameTaken = null }) {
    this.url = url;
    this.getName = getName;
    this.onNameTaken = onNameTaken;
    this.ws = null;
    this.ready = false;
    this.status = 'connecting';
    this.attempt = 0;
    this.timer = null;
    this.retryAt = 0;
    this.player = null;
    // From the last welcome: the name the server gave us and whether it is an account's
    // (`account` is null until the first welcome: not known yet).
    this.name = null;
    this.account = null;
    // The longest guest name, as the server's welcome says (its default until then).
    this.nameMax = 32;
    this.token = storageGet(TOKEN_KEY);
    // The `sanctioned` error that refused our hello, while it stands.
    this.refusal = null;
    this.statusListeners = [];
    this.readyListeners = [];
    this.messageListeners = [];
  }

  onStatus(fn) {
    this.statusListeners.push(fn);
  }

  onReady(fn) {
    this.readyListeners.push(fn);
  }

  onMessage(fn) {
    this.messageListeners.push(fn);
  }

  setStatus(status) {
    this.status = status;
    for (const fn of this.statusListeners) fn(status, { retryAt: this.retryAt, refusal: this.refusal });
  }

  start() {
    globalThis.addEventListener?.('online', () => this.reconnectNow());
    this.open();
  }

  open() {
    clearTimeout(this.timer);
    this.timer = null;
    this.ready = false;
    this.refusal = null;
    this.setStatus('connecting');
    let ws;
    try {
      if (!this.url) throw new Error('no server address');
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (this.ws !== ws) return;
      this.sendHello();
    });
    ws.addEventListener('message', (ev) => {
      if (this.ws !== ws || typeof ev.data !== 'string') return;
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (!msg || typeof msg !== 'object') return;
      this.handle(msg);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.ready = false;
      this.scheduleRetry();
    });
    // 'error' is always followed by 'close', which does the work.
    ws.addEventListener('error', () => {});
  }

  sendHello() {
    const hello = { t: 'hello', name: this.getName() };
    if (this.token) hello.token = this.token;
    this.raw(hello);
  }

  handle(msg) {
    if (msg.t === 'welcome') {
      this.ready = true;
      this.attempt = 0;
      this.player = msg.player;
      this.name = msg.name != null ? String(msg.name) : null;
      this.account = msg.account === true;
      // The server's limit on a guest's name (a server of an earlier release does not say).
      if (Number.isInteger(msg.name_max) && msg.name_max > 0) this.nameMax = msg.name_max;
      if (msg.token) {
        this.token = msg.token;
        storageSet(TOKEN_KEY, msg.token);
      }
      this.setStatus('online');
      for (const fn of this.readyListeners) fn(msg);
      return;
    }
    if (msg.t === 'error' && !this.ready && msg.code === 'bad_token') {
      // The server forgot us (or the token is stale): start a fresh identity.
      this.token = null;
      storageSet(TOKEN_KEY, null);
      this.sendHello();
      return;
    }
    if (msg.t === 'error' && !this.ready && msg.code === 'sanctioned') {
      // Banned (or the account closed): saying hello again would only be refused again. The
      // page says why; nothing more is tried until the player asks.
      this.refuse(msg);
      return;
    }
    if (msg.t === 'error' && !this.ready && msg.code === 'name_taken' && this.onNameTaken) {
      // Our name is an account's: the page picks another and the views hear why. A fresh
      // socket, since the server may not take a second hello on this one.
      for (const fn of this.messageListeners) fn(msg);
      this.onNameTaken(msg);
      this.restart();
      return;
    }
    for (const fn of this.messageListeners) fn(msg);
  }

  /** Stops here: the socket closed, no retry, the status 'refused' with `msg`. */
  refuse(msg) {
    clearTimeout(this.timer);
    this.timer = null;
    const ws = this.ws;
    this.ws = null;
    this.ready = false;
    if (ws) {
      try {
        ws.close(1000, 'refused');
      } catch {
        // already closing
      }
    }
    this.refusal = { code: msg.code, message: String(msg.message ?? '') };
    this.setStatus('refused');
  }

  scheduleRetry() {
    clearTimeout(this.timer);
    const base = Math.min(MAX_DELAY_MS, MIN_DELAY_MS * 2 ** this.attempt);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt++;
    this.retryAt = Date.now() + delay;
    this.setStatus('offline');
    this.timer = setTimeout(() => this.open(), delay);
  }

  /** Drop the current socket (if any) and connect again at once, e.g. after a name change.
   *  A refused hello is tried again only when `force` (the player asked). */
  reconnectNow({ force = false } = {}) {
    if (this.status === 'connecting' && this.ws) return;
    if (this.status === 'refused' && !force) return;
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      try {
        ws.close(1000, 'reconnect');
      } catch {
        // already closing
      }
    }
    this.attempt = 0;
    this.open();
  }

  /** Connects again at once whatever the connection is doing, so the next `hello` carries
   *  the token and name as they are now. */
  restart() {
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      try {
        ws.close(1000, 'reconnect');
      } catch {
        // already closing
      }
    }
    this.attempt = 0;
    this.open();
  }

  /** After signing in: `token` is our identity from now on (kept in storage), under it we say
   *  hello again. */
  replaceToken(token) {
    this.token = token;
    storageSet(TOKEN_KEY, token);
    this.account = null;
    this.restart();
  }

  /** After signing out: the token is forgotten here too, and the next hello makes a fresh
   *  guest. */
  dropToken() {
    this.token = null;
    storageSet(TOKEN_KEY, null);
    this.account = null;
    this.restart();
  }

  raw(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Sends a message once welcomed; false when offline (the caller tells the user). */
  send(msg) {
    if (!this.ready) return false;
    return this.raw(msg);
  }
}
