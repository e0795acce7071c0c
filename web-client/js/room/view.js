// Room view: draws the room's state into the page (board, player bars with a "Challenge" button beside a person, clocks, status, a correspondence game's line, game-over banner, move list with a finished game's links to the opening explorer and the analysis board, export, offers, action buttons with "Report game" against a person) and keeps the display-only choices (board turned, resign armed).

import { h, clear } from '../dom.js';
import { t, gameLabel, clockLabel } from '../i18n.js';
import { parseCell, cellName, othelloLegal, stoneOf, countDiscs, other, lineThrough, dims } from '../rules.js';
import { forbiddenPoints } from '../renju.js';
import { createReviewPanel, reviewAt, bestLineMarks } from './review.js';
import { moveRows, moveString, exportLinks } from '../record.js';
import { buildRoom, SEATS } from './layout.js';
import { fifthsChoice } from '../opening.js';
import { changeWords } from '../rating.js';
import { noteRoom } from '../my-game.js';
import { createPresence } from './presence.js';
import { createTournamentLink } from './tournament-link.js';
import { createExploreLink } from './explore-link.js';
import { createAnalyseLink } from './analyse-link.js';
import { renderChallengeSlot } from './challenge-slot.js';
import { createCorrNote } from './corr-note.js';
import { isCorrespondence } from '../corr-data.js';

const TOUCH_HINT_KEY = 'kibitz.touchHintSeen';

/** Whether the two-tap hint was shown and understood on this device already. */
function touchHintSeen() {
  try {
    return localStorage.getItem(TOUCH_HINT_KEY) === '1';
  } catch {
    return false;
  }
}

const coarsePointer = () => !!globalThis.matchMedia?.('(pointer: coarse)').matches;

const seatWord = (seat) => t(`seat.${seat}`);
const moveLabel = (move) => (move === 'pass' ? t('room.pass') : move);

/**
 * Builds the room page in `root` and returns its drawing functions. `clockSpec` is the lobby's
 * copy of the time control, shown until the first `state` says it; `actions` the user's actions
 * (see layout.js); `quiet` leaves out the game-over dialog.
 */
