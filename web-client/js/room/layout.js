// Room page skeleton: builds the elements once (head, player bars, board, status lines, move form, actions with "Report game", move list, chat, export) and makes each click an intent of the player (intents.js), which the room's controls carry out.

import { h, s, clear } from '../dom.js';
import { t } from '../i18n.js';
import { createBoard } from '../board.js';
import { createClocks } from '../clock.js';
import { createChat } from '../chat.js';
import { createOverDialog } from './over-dialog.js';
import { createLeaveDialog } from './leave-dialog.js';

export const SEATS = ['black', 'white'];

/** A small eye drawn in SVG (emoji fonts are not everywhere). */
function eyeIcon() {
  return s('svg', { class: 'eye', viewBox: '0 0 24 24', width: 18, height: 18, 'aria-hidden': 'true' },
    s('path', { d: 'M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z', fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    s('circle', { cx: 12, cy: 12, r: 3.2, fill: 'currentColor' }));
}

function playerBar(seat) {
  const clock = h('span', { class: 'clock', 'data-testid': `clock-${seat}`, role: 'timer', 'aria-label': t(`seat.${seat}`), hidden: true });
  // A correspondence room's vacation left, beside the move's own time.
  const vacation = h('span', { class: 'clock-vacation', 'data-testid': `clock-${seat}-vacation`, hidden: true });
  const bar = {
    root: h('div', { class: `player-bar seat-${seat}`, 'data-testid': `player-${seat}` }),
    name: h('span', { class: 'player-name', 'data-testid': `player-name-${seat}` }),
    info: h('span', { class: 'player-info' }),
    clock,
    vacation,
  };
  bar.root.append(
    h('span', { class: `stone-icon ${seat}`, 'aria-hidden': 'true' }),
    h('span', { class: 'player-main' }, bar.name, bar.info),
    vacation,
    clock);
  return bar;
}

const btn = (testid, key, onclick, extra = {}) => h('button', { type: 'button', 'data-testid': testid, 'data-i18n': key, onclick, ...extra }, t(key));

/** A move-list navigation button: a symbol, its name for screen readers. */
const navBtn = (testid, key, symbol, onclick) => h('button', { type: 'button', 'data-testid': testid, onclick, 'aria-label': t(key), 'data-i18n-aria': key }, symbol);

/** The head line: the way back to the lobby, the title, the time control, the rated badge and
 *  the count of watchers. */
function roomHead(root, onBack) {
  // The page's one h1, but on the TV page, whose own title is the h1.
  const titleEl = h(root.closest('.tv') ? 'span' : 'h1', { class: 'room-title', 'data-testid': 'room-title' }, t('room.loading'));
  const clockSpecEl = h('span', { class: 'room-clock-spec' });
  const ratedEl = h('span', { class: 'rated-badge', 'data-testid': 'room-rated', 'data-i18n': 'rating.rated', hidden: true }, t('rating.rated'));
  const spectatorsEl = h('span', { 'data-testid': 'spectators' }, '0');
  const element = h('div', { class: 'room-head' },
    h('button', { type: 'button', class: 'link', 'data-testid': 'btn-lobby', onclick: onBack, 'data-i18n': 'room.back' }, t('room.back')),
    titleEl, clockSpecEl, ratedEl,
    h('span', { class: 'spectators', title: t('room.spectators'), 'data-i18n-title': 'room.spectators' },
      eyeIcon(), ' ', spectatorsEl,
      h('span', { class: 'sr-only', 'data-i18n': 'room.spectators' }, t('room.spectators'))));
  return { element, titleEl, clockSpecEl, ratedEl, spectatorsEl };
}

/** What the game says or asks the player, each line hidden until it has something to say. */
function promptLines(emit) {
  return {
    statusEl: h('p', { class: 'status-line', 'data-testid': 'status', 'aria-live': 'polite' }),
    // Until the side to move makes its first move: the time left before the game is aborted.
    abortEl: h('p', { class: 'abort-countdown', role: 'timer', 'data-testid': 'abort-countdown', hidden: true }),
    // A seated player who left a game in progress: the time left to come back, and the claim.
    presenceEl: h('p', { class: 'presence', role: 'status', 'data-testid': 'presence', hidden: true }),
    errorEl: h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'error-msg', hidden: true }),
    noticeEl: h('p', { class: 'notice', role: 'status', 'data-testid': 'notice', hidden: true }),
    overEl: h('div', { class: 'game-over', role: 'status', 'data-testid': 'game-over', hidden: true }),
    touchHintEl: h('p', { class: 'touch-hint', role: 'note', 'data-testid': 'touch-hint', hidden: true },
      h('span', { 'data-i18n': 'room.touchHint' }, t('room.touchHint')),
      h('button', { type: 'button', 'data-testid': 'btn-touch-hint-ok', 'data-i18n': 'room.touchHintOk', onclick: () => emit('touchHintSeen') }, t('room.touchHintOk'))),
    forbiddenNoteEl: h('p', { class: 'forbidden-note', 'data-testid': 'forbidden-note', 'aria-live': 'polite', hidden: true }),
    // An opening rule's step: whose choice, what it is, and its buttons (drawn by the view).
    openingEl: h('div', { class: 'opening-panel', 'data-testid': 'opening-panel', 'aria-live': 'polite', hidden: true }),
  };
}

