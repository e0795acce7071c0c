// Room view: mirrors one room from `state` and its events (seq-checked), draws board, players, clocks, move list with history navigation, offers, chat, game-over banner and export.

import { h, s, clear } from './dom.js';
import { t, gameLabel, clockLabel, errorText } from './i18n.js';
import { createBoard } from './board.js';
import { createClocks } from './clock.js';
import { createChat } from './chat.js';
import { replay, applyMove, parseCell, othelloLegal, stoneOf, countDiscs, other, lineThrough, dims } from './rules.js';
import { forbiddenPoints } from './renju.js';
import { moveRows, moveString, exportLinks } from './record.js';

const SEATS = ['black', 'white'];

/** A small eye drawn in SVG (emoji fonts are not everywhere). */
function eyeIcon() {
  return s('svg', { class: 'eye', viewBox: '0 0 24 24', width: 18, height: 18, 'aria-hidden': 'true' },
    s('path', { d: 'M1 12s4-7 11-7 11 7 11 7-4 7-11 7S1 12 1 12z', fill: 'none', stroke: 'currentColor', 'stroke-width': 2 }),
    s('circle', { cx: 12, cy: 12, r: 3.2, fill: 'currentColor' }));
}
const PENDING_TIMEOUT_MS = 10000;
const ASK_TIMEOUT_MS = 30000;

/** Mounts the room `room` in `root`. opts.fresh: we just created it (its state is on the way);
 *  opts.as: 'player' (take a free seat, else watch) or 'spectator'. */
