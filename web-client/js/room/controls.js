// Room controls: carry out what the player asks for in the room (intents.js: moves, offers, resignation, abort, rematch, bot invitation, chat, copying, history navigation, a report of the game) as client messages and view updates, and the page's keys.

import { t } from '../i18n.js';
import { ASK_TIMEOUT_MS } from './state.js';
import { openingClick } from '../opening.js';
import { playVariation } from './review.js';
import { createNavigation, roomKeys } from './navigation.js';

/** How long a sent move may stay unanswered before the board takes input again. */
const PENDING_TIMEOUT_MS = 10000;
/** How long the resign button stays armed for its confirming second click. */
const RESIGN_ARMED_MS = 4000;

/** The link that opens room `id` on another device. */
function roomLink(id) {
  const base = location.origin && location.origin !== 'null' ? `${location.origin}/` : location.href.split('?')[0];
  return `${base}?room=${encodeURIComponent(id)}`;
}

/**
 * The intents of room `R` that play: a click on the board, an opening rule's choice, a typed
 * move. `send(msg)` sends (or says why not), `later(fn, ms)` sets a timer the room clears as
 * it leaves. Sets their handlers with `on` (intents.js).
 */
function handleMoves({ R, view, send, later, on }) {
  function play(move) {
    if (!R.game || R.pending) return false;
    const id = `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
    const msg = { t: 'move', room: R.id, move, id };
    if (!send(msg)) return false;
    if (view.touchHintShown()) view.touchHintSeen();
    R.sent(id, msg);
    later(() => {
      if (R.pending && R.pending.id === id) {
        R.pending = null;
        view.renderBoard(false);
      }
    }, PENDING_TIMEOUT_MS);
    view.renderBoard(false);
    return true;
  }

  /** A click on the board: a move, or what it means in an opening rule's step (a stone, a
   *  5th move picked to offer, an offered 5th move chosen), or after the game a move of the
   *  viewer's variation. */
  function boardClick(cell) {
    if (R.status === 'over' && R.reviewMode) {
      if (!playVariation(R, cell)) return false;
      view.renderBoard(true);
      view.review.render();
      return true;
    }
    const step = R.openingNow;
    if (!step) return play(cell);
    const click = openingClick(step, cell, R.picked, R.offering);
    if (!click) return false;
    if (click.send) return play(click.send);
    R.picked = click.picked;
    view.renderBoard(false);
    view.renderOpening();
    return true;
  }

  on('boardClick', boardClick);
  // An opening rule's choice made by a button.
  on('choose', (text) => { if (text) play(text); });
  // Taraguchi-10's 5th move: offer ten instead of placing one.
  on('startOffering', () => {
    R.offering = true;
    R.picked = [];
    view.renderOpening();
  });
  // A move typed in the move box is played from the live position, whatever is on show.
  on('playTyped', (text) => {
    R.view = null;
    return play(text);
  });
}

/**
 * The intents of room `R` that only the page sees or that leave the game alone: the room's
 * link and its moves copied, the board turned, the two-tap hint understood, a report of the
 * game against the person across the board. Sets their handlers with `on` (intents.js).
 */
function handlePageIntents({ R, view, app, on }) {
  async function copyText(text, done) {
    try {
      await navigator.clipboard.writeText(text);
      view.showNotice(done);
    } catch {
      // No clipboard permission (or an insecure page): show the text selected instead.
      const field = view.el.moveStringEl;
      field.value = text;
      field.focus();
      field.select();
    }
  }

  on('copyLink', () => copyText(roomLink(R.id), t('room.linkCopied')));
  on('copyMoves', () => copyText(view.el.moveStringEl.value, t('room.copied')));
  on('flip', () => view.flip());
  on('touchHintSeen', () => view.touchHintSeen());
  on('reportGame', () => {
    const opponent = view.reportedOpponent();
    if (opponent) app.reports.openGame({ room: R.id, player: opponent.player, name: String(opponent.name ?? '') });
  });
}

/**
 * The player's actions in room `state`, drawn by `view` (view.js), sent over `app.net`: each is
 * the handler of an intent, set with `on` (intents.js). Returns { onKey, leave() }: the
 * document's `keydown` listener, and what the page does as it leaves the room.
 */
export function createControls({ state: R, view, app, on }) {
  const timers = new Set();
  const later = (fn, ms) => {
    const id = setTimeout(() => {
      timers.delete(id);
      fn();
    }, ms);
    timers.add(id);
    return id;
  };

  function send(msg) {
    if (app.net.send(msg)) return true;
    view.showError(t('net.notSent'));
    return false;
  }

  /** Asks the opponent for an undo or a draw (`kind`). */
  function ask(kind) {
    if (!R.seated || !R.playing) return;
    if (send({ t: kind, room: R.id })) {
      R.asked[kind] = Date.now();
      view.renderOffers();
      later(view.renderOffers, ASK_TIMEOUT_MS + 50);
    }
  }

  handleMoves({ R, view, send, later, on });
  on('ask', ask);
  on('armResign', () => {
    view.armResign(true);
    later(() => view.armResign(false), RESIGN_ARMED_MS);
  });
  on('resign', () => {
    view.armResign(false);
    if (R.seated && R.playing) send({ t: 'resign', room: R.id });
  });
  // Ends a game not under way yet (a side has not moved): no result, no confirmation.
  on('abort', () => { if (R.seated && R.abortable) send({ t: 'abort', room: R.id }); });
  // The win or a draw over an opponent away for half the grace period (the server checks).
  on('claim', (result) => { if (R.seated && R.playing) send({ t: 'claim', room: R.id, result }); });
  on('askRematch', () => {
    if (R.seated && send({ t: 'rematch', room: R.id })) {
      R.asked.rematch = Date.now();
      view.renderOffers();
    }
  });
  on('inviteBot', () => send({ t: 'invite_bot', room: R.id, level: Number(view.el.botLevel.value) || 3 }));
  on('reply', (kind, accept) => {
    send({ t: `${kind}_reply`, room: R.id, accept });
    R.offers[kind] = null;
    view.renderOffers();
  });
  on('sendChat', (text) => send({ t: 'chat', room: R.id, text }));
  handlePageIntents({ R, view, app, on });
  const nav = createNavigation({ state: R, view });
  for (const name of ['goTo', 'step', 'review', 'backToGame']) on(name, nav[name]);

  return {
    onKey: roomKeys(nav, () => ask('undo')),
    /** The page moves elsewhere: no timer of ours may fire on a room no longer shown. A seated
     *  player keeps the seat while the game goes on; everyone else leaves. */
    leave() {
      for (const id of timers) clearTimeout(id);
      if (!(R.seated && R.playing)) app.net.send({ t: 'leave', room: R.id });
    },
  };
}
