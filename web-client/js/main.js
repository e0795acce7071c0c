// Entry point of the Kibitz page: the header (language, connection), the offline banner, and routing between the lobby, a room (`/?room=<id>`) and the TV page (`/tv`).

import { Net } from './net.js';
import { h, clear } from './dom.js';
import { t, initLang, getLang, setLang, LANGS, applyI18n, onLangChange } from './i18n.js';
import { mountLobby } from './lobby.js';
import { mountRoom } from './room.js';
import { mountTv } from './tv.js';

const NAME_KEY = 'kibitz.name';

function loadName() {
  try {
    const saved = localStorage.getItem(NAME_KEY);
    if (saved && saved.trim()) return saved.trim().slice(0, 24);
  } catch {
    // storage disabled
  }
  const name = `Guest${Math.floor(1000 + Math.random() * 9000)}`;
  try {
    localStorage.setItem(NAME_KEY, name);
  } catch {
    // storage disabled
  }
  return name;
}

initLang();
let name = loadName();
const net = new Net({ getName: () => name });
let view = null;

const app = {
  net,
  getName: () => name,
  setName(next) {
    name = next.trim().slice(0, 24) || name;
    try {
      localStorage.setItem(NAME_KEY, name);
    } catch {
      // storage disabled
    }
    whoEl.textContent = name;
    // The name travels in `hello`: say hello again under the new name.
    net.reconnectNow();
  },
  /** Shows a room (or the lobby for null) and records it in the address bar. */
  go(room, opts = {}) {
    const url = room ? `${basePath()}?room=${encodeURIComponent(room)}` : basePath();
    remember({ room: room || null }, url);
    mount(room, opts);
  },
  /** Shows the TV page: the best live game, one after another. */
  goTv() {
    remember({ tv: true }, `${basePath()}tv`);
    mount(null, { tv: true });
  },
};

/** The page's folder: the lobby's address, under which `tv` is the TV page. */
const basePath = () => location.pathname.replace(/tv$/, '');

function remember(state, url) {
  try {
    history.pushState(state, '', url);
  } catch {
    // Some pages (file://) refuse pushState; the view still changes.
  }
}

// ---------- header and banner ----------
const langSelect = h('select', { id: 'lang', 'data-testid': 'lang-select', 'aria-label': t('app.language'), 'data-i18n-aria': 'app.language' });
for (const [code, label] of Object.entries(LANGS)) langSelect.append(h('option', { value: code }, label));
langSelect.value = getLang();
langSelect.addEventListener('change', () => setLang(langSelect.value));

const statusDot = h('span', { class: 'net-dot', 'data-testid': 'net-status', 'aria-hidden': 'true' });
const whoEl = h('span', { class: 'me', 'data-testid': 'my-name' }, name);
const header = document.getElementById('top');
clear(header);
header.append(
  h('a', { href: '/', class: 'brand', onclick: (ev) => { ev.preventDefault(); app.go(null); } },
    h('span', { class: 'logo', 'aria-hidden': 'true' }), h('span', {}, t('app.title'))),
  h('span', { class: 'tagline', 'data-i18n': 'app.tagline' }, t('app.tagline')),
  h('span', { class: 'spacer' }),
  h('span', { class: 'me-box' }, statusDot, whoEl),
  langSelect,
);

const bannerText = h('span', {});
const banner = document.getElementById('offline-banner');
clear(banner);
banner.append(bannerText, ' ', h('button', { type: 'button', 'data-testid': 'btn-retry', onclick: () => net.reconnectNow(), 'data-i18n': 'net.retry' }, t('net.retry')));

let bannerTimer = 0;
function renderBanner() {
  clearInterval(bannerTimer);
  bannerTimer = 0;
  const st = net.status;
  statusDot.className = `net-dot ${st}`;
  statusDot.title = st === 'online' ? t('net.online') : '';
  if (st === 'online') {
    banner.hidden = true;
    return;
  }
  banner.hidden = false;
  banner.dataset.state = st;
  const draw = () => {
    if (net.status === 'offline') {
      const s = Math.max(0, Math.ceil((net.retryAt - Date.now()) / 1000));
      bannerText.textContent = t('net.offline', { s });
    } else {
      bannerText.textContent = t('net.connecting');
    }
  };
  draw();
  if (st === 'offline') bannerTimer = setInterval(draw, 500);
}

// ---------- routing ----------
const main = document.getElementById('app');

function mount(room, opts = {}) {
  if (view) view.unmount();
  view = null;
  clear(main);
  if (opts.tv) view = mountTv(main, app);
  else view = room ? mountRoom(main, app, { room, ...opts }) : mountLobby(main, app);
  applyI18n(main);
  window.scrollTo(0, 0);
}

function roomFromUrl() {
  const room = new URLSearchParams(location.search).get('room');
  return room && room.trim() ? room.trim() : null;
}

/** Whether the address is the TV page's (`/tv`, no room named). */
const tvFromUrl = () => !roomFromUrl() && /\/tv$/.test(location.pathname);

window.addEventListener('popstate', () => mount(roomFromUrl(), { as: 'player', tv: tvFromUrl() }));

net.onStatus(() => {
  renderBanner();
  view?.onStatus?.(net.status);
});
net.onReady(() => view?.onReady());
net.onMessage((msg) => {
  const handled = view ? view.onMessage(msg) : false;
  if (handled) return;
  // A room made while the lobby was not on screen (or a pairing): follow it.
  if (msg.t === 'created' && msg.room) app.go(msg.room, { fresh: true, as: 'player' });
});
onLangChange(() => {
  langSelect.value = getLang();
  renderBanner();
  view?.onLang?.();
  applyI18n(document.body);
});

applyI18n(document.body);
mount(roomFromUrl(), { as: 'player', tv: tvFromUrl() });
renderBanner();
net.start();
