// The "Challenge Bob" dialog: the game (Gomoku's board, rule and opening rule, or Connect Four's board), the clock (live, or days per move), the challenger's colour and, where it can be, rated; to a bot, the level it plays at (10 and fixed in a rated game) and a word that the game starts at once; the choices are remembered for the next challenge. A modal dialog: the keyboard stays inside, Escape cancels, the focus goes back.

import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { appendOptions, clockOptions } from './form-select.js';
import { clockFromKey } from './record.js';
import { makeModal } from './modal.js';
import { openingRules } from './opening.js';
import {
  LIVE_CLOCKS, COLORS, GAME_KINDS, GOMOKU_SIZES, GOMOKU_RULES, C4_SIZES, BOT_LEVELS,
  normalForm, ratedBlocked, termsWords, challengeGame, botLevel,
} from './challenge-data.js';

const FORM_KEY = 'kibitz.challenge';

function loadForm() {
  try {
    return normalForm(JSON.parse(localStorage.getItem(FORM_KEY) || 'null'));
  } catch {
    return normalForm(null);
  }
}

function saveForm(form) {
  try {
    localStorage.setItem(FORM_KEY, JSON.stringify(form));
  } catch {
    // storage disabled: the next dialog starts from the defaults
  }
}

/** A labelled select of [value, text] options (or groups of them: form-select.js). */
function selectField(id, labelKey, options, onchange) {
  const control = appendOptions(h('select', { id, 'data-testid': id, onchange: (ev) => onchange(ev.target.value) }), options);
  const field = h('div', { class: 'field' }, h('label', { for: id }, t(labelKey)), control);
  return { field, control };
}

/**
 * Builds the dialog (closed). `app` gives isAccount(); `onSend(person, form)` sends the challenge
 * and says whether it went. Returns { element, open(person), isOpen() }; `person` is
 * { name, player, bot, account } (`account` false when known not to be one).
 */
