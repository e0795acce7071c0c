// Correspondence games on every page: the player's games read from GET /api/correspondence (with their token) when the page is welcomed, every minute and whenever it comes back into view; the lobby's "Your turn" card (their turn first, with the opponent, the game and the time left — the move's own time, the vacation beside it — each a link to its room; then the games waiting for the opponent); the page title and the favicon counting the games where it is their turn ("(2) Your turn · Kibitz"), an open room's own turn included; and a notification, once per turn, when a game becomes theirs while the page is in the background ("Notify me when it's my turn" asks the browser first).

import { h, clear } from './dom.js';
import { t, gameLabel } from './i18n.js';
import * as api from './api.js';
import { corrGames, corrLeftWords, corrSplit, formatDays, formatVacation, newTurns, turnKey, turnTitle, badgeIcon, isCorrespondence } from './corr-data.js';
import { other } from './rules.js';
import { setCorrRooms } from './my-game.js';

const REFRESH_MS = 60_000;
const PLAIN_TITLE = 'Kibitz';

const canNotify = () => typeof globalThis.Notification === 'function';
const notifyAllowed = () => canNotify() && Notification.permission === 'granted';
const hidden = () => document.visibilityState === 'hidden';

/**
 * Starts the page's watch over its correspondence games. `app` gives net (its token, ready,
 * onReady), go(room, opts) and viewLink(route, attrs, ...children). Returns { refresh(),
 * lobbyCard(), notifyControl(testid), roomTurn(room, mine, title), leaveRoom(room),
 * roomMoved(state), onLang() }.
 */