export function createRoomView(root, { state: R, app, clockSpec, actions, quiet = false }) {
  // Leaving a game under way asks first: it goes on without us, and our clock runs. A
  // correspondence game is made to be left and come back to: no question.
  const onBack = () => (R.seated && R.playing && !isCorrespondence(R.control) ? el.leaveDialog.open() : app.go(null));
  const tournamentLink = createTournamentLink({ app, roomId: R.id });
  const el = buildRoom(root, {
    roomId: R.id, actions, onBack, leaveNow: () => app.go(null), onTournament: () => tournamentLink.open(), me: () => app.net.player,
    // Another person's chat line: "Report this line by Bob", the line as the server sent it.
    report: app.reports ? {
      can: (msg) => app.reports.canReportLine(msg),
      open: (msg) => app.reports.openChat({ room: R.id, player: msg.from, name: msg.name, text: msg.text }),
    } : null,
    // An account blocks another line's player from the chat: the blocks' own question first.
    block: app.blocks?.ask ? {
      can: (msg) => app.blocks.canBlockLine(msg),
      open: (msg, done) => app.blocks.ask({ player: msg.from, name: String(msg.name ?? ''), bot: !!msg.bot }, done),
    } : null,
  });
  const review = createReviewPanel({
    state: R,
    panel: el.reviewEl,
    send: (msg) => app.net.send(msg),
    goTo: (k) => actions.goTo(k),
    backToGame: () => actions.backToGame(),
  });
  const { board, chat, clocks, buttons, nav } = el;
  el.titleEl.after(tournamentLink.element);
  const exploreLink = createExploreLink({ app });
  const analyseLink = createAnalyseLink({ app });
  el.moveList.after(exploreLink.element, analyseLink.element);
  const corrNote = createCorrNote({ app });
  el.presenceEl.after(corrNote.element);
  const presence = createPresence(el.presenceEl, { state: R, name: (seat) => playerWord(seat), onClaim: (result) => actions.claim(result) });
  const forbiddenCache = new WeakMap();
  let flipped = false;
  let resignArmed = false;
  let errorTimer = 0;
  let noticeTimer = 0;

  /** A seat as people say it: the player's name, else the colour. */
  const playerWord = (seat) => {
    const name = R.seats[seat]?.name;
    return name ? String(name) : seatWord(seat);
  };

  function winLine() {
    const line = R.result && Array.isArray(R.result.line) ? R.result.line : null;
    if (line && line.length) return line.map((c) => parseCell(R.game, c)).filter((i) => i >= 0);
    if (R.result && (R.result.reason === 'five' || R.result.reason === 'four')) {
      const pos = R.positions[R.liveIndex];
      if (pos && pos.last >= 0) return lineThrough(R.game, pos.cells, pos.last, R.game.kind === 'connect4' ? 4 : 5) || [];
    }
    return [];
  }

  function renderBoard(animate) {
    if (!R.game || !R.positions.length) return;
    const k = R.shownIndex;
    const variation = R.variation ? R.variation.positions[R.variation.positions.length - 1] : null;
    const live = R.view == null && !variation;
    const pos = variation || R.positions[k];
    const toMove = live ? R.toMove : pos.toMove;
    const atEnd = !variation && R.status === 'over' && k === R.liveIndex;
    let forbidden = [];
    let legal = [];
    if (!atEnd && R.game.kind === 'gomoku' && R.game.rule === 'renju' && toMove === 'black') {
      if (!forbiddenCache.has(pos)) forbiddenCache.set(pos, forbiddenPoints(pos.cells, dims(R.game).cols));
      forbidden = forbiddenCache.get(pos);
    }
    if (!atEnd && R.game.kind === 'othello') legal = othelloLegal(pos.cells, stoneOf(toMove));
    // An opening's 5th moves: offered ones for everyone, the ones we pick for us.
    const marks = [];
    if (live && R.openingState) {
      const fifth = pos.toMove;
      for (const c of R.openingState.proposals || []) marks.push({ idx: parseCell(R.game, c), kind: 'proposal', seat: fifth });
      for (const c of R.picked) marks.push({ idx: parseCell(R.game, c), kind: 'picked', seat: fifth });
    }
    // After the game, in review: the engine's line at the shown position, and moves of the
    // viewer's own variation (the page's alone; it needs no connection).
    const reviewing = R.status === 'over' && R.reviewMode;
    if (reviewing && !variation) marks.push(...bestLineMarks(R, k));
    const exploring = reviewing && !atEnd && !(variation && R.variation.over);
    // Offline, a click could not reach the server: the board waits for the connection.
    const interactive = exploring || (live && R.playing && R.seated && R.you === R.toMove && !R.pending && app.net.ready);
    board.render({
      game: R.game,
      pos,
      flipped,
      interactive,
      me: exploring ? toMove : interactive ? R.you : toMove,
      forbidden,
      legal,
      marks: marks.filter((m) => m.idx >= 0),
      winLine: atEnd ? winLine() : [],
      animate,
      onInactiveClick: () => {
        if (R.view != null) actions.goTo(Infinity);
      },
      onInspect: (idx) => renderForbiddenNote(forbidden, idx),
    });
    buttons.flip.setAttribute('aria-pressed', String(flipped));
    renderForbiddenNote(forbidden, -1);
    // The position on show changed (a replay's move, a review's variation): the link follows.
    analyseLink.render(R);
    // On a phone a stone takes two taps: said once, until the player dismisses it or plays.
    el.touchHintEl.hidden = !(interactive && R.game.kind === 'gomoku' && coarsePointer() && !touchHintSeen());
  }

  /** The renju note under the board: what the crosses mean, and why the point `idx` (hovered,
   *  tapped or under the keyboard cursor) is forbidden when it is one. */
  function renderForbiddenNote(forbidden, idx) {
    const note = el.forbiddenNoteEl;
    clear(note);
    note.hidden = !forbidden.length;
    if (!forbidden.length) return;
    const f = forbidden.find((p) => p.idx === idx);
    if (f) {
      note.append(h('span', { class: 'why', 'data-testid': 'forbidden-why', 'data-kind': f.kind },
        t('room.forbiddenAt', { cell: cellName(R.game, idx), why: t(`forbidden.${f.kind}`) })));
    } else {
      note.append(h('span', {}, t('room.forbiddenNote')));
    }
  }


  /** The opening rule's step: whose choice it is and what it is, in one line, with its
   *  buttons for the player whose choice it is. */
  function renderOpening() {
    const panel = el.openingEl;
    clear(panel);
    const step = R.view == null ? R.openingNow : null;
    panel.hidden = !step;
    if (!step) return;
    panel.classList.toggle('mine', step.mine);
    const p = step.params;
    const who = step.mine ? t('opening.you') : t('opening.player', { name: playerWord(p.seat), seat: seatWord(p.seat) });
    const words = {
      ...p, who,
      seat: seatWord(p.seat),
      other: p.other ? seatWord(p.other) : '',
      color: p.color ? seatWord(p.color) : '',
      area: p.area ? t(p.area.key, { side: p.area.side }) : '',
      proposeArea: p.proposeArea ? t(p.proposeArea.key, { side: p.proposeArea.side }) : '',
    };
    panel.dataset.phase = R.openingState.phase;
    panel.dataset.mine = String(step.mine);
    panel.append(
      h('span', { class: 'opening-rule' }, t(`openingRule.${R.openingState.rule}`)),
      h('span', { 'data-testid': 'opening-step' }, t(step.key, words)));
    if (!step.mine || R.pending) return;
    const choice = (name, text, label) => h('button', { type: 'button', 'data-testid': `btn-opening-${name}`, onclick: () => actions.choose(text) }, label);
    for (const b of step.buttons) {
      if (b === 'swap') panel.append(choice('swap', 'swap', t('opening.swap', { seat: seatWord(p.seat === 'black' ? 'white' : 'black') })));
      if (b === 'stay') panel.append(choice('stay', 'stay', t('opening.stay', { seat: seatWord(p.seat) })));
      if (b === 'black' || b === 'white') panel.append(choice(b, b, t('opening.take', { seat: seatWord(b) })));
      if (b === 'declare') {
        const max = p.max || 8;
        const pick = h('select', { 'data-testid': 'opening-declare', 'aria-label': t('opening.declareLabel') });
        for (let n = 1; n <= max; n++) pick.append(h('option', { value: n }, String(n)));
        pick.value = '2';
        panel.append(pick, h('button', { type: 'button', 'data-testid': 'btn-opening-declare', onclick: () => actions.choose(`declare ${pick.value}`) }, t('opening.declare')));
      }
    }
    if (step.propose) {
      if (step.place && !R.offering) {
        panel.append(h('button', { type: 'button', 'data-testid': 'btn-opening-offering', onclick: () => actions.startOffering() }, t('opening.offerInstead', { n: step.propose.n })));
      } else {
        const text = fifthsChoice(step, R.picked);
        panel.append(h('span', { class: 'note', 'data-testid': 'opening-picked' }, t('opening.picked', { k: R.picked.length, n: step.propose.n })),
          h('button', { type: 'button', class: 'primary', 'data-testid': 'btn-opening-offer', disabled: !text, onclick: () => actions.choose(text) }, t('opening.offer')));
      }
    }
  }

  function renderPlayers() {
    const bottom = R.seated ? R.you : 'black';
    el.topSlot.append(el.bars[other(bottom)].root);
    el.bottomSlot.append(el.bars[bottom].root);
    const pos = R.positions[R.shownIndex];
    const discs = R.game && R.game.kind === 'othello' && pos ? countDiscs(pos.cells) : null;
    for (const seat of SEATS) {
      const b = el.bars[seat];
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
      renderChallengeSlot(b, info, app);
      b.root.classList.toggle('to-move', R.playing && R.toMove === seat);
    }
    el.spectatorsEl.textContent = String(R.spectators ?? 0);
    presence.render();
  }

  /** Ply `k` as the move list numbers it ("7. m1" for black, "7… m2" for white), or the start. */
  function plyWords(k) {
    if (!k) return t('room.viewingStart');
    const move = [...R.opening, ...R.moves][k - 1];
    return `${Math.ceil(k / 2)}${k % 2 ? '.' : '…'} ${moveLabel(move ?? '')}`;
  }

  function renderStatus() {
    const { statusEl } = el;
    clear(statusEl);
    if (!R.game) {
      statusEl.textContent = t('room.loading');
      return;
    }
    if (R.view != null) {
      // A finished game's replay says how it ended; a running one's that it goes on.
      const after = R.status === 'over' && R.result ? t('room.viewingOver', { result: resultWords(R.result).head }) : t('room.viewingLive');
      statusEl.append(t('room.viewing', { move: plyWords(R.view), n: R.view, total: R.liveIndex }), ' — ', after, ' ', el.liveBtn);
      return;
    }
    if (R.status === 'waiting') statusEl.textContent = t('room.waiting');
    else if (R.status === 'playing' && R.you === R.toMove && R.clock && !R.hasMoved(R.you)) statusEl.textContent = t('room.yourFirstMove');
    else if (R.status === 'playing') statusEl.textContent = R.you === R.toMove ? t('room.yourMove') : t('room.toMove', { seat: seatWord(R.toMove) });
    else if (R.status === 'over') statusEl.textContent = t('room.over');
    const yourMove = R.status === 'playing' && R.you === R.toMove;
    // "(1) Your turn · …" when it is our move here (or in a correspondence game elsewhere).
    const title = `${gameLabel(R.game)} — Kibitz`;
    if (app.turns) app.turns.roomTurn(R.id, yourMove, title);
    else document.title = `${yourMove ? '● ' : ''}${title}`;
  }

  /** The result in words: { head, reason, score } (the last two may be empty). */
  function resultWords(res) {
    let head;
    if (res.result === 'aborted') head = t('over.aborted');
    else if (res.result === 'draw') head = t('over.draw');
    else if (R.seated) head = res.result === R.you ? t('over.youWin') : t('over.youLose');
    else head = t('over.win', { name: playerWord(res.result), seat: seatWord(res.result) });
    const reason = res.reason ? t(`reason.${res.reason}`) : '';
    const score = res.score ? t('room.score', { black: res.score.black, white: res.score.white }) : '';
    return { head, reason, score };
  }

  /** A rated game's rating lines: each side's change with its new rating ("Ada (Black): +12 →
   *  1512?"), or why the game was not rated after all, or that the changes are on their way.
   *  Each is { text, testid, attrs }; `prefix` names them ('over-dialog' or 'over'). */
  function ratingLines(prefix) {
    if (R.rating?.unrated) {
      const key = R.rating.unrated === 'repeat' ? 'over.unratedRepeat' : 'over.unrated';
      return [{ text: t(key), testid: `${prefix}-unrated`, attrs: { class: 'rating-line unrated', 'data-reason': R.rating.unrated } }];
    }
    if (R.rating) {
      return R.rating.changes.map((c) => {
        const w = changeWords(c);
        return {
          text: t('over.ratingChange', { name: w.name || playerWord(c.color), seat: seatWord(c.color), change: w.change, rating: w.rating }),
          testid: `${prefix}-rating-${c.color}`,
          attrs: { class: `rating-line ${w.up}`, 'data-change': w.change, 'data-rating': w.rating, 'data-mine': String(c.color === R.you) },
        };
      });
    }
    if (R.ratingPending) return [{ text: t('over.ratingPending'), testid: `${prefix}-rating-pending`, attrs: { class: 'rating-line pending' } }];
    return [];
  }

  function renderOver() {
    const { overEl } = el;
    clear(overEl);
    if (R.status !== 'over' || !R.result) {
      overEl.hidden = true;
      return;
    }
    const res = R.result;
    const words = resultWords(res);
    const parts = [h('strong', { class: 'over-head' }, words.head)];
    if (res.reason) parts.push(h('span', { class: 'over-reason', 'data-reason': res.reason }, ` — ${words.reason}`));
    if (res.score) parts.push(h('span', { class: 'over-score', 'data-testid': 'over-score' }, ` (${words.score})`));
    const rating = ratingLines('over');
    if (rating.length) parts.push(h('div', { class: 'over-rating' }, rating.map((l) => h('span', { ...l.attrs, 'data-testid': l.testid }, l.text))));
    overEl.append(...parts);
    overEl.dataset.result = res.result || '';
    overEl.dataset.reason = res.reason || '';
    overEl.hidden = false;
    if (el.overDialog.isOpen()) openOver();
  }

  /** Opens the game-over dialog (again: its words follow the language). */
  function openOver() {
    if (quiet || R.status !== 'over' || !R.result) return;
    const words = resultWords(R.result);
    const lines = [];
    if (words.reason) lines.push({ text: words.reason, testid: 'over-dialog-reason' });
    if (words.score) lines.push({ text: words.score, testid: 'over-dialog-score' });
    lines.push(...ratingLines('over-dialog'));
    // A tournament's game has no rematch: the next game is the tournament's to pair.
    el.overDialog.open({ title: words.head, lines, canRematch: R.seated && !R.tournament, tournament: !!R.tournament });
  }

  function renderMoves() {
    const { moveList } = el;
    clear(moveList);
    const shown = R.shownIndex;
    const item = (k, move) => {
      // The review's mark of the move played from the position before it.
      const mark = reviewAt(R, k - 1)?.mark;
      const b = h('button', { type: 'button', class: `mv${move === 'pass' ? ' pass' : ''}${k === shown ? ' current' : ''}${mark ? ` ${mark}` : ''}`, 'data-ply': k, 'data-testid': `move-${k}`, onclick: () => actions.goTo(k) }, moveLabel(move));
      if (mark) {
        b.dataset.mark = mark;
        b.title = t(`review.${mark}`);
      }
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
      // Keep the highlighted move in view without scrolling the page: its place inside the
      // list, measured on screen, against the list's own scrolled window.
      const top = cur.getBoundingClientRect().top - moveList.getBoundingClientRect().top + moveList.scrollTop;
      const bottom = top + cur.offsetHeight;
      if (top < moveList.scrollTop || bottom > moveList.scrollTop + moveList.clientHeight) {
        moveList.scrollTop = Math.max(0, top - (moveList.clientHeight - cur.offsetHeight) / 2);
      }
    } else if (R.view == null) moveList.scrollTop = moveList.scrollHeight;
    review.render();
    exploreLink.render(R);
    nav.first.disabled = nav.prev.disabled = shown <= 0;
    nav.next.disabled = nav.last.disabled = shown >= R.liveIndex;
    if (R.game) {
      el.moveStringEl.value = moveString(R.game, R.opening, R.moves);
      clear(el.exportLinksEl);
      for (const l of exportLinks(R.id, R.game)) {
        el.exportLinksEl.append(h('a', { href: l.href, download: l.file, 'data-testid': `export-${l.key}`, class: 'button' }, t(`room.export.${l.key}`)));
      }
    }
  }

  function renderOffers() {
    const { offersEl } = el;
    clear(offersEl);
    const now = Date.now();
    for (const kind of ['undo', 'draw']) {
      const by = R.offers[kind];
      if (by && R.seated && by !== R.you) {
        const text = t(`room.${kind}Offer`, { name: playerWord(by) });
        offersEl.append(h('div', { class: 'offer', 'data-testid': `${kind}-offer`, role: 'alertdialog', 'aria-label': text },
          h('span', {}, text),
          h('button', { type: 'button', class: 'primary', 'data-testid': `btn-accept-${kind}`, onclick: () => actions.reply(kind, true) }, t('room.accept')),
          h('button', { type: 'button', 'data-testid': `btn-decline-${kind}`, onclick: () => actions.reply(kind, false) }, t('room.decline'))));
      }
      if (R.asking(kind, now)) {
        offersEl.append(h('div', { class: 'offer asked', 'data-testid': `${kind}-asked` }, t(`room.${kind}Asked`)));
      }
    }
    if (R.status === 'over' && R.asked.rematch) offersEl.append(h('div', { class: 'offer asked', 'data-testid': 'rematch-asked' }, t('room.rematchAsked')));
    else if (R.status === 'over' && R.rematchOffered && R.seated) {
      offersEl.append(h('div', { class: 'offer', 'data-testid': 'rematch-offer' }, t('room.rematchOffered'),
        h('button', { type: 'button', class: 'primary', 'data-testid': 'btn-accept-rematch', onclick: () => actions.askRematch() }, t('room.rematch'))));
    }
  }

  function renderActions() {
    const seated = R.seated;
    const p = R.playing;
    buttons.undo.disabled = !(seated && p && R.hasOwnMove);
    buttons.draw.disabled = !(seated && p);
    // Before both sides have moved a game is aborted, not resigned.
    const abortable = seated && R.abortable;
    buttons.abort.hidden = !abortable;
    buttons.abort.disabled = !abortable;
    buttons.resign.disabled = !(seated && p);
    buttons.resign.hidden = abortable || (resignArmed && seated && p);
    buttons.resignConfirm.hidden = abortable || !(resignArmed && seated && p);
    buttons.rematch.disabled = !(seated && R.status === 'over');
    // A spectator has no seat to act for: show only what they can use.
    for (const b of [buttons.undo, buttons.draw, buttons.rematch]) b.hidden = !seated;
    if (R.tournament) buttons.rematch.hidden = true;
    if (!seated) buttons.resign.hidden = true;
    const freeSeat = !R.seats.black || !R.seats.white;
    buttons.invite.disabled = !(freeSeat && R.status !== 'over' && R.game);
    el.botLevel.disabled = buttons.invite.disabled;
    // Once both seats are taken there is nobody to invite: keep the panel short.
    el.inviteGroup.hidden = !!R.game && !freeSeat;
    // Typed moves only make sense while the game runs.
    el.moveForm.hidden = !(seated && p);
    // A seated player may report the game against a person (not a bot, nor a seat still free).
    const opponent = reportedOpponent();
    buttons.reportGame.hidden = !opponent;
    if (opponent) buttons.reportGame.setAttribute('aria-label', t('rep.reportGameAria', { name: String(opponent.name ?? '') }));
  }

  /** The person across the board from us, when a report of this game may name them. */
  function reportedOpponent() {
    if (!R.seated || !app.reports) return null;
    const info = R.seats[other(R.you)];
    return info?.player && !info.bot && info.player !== app.net.player ? info : null;
  }

  function renderHead() {
    if (!R.game) return;
    el.moveInput.placeholder = t('room.moveInputPh', { ex: R.game.kind === 'connect4' ? '4' : R.game.kind === 'othello' ? 'f5' : 'h8' });
    el.titleEl.textContent = gameLabel(R.game);
    el.ratedEl.hidden = !R.rated;
    tournamentLink.show(R.tournament);
    // Before the first state the lobby's copy of the time control stands in.
    const control = R.game && R.hasState ? (R.control ?? null) : clockSpec;
    el.clockSpecEl.textContent = control !== undefined ? clockLabel(control) : '';
    corrNote.render(control, R.seated);
  }

  function renderAll(animate = false) {
    noteRoom(R);
    renderHead();
    renderPlayers();
    renderBoard(animate);
    renderMoves();
    renderStatus();
    renderOpening();
    renderOver();
    renderOffers();
    renderActions();
    chat.setSpectator(!R.seated);
  }

  /** Shows `text` in `node` for `ms`; returns the timer that hides it again. */
  function flash(node, text, timer, ms) {
    node.textContent = text;
    node.hidden = false;
    clearTimeout(timer);
    return setTimeout(() => { node.hidden = true; }, ms);
  }

  return {
    el,
    chat,
    review,
    renderAll, renderBoard, renderPlayers, renderMoves, renderStatus, renderOffers, renderActions, renderOpening, renderOver,
    openOver,
    reportedOpponent,
    showError(text) {
      errorTimer = flash(el.errorEl, text, errorTimer, 6000);
    },
    /** The two-tap hint is understood: never again on this device. */
    touchHintSeen() {
      try {
        localStorage.setItem(TOUCH_HINT_KEY, '1');
      } catch {
        // storage disabled: the hint goes for this page only
      }
      el.touchHintEl.hidden = true;
    },
    touchHintShown: () => !el.touchHintEl.hidden,
    showNotice(text) {
      noticeTimer = flash(el.noticeEl, text, noticeTimer, 3000);
    },
    /** Shows the clock reading of the state; a finished game's clock no longer runs. */
    showClock() {
      const over = R.status === 'over' && R.clock;
      clocks.control(R.control);
      clocks.set(over ? { ...R.clock, running: null, abort_ms: null } : R.clock, R.toMove);
    },
    stopClock: () => clocks.stop(),
    /** The clock as displayed now, the running side's time counted down. */
    clockShown: () => clocks.current(),
    flip() {
      flipped = !flipped;
      renderBoard(false);
    },
    armResign(on) {
      resignArmed = on;
      renderActions();
    },
    dispose() {
      el.overDialog.close();
      clearTimeout(errorTimer);
      clearTimeout(noticeTimer);
      clocks.stop();
      presence.stop();
      if (app.turns) app.turns.leaveRoom(R.id);
      else document.title = 'Kibitz';
    },
  };
}