export function createChallengeDialog({ app, onSend }) {
  let person = null;
  let form = loadForm();

  const title = h('h2', { class: 'over-title', id: 'challenge-title', 'data-testid': 'challenge-title' });
  const fields = h('div', { class: 'challenge-fields' });
  const summary = h('p', { class: 'note challenge-summary', id: 'challenge-summary', 'data-testid': 'challenge-summary' });
  const errorLine = h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'challenge-dialog-error', hidden: true });
  const sendBtn = h('button', { type: 'submit', class: 'primary', 'data-testid': 'btn-challenge-send' });
  const cancelBtn = h('button', { type: 'button', 'data-testid': 'btn-challenge-dialog-cancel', onclick: () => modal.close() });
  const formEl = h('form', { class: 'challenge-form' }, fields, summary, errorLine, h('div', { class: 'over-buttons' }, sendBtn, cancelBtn));
  const element = h('dialog', {
    class: 'over-dialog challenge-dialog', 'data-testid': 'challenge-dialog', 'aria-modal': 'true',
    'aria-labelledby': 'challenge-title', 'aria-describedby': 'challenge-summary',
  }, title, formEl);
  const modal = makeModal(element);

  formEl.addEventListener('submit', (ev) => {
    ev.preventDefault();
    saveForm(form);
    if (!onSend(person, form)) {
      errorLine.textContent = t('ch.notSent');
      errorLine.hidden = false;
      return;
    }
    modal.close();
  });

  const accounts = () => ({ meAccount: app.isAccount(), theirAccount: person?.account ?? null });

  function change(key, value) {
    form = normalForm({ ...form, [key]: value });
    render();
    saveForm(form);
  }

  /** Draws the fields for the form as it is (a change of game shows that game's own fields). */
  function render() {
    const focusedId = element.contains(document.activeElement) ? document.activeElement.id : null;
    clear(fields);
    const name = String(person?.name ?? '');
    const bot = !!person?.bot;
    title.textContent = t('ch.dialogTitle', { name });
    sendBtn.textContent = t(bot ? 'ch.sendBot' : 'ch.send');
    if (bot) fields.append(h('p', { class: 'note', 'data-testid': 'challenge-bot-intro' }, t('ch.botIntro', { name })));
    cancelBtn.textContent = t('ch.cancel');
    const kind = selectField('challenge-kind', 'lobby.game', GAME_KINDS.map((k) => [k, t(`game.${k}`)]), (v) => change('kind', v));
    kind.control.value = form.kind;
    fields.append(kind.field);
    if (form.kind === 'gomoku') {
      const size = selectField('challenge-size', 'lobby.size', GOMOKU_SIZES.map((n) => [n, `${n}×${n}`]), (v) => change('size', Number(v)));
      const rule = selectField('challenge-rule', 'lobby.rule', GOMOKU_RULES.map((r) => [r, t(`rule.${r}`)]), (v) => change('rule', v));
      const rules = openingRules({ kind: 'gomoku', size: form.size, rule: form.rule });
      const opening = selectField('challenge-opening-rule', 'lobby.openingRule',
        [['none', t('lobby.openingRuleNone')], ...rules.map((r) => [r, t(`openingRule.${r}`)])], (v) => change('openingRule', v));
      size.control.value = String(form.size);
      rule.control.value = form.rule;
      opening.control.value = form.openingRule;
      fields.append(h('div', { class: 'row' }, size.field, rule.field), opening.field);
    } else if (form.kind === 'connect4') {
      const cols = selectField('challenge-cols', 'lobby.cols', C4_SIZES.map((n) => [n, String(n)]), (v) => change('cols', Number(v)));
      const rows = selectField('challenge-rows', 'lobby.rows', C4_SIZES.map((n) => [n, String(n)]), (v) => change('rows', Number(v)));
      cols.control.value = String(form.cols);
      rows.control.value = String(form.rows);
      fields.append(h('div', { class: 'row' }, cols.field, rows.field));
    }
    const clock = selectField('challenge-clock', 'lobby.clock', clockOptions(LIVE_CLOCKS), (v) => change('clock', v));
    const color = selectField('challenge-color', 'ch.color', COLORS.map((c) => [c, t(`lobby.seat.${c}`)]), (v) => change('color', v));
    clock.control.value = form.clock;
    color.control.value = form.color;
    fields.append(h('div', { class: 'row' }, clock.field, color.field));

    // Rated where both can be (as far as the page knows: the server has the last word).
    const why = ratedBlocked(form, accounts());
    if (bot) {
      // A bot's level: 10, and not to be changed, in a rated game.
      const ratedOn = !why && form.rated;
      const level = selectField('challenge-level', 'ch.level', BOT_LEVELS.map((n) => [n, String(n)]), (v) => change('level', Number(v)));
      level.control.value = String(botLevel(form, ratedOn));
      level.control.disabled = ratedOn;
      level.control.setAttribute('aria-describedby', 'challenge-level-why');
      level.field.append(h('span', { class: 'note', id: 'challenge-level-why', 'data-testid': 'challenge-level-why' }, t(ratedOn ? 'ch.levelRated' : 'ch.levelNote')));
      fields.append(level.field);
    }
    const rated = h('input', {
      type: 'checkbox', id: 'challenge-rated', 'data-testid': 'challenge-rated', 'aria-describedby': 'challenge-rated-why',
      checked: !why && form.rated, disabled: !!why, onchange: (ev) => change('rated', ev.target.checked),
    });
    fields.append(h('div', { class: 'rated-field' },
      h('label', { class: 'check', for: 'challenge-rated' }, rated, h('span', {}, t('lobby.rated'))),
      h('span', { class: 'note', id: 'challenge-rated-why', 'data-testid': 'challenge-rated-why' }, t(why || (bot ? 'ch.ratedNoteBot' : 'ch.ratedNote'), { name }))));

    summary.textContent = termsWords(sendable(), { mine: true });
    if (focusedId) element.querySelector(`#${focusedId}`)?.focus();
  }

  /** The terms as they would be sent (rated only where it may be). */
  function sendable() {
    const rated = !ratedBlocked(form, accounts()) && form.rated;
    const level = person?.bot ? botLevel(form, rated) : null;
    return { game: challengeGame(form), clock: clockFromKey(form.clock), color: form.color, rated, level };
  }

  return {
    element,
    /** Opens the dialog for `who`, with the last challenge's choices. */
    open(who) {
      person = who;
      form = loadForm();
      errorLine.hidden = true;
      render();
      modal.open(fields.querySelector('select'));
    },
    /** Redraws in the page's language (open or not). */
    onLang: () => { if (person) render(); },
    isOpen: modal.isOpen,
  };
}
