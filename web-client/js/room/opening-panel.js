// The room's opening-rule panel: whose choice the opening's step is and what it is, in one line, with its buttons (swap, stay, take a colour, declare a number of 5th moves, offer them) for the player whose choice it is.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { fifthsChoice } from '../opening.js';
import { seatWord, playerWord } from './words.js';

/** The step's words: its params with the seats and areas said as people say them. */
function stepWords(R, step) {
  const p = step.params;
  const who = step.mine ? t('opening.you') : t('opening.player', { name: playerWord(R, p.seat), seat: seatWord(p.seat) });
  return {
    ...p, who,
    seat: seatWord(p.seat),
    other: p.other ? seatWord(p.other) : '',
    color: p.color ? seatWord(p.color) : '',
    area: p.area ? t(p.area.key, { side: p.area.side }) : '',
    proposeArea: p.proposeArea ? t(p.proposeArea.key, { side: p.proposeArea.side }) : '',
  };
}

/**
 * The panel of room `R` in `panel` (layout.js's openingEl); its buttons ask `emit` (intents.js)
 * for `choose(text)` and `startOffering()`. Returns { render() }.
 */
export function createOpeningPanel({ state: R, panel, emit }) {
  const choice = (name, text, label) => h('button', { type: 'button', 'data-testid': `btn-opening-${name}`, onclick: () => emit('choose', text) }, label);

  /** The buttons of the step's choice: a colour, or a number of 5th moves. */
  function choiceButtons(step) {
    const p = step.params;
    for (const b of step.buttons) {
      if (b === 'swap') panel.append(choice('swap', 'swap', t('opening.swap', { seat: seatWord(p.seat === 'black' ? 'white' : 'black') })));
      if (b === 'stay') panel.append(choice('stay', 'stay', t('opening.stay', { seat: seatWord(p.seat) })));
      if (b === 'black' || b === 'white') panel.append(choice(b, b, t('opening.take', { seat: seatWord(b) })));
      if (b === 'declare') {
        const max = p.max || 8;
        const pick = h('select', { 'data-testid': 'opening-declare', 'aria-label': t('opening.declareLabel') });
        for (let n = 1; n <= max; n++) pick.append(h('option', { value: n }, String(n)));
        pick.value = '2';
        panel.append(pick, h('button', { type: 'button', 'data-testid': 'btn-opening-declare', onclick: () => emit('choose', `declare ${pick.value}`) }, t('opening.declare')));
      }
    }
  }

  /** 5th moves to offer: placed one by one on the board, or (a rule that allows either) offered
   *  instead of placing one. */
  function proposeButtons(step) {
    if (step.place && !R.offering) {
      panel.append(h('button', { type: 'button', 'data-testid': 'btn-opening-offering', onclick: () => emit('startOffering') }, t('opening.offerInstead', { n: step.propose.n })));
      return;
    }
    const text = fifthsChoice(step, R.picked);
    panel.append(h('span', { class: 'note', 'data-testid': 'opening-picked' }, t('opening.picked', { k: R.picked.length, n: step.propose.n })),
      h('button', { type: 'button', class: 'primary', 'data-testid': 'btn-opening-offer', disabled: !text, onclick: () => emit('choose', text) }, t('opening.offer')));
  }

  function render() {
    clear(panel);
    const step = R.view == null ? R.openingNow : null;
    panel.hidden = !step;
    if (!step) return;
    panel.classList.toggle('mine', step.mine);
    panel.dataset.phase = R.openingState.phase;
    panel.dataset.mine = String(step.mine);
    panel.append(
      h('span', { class: 'opening-rule' }, t(`openingRule.${R.openingState.rule}`)),
      h('span', { 'data-testid': 'opening-step' }, t(step.key, stepWords(R, step))));
    if (!step.mine || R.pending) return;
    choiceButtons(step);
    if (step.propose) proposeButtons(step);
  }

  return { render };
}
