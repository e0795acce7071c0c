// The new-game form's Gomoku settings: the board size, the rule, and the opening rule (the ones the size and rule allow, "none" first).

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { openingRules } from '../opening.js';
import { select, field } from '../form-select.js';

/**
 * The settings' part of the form, kept in `settings` (settings.js). `onChange(patch)` follows
 * each choice the player makes. Returns { element, render() }: render again when the form
 * changes, so that the opening rules follow the size and rule.
 */
export function createGomokuSetup({ settings, onChange }) {
  const change = (patch) => {
    settings.set(patch);
    onChange(patch);
  };
  const size = select({ 'data-testid': 'new-game-size' }, [11, 15, 19].map((n) => [n, `${n}×${n}`]), settings.get('size'), (v) => change({ size: Number(v) }));
  const rule = select({ 'data-testid': 'new-game-rule' }, ['freestyle', 'standard', 'renju'].map((r) => [r, t(`rule.${r}`), `rule.${r}`]), settings.get('rule'), (v) => change({ rule: v }));
  // Refilled by render() as the size and rule change.
  const openingRule = h('select', { 'data-testid': 'new-game-opening-rule', onchange: (ev) => change({ openingRule: ev.target.value }) });

  const element = h('div', { class: 'part' },
    h('div', { class: 'row' }, field('lobby.size', size, 'ng-size'), field('lobby.rule', rule, 'ng-rule')),
    field('lobby.openingRule', openingRule, 'ng-opening-rule'));

  function render() {
    const rules = openingRules({ kind: 'gomoku', size: settings.get('size'), rule: settings.get('rule') });
    if (!rules.includes(settings.get('openingRule'))) settings.set({ openingRule: 'none' });
    clear(openingRule);
    openingRule.append(h('option', { value: 'none', 'data-i18n': 'lobby.openingRuleNone' }, t('lobby.openingRuleNone')));
    for (const r of rules) openingRule.append(h('option', { value: r, 'data-i18n': `openingRule.${r}` }, t(`openingRule.${r}`)));
    openingRule.value = settings.get('openingRule');
  }

  return { element, render };
}
