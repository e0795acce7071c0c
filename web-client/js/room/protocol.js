// Room protocol glue: turns the server's messages for one room into state updates and redraws, and asks for the whole room again (`join`) after a gap, a reconnect or a refused seat.

import { t, errorText } from '../i18n.js';

// Each handler below takes the room `room`: { R (the state), view, app, join(as), resync() }.

function onState(room, msg) {
  const { R, view, app } = room;
  const wasOn = R.status === 'playing' || R.status === 'waiting';
  R.applyState(msg);
  view.showClock();
  // Same id: the server never plays a move twice.
  if (R.pending && R.you === R.toMove) app.net.send(R.pending.msg);
  view.renderAll(false);
  // A game that ended while we were away ends on screen as if we had seen it.
  if (wasOn && R.status === 'over') view.openOver();
  askStoredReview(room);
}

// A finished game's stored review, if there is one, for every watcher: asked at the end and
// again with every state until it is here, so that a review finished while this page was
// away (or lost with a restart while pending) is not shown as pending for ever.
function askStoredReview({ R, app }) {
  if (R.status === 'over' && R.reviewStatus !== 'done') {
    app.net.send({ t: 'review', room: R.id, ask: false });
  }
}

function onMoved({ R, view, join }, msg) {
  if (!R.applyMoved(msg)) {
    join();
    return;
  }
  view.showClock();
  view.renderAll(R.view == null);
}

function onOver(room, msg) {
  const { R, view } = room;
  R.applyOver(msg);
  askStoredReview(room);
  view.stopClock();
  view.renderAll(false);
  view.openOver();
}

function onUndone({ R, view, join }, msg) {
  const before = R.clock;
  if (!R.applyUndone(msg, view.clockShown())) {
    join();
    return;
  }
  if (R.clock !== before) view.showClock();
  view.renderAll(false);
}

function onChat({ R, view, resync }, msg) {
  const { show, gap } = R.chatLine(msg);
  if (show && msg.from === '') systemLine({ R, view }, msg);
  else if (show) view.chat.add(msg);
  if (gap) resync();
}

/** The room's own lines are plain English from the server; the rematch offer is the one the
 *  page acts on, so it is recognised and shown translated. */
function systemLine({ R, view }, msg) {
  const text = String(msg.text ?? '');
  const rematch = text.match(/^(.*) offers a rematch\.?$/);
  if (!rematch) {
    view.chat.note(text);
    return;
  }
  view.chat.note(t('chat.rematchOffer', { name: rematch[1] }));
  if (R.rematchAnnounced()) view.renderOffers();
}

function onError({ R, view, join }, msg) {
  if (msg.code === 'room_full' && (msg.ref === 'join' || !R.game)) {
    // The seats are taken: watch instead.
    R.joinAs = 'spectator';
    join('spectator');
    return;
  }
  if (msg.code === 'account_needed' && (msg.ref === 'join' || !R.game) && R.joinAs !== 'spectator') {
    // A rated room seats only accounts: watch, and say why.
    R.joinAs = 'spectator';
    join('spectator');
    view.showError(errorText(msg));
    return;
  }
  const ended = R.refused(msg);
  if (ended.move) view.renderBoard(false);
  if (ended.ask) view.renderOffers();
  view.showError(errorText(msg));
}

/** The messages of a room's players and watchers (offers, a rematch, the crowd, a review). */
function onPeople({ R, view, app }, msg, fresh) {
  switch (msg.t) {
    case 'undo_offer':
    case 'draw_offer':
      if (fresh(msg)) {
        R.offered(msg.t === 'undo_offer' ? 'undo' : 'draw', msg.by);
        view.renderOffers();
      }
      return true;
    case 'rematch':
      fresh(msg);
      if (msg.next) {
        app.go(msg.next, { as: R.seated ? 'player' : 'spectator' });
      } else {
        R.rematchOffered = true;
        view.renderOffers();
      }
      return true;
    case 'crowd':
      R.applyCrowd(msg);
      view.renderPlayers();
      return true;
    case 'review':
      view.review.onReview(msg);
      view.renderBoard(false);
      view.renderMoves();
      return true;
    default:
      return false;
  }
}

/** The server's messages for room `state`, drawn by `view`; `app.net` sends, `app.go` follows
 *  a rematch to its new room. */
export function createProtocol({ state: R, view, app }) {
  function join(asWhat = R.joinAs) {
    R.resyncing = true;
    app.net.send({ t: 'join', room: R.id, as: asWhat });
  }

  function resync() {
    if (!R.resyncing) join();
  }

  /** Whether a numbered event is the next one; a gap asks for a fresh state. */
  function fresh(msg) {
    const seq = R.takeSeq(msg);
    if (seq === 'gap') resync();
    return seq === 'apply';
  }

  const room = { R, view, app, join, resync };

  /** Handles `msg` when it is for this room; false for anything else (main.js routes it on). */
  function onMessage(msg) {
    if (msg.room != null && msg.room !== R.id) return false;
    switch (msg.t) {
      case 'state':
        onState(room, msg);
        return true;
      case 'moved':
        if (R.game && fresh(msg)) onMoved(room, msg);
        return true;
      case 'over':
        if (R.game && fresh(msg)) onOver(room, msg);
        return true;
      case 'undone':
        if (R.game && fresh(msg)) onUndone(room, msg);
        return true;
      case 'chat':
        onChat(room, msg);
        return true;
      case 'chat_hidden':
        // A moderator hid a line: it leaves this page too.
        view.chat.hide(String(msg.player ?? ''), String(msg.text ?? ''));
        return true;
      case 'rated':
        // The game's rating changes, after its `over`. Numbered or not, it is applied: a
        // state asked for after a gap carries the same outcome.
        if (typeof msg.seq === 'number') fresh(msg);
        if (R.applyRated(msg)) view.renderOver();
        return true;
      case 'error':
        onError(room, msg);
        return true;
      default:
        return onPeople(room, msg, fresh);
    }
  }

  return {
    join,
    onMessage,
    /** After every welcome (first connection or reconnect): the room afresh, in our seat if
     *  we have one. */
    onReady() {
      R.resyncing = false;
      join(R.you ? 'player' : R.joinAs);
    },
  };
}
