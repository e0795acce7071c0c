// The new-game form's opponent settings: a person, a bot or two bots; the bot's level or each bot's; and the seat we take (none when two bots play).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { select, field } from '../form-select.js';
import { LEVEL_OPTIONS } from './presets.js';

/**
 * The settings' part of the form, kept in `settings` (settings.js). `onChange()` follows a
 * change of opponent. Returns { elements, render(), destroy() }: the elements go into the
 * form's fields one by one; render again when the form changes.
 */
export function createOpponentSetup({ settings, onChange }) {
  const levelSelect = (testid, key) => select({ 'data-testid': testid }, LEVEL_OPTIONS, settings.get(key), (v) => settings.set({ [key]: Number(v) }));
  const level = levelSelect('new-game-level', 'level');
  const seat = select({ 'data-testid': 'new-game-seat' }, ['black', 'white', 'random', 'none'].map((v) => [v, t(`lobby.seat.${v}`), `lobby.seat.${v}`]), settings.get('seat'), (v) => settings.set({ seat: v }));

  const group = h('fieldset', { class: 'opp-group' }, h('legend', { 'data-i18n': 'lobby.opponent' }, t('lobby.opponent')));
  for (const v of ['person', 'bot', 'botbot']) {
    const id = `opp-${v}`;
    group.append(h('label', { class: 'radio', for: id },
      h('input', { type: 'radio', name: 'opp', id, value: v, 'data-testid': `new-game-opp-${v}`, checked: settings.get('opp') === v, onchange: () => { settings.set({ opp: v }); onChange(); } }),
      h('span', { 'data-i18n': `lobby.opp.${v}` }, t(`lobby.opp.${v}`))));
  }
  const botPart = h('div', { class: 'part' }, field('lobby.botLevel', level, 'ng-level'));
  const botbotPart = h('div', { class: 'part' }, h('div', { class: 'row' },
    field('lobby.blackBot', levelSelect('new-game-level-black', 'levelBlack'), 'ng-level-black'),
    field('lobby.whiteBot', levelSelect('new-game-level-white', 'levelWhite'), 'ng-level-white')));
  const seatField = field('lobby.seat', seat, 'ng-seat');

  // The level is chosen here, in "Play the computer" and beside a seek: one value shown alike.
  const stop = settings.onChange((patch) => {
    if ('level' in patch) level.value = String(patch.level);
  });

  return {
    elements: [group, botPart, botbotPart, seatField],
    render() {
      const opp = settings.get('opp');
      botPart.hidden = opp !== 'bot';
      botbotPart.hidden = opp !== 'botbot';
      seatField.hidden = opp === 'botbot';
    },
    destroy: stop,
  };
}
