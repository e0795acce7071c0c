// The analysis board's choice of game: a tab for each of the five rated boards and "Another board" (Gomoku 5×5 to 26×26 with its rule, Connect Four 4 to 12 columns and rows, Othello), each opening an empty analysis of that board.

import { h, clear } from '../dom.js';
import { t, gameLabel } from '../i18n.js';
import { VARIANT_TABS, GOMOKU_RULES, GOMOKU_SIZE, CONNECT4_SIZE, parseVariant, variantOf } from './variant.js';

const range = ({ min, max }) => Array.from({ length: max - min + 1 }, (_, i) => min + i);

/** The picker: `app` gives viewLink and show. Returns { element, render(game) }. */
export function createBoardPicker({ app }) {
  const tabs = h('nav', { class: 'tabs', 'aria-label': t('lb.keys'), 'data-i18n-aria': 'lb.keys' });
  const summary = h('summary', { 'data-testid': 'analysis-other' });
  const form = h('div', { class: 'an-row an-other-form' });
  const details = h('details', { class: 'more-options an-other' }, summary, form);
  const element = h('div', { class: 'an-picker' }, tabs, details);
  let spec = null;

  function select(id, labelKey, options, value, onChange) {
    const el = h('select', { id, 'data-testid': id }, options.map(([v, text]) => h('option', { value: v }, text)));
    el.value = String(value);
    el.addEventListener('change', () => onChange(el.value));
    return h('span', { class: 'field' }, h('label', { for: id }, t(labelKey)), el);
  }

  function renderForm() {
    clear(form);
    form.append(select('analysis-other-kind', 'lobby.game', ['gomoku', 'othello', 'connect4'].map((k) => [k, t(`game.${k}`)]), spec.kind, (v) => {
      spec = parseVariant(v === 'gomoku' ? 'gomoku-freestyle' : v);
      renderForm();
    }));
    if (spec.kind === 'gomoku') {
      form.append(
        select('analysis-other-size', 'lobby.size', range(GOMOKU_SIZE).map((n) => [n, `${n}×${n}`]), spec.size, (v) => { spec.size = Number(v); }),
        select('analysis-other-rule', 'lobby.rule', GOMOKU_RULES.map((r) => [r, t(`rule.${r}`)]), spec.rule, (v) => { spec.rule = v; }));
    } else if (spec.kind === 'connect4') {
      const sizes = range(CONNECT4_SIZE).map((n) => [n, String(n)]);
      form.append(
        select('analysis-other-cols', 'lobby.cols', sizes, spec.cols, (v) => { spec.cols = Number(v); }),
        select('analysis-other-rows', 'lobby.rows', sizes, spec.rows, (v) => { spec.rows = Number(v); }));
    }
    form.append(h('button', {
      type: 'button', class: 'primary', 'data-testid': 'analysis-other-open',
      onclick: () => app.show({ page: 'analysis', variant: variantOf({ ...spec, blocked: [] }), setup: '', tree: '', at: 0 }),
    }, t('analysis.open')));
  }

  function render(game) {
    const variant = variantOf(game);
    clear(tabs);
    for (const key of VARIANT_TABS) {
      tabs.append(app.viewLink({ page: 'analysis', variant: key, setup: '', tree: '', at: 0 }, {
        class: `tab${key === variant ? ' active' : ''}`, 'data-testid': `analysis-tab-${key}`, 'aria-current': key === variant ? 'page' : null,
      }, t(`ratingKey.${key}`)));
    }
    summary.textContent = VARIANT_TABS.includes(variant) ? t('analysis.other') : `${t('analysis.other')}: ${gameLabel(game)}`;
    spec = { ...game, blocked: [] };
    renderForm();
  }

  return { element, render };
}
