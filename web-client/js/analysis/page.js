// Analysis board page (`/?analysis=<variant>&setup=…&tree=…&at=…`): the board at the move on show (legal moves only; a move that differs from the next one branches), the move list with its variations, promote and delete, the keys (← → Home End, ↑ ↓ between variations), the edit mode and the paste box that set up a position, the opening explorer's panel, the engine's panel (a switch, on by default and remembered: every position on show asked for after a short pause, the evaluation, depth, best line and its best move as a ghost stone on the board and badged in the explorer, the explorer's listed moves rated in its table, a live region saying its first and last line), the share link (the address itself) and the exports; a screen reader hears each move.

import { h, clear } from '../dom.js';
import { t, gameLabel } from '../i18n.js';
import { ratingKey } from '../rating.js';
import { createBoard } from '../board.js';
import { parseCell, cellName } from '../rules.js';
import { moveWords } from '../room/announcer.js';
import { decodeAnalysis, encodeAnalysis } from './share.js';
import { startPos, info, tryMove, isStartSetup, canonicalMove } from './position.js';
import { createTree, addMove, lineTo, isMain, next, prev, lineEnd, sibling, promote, remove, seatOfNode } from './tree.js';
import { createTreeView, numberText } from './tree-view.js';
import { createEditPanel } from './edit-panel.js';
import { createPastePanel } from './paste-panel.js';
import { createExportPanel } from './export-panel.js';
import { createExplorerPanel } from './explorer-panel.js';
import { createBoardPicker } from './board-picker.js';
import {
  createEnginePanel, connectEnginePanel, engineRequest, rateList, bestMark, engineAnnouncement, engineOn, rememberEngine,
} from './engine-panel.js';

/** Lines the live region keeps: the latest is the one just said. */
const SAID_KEEP = 4;

/** Mounts the analysis board at `route` ({ variant, setup, tree, at }) in `root`; `app` gives
 *  viewLink, show, replace (which keeps the address, the share link, up to date) and net (the
 *  WebSocket connection, for the engine; main.js hands the view every server message). */
