// The room's offers: the opponent's offer of a take-back or a draw (accept, decline), that ours is waiting for an answer, and after the game a rematch asked or offered.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { playerWord } from './words.js';

/**
 * The offers of room `R` in `offersEl` (layout.js's); the buttons ask `emit` (intents.js) for
 * `reply(kind, accept)` and `askRematch()`. Returns { render() }.
 */
export function createOffers({ state: R, offersEl, emit }) {
  const button = (testid, key, intent, primary = false) => h('button', { type: 'button', class: primary ? 'primary' : null, 'data-testid': testid, onclick: intent }, t(key));

  function render() {
    clear(offersEl);
    const now = Date.now();
    for (const kind of ['undo', 'draw']) {
      const by = R.offers[kind];
      if (by && R.seated && by !== R.you) {
        const text = t(`room.${kind}Offer`, { name: playerWord(R, by) });
        offersEl.append(h('div', { class: 'offer', 'data-testid': `${kind}-offer`, role: 'alertdialog', 'aria-label': text },
          h('span', {}, text),
          button(`btn-accept-${kind}`, 'room.accept', () => emit('reply', kind, true), true),
          button(`btn-decline-${kind}`, 'room.decline', () => emit('reply', kind, false))));
      }
      if (R.asking(kind, now)) {
        offersEl.append(h('div', { class: 'offer asked', 'data-testid': `${kind}-asked` }, t(`room.${kind}Asked`)));
      }
    }
    if (R.status === 'over' && R.asked.rematch) offersEl.append(h('div', { class: 'offer asked', 'data-testid': 'rematch-asked' }, t('room.rematchAsked')));
    else if (R.status === 'over' && R.rematchOffered && R.seated) {
      offersEl.append(h('div', { class: 'offer', 'data-testid': 'rematch-offer' }, t('room.rematchOffered'),
        button('btn-accept-rematch', 'room.rematch', () => emit('askRematch'), true)));
    }
  }

  return { render };
}
