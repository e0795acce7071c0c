// The analysis board's opening explorer panel: for a position reached by moves from the game's start on one of the five rated boards, the moves played from it in the hall's finished games (`GET /api/explorer/<key>?moves=…`, as the explorer page asks), each a button that plays it, the engine's best move among them badged, while the engine is on each move's evaluation by the engine (the `analyse` request rates the listed moves), and a link to the explorer there; a set-up position or another board is said not to be covered.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { ratingKey } from '../rating.js';
import { explorerAnswer, DEFAULT_DEPTH } from '../explorer-data.js';
import { resultsBar } from '../explorer.js';
import * as api from '../api.js';
import { engineCell } from './engine-panel.js';

const moveLabel = (move) => (move === 'pass' ? t('room.pass') : move);

/**
 * The panel: `onPlay(move)` plays a move chosen in its table, `onListed()` says that the list of
 * the position on show has come, `app` gives viewLink. Returns { element, show({ game, setup,
 * line, over }), render(), markEngine(move), listed(), showEngine(on, state) }: show the position
 * on show (asks the server unless it is the one shown already), render again in another
 * language, badge the engine's best move (as the table writes it; null for none) in the table,
 * the moves listed at the position on show (null while they are asked for; none where the
 * explorer does not look), and the engine's column (while `on`) from the engine panel's state.
 */
