// The moderation page's two lists: "Muted and banned" (GET /api/moderation/sanctions: each sanction's player, kind, until when in local time or "for good", reason, by whom and since when, with "Lift" asking for a reason first) and the "Audit log" (GET /api/moderation/log: when, moderator, action, player, reason, until, detail), each read with the page's token when first shown and again after an action or on Refresh.

import { h, clear } from './dom.js';
import { t, dateTime } from './i18n.js';
import * as api from './api.js';
import { ACTIONS, readSanctions, readLog, actionBody, REASON_MAX } from './moderation-data.js';

const fact = (key, ...value) => h('div', { class: 'report-fact' }, h('dt', {}, t(key)), h('dd', {}, ...value));
/** Who took an action: a moderator's name (or id), or the hall itself (`hall`: an automatic mute). */
const byWords = (by) => (by.id === 'hall' && !by.name ? t('modx.hall') : by.name ?? by.id ?? '');
const time = (ms, testid) => (ms == null ? h('span', { 'data-testid': testid }, t('modx.forGood'))
  : h('time', { datetime: new Date(ms).toISOString(), 'data-testid': testid, 'data-ms': String(ms) }, dateTime(ms)));

/**
 * One list's panel: a heading, an intro, Refresh, and the list read by `read(token)` and drawn
 * by `row(entry)`. Returns { element, heading, load(), stale(), render() }.
 */
function listPanel({ app, testid, title, intro, none, read, parse, row }) {
  let res = null;
  let loaded = false;
  let askedWith = null;
  const heading = h('h2', { id: `${testid}-title`, tabindex: '-1' });
  const refresh = h('button', { type: 'button', class: 'block-btn', 'data-testid': `btn-${testid}-refresh`, onclick: () => load() });
  const body = h('div', {});
  const element = h('section', { class: 'card mod-panel', 'data-testid': testid, 'aria-labelledby': `${testid}-title` },
    h('div', { class: 'page-head' }, heading, refresh), body);

  function load() {
    const token = app.net.token;
    if (!token) return;
    loaded = true;
    askedWith = token;
    refresh.disabled = true;
    api[read](token).then((answer) => {
      if (askedWith !== token) return;
      res = answer;
      refresh.disabled = false;
      render();
    });
  }

  function render() {
    heading.textContent = t(title);
    refresh.textContent = t('mod.refresh');
    clear(body);
    if (!res) {
      body.append(h('p', { class: 'note' }, t('lb.loading')));
      return;
    }
    if (!res.ok) {
      body.append(h('p', { class: 'error-msg', role: 'alert', 'data-testid': `${testid}-error` }, res.error));
      return;
    }
    const rows = parse(res.data);
    body.append(h('p', { class: 'note' }, t(intro)));
    if (!rows.length) {
      body.append(h('p', { class: 'note', 'data-testid': `${testid}-none` }, t(none)));
      return;
    }
    body.append(h('ul', { class: 'mod-list', 'data-testid': `${testid}-list`, 'aria-labelledby': `${testid}-title` }, rows.map(row)));
  }

  render();
  return {
    element,
    heading,
    /** Read when first shown. */
    show() {
      if (!loaded) load();
    },
    load,
    /** Something changed: read again now if it was read, else when shown. */
    stale() {
      if (loaded) load();
    },
    render,
  };
}

/** A player as the lists name them: the name (a link to their page) and the id, or the id. */
function person(app, p, testid) {
  if (!p.name) return h('span', { 'data-testid': testid }, p.id ?? t('mod.unknownName'));
  return h('span', { 'data-testid': testid },
    app.viewLink({ page: 'player', name: p.name }, {}, p.name), ' ', h('span', { class: 'muted report-id' }, p.id ?? ''));
}

/**
 * The "Muted and banned" panel. `announce(text)` says a lift; `onLifted()` after one (the log
 * changed). Returns the panel (listPanel's).
 */
