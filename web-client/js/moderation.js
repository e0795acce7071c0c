// The moderators' page (`/?moderation`): the open reports, newest first (GET /api/moderation/reports with the page's token; "Only moderators see this page" for anyone else), each with when (local time), who reported, the kind, the reported player (a link to their page where the name is known), the room (a link to watch it), the reason and the note, and its context — a chat report's lines around the reported one (marked, in words too), a game's players, status and move count.

import { h, clear } from './dom.js';
import { t, gameLabel, getLang } from './i18n.js';
import { routeUrl } from './route.js';
import * as api from './api.js';
import { readReports } from './report-data.js';

const locale = () => (getLang() === 'zh' ? 'zh-CN' : 'en');

function when(ms, opts) {
  if (ms == null) return '';
  try {
    return new Date(ms).toLocaleString(locale(), opts);
  } catch {
    return new Date(ms).toISOString();
  }
}

const dateTime = (ms) => when(ms, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = (ms) => when(ms, { timeStyle: 'short' });

/** Mounts the moderators' page in `root`. `app` gives net (its token), show(route, opts) and
 *  viewLink(route, attrs, ...children). */
export function mountModeration(root, app) {
  // null until asked; then the answer of api.moderationReports.
  let res = null;
  let askedWith = null;
  let gone = false;
  const page = h('div', { class: 'page moderation-page', 'data-testid': 'moderation-page' });
  // One button for the page's life: asked again, the list it stood over is kept until the answer.
  const refresh = h('button', { type: 'button', class: 'block-btn', 'data-testid': 'btn-moderation-refresh', onclick: () => load(true) });

  /** Asks the server for the list; `again`: the list on show stays until the answer. */
  function load(again = false) {
    const token = app.net.token;
    // A fresh guest has no token until the welcome: asked then (onReady).
    if (!token) return;
    askedWith = token;
    if (!again || !res?.ok) {
      res = null;
      render();
    }
    refresh.disabled = true;
    api.moderationReports(token).then((answer) => {
      if (gone || askedWith !== token) return;
      res = answer;
      refresh.disabled = false;
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
    return h('ol', { class: 'report-chat', 'data-testid': 'report-chat' }, m.chat.map((line) => h('li', {
      class: `report-chat-line${line.reported ? ' reported' : ''}`,
      'data-testid': line.reported ? 'report-chat-reported' : 'report-chat-line',
      'data-player': line.player,
    },
    line.reported ? h('span', { class: 'sr-only' }, t('mod.reportedLine'), ' ') : null,
    line.at != null ? h('time', { class: 'report-chat-time muted', datetime: new Date(line.at).toISOString() }, timeOnly(line.at)) : null,
    h('span', { class: 'chat-name' }, line.name ?? line.player),
    h('span', { class: 'chat-text' }, line.text),
    line.reported ? h('span', { class: 'report-badge', 'aria-hidden': 'true' }, t('mod.reported')) : null)));
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
        chatList(m)) : null);
    return h('li', { class: 'card report-item', 'data-testid': 'report-item', 'data-report': m.id, 'data-kind': m.kind }, article);
  }

  function render() {
    const refocus = document.activeElement === refresh;
    clear(page);
    const back = app.viewLink({ page: 'lobby' }, { class: 'back-link', 'data-testid': 'btn-page-lobby' }, t('room.back'));
    refresh.textContent = t('mod.refresh');
    const head = h('section', { class: 'card' },
      h('div', { class: 'page-head' }, h('h1', { 'data-testid': 'moderation-title' }, t('mod.title')), back));
    page.append(head);
    if (!res) {
      head.append(h('p', { class: 'note', 'data-testid': 'moderation-loading' }, t('lb.loading')));
      return;
    }
    if (!res.ok) {
      // 403: not a moderator — said in the page's words; anything else in the server's.
      const text = res.status === 403 ? t('mod.forbidden') : res.error;
      head.append(h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'moderation-error', 'data-status': String(res.status) }, text));
      return;
    }
    const reports = readReports(res.data);
    head.append(h('p', { class: 'note' }, t('mod.intro'), ' ', h('span', { 'data-testid': 'moderation-count' }, t('mod.count', { n: reports.length }))), refresh);
    if (!reports.length) {
      head.append(h('p', { class: 'note', 'data-testid': 'moderation-none' }, t('mod.none')));
      return;
    }
    page.append(h('ol', { class: 'report-list', 'data-testid': 'report-list', 'aria-label': t('mod.title') }, reports.map(item)));
    if (refocus) refresh.focus();
  }

  root.append(page);
  render();
  load();

  return {
    // The welcome brings a fresh guest's token, or a signed-in account's new one.
    onReady() {
      if (app.net.token !== askedWith) load();
    },
    onMessage: () => false,
    onLang: render,
    unmount() {
      gone = true;
    },
  };
}
