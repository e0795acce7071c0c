// The moderation page's reports: the open reports, newest first (GET /api/moderation/reports with the page's token), each with when (local time), who reported, the kind, the reported player (a link to their page where the name is known), the room (a link to watch it), the reason and the note, its context — a chat report's lines around the reported one (marked, in words too), a game's players, status and move count — and its "Act" form (mod-act.js); a report an action closed leaves the list.

import { h, clear } from './dom.js';
import { t, gameLabel, getLang, dateTime } from './i18n.js';
import { routeUrl } from './route.js';
import * as api from './api.js';
import { readReports } from './report-data.js';
import { createActForm, actionWords } from './mod-act.js';

function timeOnly(ms) {
  if (ms == null) return '';
  try {
    return new Date(ms).toLocaleString(getLang() === 'zh' ? 'zh-CN' : 'en', { timeStyle: 'short' });
  } catch {
    return new Date(ms).toISOString();
  }
}

/**
 * The reports' panel. `app` gives net (its token), show(route, opts) and viewLink(route, attrs,
 * ...children); `announce(text, focus)` says an action's result (the focus to the page's status
 * line when the report left the list); `onActed()` after any action (the other lists changed);
 * `onAnswer(res)` with each answer of the list (a 403 is the page's to say). Returns { element, load(again), render() }.
 */