export function createTurns(app) {
  let list = { yours: [], waiting: [] };
  let listToken = null; // the token the list is of
  let before = null; // the turn keys of the last list (null: none yet, nothing to notify)
  let open = null; // the room on screen: { id, mine }
  let base = PLAIN_TITLE;
  let busy = null;
  let again = false;
  let card = null;
  const told = new Set(); // the turns notified (or seen on screen) already
  const controls = new Set(); // the "Notify me" controls on the page, each a render function

  const icon = document.querySelector('link[rel="icon"]');
  const plainIcon = icon?.getAttribute('href') ?? null;

  /** Asks for the list again (when welcomed, with a token); resolves once it is drawn. Asked
   *  while an answer is on its way, it asks once more after it (things may have changed since). */
  function refresh() {
    const token = app.net.token;
    if (!token || !app.net.ready) return Promise.resolve();
    if (busy) {
      again = true;
      return busy;
    }
    busy = api.correspondence(token).then((res) => {
      busy = null;
      if (res.ok && token === app.net.token) {
        if (token !== listToken) {
          listToken = token;
          before = null;
        }
        apply(corrGames(res.data));
      }
      if (again) {
        again = false;
        return refresh();
      }
      return undefined;
    });
    return busy;
  }

  function apply(next) {
    const fresh = newTurns(before, next.yours);
    before = new Set(next.yours.map((g) => turnKey(g.room, g.moves)));
    list = next;
    setCorrRooms([...next.yours, ...next.waiting].map((g) => g.room));
    for (const g of fresh) {
      // The room on screen says its own turn (roomMoved).
      if (g.room === open?.id) continue;
      notify(g.room, g.game, g.opponent?.name, g.moves, g.firstMove ? { own: g.leftMs, vacation: 0 } : corrSplit(g.leftMs, g.vacationMs));
    }
    renderTitle();
    renderCard();
    for (const render of controls) render();
  }

  /** The rooms where it is our turn: the list's, corrected by the room on screen. */
  function turnCount() {
    const rooms = new Set(list.yours.map((g) => g.room));
    if (open?.mine) rooms.add(open.id);
    else if (open) rooms.delete(open.id);
    return rooms.size;
  }

  function renderTitle() {
    const n = turnCount();
    document.title = turnTitle(base, n);
    if (!icon) return;
    icon.setAttribute('href', n > 0 ? badgeIcon(n) : plainIcon);
    icon.dataset.turns = String(n);
  }

  /** A notification of our turn in `room` (once per turn), when allowed and the page is in the
   *  background; clicking it brings the page forward in that room. */
  function notify(room, game, name, moves, { own, vacation }) {
    const key = turnKey(room, moves);
    if (told.has(key)) return;
    if (!hidden()) {
      // Seen on screen: no notification for it later either.
      if (room === open?.id) told.add(key);
      return;
    }
    if (!notifyAllowed()) return;
    told.add(key);
    try {
      const note = new Notification(t('corr.notifyTitle', { game: gameLabel(game) }), {
        body: t(vacation > 0 ? 'corr.notifyBodyVac' : 'corr.notifyBody', { name: name || '?', time: formatDays(own), vac: formatVacation(vacation) }),
        tag: room,
      });
      note.onclick = () => {
        globalThis.focus?.();
        note.close();
        if (open?.id !== room) app.go(room, { as: 'player' });
      };
    } catch {
      // A phone's browser shows notifications only through a service worker: nothing to show.
    }
  }

  function item(g) {
    const name = g.opponent?.name || '?';
    return h('li', {
      class: `room-item corr-item${g.yourTurn ? ' yours' : ''}`, 'data-testid': `corr-game-${g.room}`,
      'data-room': g.room, 'data-your-turn': String(g.yourTurn),
    },
    app.viewLink({ page: 'room', room: g.room }, { class: 'room-game', 'data-testid': `corr-link-${g.room}` }, gameLabel(g.game)),
    h('span', { class: 'room-who' }, t('corr.vs', { name }),
      g.opponent?.bot ? h('span', { class: 'bot-badge' }, t('player.bot')) : null),
    h('span', { class: 'corr-left', 'data-testid': `corr-left-${g.room}`, 'data-ms': String(g.leftMs), 'data-vacation-ms': String(g.vacationMs) },
      corrLeftWords(g)),
    h('span', { class: 'room-meta' }, t('corr.moves', { n: g.moves }), g.rated ? ` · ${t('rating.rated')}` : ''));
  }

  function renderCard() {
    if (!card) return;
    const { yours, waiting } = list;
    card.section.hidden = !yours.length && !waiting.length;
    card.title.textContent = t(yours.length ? 'corr.title' : 'corr.waitingHead');
    clear(card.yours);
    clear(card.waiting);
    card.yours.hidden = !yours.length;
    card.yours.setAttribute('aria-label', t('corr.yoursAria'));
    for (const g of yours) card.yours.append(item(g));
    card.waitingHead.textContent = t('corr.waitingHead');
    card.waitingHead.hidden = !yours.length || !waiting.length;
    card.waiting.hidden = !waiting.length;
    card.waiting.setAttribute('aria-label', t('corr.waitingHead'));
    for (const g of waiting) card.waiting.append(item(g));
  }

  /** "Notify me when it's my turn" (asks the browser), or what the browser allows already. */
  function notifyControl(testid) {
    const box = h('div', { class: 'corr-notify', 'data-testid': `${testid}-box` });
    const render = () => {
      if (!box.isConnected && box.dataset.drawn) {
        controls.delete(render);
        return;
      }
      box.dataset.drawn = '1';
      clear(box);
      box.hidden = !canNotify();
      if (box.hidden) return;
      const permission = Notification.permission;
      box.dataset.permission = permission;
      if (permission === 'granted') box.append(h('p', { class: 'note', 'data-testid': `${testid}-on` }, t('corr.notifyOn')));
      else if (permission === 'denied') box.append(h('p', { class: 'note', 'data-testid': `${testid}-denied` }, t('corr.notifyDenied')));
      else box.append(h('button', { type: 'button', 'data-testid': testid, onclick: ask }, t('corr.notify')));
    };
    const ask = async () => {
      try {
        await Notification.requestPermission();
      } catch {
        // An old browser's callback form, or refused: the control says what the browser allows.
      }
      for (const draw of controls) draw();
      box.querySelector('p')?.setAttribute('tabindex', '-1');
      box.querySelector('p')?.focus();
    };
    controls.add(render);
    render();
    return box;
  }

  globalThis.setInterval?.(refresh, REFRESH_MS);
  document.addEventListener('visibilitychange', () => {
    if (!hidden()) {
      refresh();
      for (const render of controls) render();
    }
  });
  app.net.onReady(() => refresh());

  return {
    refresh,
    notifyControl,
    /** The lobby's card (hidden while there is no game), drawn from the list and asked again. */
    lobbyCard() {
      const title = h('h2', { id: 'corr-title' });
      card = {
        title,
        yours: h('ul', { class: 'room-list corr-list', 'data-testid': 'corr-yours' }),
        waitingHead: h('h3', { class: 'corr-subhead' }),
        waiting: h('ul', { class: 'room-list corr-list', 'data-testid': 'corr-waiting' }),
      };
      card.section = h('section', { class: 'card card-corr', 'data-testid': 'corr-card', 'aria-labelledby': 'corr-title', hidden: true },
        title, card.yours, card.waitingHead, card.waiting, notifyControl('btn-corr-notify'));
      renderCard();
      refresh();
      return card.section;
    },
    /** The room `room` is on screen under `title`; `mine`: it is our move there. */
    roomTurn(room, mine, title) {
      open = { id: room, mine: !!mine };
      base = title;
      renderTitle();
    },
    /** The room `room` is left: the plain title, and the list asked again (we may have moved). */
    leaveRoom(room) {
      if (open?.id !== room) return;
      open = null;
      base = PLAIN_TITLE;
      renderTitle();
      refresh();
    },
    /** A move arrived in the room on screen (`state`, room/state.js): our turn now in a
     *  correspondence game is notified when the page is in the background. */
    roomMoved(R) {
      if (!isCorrespondence(R.control) || !R.seated || !R.playing || R.you !== R.toMove) return;
      const them = R.seats[other(R.you)];
      notify(R.id, R.game, them?.name, R.moves.length, corrSplit(R.clock?.[`${R.you}_ms`], R.clock?.[`${R.you}_vacation_ms`]));
    },
    onLang() {
      renderTitle();
      renderCard();
      for (const render of controls) render();
    },
  };
}
