// Game-over dialog: a modal that says the result, its reason and (in a rated game) each side's rating change, with rematch (back to the tournament in a tournament's game), review and back-to-the-lobby buttons; it keeps the keyboard inside, closes on Escape and gives focus back.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { makeModal } from '../modal.js';

/**
 * Builds the dialog (closed) for room `roomId`. `onRematch`, `onReview` and `onLobby` are the
 * buttons' actions; each closes the dialog first. `fallbackFocus()` is where the focus goes on
 * closing when nothing had it before the dialog opened. Returns { element, open(content), close(),
 * isOpen() }.
 */
export function createOverDialog({ roomId, onRematch, onTournament, onReview, onLobby, fallbackFocus }) {
  const titleId = `over-title-${roomId}`;
  const title = h('h2', { class: 'over-title', id: titleId, 'data-testid': 'over-title' });
  const body = h('div', { class: 'over-body', id: `${titleId}-body` });
  const closeBtn = h('button', {
    type: 'button', class: 'over-close link', 'data-testid': 'btn-over-close',
    'aria-label': t('over.close'), 'data-i18n-aria': 'over.close', onclick: () => close(),
  }, '×');
  const rematchBtn = h('button', { type: 'button', class: 'primary', 'data-testid': 'btn-over-rematch', 'data-i18n': 'room.rematch', onclick: () => close(onRematch) }, t('room.rematch'));
  const tournamentBtn = h('button', { type: 'button', class: 'primary', 'data-testid': 'btn-over-tournament', 'data-i18n': 'over.tournament', hidden: true, onclick: () => close(onTournament) }, t('over.tournament'));
  const reviewBtn = h('button', { type: 'button', 'data-testid': 'btn-over-review', 'data-i18n': 'over.review', onclick: () => close(onReview) }, t('over.review'));
  const lobbyBtn = h('button', { type: 'button', 'data-testid': 'btn-over-lobby', 'data-i18n': 'over.lobby', onclick: () => close(onLobby) }, t('over.lobby'));
  const element = h('dialog', {
    class: 'over-dialog', 'data-testid': 'game-over-dialog', role: 'dialog', 'aria-modal': 'true',
    'aria-labelledby': titleId, 'aria-describedby': body.id,
  },
  closeBtn, title, body,
  h('div', { class: 'over-buttons' }, rematchBtn, tournamentBtn, reviewBtn, lobbyBtn));

  const modal = makeModal(element, { fallbackFocus });
  const close = (then) => modal.close(then);

  return {
    element,
    /** Opens with `content`: { title, lines: [{ text, testid, attrs }], canRematch, tournament };
     *  `attrs` (optional) are more attributes of the line; `tournament`: a tournament's game,
     *  whose way on is back to the tournament. Open already: the content is replaced. */
    open({ title: text, lines, canRematch, tournament = false }) {
      title.textContent = text;
      clear(body);
      for (const line of lines) body.append(h('p', { ...line.attrs, 'data-testid': line.testid }, line.text));
      rematchBtn.hidden = !canRematch;
      tournamentBtn.hidden = !tournament;
      if (!modal.isOpen()) modal.open(canRematch ? rematchBtn : tournament ? tournamentBtn : reviewBtn);
    },
    close: () => close(),
    isOpen: modal.isOpen,
  };
}
