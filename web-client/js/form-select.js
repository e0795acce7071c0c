// The forms' selects: a select of options, some of them in labelled groups (the clocks: live ones, then correspondence ones), a labelled field around a control, and the clock choices the lobby's form and the challenge dialog offer.

import { h } from './dom.js';
import { t, clockLabel } from './i18n.js';
import { clockFromKey } from './record.js';
import { CORR_CLOCKS, VACATION_DAYS } from './corr-data.js';

/**
 * Appends `options` to the select `el`: each [value, label, i18nKey] (the key re-translates the
 * option with the page), or { group, params, options } for an <optgroup> whose label is the
 * string `group` (with `params`; `relabelGroups` translates it again). The option of `value` is
 * selected.
 */
export function appendOptions(el, options, value) {
  for (const o of options) {
    if (Array.isArray(o)) {
      const [v, label, i18nKey] = o;
      const opt = h('option', { value: v, 'data-i18n': i18nKey || null }, label);
      if (value != null && String(v) === String(value)) opt.selected = true;
      el.append(opt);
      continue;
    }
    const group = h('optgroup', { label: t(o.group, o.params), 'data-label-key': o.group, 'data-label-params': JSON.stringify(o.params || {}) });
    appendOptions(group, o.options, value);
    el.append(group);
  }
  return el;
}

/** A select of `options` (see appendOptions) with `value` chosen; `onchange(value)`. */
export function select(attrs, options, value, onchange) {
  return appendOptions(h('select', { ...attrs, onchange: (ev) => onchange(ev.target.value) }), options, value);
}

/** `control` labelled by the string `labelKey`, under the id `id`. */
export function field(labelKey, control, id) {
  control.id = id;
  return h('div', { class: 'field' }, h('label', { for: id, 'data-i18n': labelKey }, t(labelKey)), control);
}

/** Translates the group labels of a select again (the page's language changed). */
export function relabelGroups(el) {
  for (const g of el.querySelectorAll('optgroup[data-label-key]')) {
    g.label = t(g.dataset.labelKey, JSON.parse(g.dataset.labelParams || '{}'));
  }
}

/** The clock choices of a form: the live clocks `live` (keys of record.js's clockKey), then
 *  the correspondence ones (days per move, with the vacation days said in their group). */
export function clockOptions(live) {
  return [
    { group: 'clock.groupLive', options: live.map((k) => [k, clockLabel(clockFromKey(k))]) },
    { group: 'clock.groupCorr', params: { n: VACATION_DAYS }, options: CORR_CLOCKS.map((k) => [k, clockLabel(clockFromKey(k))]) },
  ];
}
