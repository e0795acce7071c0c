// The lobby's "Play the computer" card: one row (game, bot level, who moves first) that makes an untimed game against a bot at once.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { other } from '../rules.js';
import { select } from '../form-select.js';
import { VS_COMPUTER, LEVEL_OPTIONS } from './presets.js';
import { card } from './card.js';

/**
 * The card. `settings` (settings.js) holds its choices, the bot level shared with the rest of
 * the lobby; `request(msg, { as, clock })` sends the room to create. Returns { element,
 * destroy() }.
 */
export function createVsComputer({ settings, request }) {
  const game = select({ 'data-testid': 'vs-computer-game', 'aria-label': t('lobby.game'), 'data-i18n-aria': 'lobby.game' },
    VS_COMPUTER.map((g) => [g.key, t(g.name), g.name]), settings.get('vsGame'), (v) => settings.set({ vsGame: v }));
  const level = select({ 'data-testid': 'vs-computer-level', 'aria-label': t('lobby.botLevel'), 'data-i18n-aria': 'lobby.botLevel' },
    LEVEL_OPTIONS, settings.get('level'), (v) => settings.set({ level: Number(v) }));
  const order = select({ 'data-testid': 'vs-computer-order', 'aria-label': t('lobby.order'), 'data-i18n-aria': 'lobby.order' },
    ['you', 'computer'].map((v) => [v, t(`lobby.order.${v}`), `lobby.order.${v}`]), settings.get('vsOrder'), (v) => settings.set({ vsOrder: v }));
  const row = h('form', { class: 'vs-computer row', 'data-testid': 'vs-computer' },
    game, level, order,
    h('button', { type: 'submit', class: 'primary', 'data-testid': 'btn-vs-computer', 'data-i18n': 'lobby.playComputer' }, t('lobby.playComputer')));
  row.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const choice = VS_COMPUTER.find((g) => g.key === settings.get('vsGame')) || VS_COMPUTER[0];
    // Black moves first in every game here.
    const seat = settings.get('vsOrder') === 'computer' ? 'white' : 'black';
    request({ t: 'create', game: choice.game, seat, clock: null, bots: { [other(seat)]: settings.get('level') }, private: false }, { as: 'player', clock: null });
  });

  // The level is chosen here, in the new-game form and beside a seek: one value shown alike.
  const stop = settings.onChange((patch) => {
    if ('level' in patch) level.value = String(patch.level);
  });

  return { element: card('lobby.vsComputer', row), destroy: stop };
}
