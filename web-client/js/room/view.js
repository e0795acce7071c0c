// Room view: puts the room's page together (layout.js's elements, drawn by one component each: head, player bars, board, status line, opening panel, result, move list, offers, action buttons, review, the links to the explorer and the analysis board) and draws the room's state into it on demand; what the player asks for goes out as intents (intents.js), never to the controls themselves.

import { noteRoom } from '../my-game.js';
import { isCorrespondence } from '../corr-data.js';
import { buildRoom } from './layout.js';
import { createReviewPanel } from './review.js';
import { createTournamentLink } from './tournament-link.js';
import { createExploreLink } from './explore-link.js';
import { createAnalyseLink } from './analyse-link.js';
import { createRoomHead } from './room-head.js';
import { createPlayerBars } from './player-bars.js';
import { createBoardView } from './board-view.js';
import { createStatusLine } from './status-line.js';
import { createOpeningPanel } from './opening-panel.js';
import { createResult } from './result.js';
import { createMoveList } from './move-list.js';
import { createOffers } from './offers.js';
import { createActionBar } from './action-bar.js';

/** Shows `text` in `node` for `ms`; returns the timer that hides it again. */
function flash(node, text, timer, ms) {
  node.textContent = text;
  node.hidden = false;
  clearTimeout(timer);
  return setTimeout(() => { node.hidden = true; }, ms);
}

/** The page's elements (layout.js) for room `R`: its chat lines reported and blocked by `app`. */
function pageOf(root, R, app, emit, tournamentLink) {
  // Leaving a game under way asks first: it goes on without us, and our clock runs. A
  // correspondence game is made to be left and come back to: no question.
  const onBack = () => (R.seated && R.playing && !isCorrespondence(R.control) ? el.leaveDialog.open() : app.go(null));
  const el = buildRoom(root, {
    roomId: R.id, emit, onBack, leaveNow: () => app.go(null), onTournament: () => tournamentLink.open(), me: () => app.net.player,
    // Another person's chat line: "Report this line by Bob", the line as the server sent it.
    report: app.reports ? {
      can: (msg) => app.reports.canReportLine(msg),
      open: (msg) => app.reports.openChat({ room: R.id, player: msg.from, name: msg.name, text: msg.text }),
    } : null,
    // An account blocks another line's player from the chat: the blocks' own question first.
    block: app.blocks?.ask ? {
      can: (msg) => app.blocks.canBlockLine(msg),
      open: (msg, done) => app.blocks.ask({ player: msg.from, name: String(msg.name ?? ''), bot: !!msg.bot }, done),
    } : null,
  });
  return el;
}

/**
 * Builds the room page in `root` and returns its drawing functions. `clockSpec` is the lobby's
 * copy of the time control, shown until the first `state` says it; `emit` (intents.js) takes
 * what the player asks for; `quiet` leaves out the game-over dialog.
 */
export function createRoomView(root, { state: R, app, clockSpec, emit, quiet = false }) {
  const tournamentLink = createTournamentLink({ app, roomId: R.id });
  const el = pageOf(root, R, app, emit, tournamentLink);
  const review = createReviewPanel({
    state: R,
    panel: el.reviewEl,
    send: (msg) => app.net.send(msg),
    goTo: (k) => emit('goTo', k),
    backToGame: () => emit('backToGame'),
  });
  const exploreLink = createExploreLink({ app });
  const analyseLink = createAnalyseLink({ app });
  el.moveList.after(exploreLink.element, analyseLink.element);
  const head = createRoomHead({ state: R, app, el, clockSpec, tournamentLink });
  const players = createPlayerBars({ state: R, app, el, emit });
  // The position on show may change with every drawing (a replay's move, a review's
  // variation): the analysis board's link follows it.
  const board = createBoardView({ state: R, app, el, emit, onDrawn: () => analyseLink.render(R) });
  const status = createStatusLine({ state: R, app, statusEl: el.statusEl, liveBtn: el.liveBtn });
  const opening = createOpeningPanel({ state: R, panel: el.openingEl, emit });
  const result = createResult({ state: R, overEl: el.overEl, overDialog: el.overDialog, quiet });
  const moves = createMoveList({ state: R, el, emit });
  const offers = createOffers({ state: R, offersEl: el.offersEl, emit });
  const actionBar = createActionBar({ state: R, app, el });
  let errorTimer = 0;
  let noticeTimer = 0;

  function renderMoves() {
    moves.render();
    review.render();
    exploreLink.render(R);
  }

  function renderAll(animate = false) {
    noteRoom(R);
    head.render();
    players.render();
    board.render(animate);
    renderMoves();
    status.render();
    opening.render();
    result.render();
    offers.render();
    actionBar.render();
    el.chat.setSpectator(!R.seated);
  }

  return {
    el,
    chat: el.chat,
    review,
    renderAll,
    renderBoard: board.render,
    renderPlayers: players.render,
    renderMoves,
    renderStatus: status.render,
    renderOffers: offers.render,
    renderActions: actionBar.render,
    renderOpening: opening.render,
    renderOver: result.render,
    openOver: result.open,
    reportedOpponent: actionBar.reportedOpponent,
    showError(text) {
      errorTimer = flash(el.errorEl, text, errorTimer, 6000);
    },
    touchHintSeen: board.touchHintSeen,
    touchHintShown: board.touchHintShown,
    showNotice(text) {
      noticeTimer = flash(el.noticeEl, text, noticeTimer, 3000);
    },
    /** Shows the clock reading of the state; a finished game's clock no longer runs. */
    showClock() {
      const over = R.status === 'over' && R.clock;
      el.clocks.control(R.control);
      el.clocks.set(over ? { ...R.clock, running: null, abort_ms: null } : R.clock, R.toMove);
    },
    stopClock: () => el.clocks.stop(),
    /** The clock as displayed now, the running side's time counted down. */
    clockShown: () => el.clocks.current(),
    flip: board.flip,
    armResign: actionBar.armResign,
    dispose() {
      el.overDialog.close();
      clearTimeout(errorTimer);
      clearTimeout(noticeTimer);
      el.clocks.stop();
      players.stop();
      if (app.turns) app.turns.leaveRoom(R.id);
      else document.title = 'Kibitz';
    },
  };
}
