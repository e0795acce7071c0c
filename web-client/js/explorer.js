// Opening explorer page (`/?explorer=<key>&opening=<rule>&moves=…&rated=…&bots=…`): a tab for each game, the board at the line's position (a legal point played there extends the line), the line (each move a button back to it; Start, Back), the rated and bots filters and, for Gomoku, the opening-rule filter (games played from swap2, Soosõrv-8 or Taraguchi-10, whose line is the stones the rule placed), and the table of the moves played from the position in the hall's finished games (games, black wins · draws · white wins as a bar, average rating), each move a button that plays it.

import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { createBoard } from './board.js';
import { moveRows } from './record.js';
import { EXPLORER_KEYS, FILTERS, NO_OPENING, explorerAnswer, linePosition, canPlay, openingsOf, openingOf } from './explorer-data.js';
import * as api from './api.js';

const moveLabel = (move) => (move === 'pass' ? t('room.pass') : move);
const gamesWords = (n) => (n === 1 ? t('explorer.oneGame') : t('explorer.games', { n }));

/** Black wins, draws and white wins of a table row as a bar: the shares drawn (the wider ones
 *  with their percentage), the counts in words for screen readers and on hover (the analysis
 *  board's explorer panel draws it too). */
export function resultsBar(row) {
  const words = t('explorer.resultsText', { black: row.black, draws: row.draws, white: row.white });
  const parts = [['black', row.pct.black], ['draws', row.pct.draws], ['white', row.pct.white]].filter(([, p]) => p > 0);
  return h('div', { class: 'wdl', title: words },
    h('div', { class: 'wdl-bar', 'aria-hidden': 'true' },
      parts.map(([side, p]) => h('span', { class: `wdl-${side}`, style: `width: ${p}%` }, p >= 18 ? `${p}%` : ''))),
    h('span', { class: 'sr-only' }, words));
}

/** Mounts the explorer at `route` ({ key, moves, rated, bots, opening }) in `root`. `app` gives
 *  viewLink(route, attrs, ...children) and replace(route), which keeps the address up to date. */
