// The room's status line and the page's title: whose move it is (ours: "Your move", our first one of a timed game said so), waiting for a player, over; a move on show from the past, with the way back to the live position; and "●" or the "Your turn" count in the title while it is our move.

import { clear } from '../dom.js';
import { t, gameLabel } from '../i18n.js';
import { seatWord, plyWords, resultWords } from './words.js';

/**
 * The status line of room `R` in `statusEl`, with `liveBtn` (both layout.js's) when a past move
 * is on show; `app.turns` (when there is one) keeps the title. Returns { render() }.
 */
export function createStatusLine({ state: R, app, statusEl, liveBtn }) {
  function render() {
    clear(statusEl);
    if (!R.game) {
      statusEl.textContent = t('room.loading');
      return;
    }
    if (R.view != null) {
      // A finished game's replay says how it ended; a running one's that it goes on.
      const after = R.status === 'over' && R.result ? t('room.viewingOver', { result: resultWords(R, R.result).head }) : t('room.viewingLive');
      statusEl.append(t('room.viewing', { move: plyWords(R, R.view), n: R.view, total: R.liveIndex }), ' — ', after, ' ', liveBtn);
      return;
    }
    if (R.status === 'waiting') statusEl.textContent = t('room.waiting');
    else if (R.status === 'playing' && R.you === R.toMove && R.clock && !R.hasMoved(R.you)) statusEl.textContent = t('room.yourFirstMove');
    else if (R.status === 'playing') statusEl.textContent = R.you === R.toMove ? t('room.yourMove') : t('room.toMove', { seat: seatWord(R.toMove) });
    else if (R.status === 'over') statusEl.textContent = t('room.over');
    const yourMove = R.status === 'playing' && R.you === R.toMove;
    // "(1) Your turn · …" when it is our move here (or in a correspondence game elsewhere).
    const title = `${gameLabel(R.game)} — Kibitz`;
    if (app.turns) app.turns.roomTurn(R.id, yourMove, title);
    else document.title = `${yourMove ? '● ' : ''}${title}`;
  }

  return { render };
}
