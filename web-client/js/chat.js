// Room chat: the players' chat and the spectators' chat in two tabs; every name and line is rendered as text; another person's line has small "Report this line by Bob" and "Block Bob" buttons (shown on hover or focus, always on a touch screen); a line a moderator hid says so; the setting "Chat in my games: everyone / players only / nobody" (kept in this browser) hides other people's lines, ours always shown.

import { t } from './i18n.js';
import { h, s } from './dom.js';
import { CHAT_FILTERS, chatShown, readChatFilter } from './moderation-data.js';

const FILTER_KEY = 'kibitz.chatFilter';

function loadFilter() {
  try {
    return readChatFilter(localStorage.getItem(FILTER_KEY));
  } catch {
    return 'everyone';
  }
}

function saveFilter(value) {
  try {
    localStorage.setItem(FILTER_KEY, value);
  } catch {
    // storage disabled: the setting lasts for this page only
  }
}

const MAX_LINES = 300;

/**
 * Builds the chat panel inside `root`. `onSend(text)` returns true when the line went out.
 * Lines with a seat are the players' chat (everyone sees them); lines without one come from
 * spectators and go to the spectators' tab, which only spectators receive. `report` (optional)
 * is { can(msg), open(msg) }: whether a line may be reported, and its dialog; `block`
 * (optional) { can(msg), open(msg, done) }: whether its player may be blocked here, and the
 * question (`done(blocked)` once answered).
 */