export function mountRoom(root, app, { room, fresh = false, as = 'player', clockSpec }) {
  const R = {
    id: room,
    game: null,
    opening: [],
    moves: [],
    positions: [],
    toMove: 'black',
    status: 'loading',
    result: null,
    seats: { black: null, white: null },
    clock: null,
    spectators: 0,
    online: {},
    you: null,
    seq: null,
    view: null, // null: follow the game; else the position index on show
    flipped: false,
    joinAs: as,
    resyncing: false,
    pending: null, // { id, msg, plies } a move sent and not yet answered
    offers: { undo: null, draw: null },
    asked: { undo: 0, draw: 0, rematch: 0 },
    rematchOffered: false,
    resignArmed: false,
  };
  const forbiddenCache = new WeakMap();
  const timers = new Set();
  let errorTimer = 0;
  let noticeTimer = 0;

  const later = (fn, ms) => {
    const id = setTimeout(() => {
      timers.delete(id);
      fn();
    }, ms);
    timers.add(id);
    return id;
  };

  // ---------- skeleton ----------
  const titleEl = h('span', { class: 'room-title', 'data-testid': 'room-title' }, t('room.loading'));
  const clockSpecEl = h('span', { class: 'room-clock-spec' });
  const spectatorsEl = h('span', { 'data-testid': 'spectators' }, '0');
  const head = h('div', { class: 'room-head' },
    h('button', { type: 'button', class: 'link', 'data-testid': 'btn-lobby', onclick: () => app.go(null), 'data-i18n': 'room.back' }, t('room.back')),
    titleEl, clockSpecEl,
    h('span', { class: 'spectators', title: t('room.spectators'), 'data-i18n-title': 'room.spectators' },
      eyeIcon(), ' ', spectatorsEl,
      h('span', { class: 'sr-only', 'data-i18n': 'room.spectators' }, t('room.spectators'))));

  const bars = {};
  const clockEls = {};
  for (const seat of SEATS) {
    clockEls[seat] = h('span', { class: 'clock', 'data-testid': `clock-${seat}`, role: 'timer', 'aria-label': t(`seat.${seat}`), hidden: true });
    bars[seat] = {
      root: h('div', { class: `player-bar seat-${seat}`, 'data-testid': `player-${seat}` }),
      name: h('span', { class: 'player-name', 'data-testid': `player-name-${seat}` }),
      info: h('span', { class: 'player-info' }),
      clock: clockEls[seat],
    };
    bars[seat].root.append(
      h('span', { class: `stone-icon ${seat}`, 'aria-hidden': 'true' }),
      h('span', { class: 'player-main' }, bars[seat].name, bars[seat].info),
      clockEls[seat]);
  }
  const topSlot = h('div', { class: 'bar-slot top' });
  const bottomSlot = h('div', { class: 'bar-slot bottom' });

  const boardBox = h('div', { class: 'board-box' });
  const board = createBoard(boardBox, { onPlay: play });

  const statusEl = h('p', { class: 'status-line', 'data-testid': 'status', 'aria-live': 'polite' });
  const errorEl = h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'error-msg', hidden: true });
  const noticeEl = h('p', { class: 'notice', role: 'status', 'data-testid': 'notice', hidden: true });
  const overEl = h('div', { class: 'game-over', role: 'status', 'data-testid': 'game-over', hidden: true });

  const moveInput = h('input', { type: 'text', class: 'move-input', maxlength: 4, autocomplete: 'off', 'data-testid': 'move-input', 'aria-label': t('room.moveInput'), 'data-i18n-aria': 'room.moveInput', placeholder: t('room.moveInputPh', { ex: 'h8' }) });
  const moveForm = h('form', { class: 'move-form' }, moveInput,
    h('button', { type: 'submit', 'data-testid': 'btn-play-move', 'data-i18n': 'room.play' }, t('room.play')));
  moveForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = moveInput.value.trim().toLowerCase();
    if (!text) return;
    R.view = null;
    if (play(text)) moveInput.value = '';
  });

  // Offers and actions.
  const offersEl = h('div', { class: 'offers', 'aria-live': 'polite' });
  const btn = (testid, key, onclick, extra = {}) => h('button', { type: 'button', 'data-testid': testid, 'data-i18n': key, onclick, ...extra }, t(key));
  const buttons = {
    undo: btn('btn-undo', 'room.undo', askUndo, { 'aria-keyshortcuts': 'Control+Z' }),
    draw: btn('btn-draw', 'room.draw', offerDraw),
    resign: btn('btn-resign', 'room.resign', () => { R.resignArmed = true; renderActions(); later(() => { R.resignArmed = false; renderActions(); }, 4000); }),
    resignConfirm: btn('btn-resign-confirm', 'room.resignConfirm', resign, { class: 'danger' }),
    rematch: btn('btn-rematch', 'room.rematch', askRematch),
    invite: btn('btn-invite-bot', 'room.inviteBot', inviteBot),
    flip: btn('btn-flip', 'room.flip', () => { R.flipped = !R.flipped; renderBoard(false); }, { 'aria-pressed': 'false' }),
    copy: btn('btn-copy-link', 'room.copyLink', copyLink),
  };
  const botLevel = h('select', { 'data-testid': 'bot-level', 'aria-label': t('room.botLevel'), 'data-i18n-aria': 'room.botLevel' });
  for (let l = 1; l <= 10; l++) botLevel.append(h('option', { value: l, selected: l === 3 ? true : null }, String(l)));
  botLevel.value = '3';
  const inviteGroup = h('span', { class: 'invite-group' }, buttons.invite, botLevel);
  const actionsEl = h('div', { class: 'actions' },
    buttons.undo, buttons.draw, buttons.resign, buttons.resignConfirm, buttons.rematch, inviteGroup, buttons.flip, buttons.copy);

  // Move list and navigation.
  const nav = {
    first: btn('btn-first', null, () => goTo(0), { 'aria-label': t('room.first'), 'data-i18n-aria': 'room.first' }),
    prev: btn('btn-prev', null, () => goTo(shownIndex() - 1), { 'aria-label': t('room.prev'), 'data-i18n-aria': 'room.prev' }),
    next: btn('btn-next', null, () => goTo(shownIndex() + 1), { 'aria-label': t('room.next'), 'data-i18n-aria': 'room.next' }),
    last: btn('btn-last', null, () => goTo(Infinity), { 'aria-label': t('room.last'), 'data-i18n-aria': 'room.last' }),
  };
  nav.first.textContent = '«';
  nav.prev.textContent = '‹';
  nav.next.textContent = '›';
  nav.last.textContent = '»';
  for (const b of Object.values(nav)) b.removeAttribute('data-i18n');
  const moveList = h('ol', { class: 'move-list', 'data-testid': 'move-list', 'aria-label': t('room.moves'), 'data-i18n-aria': 'room.moves' });
  const liveBtn = btn('btn-live', 'room.backToLive', () => goTo(Infinity), { class: 'link' });

  const moveStringEl = h('input', { type: 'text', readonly: true, class: 'move-string', 'data-testid': 'move-string', 'aria-label': t('room.moveString'), 'data-i18n-aria': 'room.moveString' });
  const exportLinksEl = h('span', { class: 'export-links' });
  const exportEl = h('section', { class: 'panel export' },
    h('h2', { class: 'panel-title', 'data-i18n': 'room.export' }, t('room.export')),
    h('div', { class: 'row' }, moveStringEl, btn('btn-copy-moves', 'room.copyMoves', copyMoves)),
    exportLinksEl);

  const chatBox = h('section', { class: 'panel chat' });
  const chat = createChat(chatBox, { onSend: sendChat, me: () => app.net.player });

  const clocks = createClocks(clockEls);

  clear(root);
  root.append(h('div', { class: 'room', 'data-testid': 'room', 'data-room': room },
    h('div', { class: 'board-col' },
      head,
      topSlot,
      boardBox,
      bottomSlot,
      statusEl, errorEl, noticeEl, overEl,
      moveForm),
    h('aside', { class: 'side-col' },
      offersEl,
      h('section', { class: 'panel' }, actionsEl),
      h('section', { class: 'panel moves' },
        h('div', { class: 'panel-head' },
          h('h2', { class: 'panel-title', 'data-i18n': 'room.moves' }, t('room.moves')),
          h('span', { class: 'nav' }, nav.first, nav.prev, nav.next, nav.last)),
        moveList),
      chatBox,
      exportEl)));

  // ---------- helpers ----------
  const liveIndex = () => R.positions.length - 1;
  const shownIndex = () => (R.view == null ? liveIndex() : R.view);
  const isPlayer = () => R.you === 'black' || R.you === 'white';
  const playing = () => R.status === 'playing';

  function send(msg) {
    if (app.net.send(msg)) return true;
    showError(t('net.notSent'));
    return false;
  }

  function showError(text) {
    errorEl.textContent = text;
    errorEl.hidden = false;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => { errorEl.hidden = true; }, 6000);
  }

  function showNotice(text) {
    noticeEl.textContent = text;
    noticeEl.hidden = false;
    clearTimeout(noticeTimer);
    noticeTimer = setTimeout(() => { noticeEl.hidden = true; }, 3000);
  }

  function join(asWhat = R.joinAs) {
    R.resyncing = true;
    app.net.send({ t: 'join', room: R.id, as: asWhat });
  }

  /** Checks an event's seq: true to apply it. A gap asks for a fresh state. */
  function seqOk(msg) {
    if (typeof msg.seq !== 'number' || R.seq == null) return true;
    if (msg.seq <= R.seq) return false;
    if (msg.seq > R.seq + 1) {
      if (!R.resyncing) join();
      return false;
    }
    R.seq = msg.seq;
    return true;
  }

  // ---------- actions ----------
  function play(move) {
    if (!R.game) return false;
    if (R.pending) return false;
    const id = `m${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`;
    const msg = { t: 'move', room: R.id, move, id };
    if (!send(msg)) return false;
    R.pending = { id, msg, plies: R.moves.length };
    later(() => {
      if (R.pending && R.pending.id === id) {
        R.pending = null;
        renderBoard(false);
      }
    }, PENDING_TIMEOUT_MS);
    renderBoard(false);
    return true;
  }

  function askUndo() {
    if (!isPlayer() || !playing()) return;
    if (send({ t: 'undo', room: R.id })) {
      R.asked.undo = Date.now();
      renderOffers();
      later(renderOffers, ASK_TIMEOUT_MS + 50);
    }
  }

  function offerDraw() {
    if (!isPlayer() || !playing()) return;
    if (send({ t: 'draw', room: R.id })) {
      R.asked.draw = Date.now();
      renderOffers();
      later(renderOffers, ASK_TIMEOUT_MS + 50);
    }
  }

  function resign() {
    R.resignArmed = false;
    if (isPlayer() && playing()) send({ t: 'resign', room: R.id });
    renderActions();
  }

  function askRematch() {
    if (!isPlayer()) return;
    if (send({ t: 'rematch', room: R.id })) {
      R.asked.rematch = Date.now();
      renderOffers();
    }
  }

  function inviteBot() {
    send({ t: 'invite_bot', room: R.id, level: Number(botLevel.value) || 3 });
  }

  function reply(kind, accept) {
    send({ t: `${kind}_reply`, room: R.id, accept });
    R.offers[kind] = null;
    renderOffers();
  }

  function sendChat(text) {
    return send({ t: 'chat', room: R.id, text });
  }

  function roomLink() {
    const base = location.origin && location.origin !== 'null' ? `${location.origin}/` : location.href.split('?')[0];
    return `${base}?room=${encodeURIComponent(R.id)}`;
  }

  async function copyText(text, done) {
    try {
      await navigator.clipboard.writeText(text);
      showNotice(done);
    } catch {
      // No clipboard permission (or an insecure page): show the text selected instead.
      moveStringEl.value = text;
      moveStringEl.focus();
      moveStringEl.select();
    }
  }

  function copyLink() {
    copyText(roomLink(), t('room.linkCopied'));
  }

  function copyMoves() {
    copyText(moveStringEl.value, t('room.copied'));
  }

  function goTo(index) {
    if (!R.positions.length) return;
    const before = shownIndex();
    const k = Math.max(0, Math.min(liveIndex(), index));
    R.view = k >= liveIndex() ? null : k;
    renderBoard(k === before + 1);
    renderMoves();
    renderStatus();
  }

  // ---------- rendering ----------
  function seatWord(seat) {
    return t(`seat.${seat}`);
  }

  function winLine() {
    const line = R.result && Array.isArray(R.result.line) ? R.result.line : null;
    if (line && line.length) return line.map((c) => parseCell(R.game, c)).filter((i) => i >= 0);
    if (R.result && (R.result.reason === 'five' || R.result.reason === 'four')) {
      const pos = R.positions[liveIndex()];
      if (pos && pos.last >= 0) return lineThrough(R.game, pos.cells, pos.last, R.game.kind === 'connect4' ? 4 : 5) || [];
    }
    return [];
  }

  function renderBoard(animate) {
    if (!R.game || !R.positions.length) return;
    const k = shownIndex();
    const live = R.view == null;
    const pos = R.positions[k];
    const toMove = live ? R.toMove : pos.toMove;
    const atEnd = R.status === 'over' && k === liveIndex();
    let forbidden = [];
    let legal = [];
    if (!atEnd && R.game.kind === 'gomoku' && R.game.rule === 'renju' && toMove === 'black') {
      if (!forbiddenCache.has(pos)) forbiddenCache.set(pos, forbiddenPoints(pos.cells, dims(R.game).cols));
      forbidden = forbiddenCache.get(pos);
    }
    if (!atEnd && R.game.kind === 'othello') legal = othelloLegal(pos.cells, stoneOf(toMove));
    // Offline, a click could not reach the server: the board waits for the connection.
    const interactive = live && playing() && isPlayer() && R.you === R.toMove && !R.pending && app.net.ready;
    board.render({
      game: R.game,
      pos,
      flipped: R.flipped,
      interactive,
      me: interactive ? R.you : toMove,
      forbidden,
      legal,
      winLine: atEnd ? winLine() : [],
      animate,
      onInactiveClick: () => {
        if (R.view != null) goTo(Infinity);
      },
    });
    buttons.flip.setAttribute('aria-pressed', String(R.flipped));
  }

  function renderPlayers() {
    const bottom = isPlayer() ? R.you : 'black';
    const top = other(bottom);
    topSlot.append(bars[top].root);
    bottomSlot.append(bars[bottom].root);
    const pos = R.positions[shownIndex()];
    const discs = R.game && R.game.kind === 'othello' && pos ? countDiscs(pos.cells) : null;
    for (const seat of SEATS) {
      const b = bars[seat];
      const info = R.seats[seat];
      clear(b.info);
      if (info) {
        b.name.textContent = String(info.name ?? '?');
        b.name.classList.remove('muted');
        if (info.bot) b.info.append(h('span', { class: 'bot-badge', 'data-testid': `bot-badge-${seat}` }, t('player.bot')));
        const online = R.online[seat] ?? info.online;
        b.info.append(h('span', {
          class: `online-dot${online ? ' on' : ''}`,
          'data-testid': `online-${seat}`,
          'data-online': String(!!online),
          title: t(online ? 'player.online' : 'player.offline'),
          role: 'img',
          'aria-label': t(online ? 'player.online' : 'player.offline'),
        }));
        if (R.you === seat) b.info.append(h('span', { class: 'you-tag' }, t('player.you')));
      } else {
        b.name.textContent = t('player.empty');
        b.name.classList.add('muted');
      }
      if (discs) b.info.append(h('span', { class: 'discs', 'data-testid': `discs-${seat}` }, t('player.discs', { n: discs[seat] })));
      b.root.classList.toggle('to-move', playing() && R.toMove === seat);
    }
    spectatorsEl.textContent = String(R.spectators ?? 0);
  }

  function renderStatus() {
    clear(statusEl);
    if (!R.game) {
      statusEl.textContent = t('room.loading');
      return;
    }
    if (R.view != null) {
      statusEl.append(t('room.viewing', { n: R.view, total: liveIndex() }), ' ', liveBtn);
      return;
    }
    if (R.status === 'waiting') statusEl.textContent = t('room.waiting');
    else if (R.status === 'playing') statusEl.textContent = R.you === R.toMove ? t('room.yourMove') : t('room.toMove', { seat: seatWord(R.toMove) });
    else if (R.status === 'over') statusEl.textContent = t('room.over');
    const yourMove = R.status === 'playing' && R.you === R.toMove;
    document.title = `${yourMove ? '● ' : ''}${gameLabel(R.game)} — Kibitz`;
  }

  function renderOver() {
    clear(overEl);
    if (R.status !== 'over' || !R.result) {
      overEl.hidden = true;
      return;
    }
    const res = R.result;
    let head;
    if (res.result === 'draw') head = t('over.draw');
    else if (isPlayer()) head = res.result === R.you ? t('over.youWin') : t('over.youLose');
    else head = t('over.win', { seat: seatWord(res.result) });
    const parts = [h('strong', { class: 'over-head' }, head)];
    if (res.reason) parts.push(h('span', { class: 'over-reason', 'data-reason': res.reason }, ` — ${t(`reason.${res.reason}`)}`));
    if (res.score) parts.push(h('span', { class: 'over-score', 'data-testid': 'over-score' }, ` (${t('room.score', { black: res.score.black, white: res.score.white })})`));
    overEl.append(...parts);
    overEl.dataset.result = res.result || '';
    overEl.dataset.reason = res.reason || '';
    overEl.hidden = false;
  }

  function moveLabel(move) {
    return move === 'pass' ? t('room.pass') : move;
  }

  function renderMoves() {
    clear(moveList);
    const shown = shownIndex();
    const item = (k, move) => {
      const b = h('button', { type: 'button', class: `mv${move === 'pass' ? ' pass' : ''}${k === shown ? ' current' : ''}`, 'data-ply': k, 'data-testid': `move-${k}`, onclick: () => goTo(k) }, moveLabel(move));
      if (k === shown) b.setAttribute('aria-current', 'step');
      return b;
    };
    if (R.opening.length) {
      moveList.append(h('li', { class: 'opening-row' }, h('span', { class: 'num', 'data-i18n': 'room.opening' }, t('room.opening')),
        ...R.opening.map((m, i) => item(i + 1, m))));
    }
    if (!R.moves.length && !R.opening.length) moveList.append(h('li', { class: 'empty' }, t('room.noMoves')));
    for (const row of moveRows(R.moves, R.opening.length + 1)) {
      moveList.append(h('li', { class: 'move-row' },
        h('span', { class: 'num' }, `${row.number}.`),
        row.black ? item(row.black.ply, row.black.move) : h('span', { class: 'mv empty' }, '…'),
        row.white ? item(row.white.ply, row.white.move) : h('span', { class: 'mv empty' })));
    }
    const cur = moveList.querySelector('.current');
    if (cur && moveList.scrollHeight > moveList.clientHeight) {
      // Keep the highlighted move in view without scrolling the page.
      const top = cur.offsetTop - moveList.offsetTop;
      if (top < moveList.scrollTop || top > moveList.scrollTop + moveList.clientHeight - 30) moveList.scrollTop = top - moveList.clientHeight / 2;
    } else if (R.view == null) moveList.scrollTop = moveList.scrollHeight;
    nav.first.disabled = nav.prev.disabled = shown <= 0;
    nav.next.disabled = nav.last.disabled = shown >= liveIndex();
    if (R.game) {
      moveStringEl.value = moveString(R.game, R.opening, R.moves);
      clear(exportLinksEl);
      for (const l of exportLinks(R.id, R.game)) {
        exportLinksEl.append(h('a', { href: l.href, download: l.file, 'data-testid': `export-${l.key}`, class: 'button' }, t(`room.export.${l.key}`)));
      }
    }
  }

  function renderOffers() {
    clear(offersEl);
    const now = Date.now();
    for (const kind of ['undo', 'draw']) {
      const by = R.offers[kind];
      if (by && isPlayer() && by !== R.you) {
        offersEl.append(h('div', { class: 'offer', 'data-testid': `${kind}-offer`, role: 'alertdialog', 'aria-label': t(`room.${kind}Offer`, { seat: seatWord(by) }) },
          h('span', {}, t(`room.${kind}Offer`, { seat: seatWord(by) })),
          h('button', { type: 'button', class: 'primary', 'data-testid': `btn-accept-${kind}`, onclick: () => reply(kind, true) }, t('room.accept')),
          h('button', { type: 'button', 'data-testid': `btn-decline-${kind}`, onclick: () => reply(kind, false) }, t('room.decline'))));
      }
      if (R.asked[kind] && now - R.asked[kind] < ASK_TIMEOUT_MS && playing()) {
        offersEl.append(h('div', { class: 'offer asked', 'data-testid': `${kind}-asked` }, t(`room.${kind}Asked`)));
      }
    }
    if (R.status === 'over' && R.asked.rematch) offersEl.append(h('div', { class: 'offer asked', 'data-testid': 'rematch-asked' }, t('room.rematchAsked')));
    else if (R.status === 'over' && R.rematchOffered && isPlayer()) {
      offersEl.append(h('div', { class: 'offer', 'data-testid': 'rematch-offer' }, t('room.rematchOffered'),
        h('button', { type: 'button', class: 'primary', 'data-testid': 'btn-accept-rematch', onclick: askRematch }, t('room.rematch'))));
    }
  }

  function renderActions() {
    const seated = isPlayer();
    const p = playing();
    // The server takes back the asker's own last move, so there must be one (a pass is not).
    const myMove = R.moves.some((m, k) => m !== 'pass' && R.positions[R.opening.length + k]?.toMove === R.you);
    buttons.undo.disabled = !(seated && p && myMove);
    buttons.draw.disabled = !(seated && p);
    buttons.resign.disabled = !(seated && p);
    buttons.resign.hidden = R.resignArmed && seated && p;
    buttons.resignConfirm.hidden = !(R.resignArmed && seated && p);
    buttons.rematch.disabled = !(seated && R.status === 'over');
    // A spectator has no seat to act for: show only what they can use.
    for (const b of [buttons.undo, buttons.draw, buttons.rematch]) b.hidden = !seated;
    if (!seated) buttons.resign.hidden = true;
    const freeSeat = !R.seats.black || !R.seats.white;
    buttons.invite.disabled = !(freeSeat && R.status !== 'over' && R.game);
    botLevel.disabled = buttons.invite.disabled;
    // Once both seats are taken there is nobody to invite: keep the panel short.
    inviteGroup.hidden = !!R.game && !freeSeat;
    // Typed moves only make sense while the game runs.
    moveForm.hidden = !(seated && p);
  }

  function renderHead() {
    if (!R.game) return;
    moveInput.placeholder = t('room.moveInputPh', { ex: R.game.kind === 'connect4' ? '4' : R.game.kind === 'othello' ? 'f5' : 'h8' });
    titleEl.textContent = gameLabel(R.game);
    // `state.control` is the time control (absent when untimed); before the first state the
    // lobby's copy stands in.
    const control = R.game && R.hasState ? (R.control ?? null) : clockSpec;
    clockSpecEl.textContent = control !== undefined ? clockLabel(control) : '';
  }

  function renderAll(animate = false) {
    renderHead();
    renderPlayers();
    renderBoard(animate);
    renderMoves();
    renderStatus();
    renderOver();
    renderOffers();
    renderActions();
    chat.setSpectator(!isPlayer());
  }

  // ---------- events from the server ----------
  function applyState(msg) {
    R.game = msg.game;
    R.control = msg.control ?? null;
    R.hasState = true;
    R.opening = Array.isArray(msg.opening) ? msg.opening : [];
    R.moves = Array.isArray(msg.moves) ? msg.moves : [];
    R.positions = replay(R.game, [...R.opening, ...R.moves]);
    R.toMove = msg.to_move || R.positions[liveIndex()].toMove;
    R.status = msg.status;
    R.result = msg.result || null;
    R.seats = msg.seats || { black: null, white: null };
    R.online = {};
    R.clock = msg.clock || null;
    R.spectators = msg.spectators ?? 0;
    R.you = msg.you === 'black' || msg.you === 'white' ? msg.you : null;
    R.seq = typeof msg.seq === 'number' ? msg.seq : null;
    R.resyncing = false;
    if (R.you) R.joinAs = 'player';
    else if (R.seats.black && R.seats.white) R.joinAs = 'spectator';
    if (R.view != null && R.view >= liveIndex()) R.view = null;
    R.offers = { undo: null, draw: null };
    if (R.status !== 'over') R.rematchOffered = false;
    clocks.set(R.status === 'over' && R.clock ? { ...R.clock, running: null } : R.clock);
    if (R.pending) {
      if (R.moves.length > R.pending.plies || R.status !== 'playing') R.pending = null;
      else if (R.you === R.toMove) app.net.send(R.pending.msg); // same id: never played twice
    }
    renderAll(false);
  }

  function applyMoved(msg) {
    // `ply` counts the moves after the opening, this one included: anything else means we
    // missed something, so ask for the whole room again.
    if (typeof msg.ply === 'number' && msg.ply !== R.moves.length + 1) {
      join();
      return;
    }
    const last = R.positions[liveIndex()];
    R.moves.push(msg.move);
    R.positions.push(applyMove(R.game, last, msg.move));
    R.toMove = msg.to_move || other(last.toMove);
    if ('clock' in msg) R.clock = msg.clock;
    clocks.set(R.clock);
    if (R.pending && (msg.id === R.pending.id || msg.by === R.you)) R.pending = null;
    R.offers = { undo: null, draw: null };
    R.asked.undo = 0;
    R.asked.draw = 0;
    if (R.status === 'waiting') R.status = 'playing';
    renderAll(R.view == null);
  }

  function applyOver(msg) {
    R.status = 'over';
    R.result = { result: msg.result, reason: msg.reason, line: msg.line, score: msg.score };
    R.pending = null;
    R.offers = { undo: null, draw: null };
    R.asked = { undo: 0, draw: 0, rematch: 0 };
    clocks.stop();
    renderAll(false);
  }

  function applyUndone(msg) {
    // `ply` counts the moves after the opening, like `moves` in `state`.
    if (typeof msg.ply !== 'number' || msg.ply > R.moves.length) {
      join();
      return;
    }
    const n = Math.max(0, msg.ply);
    R.moves.length = n;
    R.positions.length = R.opening.length + n + 1;
    R.toMove = R.positions[liveIndex()].toMove;
    const cur = clocks.current();
    if (cur && cur.running) {
      R.clock = { ...cur, running: R.toMove };
      clocks.set(R.clock);
    }
    if (R.view != null && R.view >= liveIndex()) R.view = null;
    R.offers.undo = null;
    R.asked.undo = 0;
    renderAll(false);
  }

  function handleError(msg) {
    if (msg.code === 'room_full' && (msg.ref === 'join' || !R.game)) {
      // The seats are taken: watch instead.
      R.joinAs = 'spectator';
      join('spectator');
      return;
    }
    if (msg.ref === 'move' || (R.pending && msg.id === R.pending.id)) {
      R.pending = null;
      renderBoard(false);
    }
    if (msg.ref === 'join') R.resyncing = false;
    // A refused request is not waiting for an answer any more.
    if (msg.ref === 'undo' || msg.ref === 'draw' || msg.ref === 'rematch') {
      R.asked[msg.ref] = 0;
      renderOffers();
    }
    showError(errorText(msg));
  }

  function onMessage(msg) {
    if (msg.room != null && msg.room !== R.id) return false;
    switch (msg.t) {
      case 'state':
        applyState(msg);
        return true;
      case 'moved':
        if (R.game && seqOk(msg)) applyMoved(msg);
        return true;
      case 'over':
        if (R.game && seqOk(msg)) applyOver(msg);
        return true;
      case 'undone':
        if (R.game && seqOk(msg)) applyUndone(msg);
        return true;
      case 'chat':
        onChat(msg);
        return true;
      case 'undo_offer':
      case 'draw_offer': {
        if (!seqOk(msg)) return true;
        const kind = msg.t === 'undo_offer' ? 'undo' : 'draw';
        if (msg.by && msg.by !== R.you) R.offers[kind] = msg.by;
        renderOffers();
        return true;
      }
      case 'rematch':
        seqOk(msg);
        if (msg.next) {
          app.go(msg.next, { as: isPlayer() ? 'player' : 'spectator' });
        } else {
          R.rematchOffered = true;
          renderOffers();
        }
        return true;
      case 'crowd':
        if (typeof msg.spectators === 'number') R.spectators = msg.spectators;
        if (msg.online && typeof msg.online === 'object') R.online = { ...msg.online };
        renderPlayers();
        return true;
      case 'error':
        handleError(msg);
        return true;
      default:
        return false;
    }
  }

  /** Three kinds of line: players' (numbered), spectators' (they carry the current seq without
   *  taking a number, since players never see them) and the room's own (`from` empty, numbered),
   *  which the server uses to announce a rematch offer. */
  function onChat(msg) {
    const numbered = typeof msg.seq === 'number' && R.seq != null;
    if (!msg.seat && msg.from) {
      chat.add(msg);
      if (numbered && msg.seq > R.seq && !R.resyncing) join();
      return;
    }
    if (numbered && msg.seq <= R.seq) return;
    if (msg.from === '') systemLine(msg);
    else chat.add(msg);
    seqOk(msg);
  }

  function systemLine(msg) {
    const text = String(msg.text ?? '');
    const rematch = text.match(/^(.*) offers a rematch\.?$/);
    if (!rematch) {
      chat.note(text);
      return;
    }
    chat.note(t('chat.rematchOffer', { name: rematch[1] }));
    // Our own request comes back as the same line; only the opponent's is an offer to answer.
    if (R.status === 'over' && !R.asked.rematch) {
      R.rematchOffered = true;
      renderOffers();
    }
  }

  // ---------- keyboard ----------
  function onKey(ev) {
    const target = ev.target;
    const typing = target && (target.closest?.('input, textarea, select, [contenteditable="true"]'));
    if ((ev.ctrlKey || ev.metaKey) && !ev.shiftKey && !ev.altKey && ev.key.toLowerCase() === 'z') {
      if (typing) return;
      ev.preventDefault();
      askUndo();
      return;
    }
    if (typing || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.defaultPrevented) return; // the board used the key for its cursor
    const k = { ArrowLeft: -1, ArrowRight: 1 }[ev.key];
    if (k) {
      ev.preventDefault();
      goTo(shownIndex() + k);
    } else if (ev.key === 'Home') {
      ev.preventDefault();
      goTo(0);
    } else if (ev.key === 'End') {
      ev.preventDefault();
      goTo(Infinity);
    }
  }
  document.addEventListener('keydown', onKey);

  renderAll(false);
  if (app.net.ready && !fresh) join();

  return {
    onReady() {
      R.resyncing = false;
      join(R.you ? 'player' : R.joinAs);
    },
    onMessage,
    onStatus() {
      renderBoard(false);
    },
    onLang() {
      renderAll(false);
    },
    unmount() {
      document.removeEventListener('keydown', onKey);
      for (const id of timers) clearTimeout(id);
      clearTimeout(errorTimer);
      clearTimeout(noticeTimer);
      clocks.stop();
      // A seated player keeps the seat while the game goes on; everyone else leaves.
      if (!(isPlayer() && playing())) app.net.send({ t: 'leave', room: R.id });
      document.title = 'Kibitz';
    },
  };
}
