// A moderator's "Act" form: on a report (the reported player, a chat report's line to hide, the report closed with the action unless unticked) or on a player named by hand — the action, its length where it lasts (mute: 10 minutes to for good; a ban from rated games or a ban: a day, a week, for good), the sanction to lift, a new name, the reason the player will read — posted to /api/moderation/actions with the page's token; a refusal in the server's sentence beside the button.

import { h } from './dom.js';
import { t } from './i18n.js';
import * as api from './api.js';
import {
  PLAYER_ACTIONS, SANCTION_KINDS, REASON_MAX, reportActions, durationsFor, durationKey, durationValue, durationFromValue, actionBody,
} from './moderation-data.js';

/** "Mute (1 hour)", "Warn": an action in words, with its length where it has one. */
export function actionWords(action, minutes) {
  const name = t(`modx.action.${action}`);
  if (!durationsFor(action).length) return name;
  return t('modx.withLength', { action: name, length: t(`modx.dur.${durationKey(minutes ?? null)}`) });
}

/**
 * Builds one form. `id` makes its fields' ids unique on the page; `report` (a report-data.js
 * model) acts on that report, else the form names its player. `onDone({ body, data })` once
 * the server took the action. Returns { element, draw() } (draw: again in the page's
 * language, what was typed kept).
 */
export function createActForm({ app, id, report = null, onDone }) {
  const actions = report ? reportActions(report.kind) : PLAYER_ACTIONS;
  const fid = (name) => `act-${id}-${name}`;
  let busy = false;

  const field = (name, control, extra = {}) => {
    const label = h('label', { for: fid(name) });
    const box = h('div', { class: `field act-${name}`, ...extra }, label, control);
    return { box, label, control };
  };
  const action = field('action', h('select', { id: fid('action'), 'data-testid': 'act-action', onchange: changed }));
  const duration = field('duration', h('select', { id: fid('duration'), 'data-testid': 'act-duration' }));
  const kind = field('kind', h('select', { id: fid('kind'), 'data-testid': 'act-kind' }));
  const newName = field('name', h('input', { type: 'text', id: fid('name'), 'data-testid': 'act-name', maxlength: 32, autocomplete: 'off' }));
  const player = report ? null : field('player', h('input', { type: 'text', id: fid('player'), 'data-testid': 'act-player', autocomplete: 'off' }));
  const reason = field('reason', h('input', { type: 'text', id: fid('reason'), 'data-testid': 'act-reason', maxlength: REASON_MAX, autocomplete: 'off' }));
  // A report answered by the action is closed with it: not for hiding a line, which leaves the
  // player to be dealt with.
  const closeBox = h('input', { type: 'checkbox', id: fid('close'), 'data-testid': 'act-close-report' });
  const closeLabel = h('label', { for: fid('close') });
  const closeRow = report ? h('div', { class: 'act-check' }, closeBox, closeLabel) : null;
  const error = h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'act-error', hidden: true });
  const apply = h('button', { type: 'submit', class: 'primary', 'data-testid': 'btn-act-apply' });
  const element = h('form', { class: 'act-form', 'data-testid': report ? 'act-form' : 'act-player-form', novalidate: true },
    h('div', { class: 'act-fields' }, player?.box, action.box, duration.box, kind.box, newName.box, reason.box),
    closeRow, error, h('div', { class: 'act-buttons' }, apply));
  element.addEventListener('submit', (ev) => {
    ev.preventDefault();
    send();
  });

  // The reason the player will read, from the report's own at first (editable).
  if (report?.reason) reason.control.value = t(`rep.reason.${report.reason}`);

  /** Shows the fields the chosen action takes. */
  function changed() {
    const a = action.control.value;
    const lengths = durationsFor(a);
    const chosen = duration.control.value;
    duration.control.replaceChildren(...lengths.map((m) => h('option', { value: durationValue(m) }, t(`modx.dur.${durationKey(m)}`))));
    if (lengths.some((m) => durationValue(m) === chosen)) duration.control.value = chosen;
    duration.box.hidden = !lengths.length;
    kind.box.hidden = a !== 'lift';
    newName.box.hidden = a !== 'rename';
    if (closeRow) closeBox.checked = a !== 'hide_chat';
  }

  function draw() {
    const chosen = action.control.value || actions[0];
    action.label.textContent = t('modx.action');
    action.control.replaceChildren(...actions.map((a) => h('option', { value: a }, t(`modx.action.${a}`))));
    action.control.value = chosen;
    duration.label.textContent = t('modx.duration');
    kind.label.textContent = t('modx.liftKind');
    const k = kind.control.value;
    kind.control.replaceChildren(...SANCTION_KINDS.map((s) => h('option', { value: s }, t(`modx.kind.${s}`))));
    if (k) kind.control.value = k;
    newName.label.textContent = t('modx.newName');
    if (player) player.label.textContent = t('modx.playerName');
    reason.label.textContent = t('modx.reason');
    closeLabel.textContent = t('modx.closeReport');
    apply.textContent = t('modx.apply');
    const close = closeBox.checked;
    changed();
    if (drawn) closeBox.checked = close;
    drawn = true;
  }
  let drawn = false;

  function showError(text, focus) {
    error.textContent = text;
    error.hidden = false;
    focus?.focus();
  }

  async function send() {
    if (busy) return;
    error.hidden = true;
    const a = action.control.value;
    const form = {
      action: a,
      player: report ? report.player.id : player.control.value,
      reason: reason.control.value,
      minutes: durationFromValue(duration.control.value),
      kind: kind.control.value,
      name: newName.control.value,
      report: report && closeBox.checked ? report.id : null,
    };
    if (a === 'hide_chat' && report) {
      const line = report.chat[report.reportedLine];
      form.room = report.room;
      form.text = line?.text ?? '';
    }
    const made = actionBody(form);
    if (made.error) {
      const focus = { 'modx.err.reason': reason, 'modx.err.reasonLong': reason, 'modx.err.name': newName, 'modx.err.player': player }[made.error];
      showError(t(made.error, { max: REASON_MAX }), focus?.control ?? apply);
      return;
    }
    busy = true;
    apply.disabled = true;
    element.setAttribute('aria-busy', 'true');
    const res = await api.moderationAction(app.net.token, made.body);
    busy = false;
    apply.disabled = false;
    element.removeAttribute('aria-busy');
    if (!res.ok) {
      // The server's own sentence: an unknown player, a name taken, not a moderator any more, …
      showError(res.error, apply);
      return;
    }
    onDone({ body: made.body, data: res.data });
  }

  draw();
  return { element, draw };
}
