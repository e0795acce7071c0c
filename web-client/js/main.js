// Entry point of the Kibitz page: the header (language, connection, who we are, sign in / register / sign out), the offline banner, the challenges' panel (challenges.js, on every page), the blocks' button and list for the views (blocks.js), the report dialog and its buttons (reports.js), the correspondence games' turns (correspondence.js: the lobby's "Your turn" card, the title, the favicon, notifications), a moderator's notices to us and a refused hello (mod-notice.js), and routing between the lobby, a room (`/?room=<id>`), the TV page (`/tv`), the account form (`/?account=signin|register`), the leaderboard (`/?leaderboard=<key>`), a player's page (`/?player=<name>`), the tournaments (`/?tournaments`), a tournament's page (`/?tournament=<id>`), the opening explorer (`/?explorer=<key>&moves=…`), the analysis board (`/?analysis=<variant>&tree=…`), the puzzles (`/?puzzles…`, `/?puzzle=<id>`) and the moderators' page (`/?moderation`); the header's links to the leaderboards, the tournaments, the analysis board, the explorer and the puzzles, and to the moderators' page for a moderator (mod-link.js).

import { Net } from './net.js';
import { h, clear } from './dom.js';
import { t, initLang, getLang, setLang, LANGS, applyI18n, onLangChange } from './i18n.js';
import { mountLobby } from './lobby.js';
import { THEMES, getTheme, setTheme } from './theme.js';
import { mountRoom } from './room.js';
import { mountTv } from './tv.js';
import { mountAccount } from './account.js';
import { mountLeaderboard } from './leaderboard.js';
import { mountPlayer } from './player.js';
import { mountTournaments } from './tournaments.js';
import { mountTournament } from './tournament.js';
import { mountExplorer } from './explorer.js';
import { mountAnalysis } from './analysis/page.js';
import { mountPuzzles } from './puzzles/page.js';
import { createChallenges } from './challenges.js';
import { createBlocks } from './blocks.js';
import { createReports } from './reports.js';
import { mountModeration } from './moderation.js';
import { createTurns } from './correspondence.js';
import { createNotices } from './mod-notice.js';
import { createModLink } from './mod-link.js';
import { parseRoute, routeUrl } from './route.js';
import * as api from './api.js';

const NAME_KEY = 'kibitz.name';

const guestName = () => `Guest${Math.floor(1000 + Math.random() * 9000)}`;

function storeName(value) {
  try {
    localStorage.setItem(NAME_KEY, value);
  } catch {
    // storage disabled
  }
}

function loadName() {
  try {
    const saved = localStorage.getItem(NAME_KEY);
    if (saved && saved.trim()) return saved.trim().slice(0, 24);
  } catch {
    // storage disabled
  }
  const name = guestName();
  storeName(name);
  return name;
}

initLang();
let name = loadName();
// The guest name before the last change, to go back to when the server says the new one is an
// account's.
let previousName = null;
const net = new Net({ getName: () => name, onNameTaken });
let view = null;

/** The server refused our name: it belongs to an account. Back to the name we had, else a new
 *  guest name (the error itself reaches the view, which says why). */
function onNameTaken() {
  const refused = name;
  name = previousName && previousName.toLowerCase() !== refused.toLowerCase() ? previousName : guestName();
  previousName = null;
  storeName(name);
  renderAccount();
}

