// The game this browser's player sits in while it is under way, remembered across pages and visits: the lobby offers "back to it" (a closed tab, a lost network or a wander to the lobby all come back to it), and forgets it once the server says the game is over.

import { h } from './dom.js';
import { t } from './i18n.js';
import { isCorrespondence } from './corr-data.js';

const KEY = 'kibitz.myGame';

// Our correspondence games (correspondence.js's list): the lobby's "Your turn" card shows the
// way back to them, with no clock running out while we are away to warn of.
let corrRooms = new Set();
let shownBox = null;

function read() {
  try {
    return localStorage.getItem(KEY);
  } catch {
    return null;
  }
}

function write(room) {
  try {
    if (room) localStorage.setItem(KEY, room);
    else localStorage.removeItem(KEY);
  } catch {
    // Storage refused (private mode, full): the lobby's live list still says "your game".
  }
}

/** Notes a room as it stands: remembered while we sit in it and it is played, forgotten once
 *  it is over. `state` is the room's { id, seated, status, control }; a correspondence game is
 *  the "Your turn" card's, never remembered here. */
export function noteRoom(state) {
  if (isCorrespondence(state.control)) {
    if (read() === state.id) write(null);
    return;
  }
  if (state.seated && state.status === 'playing') write(state.id);
  else if (state.status === 'over' && read() === state.id) write(null);
}

/** The room of our game under way, as last seen; null when there is none. */
export const myGame = () => read();

/** Forgets `room` (the server says it is over, or gone). */
export function forgetGame(room) {
  if (read() === room) write(null);
}

/** Whether a seat (of a lobby list) is ours. */
export const isMine = (seat, player) => !!(seat && player && seat.player === player);

/** Our correspondence games' rooms, as listed now: none of them is offered by the card. */
export function setCorrRooms(rooms) {
  corrRooms = new Set(rooms);
  if (shownBox && corrRooms.has(shownBox.dataset.room)) shownBox.hidden = true;
}

/** Fills the lobby's card `box` (once) with the way back to `room`, and shows it (not for a
 *  correspondence game: see setCorrRooms). */
export function showBackToGame(box, room, goBack) {
  if (corrRooms.has(room)) return;
  shownBox = box;
  if (!box.hidden && box.dataset.room === room) return;
  box.replaceChildren(
    h('p', { 'data-i18n': 'lobby.yourGameOn' }, t('lobby.yourGameOn')),
    h('button', { type: 'button', class: 'primary', 'data-testid': 'btn-back-to-game', onclick: () => goBack(room) }, t('lobby.backToGame')));
  box.dataset.room = room;
  box.hidden = false;
}

/** The lobby's card for our game under way (hidden until the server says the remembered game
 *  is still played, or the live list names a game of ours, as on a second device:
 *  `showBackToGame`; `goBack(room)` takes us there). */
export function backToGameCard(goBack) {
  const box = h('section', { class: 'card back-to-game', 'data-testid': 'back-to-game', hidden: true });
  const room = myGame();
  if (!room) return box;
  // Still under way? The server says (the game may have been decided while we were away).
  fetch(`/api/games/${encodeURIComponent(room)}`, { cache: 'no-store' })
    .then((res) => (res.ok ? res.json() : null))
    .then((game) => {
      if (!game || game.status !== 'playing') {
        forgetGame(room);
        return;
      }
      showBackToGame(box, room, goBack);
    })
    .catch(() => {});
  return box;
}
