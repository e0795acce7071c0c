// WebSocket client of the Kibitz protocol: hello/welcome with the stored token, reconnect with backoff, status events.

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
 * received) or 'offline' (waiting to retry; `retryAt` says when). Listeners:
 * onStatus(status, info), onReady(welcome) after every welcome, onMessage(msg) for every message.
 */
export class Net {
  constructor({ url = defaultUrl(), getName }) {
    this.url = url;
    this.getName = getName;
    this.ws = null;
    this.ready = false;
    this.status = 'connecting';
    this.attempt = 0;
    this.timer = null;
    this.retryAt = 0;
    this.player = null;
    this.token = storageGet(TOKEN_KEY);
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
    for (const fn of this.statusListeners) fn(status, { retryAt: this.retryAt });
  }

  start() {
    globalThis.addEventListener?.('online', () => this.reconnectNow());
    this.open();
  }

  open() {
    clearTimeout(this.timer);
    this.timer = null;
    this.ready = false;
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
    for (const fn of this.messageListeners) fn(msg);
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

  /** Drop the current socket (if any) and connect again at once, e.g. after a name change. */
  reconnectNow() {
    if (this.status === 'connecting' && this.ws) return;
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
