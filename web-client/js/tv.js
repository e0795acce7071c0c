// The TV page (`/tv`): watches the best live game full size through the ordinary room page, and when it ends shows the result for a moment and moves on to the next best game.

import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { mountRoom } from './room.js';
import { pickBest } from './tv-pick.js';

/** How long a finished game stays on screen before the next. Browser tests shorten it with
 *  the page address `?tv_pause_ms=N` (the page itself never sets it). */
const PAUSE_MS = pauseDelay();

function pauseDelay() {
  const param = new URLSearchParams(globalThis.location?.search ?? '').get('tv_pause_ms');
  const ms = param == null ? NaN : Number(param);
  return Number.isFinite(ms) && ms >= 0 ? ms : 6000;
}

/** Mounts the TV page in `root`. `app` gives net and go(room, opts) (see main.js). */
export function mountTv(root, app) {
  let live = [];
  let room = null; // { id, view } the game on screen
  // Games shown already: one that ended may stay listed until the lobby's next push.
  const shown = new Set();
  let nextAt = 0; // when the next game comes, while a finished one is on show
  let nextTimer = 0;
  let countdown = 0;

  const statusEl = h('p', { class: 'tv-status', 'data-testid': 'tv-status', role: 'status', 'aria-live': 'polite' });
  const stage = h('div', { class: 'tv-stage', 'data-testid': 'tv-stage' });
  clear(root);
  root.append(h('div', { class: 'tv', 'data-testid': 'tv' },
    h('div', { class: 'tv-head' },
      h('h1', { class: 'tv-title', 'data-i18n': 'tv.title' }, t('tv.title')),
      statusEl,
      h('button', { type: 'button', class: 'link', 'data-testid': 'btn-tv-lobby', 'data-i18n': 'tv.lobby', onclick: () => app.go(null) }, t('tv.lobby'))),
    stage));

  // The room page inside the TV follows a rematch to its room here, and goes back to the
  // lobby when asked: it must not leave the TV for a room of its own.
  const roomApp = {
    ...app,
    go(next, opts) {
      if (next) watch(next);
      else app.go(null, opts);
    },
  };

  function renderStatus() {
    clearInterval(countdown);
    countdown = 0;
    if (nextAt) {
      const draw = () => {
        statusEl.textContent = t('tv.next', { s: Math.max(0, Math.ceil((nextAt - Date.now()) / 1000)) });
      };
      draw();
      countdown = setInterval(draw, 500);
      statusEl.dataset.state = 'over';
    } else if (room && !room.finished) {
      statusEl.textContent = t('tv.watching');
      statusEl.dataset.state = 'watching';
    } else {
      statusEl.textContent = t('tv.none');
      statusEl.dataset.state = 'waiting';
    }
  }

  function watch(id) {
    clearTimeout(nextTimer);
    nextAt = 0;
    if (room) room.view.unmount();
    shown.add(id);
    const box = h('div', { class: 'tv-room', 'data-testid': 'tv-room', 'data-room': id });
    clear(stage);
    stage.append(box);
    room = { id, view: mountRoom(box, roomApp, { room: id, as: 'spectator', quiet: true }) };
    renderStatus();
  }

  /** The best game not shown yet, if there is one; else the page waits for the lobby. */
  function next() {
    nextAt = 0;
    const best = pickBest(live, shown);
    if (best) watch(best.room);
    else renderStatus();
  }

  function ended() {
    if (nextAt) return;
    nextAt = Date.now() + PAUSE_MS;
    nextTimer = setTimeout(next, PAUSE_MS);
    renderStatus();
  }

  function onLobby(msg) {
    live = Array.isArray(msg.live) ? msg.live : [];
    // Nothing on screen, or a finished game whose pause is over: the next game as soon as
    // there is one. A game in progress is never left for a better one.
    if (!room || (room.finished && !nextAt)) next();
  }

  function subscribe() {
    app.net.send({ t: 'lobby' });
  }
  if (app.net.ready) subscribe();
  renderStatus();

  return {
    onReady() {
      subscribe();
      room?.view.onReady();
    },
    onMessage(msg) {
      if (msg.t === 'lobby') {
        onLobby(msg);
        return true;
      }
      if (!room) return false;
      const handled = room.view.onMessage(msg);
      const over = (msg.t === 'over' || (msg.t === 'state' && msg.status === 'over')) && msg.room === room.id;
      if (over) {
        room.finished = true;
        ended();
      }
      return handled;
    },
    onStatus(status) {
      room?.view.onStatus?.(status);
    },
    onLang() {
      renderStatus();
      room?.view.onLang();
    },
    unmount() {
      clearTimeout(nextTimer);
      clearInterval(countdown);
      room?.view.unmount();
      app.net.send({ t: 'unlobby' });
    },
  };
}
