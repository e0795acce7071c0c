// Account form (`/?account=register` and `/?account=signin`): a name and a password posted as JSON to the server; registering claims a name for this browser's player, signing in makes this browser that account's player. The password goes only into the request: never stored, logged or put in an address.

import { h } from './dom.js';
import { t } from './i18n.js';
import * as api from './api.js';

/** Mounts the form of `mode` ('signin' | 'register') in `root`. `app` gives net, show(route),
 *  viewLink(route, attrs, ...children), signedIn(answer), registered(answer), isAccount(). */
export function mountAccount(root, app, { mode }) {
  const register = mode === 'register';
  // Letters and digits of any language, `_` and `-` (the server also refuses a mix of
  // look-alike scripts, and says so).
  const nameInput = h('input', {
    type: 'text', id: 'account-name', name: 'username', required: true, maxlength: register ? 20 : 64,
    minlength: register ? 3 : null, pattern: register ? '[\\p{L}\\p{N}_\\-]{3,20}' : null,
    autocomplete: 'username', autocapitalize: 'none', spellcheck: 'false',
    'aria-describedby': register ? 'account-name-hint' : null, 'data-testid': 'account-name',
  });
  const passwordInput = h('input', {
    type: 'password', id: 'account-password', name: 'password', required: true,
    minlength: register ? 8 : null, maxlength: 128,
    autocomplete: register ? 'new-password' : 'current-password',
    'aria-describedby': register ? 'account-password-hint' : null, 'data-testid': 'account-password',
  });
  const errorBox = h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'account-form-error', hidden: true });
  const submitKey = register ? 'account.registerSubmit' : 'account.signInSubmit';
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'btn-account-submit', 'data-i18n': submitKey }, t(submitKey));
  // method=post: should the page's script ever not catch the submit, the browser posts the
  // fields instead of putting the password in the address.
  const form = h('form', { class: 'account-form', method: 'post', 'data-testid': 'account-form', 'data-mode': mode, novalidate: null },
    h('div', { class: 'field' },
      h('label', { for: 'account-name', 'data-i18n': 'account.name' }, t('account.name')),
      nameInput,
      register ? h('span', { class: 'note', id: 'account-name-hint', 'data-i18n': 'account.nameHint' }, t('account.nameHint')) : null),
    h('div', { class: 'field' },
      h('label', { for: 'account-password', 'data-i18n': 'account.password' }, t('account.password')),
      passwordInput,
      register ? h('span', { class: 'note', id: 'account-password-hint', 'data-i18n': 'account.passwordHint' }, t('account.passwordHint')) : null),
    errorBox,
    h('div', { class: 'row' }, submit));

  let busy = false;
  let gone = false;

  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = false;
  }

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    if (busy) return;
    const accountName = nameInput.value.trim();
    const password = passwordInput.value;
    if (!accountName || !password) {
      showError(t('account.fillBoth'));
      return;
    }
    errorBox.hidden = true;
    busy = true;
    submit.disabled = true;
    form.setAttribute('aria-busy', 'true');
    let res;
    if (register) {
      // The account is claimed for the player this browser is: its token says which.
      if (!app.net.token) res = { ok: false, error: t('net.notSent') };
      else res = await api.register(app.net.token, accountName, password);
    } else {
      res = await api.signIn(accountName, password);
    }
    busy = false;
    if (gone) return;
    submit.disabled = false;
    form.removeAttribute('aria-busy');
    if (!res.ok || !res.data) {
      showError(res.error || t('api.failed', { status: res.status }));
      passwordInput.focus();
      return;
    }
    passwordInput.value = '';
    if (register) app.registered(res.data);
    else if (typeof res.data.token === 'string' && res.data.token) app.signedIn(res.data);
    else {
      showError(t('api.failed', { status: res.status }));
      return;
    }
    app.show({ page: 'lobby' });
  });

  const other = register ? 'signin' : 'register';
  // Keys named in full, so the i18n test finds them: the title, the intro, the other form.
  const titleKey = register ? 'account.registerTitle' : 'account.signInTitle';
  const introKey = register ? 'account.registerIntro' : 'account.signInIntro';
  const otherKey = register ? 'account.haveAccount' : 'account.needAccount';
  root.append(h('div', { class: 'account-page' },
    h('section', { class: 'card account-card', 'data-testid': 'account-page', 'data-mode': mode },
      h('h1', { 'data-i18n': titleKey }, t(titleKey)),
      h('p', { class: 'note', 'data-i18n': introKey }, t(introKey)),
      app.isAccount() ? h('p', { class: 'note', 'data-testid': 'account-already' }, t('account.already', { name: app.getName() })) : null,
      form,
      h('p', { class: 'note' },
        app.viewLink({ page: 'account', mode: other }, { 'data-testid': `link-account-${other}`, 'data-i18n': otherKey }, t(otherKey)),
        ' · ',
        app.viewLink({ page: 'lobby' }, { 'data-testid': 'link-account-lobby', 'data-i18n': 'account.backToLobby' }, t('account.backToLobby'))))));
  nameInput.focus();

  return {
    onReady() {},
    onMessage: () => false,
    unmount() {
      gone = true;
      passwordInput.value = '';
    },
  };
}