export function createReportsPanel({ app, announce, onActed, onAnswer }) {
  // null until asked; then the answer of api.moderationReports.
  let res = null;
  let askedWith = null;
  // Reports closed by an action here, left out of the list until it is read again.
  const closed = new Set();
  // Lines hidden here: `${report id}`, marked in the report's context.
  const hiddenLines = new Set();
  // Each report's Act form, kept across renders (what was typed stays).
  const forms = new Map();
  const heading = h('h2', { id: 'mod-reports-title', tabindex: '-1' });
  const count = h('span', { 'data-testid': 'moderation-count' });
  // One button for the page's life: asked again, the list it stood over is kept until the answer.
  const refresh = h('button', { type: 'button', class: 'block-btn', 'data-testid': 'btn-moderation-refresh', onclick: () => load(true) });
  const intro = h('p', { class: 'note' });
  const body = h('div', { class: 'mod-reports-body' });
  const element = h('section', { class: 'card mod-panel', 'data-testid': 'mod-reports', 'aria-labelledby': 'mod-reports-title' },
    h('div', { class: 'page-head' }, heading, refresh), intro, body);

  /** Asks the server for the list; `again`: the list on show stays until the answer. */
  function load(again = false) {
    const token = app.net.token;
    // A fresh guest has no token until the welcome: asked then.
    if (!token) return;
    askedWith = token;
    if (!again || !res?.ok) {
      res = null;
      render();
    }
    refresh.disabled = true;
    api.moderationReports(token).then((answer) => {
      if (askedWith !== token) return;
      res = answer;
      closed.clear();
      refresh.disabled = false;
      // The page says a refusal (403: not a moderator) for all its parts.
      onAnswer(answer);
      render();
    });
  }

  /** A room's link: it opens the room to watch (never to take a free seat). */
  function roomLink(room) {
    const route = { page: 'room', room };
    return h('a', {
      href: routeUrl(route, location.pathname), class: 'report-room', 'data-testid': 'report-room-link',
      onclick: (ev) => {
        if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
        ev.preventDefault();
        app.show(route, { as: 'spectator' });
      },
    }, room);
  }

  /** A player as the page can name them, and the id: the reported player's name a link to
   *  their page (a reporter's is only what their chat line said: it may be a guest's). */
  function who(person, testid, link) {
    if (!person.id) return h('span', { class: 'muted' }, t('mod.unknownName'));
    const id = h('span', { class: 'muted report-id' }, person.id);
    if (!person.name) return h('span', { 'data-testid': testid }, id);
    const name = link
      ? app.viewLink({ page: 'player', name: person.name }, { class: 'report-name' }, person.name)
      : h('span', { class: 'report-name' }, person.name);
    return h('span', { 'data-testid': testid }, name, ' ', id);
  }

  const fact = (key, ...value) => h('div', { class: 'report-fact' }, h('dt', {}, t(key)), h('dd', {}, ...value));

  function chatList(m) {
    if (!m.chat.length) return h('p', { class: 'note', 'data-testid': 'report-no-chat' }, t('mod.noChat'));
    const hidden = hiddenLines.has(m.id);
    return h('ol', { class: 'report-chat', 'data-testid': 'report-chat' }, m.chat.map((line) => h('li', {
      class: `report-chat-line${line.reported ? ' reported' : ''}`,
      'data-testid': line.reported ? 'report-chat-reported' : 'report-chat-line',
      'data-player': line.player,
    },
    line.reported ? h('span', { class: 'sr-only' }, t('mod.reportedLine'), ' ') : null,
    line.at != null ? h('time', { class: 'report-chat-time muted', datetime: new Date(line.at).toISOString() }, timeOnly(line.at)) : null,
    h('span', { class: 'chat-name' }, line.name ?? line.player),
    h('span', { class: 'chat-text' }, line.text),
    line.reported ? h('span', { class: 'report-badge', 'aria-hidden': hidden ? null : 'true', 'data-testid': hidden ? 'report-line-hidden' : null },
      t(hidden ? 'modx.lineHidden' : 'mod.reported')) : null)));
  }

  function gameFacts(m) {
    const g = m.game;
    const seat = (name) => name ?? t('mod.emptySeat');
    const status = g.status && ['waiting', 'playing', 'over'].includes(g.status) ? t(`mod.status.${g.status}`) : (g.status ?? '');
    return h('div', { class: 'report-game', 'data-testid': 'report-game' },
      h('h3', {}, t('mod.game')),
      h('p', {}, g.game ? `${gameLabel(g.game)} · ` : '', t('mod.players', { black: seat(g.black), white: seat(g.white) })),
      h('p', { 'data-testid': 'report-game-line', 'data-moves': String(g.moves ?? '') },
        t('mod.gameLine', { status, n: g.moves ?? 0 })));
  }

  /** The report's Act form, made once. */
  function actForm(m) {
    let f = forms.get(m.id);
    if (!f) {
      f = createActForm({
        app, id: m.id, report: m,
        onDone: ({ body }) => {
          const words = t(body.report ? 'modx.doneClosed' : 'modx.done', {
            action: actionWords(body.action, body.minutes), name: m.player.name ?? m.player.id ?? '',
          });
          if (body.action === 'hide_chat') hiddenLines.add(m.id);
          if (body.report) {
            closed.add(m.id);
            forms.delete(m.id);
          }
          render();
          announce(words, !!body.report);
          onActed();
        },
      });
      forms.set(m.id, f);
    } else f.draw();
    return f.element;
  }

  function item(m) {
    const titleId = `report-${m.id}-title`;
    const name = m.player.name ?? m.player.id ?? t('mod.unknownName');
    const kindKey = ['player', 'game', 'chat'].includes(m.kind) ? m.kind : null;
    const reason = m.reason ? t(`rep.reason.${m.reason}`) : '';
    const article = h('article', { 'aria-labelledby': titleId },
      h('h2', { id: titleId, 'data-testid': 'report-title' }, kindKey ? t(`mod.head.${kindKey}`, { name }) : name),
      h('dl', { class: 'report-facts' },
        fact('mod.when', m.at != null ? h('time', { datetime: new Date(m.at).toISOString(), 'data-testid': 'report-when' }, dateTime(m.at)) : ''),
        fact('mod.reporter', who(m.reporter, 'report-reporter', false)),
        fact('mod.kind', h('span', { 'data-testid': 'report-kind' }, kindKey ? t(`mod.kind.${kindKey}`) : m.kind)),
        fact('mod.player', who(m.player, 'report-player', true)),
        m.room ? fact('mod.room', roomLink(m.room)) : null,
        fact('mod.reason', h('span', { 'data-testid': 'report-reason' }, reason)),
        fact('mod.note', m.note ? h('span', { class: 'report-note-text', 'data-testid': 'report-note' }, m.note) : h('span', { class: 'muted' }, t('mod.noNote')))),
      m.game ? gameFacts(m) : null,
      m.room ? h('div', { class: 'report-context' },
        h('h3', {}, t(m.kind === 'chat' ? 'mod.chatAround' : 'mod.chatLast')),
        chatList(m)) : null,
      // No player to act on (a malformed report): nothing to offer.
      m.player.id ? h('div', { class: 'report-act', 'data-testid': 'report-act' }, h('h3', {}, t('modx.act')), actForm(m)) : null);
    return h('li', { class: 'card report-item', 'data-testid': 'report-item', 'data-report': m.id, 'data-kind': m.kind }, article);
  }

  function render() {
    const refocus = document.activeElement === refresh;
    heading.textContent = t('mod.title');
    refresh.textContent = t('mod.refresh');
    intro.textContent = '';
    clear(body);
    if (!res) {
      body.append(h('p', { class: 'note', 'data-testid': 'moderation-loading' }, t('lb.loading')));
      return;
    }
    if (!res.ok) {
      // 403 (not a moderator) is the page's to say, for all its parts; anything else here.
      if (res.status !== 403) body.append(h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'moderation-reports-error', 'data-status': String(res.status) }, res.error));
      return;
    }
    const reports = readReports(res.data).filter((m) => !closed.has(m.id));
    count.textContent = t('mod.count', { n: reports.length });
    intro.append(t('mod.intro'), ' ', count);
    if (!reports.length) {
      body.append(h('p', { class: 'note', 'data-testid': 'moderation-none' }, t('mod.none')));
      return;
    }
    body.append(h('ol', { class: 'report-list', 'data-testid': 'report-list', 'aria-label': t('mod.title') }, reports.map(item)));
    if (refocus) refresh.focus();
  }

  render();
  return { element, heading, load, render };
}
