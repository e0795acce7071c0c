// The room's head line: the game's name, its time control (the lobby's copy until the first state), the rated badge, the tournament's link, the typed-move box's example, and a correspondence game's line.

import { t, gameLabel, clockLabel } from '../i18n.js';
import { createCorrNote } from './corr-note.js';

/**
 * The head of room `R` in the page's elements `el` (layout.js: titleEl, clockSpecEl, ratedEl,
 * moveInput, presenceEl); `clockSpec` is the lobby's copy of the time control; `tournamentLink`
 * (tournament-link.js) is shown when the game is a tournament's. Returns { render() }.
 */
export function createRoomHead({ state: R, app, el, clockSpec, tournamentLink }) {
  el.titleEl.after(tournamentLink.element);
  const corrNote = createCorrNote({ app });
  el.presenceEl.after(corrNote.element);

  return {
    render() {
      if (!R.game) return;
      el.moveInput.placeholder = t('room.moveInputPh', { ex: R.game.kind === 'connect4' ? '4' : R.game.kind === 'othello' ? 'f5' : 'h8' });
      el.titleEl.textContent = gameLabel(R.game);
      el.ratedEl.hidden = !R.rated;
      tournamentLink.show(R.tournament);
      // Before the first state the lobby's copy of the time control stands in.
      const control = R.game && R.hasState ? (R.control ?? null) : clockSpec;
      el.clockSpecEl.textContent = control !== undefined ? clockLabel(control) : '';
      corrNote.render(control, R.seated);
    },
  };
}