/** The box for a typed move ("h8"), played from the live position; emptied once it went out. */
function typedMove(emit) {
  const moveInput = h('input', { type: 'text', class: 'move-input', maxlength: 64, autocomplete: 'off', 'data-testid': 'move-input', 'aria-label': t('room.moveInput'), 'data-i18n-aria': 'room.moveInput', placeholder: t('room.moveInputPh', { ex: 'h8' }) });
  const moveForm = h('form', { class: 'move-form' }, moveInput,
    h('button', { type: 'submit', 'data-testid': 'btn-play-move', 'data-i18n': 'room.play' }, t('room.play')));
  moveForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = moveInput.value.trim().toLowerCase();
    if (!text) return;
    if (emit('playTyped', text)) moveInput.value = '';
  });
  return { moveInput, moveForm };
}

/** The action buttons, and the bot level beside "Invite a bot". */
function actionButtons(emit) {
  const buttons = {
    undo: btn('btn-undo', 'room.undo', () => emit('ask', 'undo'), { 'aria-keyshortcuts': 'Control+Z' }),
    draw: btn('btn-draw', 'room.draw', () => emit('ask', 'draw')),
    resign: btn('btn-resign', 'room.resign', () => emit('armResign')),
    resignConfirm: btn('btn-resign-confirm', 'room.resignConfirm', () => emit('resign'), { class: 'danger' }),
    abort: btn('btn-abort', 'room.abort', () => emit('abort')),
    rematch: btn('btn-rematch', 'room.rematch', () => emit('askRematch')),
    invite: btn('btn-invite-bot', 'room.inviteBot', () => emit('inviteBot')),
    flip: btn('btn-flip', 'room.flip', () => emit('flip'), { 'aria-pressed': 'false' }),
    copy: btn('btn-copy-link', 'room.copyLink', () => emit('copyLink')),
    // A seated player's report of the game against the other (the view names them and shows it).
    reportGame: btn('btn-report-game', 'rep.reportGame', () => emit('reportGame'), { hidden: true }),
  };
  const botLevel = h('select', { 'data-testid': 'bot-level', 'aria-label': t('room.botLevel'), 'data-i18n-aria': 'room.botLevel' });
  for (let l = 1; l <= 10; l++) botLevel.append(h('option', { value: l, selected: l === 3 ? true : null }, String(l)));
  botLevel.value = '3';
  const inviteGroup = h('span', { class: 'invite-group' }, buttons.invite, botLevel);
  const actionsEl = h('div', { class: 'actions' },
    buttons.undo, buttons.draw, buttons.abort, buttons.resign, buttons.resignConfirm, buttons.rematch, inviteGroup, buttons.flip, buttons.copy,
    buttons.reportGame);
  return { buttons, botLevel, inviteGroup, actionsEl };
}

/** The move list's panel with its step buttons, and "Back to the live position". */
function movesPanel(emit) {
  const nav = {
    first: navBtn('btn-first', 'room.first', '«', () => emit('goTo', 0)),
    prev: navBtn('btn-prev', 'room.prev', '‹', () => emit('step', -1)),
    next: navBtn('btn-next', 'room.next', '›', () => emit('step', 1)),
    last: navBtn('btn-last', 'room.last', '»', () => emit('goTo', Infinity)),
  };
  const moveList = h('ol', { class: 'move-list', 'data-testid': 'move-list', 'aria-label': t('room.moves'), 'data-i18n-aria': 'room.moves' });
  const liveBtn = btn('btn-live', 'room.backToLive', () => emit('goTo', Infinity), { class: 'link' });
  const element = h('section', { class: 'panel moves' },
    h('div', { class: 'panel-head' },
      h('h2', { class: 'panel-title', 'data-i18n': 'room.moves' }, t('room.moves')),
      h('span', { class: 'nav' }, nav.first, nav.prev, nav.next, nav.last)),
    moveList);
  return { element, nav, moveList, liveBtn };
}