export function mountAnalysis(root, app, route) {
  const a = decodeAnalysis(route); // { game, setup, tree, current, dropped }
  let positions = new WeakMap();
  let infos = new WeakMap();
  let note = a.dropped ? { text: t('analysis.dropped', { n: a.dropped }), error: true } : null;
  let hint = '';

  const first = () => (a.setup ? a.setup.toMove : 'black');
  function posOf(node) {
    if (!positions.has(node)) positions.set(node, node.parent ? tryMove(a.game, posOf(node.parent), node.move).pos : startPos(a.game, a.setup));
    return positions.get(node);
  }
  function infoOf(node) {
    if (!infos.has(node)) infos.set(node, info(a.game, posOf(node)));
    return infos.get(node);
  }

  const title = h('h1', {});
  const picker = createBoardPicker({ app });
  const boardBox = h('div', { class: 'board-box' });
  const board = createBoard(boardBox, { onPlay: (move) => onBoard(move), label: 'analysis.boardAria' });
  const boardNote = h('div', { class: 'an-note', 'data-testid': 'analysis-note' });
  const said = h('div', { class: 'sr-only', role: 'log', 'aria-live': 'polite', 'data-testid': 'analysis-announce' });
  const status = h('p', { class: 'an-status', 'data-testid': 'analysis-status' });
  const treeView = createTreeView({ onPick: (node) => goTo(node) });
  const navBtn = (id, key, fn) => h('button', { type: 'button', 'data-testid': `analysis-${id}`, onclick: fn, 'data-i18n-aria': key, 'data-i18n-title': key });
  const nav = {
    first: navBtn('first', 'analysis.firstAria', () => goTo(a.tree.root)),
    back: navBtn('back', 'analysis.backAria', () => goTo(prev(a.current))),
    forward: navBtn('forward', 'analysis.forwardAria', () => goTo(next(a.current))),
    last: navBtn('last', 'analysis.lastAria', () => goTo(lineEnd(a.current))),
  };
  const promoteBtn = h('button', { type: 'button', 'data-testid': 'analysis-promote', onclick: () => doPromote() });
  const deleteBtn = h('button', { type: 'button', 'data-testid': 'analysis-delete', onclick: () => doDelete() });
  const keysNote = h('p', { class: 'note an-keys' });
  const movesTitle = h('h2', { class: 'panel-title' });

  const edit = createEditPanel({
    game: () => a.game,
    position: () => ({ cells: posOf(a.current).cells, toMove: posOf(a.current).toMove }),
    onChange: () => { syncEngine(); renderBoard(); renderStatus(); renderNav(); },
    onApply: (setup) => startFrom(a.game, isStartSetup(a.game, setup) ? null : setup, createTree()),
    say,
  });
  const paste = createPastePanel({ game: () => a.game, onRead: (res) => startFrom(res.game, res.setup, res.tree, true) });
  const exporter = createExportPanel({ analysis: () => ({ game: a.game, setup: a.setup, tree: a.tree, current: a.current }), shareUrl: () => location.href });
  // Its list come, the engine's request of the position on show rates the listed moves.
  const explorer = createExplorerPanel({ app, onPlay: (move) => play(move), onListed: () => syncEngine() });
  const engineBox = h('div', {});
  let engineWanted = engineOn();
  const enginePanel = createEnginePanel(engineBox, { on: engineWanted, onToggle: (on) => setEngine(on) });
  // The engine's own live region: its first and last line of each position, and failures.
  const engineSaid = h('div', { class: 'sr-only', role: 'log', 'aria-live': 'polite', 'data-testid': 'engine-announce' });
  engineBox.append(engineSaid);
  let engineBest = null; // the best move of the engine's latest line for the position on show
  let engineKey = null; // the request last wanted, as text (a change that keeps the position asks nothing)
  let enginePos = null; // its position alone, as text: the same one with its explorer list known amends it
  let changing = false;
  const engine = connectEnginePanel({
    render(state, prev) {
      enginePanel.render(state);
      explorer.showEngine(engineWanted, state);
      const text = engineAnnouncement(prev, state);
      if (text) {
        engineSaid.append(h('p', {}, text));
        while (engineSaid.childElementCount > SAID_KEEP) engineSaid.firstElementChild.remove();
      }
      const best = state.line?.best ?? null;
      if (best === engineBest) return;
      engineBest = best;
      explorer.markEngine(best ? canonicalMove(a.game, best) : null);
      if (!changing) renderBoard();
    },
  }, app.net);
  const section = (id, key, body) => h('details', { class: 'an-section', 'data-testid': `analysis-section-${id}` },
    h('summary', { 'data-testid': `analysis-${id}-open`, 'data-i18n': key }, t(key)), body);

  function say(text) {
    if (!text) return;
    said.append(h('p', {}, text));
    while (said.childElementCount > SAID_KEEP) said.firstElementChild.remove();
  }

  /** A node's move in words, as the live region says it: "3. black h9", "(variation)" after. */
  function nodeWords(node) {
    if (!node.parent) return t(a.setup ? 'analysis.setupStart' : 'analysis.start');
    const words = `${numberText(node, first())} ${moveWords(a.game, seatOfNode(node, first()), node.move)}`;
    return isMain(node) ? words : `${words}, ${t('analysis.inVariation')}`;
  }

  function renderHead() {
    const key = ratingKey(a.game);
    title.textContent = t('analysis.title', { game: key ? t(`ratingKey.${key}`) : gameLabel(a.game) });
    picker.render(a.game);
    movesTitle.textContent = t('analysis.moves');
    for (const [name, sign] of [['first', '«'], ['back', '‹'], ['forward', '›'], ['last', '»']]) {
      nav[name].textContent = sign;
      nav[name].title = t(nav[name].dataset.i18nTitle);
      nav[name].setAttribute('aria-label', nav[name].title);
    }
    promoteBtn.textContent = t('analysis.promote');
    deleteBtn.textContent = t('analysis.delete');
    keysNote.textContent = t('analysis.keys');
  }

  function renderBoard(animate = false) {
    const editing = edit.editing();
    const pos = posOf(a.current);
    const at = infoOf(a.current);
    board.render(editing ? {
      game: a.game, pos: { ...pos, cells: editing.cells, toMove: editing.toMove, last: -1, flipped: [] }, flipped: false,
      interactive: true, edit: true, touchConfirm: false, me: editing.tool === 'empty' ? null : editing.tool,
      forbidden: [], legal: [], marks: [], winLine: [], animate: false,
    } : {
      game: a.game, pos, flipped: false, interactive: !at.over && !at.mustPass, me: pos.toMove,
      forbidden: at.forbidden, legal: at.legal, marks: engineMarks(pos), winLine: at.winLine, animate,
      onInspect: (idx) => inspect(idx),
    });
    board.element.setAttribute('aria-label', t(editing ? 'analysis.editAria' : 'analysis.boardAria'));
    renderNote();
  }

  /** The engine's best move at `pos` (the position on show) as a ghost stone. */
  function engineMarks(pos) {
    const mark = engineWanted ? bestMark(a.game, pos, engineBest) : null;
    return mark ? [mark] : [];
  }

  /** Asks the engine for the position on show when it changed (after the panel's pause), or
   *  stops it: switched off, editing, a finished game, or Othello's forced pass (the worker has
   *  nothing to search there). */
  function syncEngine() {
    if (!engineWanted) return;
    const at = infoOf(a.current);
    const why = edit.editing() ? 'editing' : at.over ? 'over' : at.mustPass ? 'pass' : null;
    if (why) {
      engineKey = enginePos = null;
      if (engine.state.status !== why) engine.stop(why);
      return;
    }
    const line = lineTo(a.current);
    const listed = explorer.listed();
    const rate = listed == null ? null : rateList(a.game, posOf(a.current), infoOf(a.current), listed);
    const request = engineRequest(a.game, a.setup, line, rate);
    const key = JSON.stringify(request);
    if (key === engineKey) return;
    const pos = JSON.stringify(engineRequest(a.game, a.setup, line));
    const same = pos === enginePos;
    engineKey = key;
    enginePos = pos;
    if (same) engine.amend(request);
    else engine.want(request);
  }

  function setEngine(on) {
    engineWanted = on;
    rememberEngine(on);
    if (on) syncEngine();
    else {
      engineKey = enginePos = null;
      engine.stop('off');
    }
    renderBoard();
  }

  /** Under the board: the last refusal or message, why a hovered point is forbidden, a pass. */
  function renderNote() {
    clear(boardNote);
    if (note) boardNote.append(h('p', { class: note.error ? 'error-msg' : 'note', 'data-testid': 'analysis-refused', role: note.error ? 'alert' : null }, note.text));
    if (hint) boardNote.append(h('p', { class: 'note', 'data-testid': 'analysis-forbidden-why' }, hint));
    if (!edit.editing() && infoOf(a.current).mustPass) {
      boardNote.append(h('p', { class: 'note' }, t('analysis.mustPass', { seat: t(`seat.${posOf(a.current).toMove}`) }), ' ',
        h('button', { type: 'button', 'data-testid': 'analysis-pass', onclick: () => play('pass') }, t('analysis.pass'))));
    }
  }

  function inspect(idx) {
    const f = infoOf(a.current).forbidden.find((p) => p.idx === idx);
    const text = f ? `${cellName(a.game, idx)}: ${t(`forbidden.${f.kind}`)}` : '';
    if (text === hint) return;
    hint = text;
    renderNote();
  }

  function renderStatus() {
    const editing = edit.editing();
    const at = infoOf(a.current);
    const pos = posOf(a.current);
    let text;
    if (editing) {
      status.dataset.state = 'edit';
      text = t('analysis.setup.editing');
    } else {
      status.dataset.state = at.over ? 'over' : at.mustPass ? 'pass' : 'play';
      const where = a.current.parent ? t('analysis.after', { move: `${numberText(a.current, first())} ${a.current.move === 'pass' ? t('room.pass') : a.current.move}` }) : t(a.setup ? 'analysis.setupStart' : 'analysis.start');
      const variation = a.current.parent && !isMain(a.current) ? ` (${t('analysis.inVariation')})` : '';
      const then = at.over ? t(`analysis.over.${at.winner}`) : t('analysis.toMove', { seat: t(`seat.${pos.toMove}`) });
      text = `${where}${variation} · ${then}`;
    }
    status.textContent = text;
  }

  function renderNav() {
    const off = !!edit.editing();
    nav.first.disabled = nav.back.disabled = off || !a.current.parent;
    nav.forward.disabled = nav.last.disabled = off || !a.current.children.length;
    promoteBtn.disabled = off || isMain(a.current);
    deleteBtn.disabled = off || !a.current.parent;
  }

  /** Everything that follows the tree or the node on show; `animate` the last move. */
  function changed(animate = false) {
    const hadFocus = treeView.element.contains(document.activeElement);
    app.replace(encodeAnalysis(a));
    changing = true;
    explorer.show({ game: a.game, setup: a.setup, line: lineTo(a.current), over: infoOf(a.current).over });
    syncEngine();
    changing = false;
    renderBoard(animate);
    renderStatus();
    renderNav();
    treeView.render(a.tree, a.current, first());
    if (hadFocus) treeView.element.querySelector('.current')?.focus();
    exporter.render();
  }

  function goTo(node) {
    if (!node || node === a.current || edit.editing()) return;
    a.current = node;
    note = null;
    hint = '';
    changed();
    say(nodeWords(node));
  }

  /** Plays `move` from the node on show: refused with the reason when it is not legal there. */
  function play(move) {
    if (edit.editing()) return false;
    const res = tryMove(a.game, posOf(a.current), move, infoOf(a.current));
    hint = '';
    if (!res.ok) {
      const why = res.why === 'forbidden' ? t(`forbidden.${res.kind}`) : t(`analysis.why.${res.why}`);
      note = { text: t('analysis.refused', { move, why }), error: true };
      renderNote();
      return false;
    }
    const added = addMove(a.current, res.move);
    a.current = added.node;
    note = null;
    changed(true);
    say(added.branched ? t('analysis.said.branch', { move: nodeWords(added.node) }) : nodeWords(added.node));
    return true;
  }

  function onBoard(move) {
    if (edit.editing()) edit.editAt(parseCell(a.game, move));
    else play(move);
  }

  function doPromote() {
    if (!promote(a.current)) return;
    changed();
    say(t('analysis.said.promoted'));
  }

  function doDelete() {
    const parent = remove(a.current);
    if (!parent) return;
    a.current = parent;
    changed();
    say(t('analysis.said.deleted', { where: nodeWords(parent) }));
  }

  /** A new analysis of `game` from `setup` with `tree`: at the end of its main line when
   *  `toEnd` (a pasted game), else at its start. */
  function startFrom(game, setup, tree, toEnd = false) {
    const other = JSON.stringify(game) !== JSON.stringify(a.game);
    Object.assign(a, { game, setup, tree, current: toEnd ? lineEnd(tree.root) : tree.root });
    positions = new WeakMap();
    infos = new WeakMap();
    note = null;
    hint = '';
    if (other) renderHead();
    edit.render();
    changed();
    say(nodeWords(a.current));
  }

  /** ← → Home End walk the tree, ↑ ↓ switch between sibling variations (not while typing or
   *  editing, and not when the board used the key for its cursor). */
  function onKey(ev) {
    if (ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey || edit.editing()) return;
    if (ev.target?.closest?.('input, textarea, select, [contenteditable="true"]')) return;
    const to = {
      ArrowLeft: () => prev(a.current),
      ArrowRight: () => next(a.current),
      Home: () => a.tree.root,
      End: () => lineEnd(a.current),
      ArrowUp: () => sibling(a.current, -1),
      ArrowDown: () => sibling(a.current, 1),
    }[ev.key];
    if (!to) return;
    const node = to();
    if (!node && (ev.key === 'ArrowUp' || ev.key === 'ArrowDown')) return;
    ev.preventDefault();
    goTo(node);
  }

  root.append(h('div', { class: 'page analysis', 'data-testid': 'analysis' },
    h('section', { class: 'card an-head' },
      h('div', { class: 'page-head' }, title,
        app.viewLink({ page: 'lobby' }, { class: 'back-link', 'data-testid': 'btn-page-lobby', 'data-i18n': 'room.back' }, t('room.back'))),
      picker.element),
    h('div', { class: 'an-board' }, boardBox, boardNote, said),
    h('section', { class: 'card an-side' },
      status,
      engineBox,
      h('div', { class: 'panel-head' }, movesTitle, h('span', { class: 'nav' }, nav.first, nav.back, nav.forward, nav.last)),
      treeView.element,
      h('div', { class: 'an-row' }, promoteBtn, deleteBtn),
      keysNote,
      section('setup', 'analysis.setup.title', edit.element),
      section('paste', 'analysis.paste.title', paste.element),
      section('share', 'analysis.share.title', exporter.element),
      explorer.element)));
  document.addEventListener('keydown', onKey);
  renderHead();
  if (!engineWanted) engine.stop('off');
  changed();

  return {
    onReady() {
      engine.onReady();
    },
    onMessage: (msg) => engine.onMessage(msg),
    onLang() {
      renderHead();
      edit.render();
      paste.render();
      explorer.render();
      enginePanel.render();
      changed();
    },
    unmount() {
      document.removeEventListener('keydown', onKey);
      engine.stop('off');
      exporter.dispose();
    },
  };
}
