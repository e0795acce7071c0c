// The lobby's "Live games" card: the games being played, each drawn small with its players, moves and watchers, and a "Watch" button (our own game: "Back to game", and the way back put first on the page); a link to Kibitz TV above them.

import { h, clear } from '../dom.js';
import { t, gameLabel } from '../i18n.js';
import { createBoard } from '../board.js';
import { livePosition } from '../live-board.js';
import { isMine, showBackToGame } from '../my-game.js';
import { card } from './card.js';
import { seatName, moreItem, listOf } from './list-items.js';

/** How long the list keeps its games once the server lists none (between two showcase games,
 *  say). */
const KEEP_ENDED_MS = 30_000;

/** A live game drawn small, from the position the lobby sends; a click (`watch`) watches it. */
function miniBoard(r, watch) {
  const pos = livePosition(r);
  if (!pos) return null;
  const box = h('button', {
    type: 'button', class: 'mini-board', 'data-testid': `mini-${r.room}`, 'data-ply': r.ply ?? 0,
    'aria-label': t('lobby.watchGame', { game: gameLabel(r.game) }),
    onclick: watch,
  });
  createBoard(box, { mini: true, testPrefix: `mini-${r.room}-` })
    .render({ game: r.game, pos, flipped: false, interactive: false, me: null, animate: false });
  return box;
}

/**
 * The card. `app.go` watches a game or goes back to ours, `app.goTv` opens the TV page;
 * `backBox` is the lobby's "back to your game" card (my-game.js). Returns { element,
 * render(msg), destroy() }; render for each `lobby` message.
 */
export function createLiveGames({ app, backBox }) {
  const list = h('ul', { class: 'room-list', 'data-testid': 'live-games' });
  // The games last listed, and when: a list that empties (a showcase game over, the next one
  // not started yet) keeps them for a while, marked finished, rather than saying at once that
  // nothing is played.
  let lastMsg = null;
  let lastLive = [];
  let lastLiveAt = 0;
  let endedTimer = 0;
  const back = (room) => app.go(room, { as: 'player' });

  function item(r, ended) {
    const seats = r.seats || {};
    // Our own game is not one to watch: the way back to our seat.
    const mine = isMine(seats.black, app.net.player) || isMine(seats.white, app.net.player);
    // Also first on the page, whichever device this is (a game begun on another one).
    if (mine && !ended) showBackToGame(backBox, r.room, back);
    const watch = () => app.go(r.room, { as: 'spectator' });
    const go = mine
      ? h('button', { type: 'button', class: 'primary', 'data-testid': `btn-back-${r.room}`, onclick: () => back(r.room) }, t('lobby.backToGame'))
      : h('button', { type: 'button', 'data-testid': `btn-watch-${r.room}`, onclick: watch }, t('lobby.watch'));
    return h('li', { class: `room-item live-item${mine ? ' mine' : ''}${ended ? ' ended' : ''}`, 'data-room': r.room },
      miniBoard(r, watch),
      h('span', { class: 'room-game' }, gameLabel(r.game)),
      h('span', { class: 'room-who' }, seatName(seats.black), ' – ', seatName(seats.white)),
      h('span', { class: 'room-meta' }, ended ? h('span', { 'data-testid': `ended-${r.room}` }, t('lobby.justEnded'), ' · ') : null,
        t('lobby.ply', { n: r.ply ?? 0 }), ' · ',
        h('span', { 'data-testid': `spectators-${r.room}` }, t('lobby.spectators', { n: r.spectators ?? 0 }))),
      go);
  }

  function render(msg) {
    lastMsg = msg;
    clear(list);
    let live = listOf(msg.live);
    let ended = false;
    if (live.length) {
      lastLive = live;
      lastLiveAt = Date.now();
    } else if (lastLive.length && Date.now() - lastLiveAt < KEEP_ENDED_MS) {
      live = lastLive;
      ended = true;
      clearTimeout(endedTimer);
      // Drawn again once they are too old to keep, unless another message came first.
      endedTimer = setTimeout(() => { if (lastMsg === msg) render(msg); }, KEEP_ENDED_MS - (Date.now() - lastLiveAt) + 50);
    }
    if (!live.length) list.append(h('li', { class: 'empty' }, t('lobby.liveEmpty')));
    for (const r of live) list.append(item(r, ended));
    moreItem(list, msg.live_total, live.length, 'live-more');
  }

  const tvLink = h('a', { href: 'tv', class: 'tv-link', 'data-testid': 'link-tv', 'data-i18n': 'lobby.tv', onclick: (ev) => { ev.preventDefault(); app.goTv(); } }, t('lobby.tv'));
  return {
    element: card('lobby.live', tvLink, list),
    render,
    destroy: () => clearTimeout(endedTimer),
  };
}