export function createExplorerPanel({ app, onPlay, onListed = () => {} }) {
  const title = h('h2', { class: 'panel-title', id: 'analysis-explorer-title' });
  const body = h('div', { class: 'an-explorer-body', 'data-testid': 'analysis-explorer' });
  const element = h('section', { class: 'an-explorer', 'aria-labelledby': 'analysis-explorer-title' }, title, body);
  let at = null; // { key, line, setup, over } on show
  let answer = null; // { ok, data, error } for `at`, null while asked for
  let asked = 0;
  let engineBest = null; // the engine's best move at the position on show
  let engine = { on: false, state: null }; // the engine's switch and the engine panel's state

  function say(state, cls, text) {
    body.dataset.state = state;
    body.append(h('p', { class: cls, 'data-testid': `analysis-explorer-${state}` }, text));
  }

  function table(rows) {
    return h('table', { class: 'rating-table explorer-table an-explorer-table', 'data-testid': 'analysis-explorer-table' },
      h('caption', { class: 'sr-only' }, t('explorer.caption')),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('explorer.move')),
        h('th', { scope: 'col', class: 'num' }, t('explorer.gamesCol')),
        h('th', { scope: 'col', class: 'wdl-head' }, t('explorer.results')),
        engine.on ? h('th', { scope: 'col', class: 'num', title: t('engine.scale'), 'data-testid': 'analysis-explorer-engine-head' }, t('analysis.explorer.engineCol')) : null)),
      h('tbody', {}, rows.map((r) => h('tr', { 'data-move': r.move, 'data-games': r.games },
        h('th', { scope: 'row' }, h('button', {
          type: 'button', class: 'explorer-move', 'data-testid': `analysis-explorer-move-${r.move}`,
          title: t('explorer.play', { move: moveLabel(r.move) }), onclick: () => onPlay(r.move),
        }, moveLabel(r.move)), r.move === engineBest ? badge() : null),
        h('td', { class: 'num' }, String(r.games)),
        h('td', { class: 'wdl-cell' }, resultsBar(r)),
        engine.on ? fillEngineCell(h('td', { class: 'num an-engine-cell', 'data-testid': `analysis-explorer-eval-${r.move}` }), r.move) : null))));
  }

  /** Writes `move`'s engine value into its cell `td` (in place: the table and the focus stay). */
  function fillEngineCell(td, move) {
    const cell = engineCell(engine.state, move);
    td.dataset.state = cell.kind;
    if (cell.kind === 'value') td.dataset.proven = String(cell.proven);
    else delete td.dataset.proven;
    td.title = cell.kind === 'value' ? cell.words : '';
    clear(td);
    // The short text is seen; a screen reader hears the engine panel's whole words instead.
    if (cell.kind === 'value') td.append(h('span', { 'aria-hidden': 'true' }, cell.text), h('span', { class: 'sr-only' }, cell.words));
    else {
      const key = cell.kind === 'wait' ? 'analysis.explorer.engineWait' : 'analysis.explorer.engineNone';
      td.append(h('span', { 'aria-hidden': 'true' }, cell.kind === 'wait' ? '…' : '—'), h('span', { class: 'sr-only' }, t(key)));
    }
    return td;
  }

  /** The engine's column: drawn again when it comes or goes, else its cells filled in place. */
  function showEngine(on, state) {
    const was = engine.on;
    engine = { on: !!on, state };
    const rows = body.querySelectorAll('tr[data-move]');
    if (was !== engine.on) {
      if (rows.length) render();
      return;
    }
    if (!engine.on) return;
    for (const tr of rows) {
      const td = tr.querySelector('.an-engine-cell');
      if (td) fillEngineCell(td, tr.dataset.move);
    }
  }

  /** The moves listed at the position on show; null while they are asked for. */
  function listed() {
    if (!at || !at.key || at.setup) return [];
    if (!answer) return null;
    return answer.ok ? answer.data.rows.map((r) => r.move) : [];
  }

  /** The engine's badge beside its best move (its words are read with the row). */
  const badge = () => h('span', { class: 'engine-badge', 'data-testid': 'analysis-explorer-engine', title: t('analysis.explorer.engineTitle') }, t('analysis.explorer.engine'));

  /** Moves the badge to `move`'s row in place (the table stays, and the focus in it). */
  function markEngine(move) {
    const next = move || null;
    if (next === engineBest) return;
    engineBest = next;
    for (const old of body.querySelectorAll('.engine-badge')) old.remove();
    if (!next) return;
    const row = [...body.querySelectorAll('tr[data-move]')].find((tr) => tr.dataset.move === next);
    row?.querySelector('th')?.append(badge());
  }

  function render() {
    title.textContent = t('analysis.explorer.title');
    clear(body);
    if (!at) return;
    body.dataset.moves = at.line.join(',');
    if (!at.key) return say('board', 'note', t('analysis.explorer.board'));
    if (at.setup) return say('setup', 'note', t('analysis.explorer.setup'));
    const link = app.viewLink({ page: 'explorer', key: at.key, moves: at.line, rated: 'any', bots: 'any' },
      { class: 'an-explorer-link', 'data-testid': 'analysis-explorer-link' }, t('analysis.explorer.open'));
    if (!answer) say('loading', 'note', t('explorer.loading'));
    else if (!answer.ok) say('error', 'error-msg', answer.error);
    else if (answer.data.rows.length) {
      body.dataset.state = 'rows';
      body.append(h('p', { class: 'note' }, answer.data.games === 1 ? t('explorer.oneGame') : t('explorer.games', { n: answer.data.games })), table(answer.data.rows));
    } else if (at.line.length >= answer.data.depth) say('deep', 'note', t('explorer.deep', { depth: answer.data.depth }));
    else say('empty', 'note', t(at.over ? 'explorer.over' : 'explorer.empty'));
    body.append(h('p', { class: 'note' }, link));
  }

  function ask() {
    const id = ++asked;
    answer = null;
    if (at.line.length > DEFAULT_DEPTH) {
      answer = { ok: true, data: explorerAnswer({ depth: DEFAULT_DEPTH }) };
      return;
    }
    api.explorer({ key: at.key, moves: at.line }).then((res) => {
      if (id !== asked) return;
      answer = res.ok ? { ok: true, data: explorerAnswer(res.data) } : { ok: false, error: res.error };
      render();
      onListed();
    });
  }

  function show({ game, setup, line, over }) {
    const next = { key: ratingKey(game), line: [...line], setup: !!setup, over };
    const same = at && at.key === next.key && at.setup === next.setup && at.line.join(',') === next.line.join(',');
    at = next;
    if (!same) {
      engineBest = null;
      asked += 1;
      answer = null;
      if (at.key && !at.setup) ask();
    }
    render();
  }

  return { element, show, render, markEngine, listed, showEngine };
}
