// What a moderator's action tells its player, on every page: each `sanction` message as a notice at the top of the page (an alert: "A moderator muted you until Dec 6, 2026, 5:00 AM: spam"), kept in view while the page scrolls until dismissed; and a hello the server refused (a ban, a closed account) said in the server's own sentence with "Try again", instead of reconnecting in a loop.

import { h, clear } from './dom.js';
import { t, dateTime } from './i18n.js';
import { sanctionNotice } from './moderation-data.js';

/** At most this many notices at once: the oldest go first. */
const MAX_NOTICES = 3;

/**
 * Builds the notices' region after `anchor` (the offline banner). `app` gives net. Returns {
 * onMessage(msg) (true for a `sanction`), onStatus(status), onLang() }.
 */
export function createNotices(app, { anchor }) {
  const region = h('div', { class: 'mod-notices', 'data-testid': 'mod-notices', role: 'region', 'aria-label': t('modn.region'), hidden: true });
  anchor.after(region);
  // The notices on show: { id, notice (sanctionNotice's), el }.
  let notices = [];
  let counter = 0;
  // The sanctions this page was told of and not told lifted: a lift that names none is theirs
  // when there is one.
  const told = new Set();
  let refused = null;

  const words = (n) => t(n.key, { until: dateTime(n.until), reason: n.reason });

  function refocus() {
    const next = region.querySelector('button');
    if (next) next.focus();
    else document.getElementById('app')?.focus({ preventScroll: true });
  }

  function dismiss(id) {
    notices = notices.filter((n) => n.id !== id);
    render();
    refocus();
  }

  function noticeEl(n) {
    const textId = `mod-notice-${n.id}`;
    // An alert: said as it comes, whatever the reader was on.
    return h('div', { class: 'mod-notice', role: 'alert', 'data-testid': 'mod-notice', 'data-action': n.action, 'data-key': n.notice.key },
      h('p', { id: textId, 'data-testid': 'mod-notice-text' }, words(n.notice)),
      h('button', {
        type: 'button', 'data-testid': 'btn-mod-notice-dismiss', 'aria-label': t('modn.dismissAria'), 'aria-describedby': textId,
        onclick: () => dismiss(n.id),
      }, t('modn.dismiss')));
  }

  function refusedEl() {
    return h('div', { class: 'mod-notice refused', role: 'alert', 'data-testid': 'refused-notice' },
      h('p', {},
        h('strong', { class: 'refused-title' }, t('modn.refusedTitle')),
        ' ',
        h('span', { 'data-testid': 'refused-text' }, refused.message || t('err.sanctioned'))),
      h('button', { type: 'button', 'data-testid': 'btn-refused-retry', onclick: () => app.net.reconnectNow({ force: true }) }, t('modn.retry')));
  }

  function render() {
    clear(region);
    if (refused) region.append(refusedEl());
    for (const n of notices) region.append(n.el ?? (n.el = noticeEl(n)));
    region.hidden = !refused && !notices.length;
  }

  function add(msg) {
    const notice = sanctionNotice(msg, told.size === 1 ? [...told][0] : null);
    if (notice.lifted) {
      // What was lifted no longer stands: its notice goes with it.
      if (notice.kind) {
        told.delete(notice.kind);
        notices = notices.filter((n) => n.notice.kind !== notice.kind || n.notice.lifted);
      }
    } else if (notice.kind) {
      told.add(notice.kind);
      notices = notices.filter((n) => n.notice.kind !== notice.kind);
    }
    notices.push({ id: ++counter, action: String(msg.action ?? ''), notice });
    while (notices.length > MAX_NOTICES) notices.shift();
    render();
  }

  return {
    onMessage(msg) {
      if (msg?.t !== 'sanction') return false;
      add(msg);
      return true;
    },
    onStatus(status) {
      const next = status === 'refused' ? app.net.refusal : null;
      if (next === refused) return;
      refused = next;
      render();
    },
    onLang() {
      region.setAttribute('aria-label', t('modn.region'));
      for (const n of notices) n.el = null;
      render();
    },
  };
}