/** The export panel: the moves as one string, a button that copies it, and download links. */
function exportPanel(emit) {
  const moveStringEl = h('input', { type: 'text', readonly: true, class: 'move-string', 'data-testid': 'move-string', 'aria-label': t('room.moveString'), 'data-i18n-aria': 'room.moveString' });
  const exportLinksEl = h('span', { class: 'export-links' });
  const element = h('section', { class: 'panel export' },
    h('h2', { class: 'panel-title', 'data-i18n': 'room.export' }, t('room.export')),
    h('div', { class: 'row' }, moveStringEl, btn('btn-copy-moves', 'room.copyMoves', () => emit('copyMoves'))),
    exportLinksEl);
  return { element, moveStringEl, exportLinksEl };
}

/**
 * Builds room `roomId` in `root` (emptied first). `emit(intent, ...args)` (intents.js) takes
 * each thing the player asks for. `me()` is our player id, for marking our own chat lines;
 * `report` and `block` the chat's report of a line and block of its player (chat.js).
 * Returns the elements the view draws into.
 */
export function buildRoom(root, { roomId, emit, onBack, leaveNow, onTournament, me, report = null, block = null }) {
  const head = roomHead(root, onBack);
  const bars = { black: playerBar('black'), white: playerBar('white') };
  const topSlot = h('div', { class: 'bar-slot top' });
  const bottomSlot = h('div', { class: 'bar-slot bottom' });
  const boardBox = h('div', { class: 'board-box' });
  const board = createBoard(boardBox, { onPlay: (move) => emit('boardClick', move) });
  const prompts = promptLines(emit);
  const typed = typedMove(emit);
  const offersEl = h('div', { class: 'offers', 'aria-live': 'polite' });
  const actions = actionButtons(emit);
  const moves = movesPanel(emit);
  const exported = exportPanel(emit);
  const reviewEl = h('section', { class: 'panel review', 'data-testid': 'review-panel', hidden: true });
  const chatBox = h('section', { class: 'panel chat' });
  const chat = createChat(chatBox, { onSend: (text) => emit('sendChat', text), me, report, block });
  const clocks = createClocks({
    black: bars.black.clock, white: bars.white.clock, blackVacation: bars.black.vacation, whiteVacation: bars.white.vacation, abort: prompts.abortEl,
  });
  const overDialog = createOverDialog({
    roomId,
    onRematch: () => emit('askRematch'),
    onTournament,
    onReview: () => emit('review'),
    onLobby: onBack,
    fallbackFocus: () => board.element,
  });
  const leaveDialog = createLeaveDialog({ roomId, onLeave: leaveNow });

  const p = prompts;
  clear(root);
  root.append(h('div', { class: 'room', 'data-testid': 'room', 'data-room': roomId },
    h('div', { class: 'board-col' }, head.element, topSlot, boardBox, bottomSlot),
    // What the game says or asks the player: beside the board on a wide screen, right under it on
    // a phone (style.css), never below the fold.
    h('div', { class: 'prompts', 'data-testid': 'prompts' },
      p.statusEl, p.abortEl, p.presenceEl, p.openingEl, p.errorEl, p.noticeEl, p.overEl, p.forbiddenNoteEl, p.touchHintEl,
      typed.moveForm),
    h('aside', { class: 'side-col' },
      offersEl,
      h('section', { class: 'panel' }, actions.actionsEl),
      moves.element,
      reviewEl,
      chatBox,
      exported.element),
    overDialog.element, leaveDialog.element));

  return {
    titleEl: head.titleEl, clockSpecEl: head.clockSpecEl, ratedEl: head.ratedEl, spectatorsEl: head.spectatorsEl,
    bars, topSlot, bottomSlot, board,
    statusEl: p.statusEl, presenceEl: p.presenceEl, openingEl: p.openingEl, errorEl: p.errorEl, noticeEl: p.noticeEl,
    overEl: p.overEl, touchHintEl: p.touchHintEl, forbiddenNoteEl: p.forbiddenNoteEl,
    moveInput: typed.moveInput, moveForm: typed.moveForm,
    offersEl, buttons: actions.buttons, botLevel: actions.botLevel, inviteGroup: actions.inviteGroup,
    nav: moves.nav, moveList: moves.moveList, liveBtn: moves.liveBtn,
    moveStringEl: exported.moveStringEl, exportLinksEl: exported.exportLinksEl,
    chat, clocks, overDialog, leaveDialog, reviewEl,
  };
}