export function createSanctionsPanel({ app, announce, onLifted }) {
  // The sanction whose "Lift" asks its reason now: `${player}|${kind}`, and the reason typed.
  let lifting = null;
  let typed = '';
  let liftError = null;

  function liftForm(s, key) {
    const inputId = `lift-${key.replace(/[^\w-]/g, '_')}`;
    const input = h('input', {
      type: 'text', id: inputId, 'data-testid': 'lift-reason', maxlength: REASON_MAX, autocomplete: 'off', value: typed,
      oninput: () => { typed = input.value; },
    });
    const error = h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'lift-error', hidden: !liftError }, liftError ?? '');
    const confirm = h('button', { type: 'submit', class: 'primary', 'data-testid': 'btn-lift-confirm' }, t('modx.lift'));
    const form = h('form', { class: 'act-form lift-form', 'data-testid': 'lift-form', novalidate: true },
      h('div', { class: 'field' }, h('label', { for: inputId }, t('modx.liftReason')), input),
      error,
      h('div', { class: 'act-buttons' }, confirm,
        h('button', { type: 'button', 'data-testid': 'btn-lift-cancel', onclick: () => { lifting = null; liftError = null; panel.render(); focusLift(key); } }, t('modx.cancel'))));
    form.addEventListener('submit', async (ev) => {
      ev.preventDefault();
      const made = actionBody({ action: 'lift', player: s.player.id, kind: s.kind, reason: input.value });
      if (made.error) {
        liftError = t(made.error, { max: REASON_MAX });
        panel.render();
        document.getElementById(inputId)?.focus();
        return;
      }
      confirm.disabled = true;
      const res = await api.moderationAction(app.net.token, made.body);
      confirm.disabled = false;
      if (!res.ok) {
        liftError = res.error;
        panel.render();
        document.getElementById(inputId)?.focus();
        return;
      }
      lifting = null;
      liftError = null;
      typed = '';
      announce(t('modx.lifted', { kind: t(`modx.kind.${s.kind}`), name: s.player.name ?? s.player.id }));
      panel.heading.focus();
      panel.load();
      onLifted();
    });
    return form;
  }

  function focusLift(key) {
    panel.element.querySelector(`[data-key="${CSS.escape(key)}"] [data-testid="btn-lift"]`)?.focus();
  }

  function row(s) {
    const key = `${s.player.id}|${s.kind}`;
    const name = s.player.name ?? s.player.id;
    const li = h('li', { class: 'mod-item', 'data-testid': 'sanction', 'data-player': s.player.id, 'data-kind': s.kind, 'data-key': key },
      h('dl', { class: 'report-facts' },
        fact('modx.player', person(app, s.player, 'sanction-player')),
        fact('modx.kind', h('span', { 'data-testid': 'sanction-kind' }, t(`modx.kind.${s.kind}`))),
        fact('modx.until', time(s.until, 'sanction-until')),
        fact('mod.reason', h('span', { 'data-testid': 'sanction-reason' }, s.reason)),
        fact('modx.by', h('span', { 'data-testid': 'sanction-by' }, byWords(s.by))),
        fact('modx.since', s.at != null ? time(s.at, 'sanction-at') : '')));
    if (lifting === key) li.append(liftForm(s, key));
    else {
      li.append(h('button', {
        type: 'button', class: 'block-btn', 'data-testid': 'btn-lift', 'aria-label': t('modx.liftAria', { kind: t(`modx.kind.${s.kind}`), name }),
        onclick: () => {
          lifting = key;
          liftError = null;
          typed = '';
          panel.render();
          panel.element.querySelector('[data-testid="lift-reason"]')?.focus();
        },
      }, t('modx.lift')));
    }
    return li;
  }

  const panel = listPanel({
    app, testid: 'mod-sanctions', title: 'modx.tab.sanctions', intro: 'modx.sanctionsIntro', none: 'modx.sanctionsNone',
    read: 'moderationSanctions', parse: readSanctions, row,
  });
  return panel;
}

/** The "Audit log" panel (listPanel's). */
export function createLogPanel({ app }) {
  function row(e) {
    const words = ACTIONS.includes(e.action) ? t(`modx.action.${e.action}`) : e.action;
    const lasting = ['mute', 'rated_ban', 'ban'].includes(e.action);
    // A lift names the sanction it ended; a rename the new name; a hidden line its words.
    const detail = e.action === 'lift' && e.detail ? t(`modx.kind.${e.detail}`) : e.detail;
    return h('li', { class: 'mod-item', 'data-testid': 'log-entry', 'data-action': e.action, 'data-id': e.id },
      h('dl', { class: 'report-facts' },
        fact('modx.when', e.at != null ? time(e.at, 'log-when') : ''),
        fact('modx.moderator', h('span', { 'data-testid': 'log-moderator' }, byWords(e.by))),
        fact('modx.action', h('span', { 'data-testid': 'log-action' }, words)),
        fact('modx.player', person(app, e.player, 'log-player')),
        fact('mod.reason', h('span', { 'data-testid': 'log-reason' }, e.reason)),
        lasting ? fact('modx.until', time(e.until, 'log-until')) : null,
        detail ? fact('modx.detail', h('span', { 'data-testid': 'log-detail' }, detail)) : null,
        e.room ? fact('modx.room', h('span', { 'data-testid': 'log-room' }, e.room)) : null));
  }
  return listPanel({
    app, testid: 'mod-log', title: 'modx.tab.log', intro: 'modx.logIntro', none: 'modx.logNone',
    read: 'moderationLog', parse: readLog, row,
  });
}
