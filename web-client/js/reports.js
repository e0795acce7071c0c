// Reports: the "Report" button on another player's page and the report dialog that it, a room's chat line ("Report this line by Bob") and a room's "Report game" open — a reason in words, an optional note (at most 500 characters, counted), Send — posted to /api/reports with the page's token (a guest's too); the server's answer said in the dialog: thanks, or its own sentence.

import { h } from './dom.js';
import { t } from './i18n.js';
import { makeModal } from './modal.js';
import * as api from './api.js';
import { REPORT_REASONS, NOTE_MAX, canReport, reportBody } from './report-data.js';

/**
 * Builds the dialog (in the body, closed). `app` gives net (its token and player). Returns
 * { button(person), openChat(line), openGame(game), onLang() }: `button` is the player page's
 * "Report" (the same element on each render, so the focus stays), the others open the dialog
 * for a chat line ({ room, player, name, text }) or a game ({ room, player, name }: the
 * opponent).
 */
export function createReports(app) {
  // What the open dialog reports: { kind, player, name, room, text }.
  let target = null;
  let busy = false;
  // Counts the dialog's openings: an answer to an earlier one is not this one's.
  let opening = 0;
  const buttons = new Map();

  const title = h('h2', { class: 'over-title', id: 'report-title', 'data-testid': 'report-title' });
  const intro = h('p', { class: 'note report-intro', id: 'report-intro', 'data-testid': 'report-intro' });
  const quote = h('blockquote', { class: 'report-quote', 'data-testid': 'report-quote', hidden: true });
  const reason = h('select', { id: 'report-reason', 'data-testid': 'report-reason' });
  const reasonLabel = h('label', { for: 'report-reason' });
  const note = h('textarea', {
    id: 'report-note', class: 'report-note', 'data-testid': 'report-note', rows: 3, maxlength: NOTE_MAX,
    'aria-describedby': 'report-count', oninput: drawCount,
  });
  const noteLabel = h('label', { for: 'report-note' });
  const count = h('span', { class: 'note report-count', id: 'report-count', 'data-testid': 'report-count' });
  const errorLine = h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'report-error', hidden: true });
  const sendBtn = h('button', { type: 'submit', class: 'primary', 'data-testid': 'btn-report-send' });
  const cancelBtn = h('button', { type: 'button', 'data-testid': 'btn-report-cancel', onclick: () => modal.close() });
  const formEl = h('form', { class: 'report-form', 'data-testid': 'report-form' },
    h('div', { class: 'challenge-fields' },
      h('div', { class: 'field' }, reasonLabel, reason),
      h('div', { class: 'field' }, noteLabel, note, count)),
    errorLine,
    h('div', { class: 'over-buttons' }, sendBtn, cancelBtn));
  // Empty until the server takes the report: then it says so (a live region already there).
  const thanks = h('p', { class: 'report-thanks', role: 'status', 'data-testid': 'report-thanks' });
  const closeBtn = h('button', { type: 'button', class: 'primary', 'data-testid': 'btn-report-close', onclick: () => modal.close() });
  const done = h('div', { class: 'over-buttons', hidden: true }, closeBtn);
  const element = h('dialog', {
    class: 'over-dialog challenge-dialog report-dialog', 'data-testid': 'report-dialog', 'aria-modal': 'true',
    'aria-labelledby': 'report-title', 'aria-describedby': 'report-intro',
  }, title, intro, quote, formEl, thanks, done);
  const modal = makeModal(element);
  document.body.append(element);

  formEl.addEventListener('submit', (ev) => {
    ev.preventDefault();
    send();
  });

  function drawCount() {
    count.textContent = t('rep.count', { n: note.value.length, max: NOTE_MAX });
  }

  function showError(text) {
    errorLine.textContent = text;
    errorLine.hidden = false;
  }

  /** Draws the dialog's words for `target` (again on a change of language). */
  function draw() {
    if (!target) return;
    const name = target.name || t('mod.unknownName');
    title.textContent = t(target.kind === 'chat' ? 'rep.titleChat' : target.kind === 'game' ? 'rep.titleGame' : 'rep.titlePlayer', { name });
    intro.textContent = t('rep.intro', { name });
    quote.hidden = target.kind !== 'chat';
    quote.textContent = target.kind === 'chat' ? t('rep.quoted', { text: target.text }) : '';
    reasonLabel.textContent = t('rep.reason');
    const chosen = reason.value;
    reason.replaceChildren(h('option', { value: '' }, t('rep.choose')),
      ...REPORT_REASONS.map((r) => h('option', { value: r }, t(`rep.reason.${r}`))));
    reason.value = chosen;
    noteLabel.textContent = t('rep.note');
    drawCount();
    sendBtn.textContent = t('rep.send');
    cancelBtn.textContent = t('rep.cancel');
    closeBtn.textContent = t('rep.close');
    if (thanks.textContent) thanks.textContent = t('rep.thanks');
  }

  function open(next) {
    opening++;
    target = next;
    busy = false;
    reason.value = '';
    note.value = '';
    errorLine.hidden = true;
    formEl.hidden = false;
    done.hidden = true;
    thanks.textContent = '';
    sendBtn.disabled = false;
    element.removeAttribute('aria-busy');
    draw();
    modal.open(reason);
  }

  async function send() {
    if (busy || !target) return;
    errorLine.hidden = true;
    const made = reportBody(target, { reason: reason.value, note: note.value });
    if (made.error) {
      showError(t(made.error, { max: NOTE_MAX }));
      (made.error === 'rep.pickReason' ? reason : made.error === 'rep.noteTooLong' ? note : cancelBtn).focus();
      return;
    }
    busy = true;
    sendBtn.disabled = true;
    element.setAttribute('aria-busy', 'true');
    const sent = opening;
    const res = await api.report(app.net.token, made.body);
    if (sent !== opening) return;
    busy = false;
    sendBtn.disabled = false;
    element.removeAttribute('aria-busy');
    if (!modal.isOpen()) return;
    if (!res.ok) {
      // The server's own sentence: a line no longer in the chat, too many reports, …
      showError(res.error);
      sendBtn.focus();
      return;
    }
    formEl.hidden = true;
    done.hidden = false;
    thanks.textContent = t('rep.thanks');
    closeBtn.focus();
  }

  function drawButton(b) {
    const name = String(b.person.name ?? '');
    b.el.textContent = t('rep.report');
    b.el.setAttribute('aria-label', t('rep.reportAria', { name }));
  }

  return {
    /** The "Report" button for `person` ({ name, player, bot }), or null where there is none
     *  to offer (ourselves, a bot, no id, or we are not known yet). */
    button(person) {
      if (!canReport(person, { player: app.net.player })) return null;
      let b = buttons.get(person.player);
      if (!b) {
        b = { person, el: null };
        b.el = h('button', {
          type: 'button', class: 'block-btn report-btn', 'data-testid': 'btn-report',
          onclick: () => open({ kind: 'player', player: b.person.player, name: String(b.person.name ?? '') }),
        });
        buttons.set(person.player, b);
      }
      b.person = person;
      drawButton(b);
      return b.el;
    },
    /** Whether a line of `player` (a chat message's `from`, `bot`) may be reported here. */
    canReportLine: (line) => canReport({ player: line?.from, bot: !!line?.bot }, { player: app.net.player }),
    /** Opens the dialog for the chat line `line` ({ room, player, name, text }). */
    openChat: (line) => open({ kind: 'chat', room: line.room, player: line.player, name: line.name, text: line.text }),
    /** Opens the dialog for the game in `room` against `player` (named `name`). */
    openGame: ({ room, player, name }) => open({ kind: 'game', room, player, name }),
    /** Redraws in the page's language. */
    onLang() {
      draw();
      for (const b of buttons.values()) drawButton(b);
    },
  };
}
