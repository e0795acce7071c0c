// Room controls: the user's actions (moves, offers, resignation, abort, rematch, bot invitation, chat, copying, history navigation, keys, a report of the game) turned into client messages and view updates.

import { t } from '../i18n.js';
import { ASK_TIMEOUT_MS } from './state.js';
import { openingClick } from '../opening.js';
import { playVariation } from './review.js';

/** How long a sent move may stay unanswered before the board takes input again. */
const PENDING_TIMEOUT_MS = 10000;
/** How long the resign button stays armed for its confirming second click. */
const RESIGN_ARMED_MS = 4000;

/** The user's actions in room `state`, drawn by `view`, sent over `app.net`. */
export function createControls({ state: R, view, app }) {
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

  function play(move) {
    if (!R.game) return false;
    if (R.pending) return false;
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

  /** Asks the opponent for an undo or a draw (`kind`). */
  function ask(kind) {
    if (!R.seated || !R.playing) return;
    if (send({ t: kind, room: R.id })) {
      R.asked[kind] = Date.now();
      view.renderOffers();
      later(view.renderOffers, ASK_TIMEOUT_MS + 50);
    }
  }

  function askRematch() {
    if (!R.seated) return;
    if (send({ t: 'rematch', room: R.id })) {
      R.asked.rematch = Date.now();
      view.renderOffers();
    }
  }

  function goTo(index) {
    R.variation = null;
    const moved = R.showPosition(index);
    if (moved == null) return;
    view.renderBoard(moved === 1);
    view.renderPlayers();
    view.renderMoves();
    view.renderStatus();
  }

  const step = (k) => goTo(R.shownIndex + k);

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

  function roomLink() {
    const base = location.origin && location.origin !== 'null' ? `${location.origin}/` : location.href.split('?')[0];
    return `${base}?room=${encodeURIComponent(R.id)}`;
  }

  function onKey(ev) {
    const target = ev.target;
    const typing = target && (target.closest?.('input, textarea, select, [contenteditable="true"]'));
    if ((ev.ctrlKey || ev.metaKey) && !ev.shiftKey && !ev.altKey && ev.key.toLowerCase() === 'z') {
      if (typing) return;
      ev.preventDefault();
      ask('undo');
      return;
    }
    if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.defaultPrevented) return; // the board used the key for its cursor
    const k = { ArrowLeft: -1, ArrowRight: 1 }[ev.key];
    if (k) {
      ev.preventDefault();
      step(k);
    } else if (ev.key === 'Home') {
      ev.preventDefault();
      goTo(0);
    } else if (ev.key === 'End') {
      ev.preventDefault();
      goTo(Infinity);
    }
  }

  /** A click on the board: a move, or what it means in an opening rule's step (a stone, a
   *  5th move picked to offer, an offered 5th move chosen). */
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

  return {
    play,
    boardClick,
    /** An opening rule's choice made by a button. */
    choose(text) {
      if (text) play(text);
    },
    /** Taraguchi-10's 5th move: offer ten instead of placing one. */
    startOffering() {
      R.offering = true;
      R.picked = [];
      view.renderOpening();
    },
    /** A move typed in the move box is played from the live position, whatever is on show. */
    playTyped(text) {
      R.view = null;
      return play(text);
    },
    ask,
    armResign() {
      view.armResign(true);
      later(() => view.armResign(false), RESIGN_ARMED_MS);
    },
    resign() {
      view.armResign(false);
      if (R.seated && R.playing) send({ t: 'resign', room: R.id });
    },
    /** Ends a game not under way yet (a side has not moved): no result, no confirmation. */
    abort() {
      if (R.seated && R.abortable) send({ t: 'abort', room: R.id });
    },
    /** The win or a draw over an opponent away for half the grace period (the server checks). */
    claim(result) {
      if (R.seated && R.playing) send({ t: 'claim', room: R.id, result });
    },
    askRematch,
    inviteBot() {
      send({ t: 'invite_bot', room: R.id, level: Number(view.el.botLevel.value) || 3 });
    },
    reply(kind, accept) {
      send({ t: `${kind}_reply`, room: R.id, accept });
      R.offers[kind] = null;
      view.renderOffers();
    },
    sendChat: (text) => send({ t: 'chat', room: R.id, text }),
    copyLink: () => copyText(roomLink(), t('room.linkCopied')),
    copyMoves: () => copyText(view.el.moveStringEl.value, t('room.copied')),
    flip: () => view.flip(),
    touchHintSeen: () => view.touchHintSeen(),
    goTo,
    step,
    /** From the game-over dialog: the game from its first position, stepped with "next". */
    review() {
      goTo(0);
      view.review.ask();
      // The least scroll that shows "next": on a phone the buttons are under the board, and the
      // focus's own scroll (to the middle of the window) put the board out of sight.
      view.el.nav.next.focus({ preventScroll: true });
      view.el.nav.next.scrollIntoView({ block: 'nearest' });
    },
    /** Leaves the viewer's variation for the game's own position. */
    backToGame() {
      R.variation = null;
      view.renderBoard(false);
      view.review.render();
      view.el.board.element.focus();
    },
    onKey,
    /** Opens the report of this game against the person across the board. */
    reportGame() {
      const opponent = view.reportedOpponent();
      if (opponent) app.reports.openGame({ room: R.id, player: opponent.player, name: String(opponent.name ?? '') });
    },
    /** The page moves elsewhere: no timer of ours may fire on a room no longer shown. A seated
     *  player keeps the seat while the game goes on; everyone else leaves. */
    leave() {
      for (const id of timers) clearTimeout(id);
      if (!(R.seated && R.playing)) app.net.send({ t: 'leave', room: R.id });
    },
  };
}