export function mountExplorer(root, app, route) {
  const state = { key: route.key, moves: [...route.moves], rated: route.rated, bots: route.bots, opening: openingOf(route.key, route.opening) };
  let line = linePosition(state.key, state.moves);
  // The answer for the line on show ({ ok, error, data }), null while it is asked for.
  let answer = null;
  // Requests are numbered: an answer for a line left meanwhile is dropped.
  let asked = 0;
  let gone = false;
  // Where the focus goes once the table is drawn again: a move chosen in the table would
  // otherwise leave it on a button that no longer exists.
  let focusTable = false;
  let refused = '';

  const title = h('h1', {});
  const tabs = h('nav', { class: 'tabs', 'aria-label': t('lb.keys'), 'data-i18n-aria': 'lb.keys' });
  const boardBox = h('div', { class: 'board-box' });
  const board = createBoard(boardBox, { onPlay: (move) => playFromBoard(move), label: 'explorer.boardAria' });
  const boardNote = h('div', { class: 'explorer-note', 'data-testid': 'explorer-note', 'aria-live': 'polite' });
  const status = h('p', { class: 'explorer-status', 'data-testid': 'explorer-status', 'aria-live': 'polite' });
  const lineTitle = h('h2', { class: 'panel-title', 'data-i18n': 'explorer.line' }, t('explorer.line'));
  const startBtn = h('button', { type: 'button', 'data-testid': 'explorer-start', onclick: () => goTo(0) });
  const backBtn = h('button', { type: 'button', 'data-testid': 'explorer-back', onclick: () => goTo(state.moves.length - 1) });
  const lineList = h('ol', { class: 'move-list explorer-line', 'data-testid': 'explorer-line', 'aria-label': t('explorer.lineAria'), 'data-i18n-aria': 'explorer.lineAria' });
  const filters = {};
  const legend = h('legend', { 'data-i18n': 'explorer.filters' }, t('explorer.filters'));
  const filterBox = h('fieldset', { class: 'explorer-filters' }, legend);
  for (const name of ['rated', 'bots']) {
    const id = `explorer-filter-${name}`;
    const select = h('select', { id, 'data-testid': id });
    select.addEventListener('change', () => {
      state[name] = select.value;
      changed();
    });
    filters[name] = select;
    filterBox.append(h('span', { class: 'field' }, h('label', { for: id, 'data-i18n': `explorer.${name}` }, t(`explorer.${name}`)), select));
  }
  // The opening rule the games were played from (Gomoku only: hidden for a game without one).
  const openingSelect = h('select', { id: 'explorer-filter-opening', 'data-testid': 'explorer-filter-opening' });
  openingSelect.addEventListener('change', () => {
    state.opening = openingOf(state.key, openingSelect.value);
    changed();
  });
  const openingField = h('span', { class: 'field', 'data-testid': 'explorer-opening-field' },
    h('label', { for: 'explorer-filter-opening', 'data-i18n': 'explorer.opening' }, t('explorer.opening')), openingSelect);
  filterBox.append(openingField);
  // Focusable by script only: where the focus goes when a chosen move leads to an empty table.
  const body = h('div', { class: 'explorer-body', 'data-testid': 'explorer-body', tabindex: -1 });

  const currentRoute = () => ({ page: 'explorer', key: state.key, moves: [...state.moves], rated: state.rated, bots: state.bots, opening: state.opening });

  function renderTabs() {
    clear(tabs);
    // Another game starts from its own start position; the filters go along (an opening rule
    // only to a game it belongs to: the address drops it).
    for (const k of EXPLORER_KEYS) {
      tabs.append(app.viewLink({ ...currentRoute(), key: k, moves: [] }, {
        class: `tab${k === state.key ? ' active' : ''}`, 'data-testid': `explorer-tab-${k}`, 'aria-current': k === state.key ? 'page' : null,
      }, t(`ratingKey.${k}`)));
    }
  }

  function renderHead() {
    title.textContent = t('explorer.title', { game: t(`ratingKey.${state.key}`) });
    renderTabs();
    for (const [name, select] of Object.entries(filters)) {
      clear(select);
      for (const v of FILTERS) select.append(h('option', { value: v }, t(`explorer.${name}.${v}`)));
      select.value = state[name];
    }
    clear(openingSelect);
    for (const v of openingsOf(state.key)) {
      openingSelect.append(h('option', { value: v }, t(v === NO_OPENING ? 'explorer.opening.none' : `openingRule.${v}`)));
    }
    openingSelect.value = state.opening;
    openingField.hidden = openingsOf(state.key).length < 2;
    clear(startBtn);
    startBtn.append(h('span', { 'aria-hidden': 'true' }, '« '), t('explorer.start'));
    startBtn.title = t('explorer.startAria');
    clear(backBtn);
    backBtn.append(h('span', { 'aria-hidden': 'true' }, '‹ '), t('explorer.back'));
    backBtn.title = t('explorer.backAria');
  }

  function renderBoard(animate = false) {
    board.render({
      game: line.game,
      pos: line.pos,
      flipped: false,
      interactive: !line.over && !line.mustPass,
      me: line.pos.toMove,
      forbidden: line.forbidden,
      legal: line.legal,
      marks: [],
      winLine: [],
      animate,
    });
    clear(boardNote);
    if (refused) boardNote.append(h('p', { class: 'error-msg', 'data-testid': 'explorer-refused' }, refused));
    if (line.mustPass) {
      boardNote.append(h('p', { class: 'note' }, t('explorer.mustPass', { seat: t(`seat.${line.pos.toMove}`) }), ' ',
        h('button', { type: 'button', 'data-testid': 'explorer-pass', onclick: () => play('pass') }, t('explorer.pass'))));
    }
  }

  /** Move `k` of the line as the room's move list numbers it: "2. h9" for black, "2… h9" for white. */
  const plyWords = (k) => `${Math.ceil(k / 2)}${k % 2 ? '.' : '…'} ${moveLabel(state.moves[k - 1])}`;

  function renderLine() {
    clear(lineList);
    const n = state.moves.length;
    startBtn.disabled = backBtn.disabled = n === 0;
    if (!n) {
      lineList.append(h('li', { class: 'empty' }, t('explorer.noMoves')));
      return;
    }
    const item = (ply, move) => h('button', {
      type: 'button', class: `mv${move === 'pass' ? ' pass' : ''}${ply === n ? ' current' : ''}`, 'data-testid': `explorer-ply-${ply}`,
      'aria-current': ply === n ? 'step' : null, onclick: () => goTo(ply),
    }, moveLabel(move));
    for (const row of moveRows(state.moves)) {
      lineList.append(h('li', { class: 'move-row' },
        h('span', { class: 'num' }, `${row.number}.`),
        row.black ? item(row.black.ply, row.black.move) : h('span', { class: 'mv empty' }, '…'),
        row.white ? item(row.white.ply, row.white.move) : h('span', { class: 'mv empty' })));
    }
  }

  function renderStatus() {
    const n = state.moves.length;
    const parts = [n ? t('explorer.after', { move: plyWords(n) }) : t('explorer.atStart')];
    if (!line.over) parts.push(t('explorer.toMove', { seat: t(`seat.${line.pos.toMove}`) }));
    if (answer?.ok) parts.push(gamesWords(answer.data.games));
    status.textContent = parts.join(' · ');
  }

  function renderTable(rows) {
    return h('table', { class: 'rating-table explorer-table', 'data-testid': 'explorer-table' },
      h('caption', {}, t('explorer.caption')),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('explorer.move')),
        h('th', { scope: 'col', class: 'num' }, t('explorer.gamesCol')),
        h('th', { scope: 'col', class: 'wdl-head' }, t('explorer.results')),
        h('th', { scope: 'col', class: 'num' }, t('explorer.rating')))),
      h('tbody', {}, rows.map((r) => h('tr', {
        'data-testid': `explorer-row-${r.move}`, 'data-move': r.move, 'data-games': r.games, 'data-black': r.black, 'data-draws': r.draws, 'data-white': r.white,
      },
      h('th', { scope: 'row' }, h('button', {
        type: 'button', class: 'explorer-move', 'data-testid': `explorer-move-${r.move}`, title: t('explorer.play', { move: moveLabel(r.move) }),
        onclick: () => play(r.move, true),
      }, moveLabel(r.move))),
      h('td', { class: 'num' }, String(r.games)),
      h('td', { class: 'wdl-cell' }, resultsBar(r)),
      h('td', { class: 'num' }, r.rating != null ? String(r.rating)
        : [h('span', { 'aria-hidden': 'true', title: t('explorer.noRating') }, '—'), h('span', { class: 'sr-only' }, t('explorer.noRating'))])))));
  }

  function renderBody() {
    clear(body);
    body.dataset.moves = state.moves.join(',');
    body.dataset.rated = state.rated;
    body.dataset.bots = state.bots;
    body.dataset.opening = state.opening;
    body.setAttribute('aria-busy', String(!answer));
    const say = (kind, cls, text, attrs = {}) => {
      body.dataset.state = kind;
      body.append(h('p', { class: cls, 'data-testid': `explorer-${kind}`, ...attrs }, text));
    };
    if (!answer) {
      say('loading', 'note', t('explorer.loading'));
      return;
    }
    if (!answer.ok) {
      say('error', 'error-msg', answer.error, { role: 'alert' });
      return;
    }
    const { rows, depth } = answer.data;
    if (rows.length) {
      body.dataset.state = 'rows';
      body.append(renderTable(rows));
    } else if (state.moves.length >= depth) {
      say('deep', 'note', t('explorer.deep', { depth }));
    } else if (line.over) {
      say('over', 'note', t('explorer.over'));
    } else {
      const plain = state.rated === 'any' && state.bots === 'any' && state.opening === NO_OPENING;
      say('empty', 'note', t(plain ? 'explorer.empty' : 'explorer.emptyFiltered'));
    }
    if (focusTable) {
      focusTable = false;
      (body.querySelector('.explorer-move') || body).focus();
    }
  }

  function ask() {
    const id = ++asked;
    answer = null;
    api.explorer({ key: state.key, moves: state.moves, rated: state.rated, bots: state.bots, opening: state.opening }).then((res) => {
      if (gone || id !== asked) return;
      answer = res.ok ? { ok: true, data: explorerAnswer(res.data) } : { ok: false, error: res.error };
      renderStatus();
      renderBody();
    });
  }

  /** The line or a filter changed: the address, the board, the line and a new look-up. */
  function changed(animate = false) {
    refused = '';
    line = linePosition(state.key, state.moves);
    app.replace(currentRoute());
    renderTabs();
    ask();
    renderBoard(animate);
    renderLine();
    renderStatus();
    renderBody();
  }

  /** Plays `move` from the position on show; `fromTable`: chosen in the table (the server
   *  listed it: legal), whose keyboard user stays in the table. */
  function play(move, fromTable = false) {
    if (!fromTable && !canPlay(line, move)) return false;
    state.moves = [...state.moves, move];
    focusTable = fromTable;
    changed(true);
    return true;
  }

  function playFromBoard(move) {
    if (play(move)) return;
    // The board offers only empty points, open columns and legal squares: what it cannot
    // know is renju's forbidden points, said here.
    if (line.forbidden.length) {
      refused = t('explorer.forbidden', { cell: move });
      renderBoard(false);
    }
  }

  /** Back to the position after `k` moves of the line. */
  function goTo(k) {
    const n = Math.max(0, Math.min(state.moves.length, k));
    if (n === state.moves.length) return;
    state.moves = state.moves.slice(0, n);
    changed();
    // The button chosen may be gone: the focus stays in the line, or goes to the board.
    if (!root.contains(document.activeElement) || document.activeElement === document.body || document.activeElement.disabled) {
      (lineList.querySelector('.current') || board.element).focus();
    }
  }

  /** ← goes back a move and Home to the start, as in a room's replay (not while typing or
   *  choosing, and not when the board used the key for its cursor). */
  function onKey(ev) {
    if (!state.moves.length || ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target?.closest?.('input, textarea, select, [contenteditable="true"]')) return;
    if (ev.key === 'ArrowLeft') goTo(state.moves.length - 1);
    else if (ev.key === 'Home') goTo(0);
    else return;
    ev.preventDefault();
  }

  root.append(h('div', { class: 'page explorer', 'data-testid': 'explorer', 'data-key': state.key },
    h('section', { class: 'card explorer-head' },
      h('div', { class: 'page-head' }, title,
        app.viewLink({ page: 'lobby' }, { class: 'back-link', 'data-testid': 'btn-page-lobby', 'data-i18n': 'room.back' }, t('room.back'))),
      tabs,
      h('p', { class: 'note', 'data-i18n': 'explorer.intro' }, t('explorer.intro'))),
    h('div', { class: 'explorer-board' }, boardBox, boardNote),
    h('section', { class: 'card explorer-side' },
      status,
      h('div', { class: 'panel-head' }, lineTitle, h('span', { class: 'nav' }, startBtn, backBtn)),
      lineList,
      filterBox,
      body)));
  document.addEventListener('keydown', onKey);
  renderHead();
  changed();

  return {
    onReady() {},
    onMessage: () => false,
    onLang() {
      renderHead();
      renderBoard();
      renderLine();
      renderStatus();
      renderBody();
    },
    unmount() {
      gone = true;
      document.removeEventListener('keydown', onKey);
    },
  };
}