export function createChat(root, { onSend, me, report = null, block = null }) {
  const tabs = {};
  const lists = {};
  const panels = {};
  const unread = { game: 0, spectators: 0 };
  let active = 'game';

  const tabBar = h('div', { class: 'chat-tabs', role: 'tablist' });
  for (const key of ['game', 'spectators']) {
    const badge = h('span', { class: 'badge', hidden: true });
    const tab = h(
      'button',
      {
        type: 'button',
        role: 'tab',
        class: 'chat-tab',
        id: `chat-tab-${key}`,
        'data-testid': `chat-tab-${key}`,
        'aria-controls': `chat-panel-${key}`,
        onclick: () => select(key),
      },
      h('span', { 'data-i18n': `chat.tab.${key}` }, t(`chat.tab.${key}`)),
      badge,
    );
    tab.badge = badge;
    tabs[key] = tab;
    tabBar.append(tab);
    lists[key] = h('ol', {
      class: `chat-list chat-${key}`,
      'aria-live': 'polite',
      'data-testid': key === 'game' ? 'chat-list' : 'chat-list-spectators',
    });
    // The tab's panel is a plain box around the list (a list may not be a tab panel).
    panels[key] = h('div', { class: 'chat-panel', id: `chat-panel-${key}`, role: 'tabpanel', 'aria-labelledby': `chat-tab-${key}` }, lists[key]);
  }

  const input = h('input', {
    type: 'text',
    maxlength: 140,
    autocomplete: 'off',
    class: 'chat-input',
    'data-testid': 'chat-input',
    'data-i18n-placeholder': 'chat.placeholder',
    'data-i18n-aria': 'chat.input',
    placeholder: t('chat.placeholder'),
    'aria-label': t('chat.input'),
  });
  const send = h('button', { type: 'submit', 'data-testid': 'btn-chat-send', 'data-i18n': 'chat.send' }, t('chat.send'));
  const form = h('form', { class: 'chat-form' }, input, send);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (onSend(text)) input.value = '';
  });

  // "Chat in my games": whose lines this page shows (ours always).
  let filter = loadFilter();
  const filterSelect = h('select', {
    id: 'chat-filter', 'data-testid': 'chat-filter',
    onchange: () => {
      filter = readChatFilter(filterSelect.value);
      saveFilter(filter);
      applyFilter();
    },
  });
  const filterLabel = h('label', { for: 'chat-filter' });
  const filterNote = h('p', { class: 'note chat-filtered', 'data-testid': 'chat-filtered', hidden: true });
  const filterRow = h('div', { class: 'chat-setting' }, filterLabel, filterSelect);

  root.append(h('h2', { class: 'panel-title', 'data-i18n': 'chat.title' }, t('chat.title')), tabBar, panels.game, panels.spectators, filterNote, form, filterRow);
  drawFilter();

  function drawFilter() {
    filterLabel.textContent = t('chat.filter');
    filterSelect.replaceChildren(...CHAT_FILTERS.map((f) => h('option', { value: f }, t(`chat.filter.${f}`))));
    filterSelect.value = filter;
    filterNote.textContent = filter === 'nobody' ? t('chat.filteredNobody') : filter === 'players' ? t('chat.filteredPlayers') : '';
    // Only where it hides something: a seated player never receives a spectator's line.
    filterNote.hidden = filter === 'everyone' || (filter === 'players' && tabs.spectators.hidden);
  }

  /** Shows or hides every person's line by the setting. */
  function applyFilter() {
    for (const list of Object.values(lists)) {
      for (const li of list.children) if (li.chatLine) li.hidden = !chatShown(filter, li.chatLine, me());
    }
    drawFilter();
  }

  function select(key) {
    active = key;
    for (const k of Object.keys(tabs)) {
      tabs[k].setAttribute('aria-selected', String(k === key));
      tabs[k].classList.toggle('active', k === key);
      panels[k].hidden = k !== key;
    }
    unread[key] = 0;
    tabs[key].badge.hidden = true;
    lists[key].scrollTop = lists[key].scrollHeight;
  }
  select('game');

  function addLine(key, node) {
    const list = lists[key];
    const stick = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    list.append(node);
    while (list.childElementCount > MAX_LINES) list.firstElementChild.remove();
    if (stick || panels[key].hidden) list.scrollTop = list.scrollHeight;
    if (key !== active && !node.hidden) {
      unread[key]++;
      tabs[key].badge.textContent = String(unread[key]);
      tabs[key].badge.hidden = false;
    }
  }

  /** The line's report button: a small flag (drawn in SVG), named for screen readers. */
  function reportButton(msg) {
    const label = t('rep.lineAria', { name: String(msg.name ?? '?') });
    return h('button', {
      type: 'button', class: 'chat-report', 'data-testid': 'btn-report-line', 'aria-label': label, title: label,
      onclick: () => report.open(msg),
    }, s('svg', { viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true', focusable: 'false' },
      s('path', { d: 'M3 1.5v13M3 2.5h9l-2 3 2 3H3', fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6, 'stroke-linejoin': 'round' })));
  }

  /** The line's block button: a small circle struck through, named for screen readers. Once
   *  the player is blocked, no line of theirs offers it again (the focus to the chat box). */
  function blockButton(msg) {
    const label = t('blocks.blockAria', { name: String(msg.name ?? '?') });
    return h('button', {
      type: 'button', class: 'chat-report chat-block', 'data-testid': 'btn-block-line', 'aria-label': label, title: label,
      onclick: () => block.open(msg, (blocked) => {
        if (!blocked) return;
        for (const list of Object.values(lists)) {
          for (const li of list.children) if (li.chatLine?.from === msg.from) li.querySelector('.chat-block')?.remove();
        }
        input.focus();
      }),
    }, s('svg', { viewBox: '0 0 16 16', width: 14, height: 14, 'aria-hidden': 'true', focusable: 'false' },
      s('circle', { cx: 8, cy: 8, r: 6, fill: 'none', stroke: 'currentColor', 'stroke-width': 1.6 }),
      s('path', { d: 'M3.8 12.2l8.4-8.4', stroke: 'currentColor', 'stroke-width': 1.6 })));
  }

  return {
    /** A `chat` message from the server. */
    add(msg) {
      const key = msg.seat ? 'game' : 'spectators';
      const classes = ['chat-line'];
      if (msg.bot) classes.push('bot');
      if (msg.from && msg.from === me()) classes.push('mine');
      if (msg.seat) classes.push(`seat-${msg.seat}`);
      const who = h('span', { class: 'chat-name' }, String(msg.name ?? '?'));
      const line = h('li', { class: classes.join(' '), 'data-player': msg.from || null });
      line.append(who);
      // What the setting and a moderator's hiding look at: the line as the server sent it.
      line.chatLine = { from: String(msg.from ?? ''), seat: msg.seat || null, text: String(msg.text ?? '') };
      if (msg.bot) line.append(h('span', { class: 'bot-badge', 'data-i18n': 'player.bot' }, t('player.bot')));
      line.append(h('span', { class: 'chat-text' }, String(msg.text ?? '')));
      if (report?.can(msg) && typeof msg.text === 'string' && msg.text) line.append(reportButton(msg));
      if (block?.can(msg)) line.append(blockButton(msg));
      line.hidden = !chatShown(filter, line.chatLine, me());
      addLine(key, line);
    },
    /** A moderator hid `player`'s line `text` (`chat_hidden`): it says so instead, its buttons
     *  gone. */
    hide(player, text) {
      for (const list of Object.values(lists)) {
        for (const li of list.children) {
          const c = li.chatLine;
          if (!c || c.from !== player || c.text !== text || li.dataset.hidden) continue;
          li.dataset.hidden = 'true';
          li.classList.add('hidden-line');
          for (const b of li.querySelectorAll('button')) b.remove();
          const words = li.querySelector('.chat-text');
          words.textContent = t('chat.hiddenLine');
          words.className = 'chat-hidden';
        }
      }
    },
    /** Redraws the setting's words in the page's language. */
    onLang: drawFilter,
    /** A line from the room itself (e.g. "rematch offered"), styled apart, in the players' tab
     *  since it concerns the game. */
    note(text) {
      addLine('game', h('li', { class: 'chat-line note', 'data-testid': 'chat-note' }, text));
    },
    /** Spectators see their tab; players never receive spectator lines, so theirs is hidden. */
    setSpectator(isSpectator) {
      tabs.spectators.hidden = !isSpectator;
      drawFilter();
      if (!isSpectator && active === 'spectators') select('game');
      input.setAttribute('data-audience', isSpectator ? 'spectators' : 'game');
      if (isSpectator && active === 'game' && lists.game.childElementCount === 0) select('spectators');
    },
  };
}
