// Moving through a room's game: the position on show (a move of the list, a step back or on, the start, the live position), the keys for it (arrows, Home, End; Ctrl+Z asks for a take-back), the review from the game-over dialog, and the way out of the viewer's own variation.

/**
 * The navigation of room `R`, drawn by `view` (view.js). Returns { goTo(index), step(k),
 * review(), backToGame() }.
 */
export function createNavigation({ state: R, view }) {
  function goTo(index) {
    R.variation = null;
    const moved = R.showPosition(index);
    if (moved == null) return;
    view.renderBoard(moved === 1);
    view.renderPlayers();
    view.renderMoves();
    view.renderStatus();
  }

  return {
    goTo,
    step: (k) => goTo(R.shownIndex + k),
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
  };
}

/**
 * The page's keys in a room: ←/→ step through the moves, Home and End go to the start and the
 * live position (`nav`: createNavigation's), Ctrl+Z (⌘Z) calls `askUndo()`; none while the
 * player types in a field. Returns the `keydown` listener.
 */
export function roomKeys(nav, askUndo) {
  return (ev) => {
    const target = ev.target;
    const typing = target && (target.closest?.('input, textarea, select, [contenteditable="true"]'));
    if ((ev.ctrlKey || ev.metaKey) && !ev.shiftKey && !ev.altKey && ev.key.toLowerCase() === 'z') {
      if (typing) return;
      ev.preventDefault();
      askUndo();
      return;
    }
    if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.defaultPrevented) return; // the board used the key for its cursor
    const k = { ArrowLeft: -1, ArrowRight: 1 }[ev.key];
    if (k) {
      ev.preventDefault();
      nav.step(k);
    } else if (ev.key === 'Home') {
      ev.preventDefault();
      nav.goTo(0);
    } else if (ev.key === 'End') {
      ev.preventDefault();
      nav.goTo(Infinity);
    }
  };
}
