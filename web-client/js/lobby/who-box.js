// The lobby's "who are you" card: a guest names itself and is told what an account adds; an account's name is its own and links to its page. Both lines link the leaderboard and the tournaments.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';

/** The guest's name form: saved with `app.setName`, a note says so (or that it is blank). */
function nameForm(app) {
  const input = h('input', { id: 'name-input', type: 'text', maxlength: app.net.nameMax, autocomplete: 'nickname', 'data-testid': 'name-input', value: app.getName() });
  const note = h('span', { class: 'note', 'aria-live': 'polite', 'data-testid': 'name-note' });
  const element = h('form', { class: 'name-form' },
    h('label', { for: 'name-input', 'data-i18n': 'lobby.name' }, t('lobby.name')),
    input,
    h('button', { type: 'submit', 'data-testid': 'btn-save-name', 'data-i18n': 'lobby.nameSave' }, t('lobby.nameSave')),
    note);
  element.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const name = input.value.trim();
    if (!name) {
      note.textContent = t('lobby.nameBlank');
      input.focus();
      return;
    }
    app.setName(name);
    note.textContent = t('lobby.nameSaved');
  });
  return { element, input };
}

/**
 * The card (`app`: viewLink, getName, setName, isAccount, net.nameMax). Returns { element,
 * render() }: render again once the welcome says whether we are an account (and how long a
 * name the server takes), and with the language.
 */
export function createWhoBox(app) {
  const form = nameForm(app);
  const box = h('div', { class: 'who-box' });

  function render() {
    form.input.maxLength = app.net.nameMax;
    clear(box);
    const board = app.viewLink({ page: 'leaderboard', key: 'gomoku-freestyle', bots: false },
      { class: 'leaderboard-link', 'data-testid': 'link-leaderboard', 'data-i18n': 'lobby.leaderboard' }, t('lobby.leaderboard'));
    const tournaments = app.viewLink({ page: 'tournaments' },
      { class: 'tournaments-link', 'data-testid': 'link-tournaments', 'data-i18n': 'tour.link' }, t('tour.link'));
    if (app.isAccount()) {
      box.append(h('p', { class: 'signed-in', 'data-testid': 'lobby-signed-in' },
        t('lobby.signedInAs'), ' ',
        app.viewLink({ page: 'player', name: app.getName() }, { class: 'who', 'data-testid': 'lobby-my-page' }, app.getName())),
      h('p', { class: 'note' }, board, ' · ', tournaments));
      return;
    }
    form.input.value = app.getName();
    box.append(form.element, h('p', { class: 'note account-hint' },
      app.viewLink({ page: 'account', mode: 'register' }, { 'data-testid': 'lobby-link-register' }, t('account.register')),
      ' / ',
      app.viewLink({ page: 'account', mode: 'signin' }, { 'data-testid': 'lobby-link-signin' }, t('account.signIn')),
      ' ', t('lobby.accountWhy'), ' · ', board, ' · ', tournaments));
  }

  render();
  return { element: h('section', { class: 'card' }, box), render };
}
