// The room's action buttons as the game stands: take-back and draw while it runs, abort before both sides have moved and resign after (a first click arms it, a second confirms), rematch after it (none in a tournament), a bot invited to a free seat, typed moves, and "Report game" against the person across the board.

import { t } from '../i18n.js';
import { other } from '../rules.js';

/**
 * The buttons of room `R` in the page's elements `el` (layout.js: buttons, botLevel,
 * inviteGroup, moveForm); `app.reports` (when there is one) takes a report of the game.
 * Returns { render(), armResign(on), reportedOpponent() }.
 */
export function createActionBar({ state: R, app, el }) {
  const { buttons } = el;
  let resignArmed = false;

  /** The person across the board from us, when a report of this game may name them. */
  function reportedOpponent() {
    if (!R.seated || !app.reports) return null;
    const info = R.seats[other(R.you)];
    return info?.player && !info.bot && info.player !== app.net.player ? info : null;
  }

  function render() {
    const seated = R.seated;
    const p = R.playing;
    buttons.undo.disabled = !(seated && p && R.hasOwnMove);
    buttons.draw.disabled = !(seated && p);
    // Before both sides have moved a game is aborted, not resigned.
    const abortable = seated && R.abortable;
    buttons.abort.hidden = !abortable;
    buttons.abort.disabled = !abortable;
    buttons.resign.disabled = !(seated && p);
    buttons.resign.hidden = abortable || (resignArmed && seated && p);
    buttons.resignConfirm.hidden = abortable || !(resignArmed && seated && p);
    buttons.rematch.disabled = !(seated && R.status === 'over');
    // A spectator has no seat to act for: show only what they can use.
    for (const b of [buttons.undo, buttons.draw, buttons.rematch]) b.hidden = !seated;
    if (R.tournament) buttons.rematch.hidden = true;
    if (!seated) buttons.resign.hidden = true;
    const freeSeat = !R.seats.black || !R.seats.white;
    buttons.invite.disabled = !(freeSeat && R.status !== 'over' && R.game);
    el.botLevel.disabled = buttons.invite.disabled;
    // Once both seats are taken there is nobody to invite: keep the panel short.
    el.inviteGroup.hidden = !!R.game && !freeSeat;
    // Typed moves only make sense while the game runs.
    el.moveForm.hidden = !(seated && p);
    // A seated player may report the game against a person (not a bot, nor a seat still free).
    const opponent = reportedOpponent();
    buttons.reportGame.hidden = !opponent;
    if (opponent) buttons.reportGame.setAttribute('aria-label', t('rep.reportGameAria', { name: String(opponent.name ?? '') }));
  }

  return {
    render,
    /** The resign button armed (its second click confirms) or not. */
    armResign(on) {
      resignArmed = on;
      render();
    },
    reportedOpponent,
  };
}