const app = {
  net,
  /** The name we go by: the account's once the server says so, else the guest name. */
  getName: () => (net.account && net.name ? net.name : name),
  /** Whether the server knows us as an account (false while not known). */
  isAccount: () => net.account === true,
  setName(next) {
    previousName = name;
    name = next.trim().slice(0, net.nameMax) || name;
    storeName(name);
    renderAccount();
    // The name travels in `hello`: say hello again under the new name.
    net.reconnectNow();
  },
  /** Shows a room (or the lobby for null) and records it in the address bar. */
  go(room, opts = {}) {
    app.show(room ? { page: 'room', room } : { page: 'lobby' }, opts);
  },
  /** Shows the TV page: the best live game, one after another. */
  goTv() {
    app.show({ page: 'tv' });
  },
  /** Shows any view (a route of route.js) and records it in the address bar. */
  show(route, opts = {}) {
    remember(route, routeUrl(route, basePath()));
    mount(route, opts);
  },
  /** Records `route` in the address bar in place of the current entry, without showing it
   *  again: a view whose own state changed (the explorer's line) keeps its link up to date. */
  replace(route) {
    try {
      history.replaceState(route, '', routeUrl(route, basePath()));
    } catch {
      // As in remember(): the view is right even where the address cannot follow.
    }
  },
  /** Signed in (the answer of POST /api/session): the new token is our identity from now on. */
  signedIn({ token, name: accountName }) {
    if (accountName) {
      name = String(accountName);
      storeName(name);
    }
    net.replaceToken(token);
    renderAccount();
  },
  /** Registered (the answer of POST /api/accounts): the same token, now an account's. */
  registered({ name: accountName }) {
    if (accountName) {
      name = String(accountName);
      storeName(name);
    }
    net.restart();
    renderAccount();
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

// Light, dark, or the system's: picked here, remembered, applied before the first view.
setTheme(getTheme());
const themeSelect = h('select', { id: 'theme', 'data-testid': 'theme-select', 'aria-label': t('app.theme'), 'data-i18n-aria': 'app.theme' });
for (const theme of THEMES) themeSelect.append(h('option', { value: theme, 'data-i18n': `theme.${theme}` }, t(`theme.${theme}`)));
themeSelect.value = getTheme();
themeSelect.addEventListener('change', () => setTheme(themeSelect.value));

const statusDot = h('span', { class: 'net-dot', 'data-testid': 'net-status', 'aria-hidden': 'true' });
const whoSlot = h('span', { class: 'me-slot' });
const accountBox = h('span', { class: 'account-box', 'data-testid': 'account-box' });
const accountError = h('span', { class: 'account-error', role: 'alert', 'data-testid': 'account-error', hidden: true });
const siteNav = h('nav', { class: 'site-nav', 'aria-label': t('nav.main'), 'data-i18n-aria': 'nav.main' });
const header = document.getElementById('top');
clear(header);
header.append(
  h('a', { href: '/', class: 'brand', onclick: (ev) => { ev.preventDefault(); app.go(null); } },
    h('span', { class: 'logo', 'aria-hidden': 'true' }), h('span', {}, t('app.title'))),
  siteNav,
  // After the links: on a laptop it takes what room the line has left, cut short rather than
  // pushing the header onto a second line (style.css).
  h('span', { class: 'tagline', 'data-i18n': 'app.tagline' }, t('app.tagline')),
  h('span', { class: 'spacer' }),
  h('span', { class: 'me-box' }, statusDot, whoSlot),
  accountBox,
  accountError,
  themeSelect,
  langSelect,
);

/** A link to another view of the page: a real address (new tab, copy), followed in place. */
function viewLink(route, attrs, ...children) {
  return h('a', {
    ...attrs,
    href: routeUrl(route, basePath()),
    onclick: (ev) => {
      if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
      ev.preventDefault();
      app.show(route);
    },
  }, ...children);
}
app.viewLink = viewLink;

// The pages every view leads to: the leaderboards, the tournaments, the opening explorer and the puzzles.
siteNav.append(
  viewLink({ page: 'leaderboard', key: 'gomoku-freestyle', bots: false }, { 'data-testid': 'header-link-leaderboard', 'data-i18n': 'lobby.leaderboard' }, t('lobby.leaderboard')),
  viewLink({ page: 'tournaments' }, { 'data-testid': 'header-link-tournaments', 'data-i18n': 'tour.link' }, t('tour.link')),
  viewLink({ page: 'analysis', variant: 'gomoku-freestyle', setup: '', tree: '', at: 0 }, { 'data-testid': 'header-link-analysis', 'data-i18n': 'analysis.link' }, t('analysis.link')),
  viewLink({ page: 'explorer', key: 'gomoku-freestyle', moves: [], rated: 'any', bots: 'any' }, { 'data-testid': 'header-link-explorer', 'data-i18n': 'explorer.link' }, t('explorer.link')),
  viewLink({ page: 'puzzles', variant: null, theme: null, mode: null }, { 'data-testid': 'header-link-puzzles', 'data-i18n': 'puz.link' }, t('puz.link')));

// Moderators only: the link to their page, once the server says the account is one.
const modLink = createModLink(app, siteNav);

/** Who we are in the header: a guest's name with "Sign in" and "Register", or the account's
 *  name (a link to its player page) with "Sign out". Nothing of it until the server says which. */
function renderAccount() {
  clear(whoSlot);
  clear(accountBox);
  const player = net.player || '';
  if (net.account) {
    whoSlot.append(viewLink({ page: 'player', name: app.getName() },
      { class: 'me', 'data-testid': 'my-name', 'data-player': player, 'data-account': 'true', title: t('account.myPage') }, app.getName()));
    accountBox.append(h('button', { type: 'button', class: 'link', 'data-testid': 'btn-signout', onclick: signOut }, t('account.signOut')));
  } else {
    whoSlot.append(h('span', { class: 'me', 'data-testid': 'my-name', 'data-player': player }, name));
    if (net.account === false) {
      accountBox.append(
        viewLink({ page: 'account', mode: 'signin' }, { 'data-testid': 'link-signin' }, t('account.signIn')),
        viewLink({ page: 'account', mode: 'register' }, { 'data-testid': 'link-register' }, t('account.register')));
    }
  }
}

let accountErrorTimer = 0;
function showAccountError(text) {
  accountError.textContent = text;
  accountError.hidden = false;
  clearTimeout(accountErrorTimer);
  accountErrorTimer = setTimeout(() => { accountError.hidden = true; }, 8000);
}

/** Signs this browser out: the server forgets the token, the page forgets it too and carries
 *  on as a fresh guest (under a new guest name: the account's would be refused). */
async function signOut() {
  const res = await api.signOut(net.token);
  // 401: the server had forgotten the token already.
  if (!res.ok && res.status !== 401) {
    showAccountError(res.error);
    return;
  }
  accountError.hidden = true;
  name = guestName();
  previousName = null;
  storeName(name);
  net.dropToken();
  renderAccount();
}

const bannerText = h('span', {});
const banner = document.getElementById('offline-banner');
// Challenges reach us on every page: their panel sits between the banner and the view.
const challenges = createChallenges(app, { anchor: banner });
/** A "Challenge" button for a person or a bot (null for ourselves), for the views. */
app.challengeButton = (person, attrs) => challenges.button(person, attrs);
/** An account's blocks: a view asks for the Block button beside a person and, on our own page,
 *  the list of those we block. */
const blocks = createBlocks(app);
app.blocks = blocks;
/** Reports: the player page's "Report", a chat line's and a game's, one dialog for them all. */
const reports = createReports(app);
app.reports = reports;
/** Correspondence games: the lobby's "Your turn" card, the title and favicon that count our
 *  turns, the notifications. */
const turns = createTurns(app);
app.turns = turns;
/** A moderator's word to us (a `sanction`), and a hello refused by a ban, at the page's top. */
const notices = createNotices(app, { anchor: banner });
clear(banner);
banner.append(bannerText, ' ', h('button', { type: 'button', 'data-testid': 'btn-retry', onclick: () => net.reconnectNow(), 'data-i18n': 'net.retry' }, t('net.retry')));

let bannerTimer = 0;
function renderBanner() {
  clearInterval(bannerTimer);
  bannerTimer = 0;
  const st = net.status;
  statusDot.className = `net-dot ${st}`;
  statusDot.title = st === 'online' ? t('net.online') : '';
  // Refused (a ban): the notice says why and offers to try again; nothing is retried meanwhile.
  if (st === 'online' || st === 'refused') {
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

function mount(route, opts = {}) {
  if (view) view.unmount();
  view = null;
  clear(main);
  switch (route.page) {
    case 'tv': view = mountTv(main, app); break;
    case 'room': view = mountRoom(main, app, { room: route.room, ...opts }); break;
    case 'account': view = mountAccount(main, app, route); break;
    case 'leaderboard': view = mountLeaderboard(main, app, route); break;
    case 'player': view = mountPlayer(main, app, route); break;
    case 'tournaments': view = mountTournaments(main, app); break;
    case 'tournament': view = mountTournament(main, app, route); break;
    case 'explorer': view = mountExplorer(main, app, route); break;
    case 'analysis': view = mountAnalysis(main, app, route); break;
    case 'puzzles':
    case 'puzzle': view = mountPuzzles(main, app, route); break;
    case 'moderation': view = mountModeration(main, app); break;
    default:
      view = mountLobby(main, app);
      // The lobby's h1, for screen readers (the header shows the name already).
      main.prepend(h('h1', { class: 'sr-only', 'data-i18n': 'app.title' }, t('app.title')));
  }
  applyI18n(main);
  window.scrollTo(0, 0);
}

const routeFromUrl = () => parseRoute(location.search, location.pathname);

window.addEventListener('popstate', () => mount(routeFromUrl(), { as: 'player' }));

net.onStatus(() => {
  renderBanner();
  notices.onStatus(net.status);
  challenges.onStatus(net.status);
  view?.onStatus?.(net.status);
});
net.onReady(() => {
  // An account's name is the one the server knows it by.
  if (net.account && net.name) {
    name = net.name;
    storeName(name);
  }
  renderAccount();
  modLink.onReady();
  view?.onReady();
});
net.onMessage((msg) => {
  // A challenge's messages are the panel's, whatever the view; so is an accepted one's room.
  if (challenges.onMessage(msg)) return;
  // A moderator's action on us: the notice, whatever the view.
  if (notices.onMessage(msg)) return;
  const handled = view ? view.onMessage(msg) : false;
  if (handled) return;
  // A room made while the lobby was not on screen (or a pairing): follow it.
  if (msg.t === 'created' && msg.room) app.go(msg.room, { fresh: true, as: 'player' });
});
onLangChange(() => {
  langSelect.value = getLang();
  renderBanner();
  renderAccount();
  view?.onLang?.();
  challenges.onLang();
  blocks.onLang();
  reports.onLang();
  turns.onLang();
  notices.onLang();
  applyI18n(document.body);
});

applyI18n(document.body);
mount(routeFromUrl(), { as: 'player' });
renderAccount();
renderBanner();
net.start();
