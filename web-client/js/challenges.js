// Challenges on every page: the "Challenge" button beside a person or a bot (player page, leaderboard, a room's seats — never beside the bot playing in that room) and its dialog; the panel of open challenges at the window's corner — ours ("Challenge sent to Bob — waiting", Withdraw; a refusal's reason) and those to us (Accept, Decline with a reason) — each said to screen readers; an accepted challenge's room opened on both sides, a bot's room (made at once, the bot invited at the level asked) opened like a room just created.

import { h, clear } from './dom.js';
import { t } from './i18n.js';
import {
  ChallengeBook, canChallenge, challengeMessage, describeChallenge, termsWords, DECLINE_REASONS,
} from './challenge-data.js';
import { createChallengeDialog } from './challenge-dialog.js';

/** How long the note of a challenge to us that closed unanswered stays ("Ann withdrew …"). */
const GONE_NOTE_MS = 10_000;

/**
 * Builds the challenges' panel after `anchor` (before the page's main part, so the keyboard
 * reaches it early) and the dialog. `app` gives net, go(room, opts), getName(), isAccount().
 * Returns { button(person), onMessage(msg) (true when the message was the challenges' alone),
 * onStatus(status), onLang() }.
 */
export function createChallenges(app, { anchor }) {
  const book = new ChallengeBook();
  const timers = new Map();
  const list = h('ul', { class: 'challenge-list', 'data-testid': 'challenge-list' });
  const panel = h('aside', { class: 'challenges', 'data-testid': 'challenges', 'aria-label': t('ch.panel'), 'data-i18n-aria': 'ch.panel', hidden: true }, list);
  // Always in the page, so that screen readers hear each line put in it.
  const live = h('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite', 'data-testid': 'challenge-live' });
  const dialog = createChallengeDialog({ app, onSend: send });
  anchor.after(panel, live);
  document.body.append(dialog.element);

  const me = () => ({ player: app.net.player, name: app.getName() });

  function send(person, form) {
    // By id where the page knows it: a guest is found by id only, an account by either.
    const msg = challengeMessage(person.player || person.name, form, { meAccount: app.isAccount(), theirAccount: person.account ?? null }, { bot: !!person.bot });
    if (!app.net.send(msg)) return false;
    book.sent(msg, person.name);
    render();
    return true;
  }

  let announceTimer = 0;
  /** Says `text` in the live region (emptied first, so that the same line is heard again). */
  function announce(text) {
    live.textContent = '';
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => { live.textContent = text; }, 60);
  }

  /** After a button's item went from the list: the focus to the next item's first button, else
   *  back to the page, never lost on the body. */
  function refocus() {
    const next = list.querySelector('button');
    if (next) next.focus();
    else document.getElementById('app')?.focus({ preventScroll: true });
  }

  function act(fn) {
    return () => {
      fn();
      render();
      refocus();
    };
  }

  const dismissButton = (item) => h('button', { type: 'button', 'data-testid': 'btn-challenge-dismiss', onclick: act(() => book.dismiss(item.key)) }, t('ch.dismiss'));

  function incomingItem(c) {
    const textId = `challenge-text-${c.key}`;
    const li = h('li', { class: `challenge-item incoming ${c.status}`, 'data-testid': 'challenge-in', 'data-key': c.key, 'data-status': c.status },
      h('p', { class: 'challenge-text', id: textId, 'data-testid': 'challenge-text' }, describeChallenge(c)));
    if (c.status === 'open') {
      const reasonId = `challenge-reason-${c.key}`;
      // The reason picked is kept on the item: another challenge arriving redraws the list.
      const reason = h('select', { id: reasonId, 'data-testid': 'challenge-reason', onchange: (ev) => { c.reason = ev.target.value; } },
        DECLINE_REASONS.map((r) => h('option', { value: r }, t(`ch.reason.${r}`))));
      reason.value = c.reason || 'generic';
      li.append(h('div', { class: 'challenge-actions' },
        h('button', {
          type: 'button', class: 'primary', 'data-testid': 'btn-challenge-accept', 'aria-describedby': textId,
          onclick: () => reply(c, true),
        }, t('ch.accept')),
        h('span', { class: 'challenge-decline' },
          h('label', { for: reasonId }, t('ch.reason')), reason,
          h('button', {
            type: 'button', 'data-testid': 'btn-challenge-decline', 'aria-describedby': textId,
            onclick: act(() => send1(book.reply(c.key, false, reason.value))),
          }, t('ch.decline')))));
    } else if (c.status === 'accepting') {
      li.append(h('p', { class: 'note', 'data-testid': 'challenge-note' }, t('ch.accepting')));
    } else {
      li.append(h('p', { class: 'challenge-note', 'data-testid': 'challenge-note' }, c.note), dismissButton(c));
    }
    return li;
  }

  function outgoingItem(o) {
    const li = h('li', { class: `challenge-item outgoing ${o.status}`, 'data-testid': 'challenge-out', 'data-key': o.key, 'data-to': o.name, 'data-status': o.status });
    const terms = h('p', { class: 'note', 'data-testid': 'challenge-terms' }, termsWords(o, { mine: true }));
    if (o.bot && o.status === 'sending') {
      // No answer to wait for: the room is on its way, nothing to withdraw.
      li.append(
        h('p', { class: 'challenge-text', 'data-testid': 'challenge-text' },
          h('span', { class: 'spinner', 'aria-hidden': 'true' }), ' ', t('ch.out.bot', { name: o.name })),
        terms);
    } else if (o.status === 'sending' || o.status === 'waiting') {
      li.append(
        h('p', { class: 'challenge-text', 'data-testid': 'challenge-text' },
          h('span', { class: 'spinner', 'aria-hidden': 'true' }), ' ',
          t(o.status === 'waiting' ? 'ch.out.waiting' : 'ch.out.sending', { name: o.name })),
        terms,
        h('div', { class: 'challenge-actions' },
          h('button', { type: 'button', 'data-testid': 'btn-challenge-withdraw', onclick: act(() => send1(book.withdraw(o.key))) }, t('ch.withdraw'))));
    } else {
      li.append(h('p', { class: 'challenge-note', 'data-testid': 'challenge-note' }, o.note), terms, dismissButton(o));
    }
    return li;
  }

  /** Sends a message the book made (none when it made none). */
  function send1(msg) {
    if (msg) app.net.send(msg);
  }

  function reply(c, accept) {
    const msg = book.reply(c.key, accept);
    if (msg && !app.net.send(msg)) {
      // Not connected: the challenge is still open, the buttons back.
      c.status = 'open';
      announce(t('net.notSent'));
    }
    render();
    list.querySelector(`li[data-key="${c.key}"] button`)?.focus();
  }

  /** A closed challenge to us goes by itself after a while; anything else waits for its OK. */
  function scheduleGone() {
    for (const c of book.incoming) {
      if (c.status !== 'gone' || timers.has(c.key)) continue;
      timers.set(c.key, setTimeout(() => {
        timers.delete(c.key);
        book.dismiss(c.key);
        render();
      }, GONE_NOTE_MS));
    }
  }

  function render() {
    // A button that had the focus and is drawn again keeps it.
    const focused = list.contains(document.activeElement) ? document.activeElement.dataset.testid : null;
    const focusedItem = focused ? document.activeElement.closest('li')?.dataset.key : null;
    clear(list);
    for (const c of book.incoming) list.append(incomingItem(c));
    for (const o of book.outgoing) list.append(outgoingItem(o));
    panel.hidden = !list.children.length;
    scheduleGone();
    if (focused) {
      const li = focusedItem ? list.querySelector(`li[data-key="${focusedItem}"]`) : null;
      li?.querySelector(`[data-testid="${focused}"]`)?.focus();
    }
  }

  return {
    /** A "Challenge" button for `person` ({ name, player, bot, account }: a person or a bot), or
     *  null for ourselves. */
    button(person, attrs = {}) {
      if (!canChallenge(person, me())) return null;
      const name = String(person.name);
      return h('button', {
        type: 'button', class: 'challenge-btn', 'data-testid': 'btn-challenge', 'data-name': name,
        'aria-label': t('ch.buttonAria', { name }), ...attrs, onclick: () => dialog.open(person),
      }, t('ch.button'));
    },
    onMessage(msg) {
      const res = book.onMessage(msg);
      if (res.changed) render();
      if (res.announce) announce(res.announce);
      if (res.go) app.go(res.go.room, { fresh: true, as: 'player', clockSpec: res.go.clock });
      return res.handled;
    },
    onStatus(status) {
      // The server withdraws a challenge whose challenger's connection closed.
      if (status !== 'online' && book.connectionLost()) render();
    },
    onLang() {
      render();
      dialog.onLang();
    },
  };
}
