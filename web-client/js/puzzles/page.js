// Puzzle page (`/?puzzles[&variant=][&theme=][&mode=streak]`, the trainer; `/?puzzle=<id>`, one puzzle): the puzzle asked from the server near the player's puzzle rating, its board and goal (one made from a game played here links that game); each move checked by the server (a correct one shown and the defender's reply played after a beat, a wrong one refused with the server's words and taken back), hints, the solution stepped through, the result posted and the rating's change shown; streak mode's count and best.

import { clear, h } from '../dom.js';
import { t } from '../i18n.js';
import { parseCell, lineThrough, connect4Drop, dims, other } from '../rules.js';
import { formatRating, formatChange } from '../rating.js';
import { moveWords } from '../room/announcer.js';
import * as api from './api.js';
import { VARIANTS, THEMES, ALL_THEMES, variantGame, readPuzzle, goalKey, positionAfter, canPlay, typedMove, hintCells, sourceLine } from './puzzle.js';
import {
  createAttempt, canMove, sendMove, answerMove, showReply, nextHintLevel, hintTaken, solutionShown, stepSolution,
  shownLine, resultDue, resultBody, serverLine,
} from './session.js';
import { createStreak, streakTarget, streakSolved, streakFailed } from './streak.js';
import { GUEST_START, guestRating, saveGuestRating } from './guest.js';
import { buildPuzzlePage } from './layout.js';

/** How long the player's correct move stands alone before the defender's reply is played. */
export const REPLY_BEAT_MS = 700;
/** A rating whose deviation is above this is shown provisional (`?`), as the server says. */
const PROVISIONAL_RD = 110;
/** How long the page waits for the server's welcome (account or guest) before asking anyway. */
const WELCOME_WAIT_MS = 2500;

const moveLabel = (move) => (move === 'pass' ? t('room.pass') : move);
/** A move as people name it: a point, "column 4", "pass". */
const moveName = (game, move) => (move === 'pass' ? t('room.pass') : game.kind === 'connect4' ? t('board.column', { n: move }) : move);

/** Mounts the puzzle page for `route` ({ page: 'puzzles', variant, theme, mode } or { page:
 *  'puzzle', id }) in `root`. `app` gives net, isAccount(), viewLink(), show(route). */
export function mountPuzzles(root, app, route) {
  const single = route.page === 'puzzle';
  const picks = single ? { variant: null, theme: null, mode: null } : { variant: route.variant, theme: route.theme, mode: route.mode };
  let streak = picks.mode === 'streak' ? createStreak(picks.variant) : null;
  let index = null; // the server's index ({ variants }) once here
  let puzzle = null;
  let attempt = null;
  let loadError = null;
  let accountRatings = null; // an account's ratings by variant, once asked
  let result = null; // the attempt's result: { ok, error, rated, rating, rd, change }
  let note = ''; // the page's own refusal (a forbidden point, a move that names no cell)
  let gone = false;
  let started = false;
  let asked = 0;
  let beat = 0;
  let refocus = false;
  const actions = {};
  const el = buildPuzzlePage(root, {
    actions,
    lobbyLink: app.viewLink({ page: 'lobby' }, { class: 'back-link', 'data-testid': 'btn-page-lobby', 'data-i18n': 'room.back' }, t('room.back')),
  });

  const token = () => (app.isAccount() ? app.net.token : null);
  const mySide = () => puzzle?.toMove || 'black';

  /** The player's puzzle rating in `variant`: the account's (the start until it played), the
   *  guest's kept here; null while an account's are not known yet. */
  function myRating(variant) {
    if (!variant) return null;
    if (app.isAccount()) return accountRatings ? (accountRatings[variant] || { ...GUEST_START }) : null;
    return guestRating(variant);
  }

  // ---------- the server ----------

  async function loadMine() {
    if (!app.isAccount()) {
      accountRatings = null;
      return;
    }
    const res = await api.mine(token());
    if (gone) return;
    const got = res.ok && res.data?.ratings && typeof res.data.ratings === 'object' ? res.data.ratings : {};
    accountRatings = {};
    for (const [v, r] of Object.entries(got)) {
      if (r && Number.isFinite(Number(r.rating))) accountRatings[v] = { rating: Number(r.rating), rd: Number(r.rd), volatility: Number(r.volatility), plays: Number(r.plays) || 0 };
    }
  }

  /** Asks for a puzzle: this page's own one, or the next near the rating (`after` the one
   *  just played). */
  async function load(after = null) {
    const id = ++asked;
    const previous = puzzle;
    clearTimeout(beat);
    puzzle = null;
    attempt = null;
    loadError = null;
    result = null;
    note = '';
    renderAll();
    let res;
    if (single) {
      res = await api.puzzle(route.id);
    } else {
      const rating = streak ? streakTarget(streak) : myRating(picks.variant || previous?.variant)?.rating ?? null;
      res = await api.next({ variant: picks.variant, theme: picks.theme, rating, after }, token());
    }
    if (gone || id !== asked) return;
    const p = res.ok ? readPuzzle(res.data) : null;
    if (!p) {
      loadError = res.ok ? t('puz.bad') : res.error;
      renderAll();
      return;
    }
    puzzle = p;
    attempt = createAttempt(p);
    renderAll(true);
    if (refocus) {
      refocus = false;
      el.board.element.focus();
    }
  }

  async function start() {
    if (started || gone) return;
    started = true;
    clearTimeout(welcomeTimer);
    api.index().then((res) => {
      if (gone || !res.ok || !res.data?.variants) return;
      index = res.data;
      renderPicks();
    });
    await loadMine();
    if (!gone) load();
  }

  /** The attempt was decided: the streak hears of it and the result is posted. */
  async function decided(a) {
    if (!resultDue(a)) return;
    if (streak && a === attempt) {
      if (a.outcome === 'solved') streakSolved(streak, a.puzzle.id);
      else streakFailed(streak, a.puzzle.id);
    }
    const variant = a.puzzle.variant;
    const acct = token();
    const body = resultBody(a, acct ? null : guestRating(variant));
    renderPanel();
    const res = await api.result(a.puzzle.id, body, acct);
    const player = res.ok ? res.data?.player : null;
    const rated = res.ok && res.data?.rated !== false && player && Number.isFinite(Number(player.rating));
    // The rating is kept whatever the page shows meanwhile.
    if (rated && acct) {
      const before = accountRatings?.[variant];
      accountRatings = { ...accountRatings, [variant]: { rating: Number(player.rating), rd: Number(player.rd), volatility: Number(player.volatility), plays: (before?.plays || 0) + 1 } };
    } else if (rated) {
      saveGuestRating(variant, player);
    }
    if (gone || a !== attempt) return;
    result = res.ok
      ? { ok: true, rated, rating: rated ? Number(player.rating) : null, rd: rated ? Number(player.rd) : null, change: rated ? Number(player.change) || 0 : null }
      : { ok: false, error: res.error };
    renderPanel();
  }

  // ---------- the player's actions ----------

  const position = () => positionAfter(puzzle.game, [...puzzle.moves, ...shownLine(attempt)]);

  /** Whether the player may move on the board now. */
  function myTurn(at) {
    return !!attempt && canMove(attempt) && !at.over && at.pos.toMove === mySide();
  }

  actions.play = (move) => {
    if (!puzzle) return false;
    const at = position();
    if (!myTurn(at)) return false;
    if (!canPlay(at, move)) {
      note = at.forbidden.length && move !== 'pass' ? t('puz.forbidden', { cell: move }) : t('puz.illegal', { move: moveName(puzzle.game, move) });
      renderPanel();
      return false;
    }
    const a = attempt;
    const line = sendMove(a, move);
    if (!line) return false;
    note = '';
    renderAll(true);
    api.move(a.puzzle.id, line).then((res) => {
      if (gone || a !== attempt) return;
      const what = answerMove(a, res);
      if (what === 'correct' && a.phase === 'reply') {
        beat = setTimeout(() => {
          if (gone || a !== attempt || !showReply(a)) return;
          renderAll(true);
        }, REPLY_BEAT_MS);
      }
      renderAll();
      decided(a);
    });
    return true;
  };

  actions.typed = (text) => {
    if (!puzzle) return false;
    const move = typedMove(puzzle.game, text);
    if (!move) {
      note = t('puz.notAMove', { move: text });
      renderPanel();
      return false;
    }
    return actions.play(move);
  };

  actions.hint = async () => {
    const a = attempt;
    const level = a && !streak ? nextHintLevel(a) : 0;
    if (!level) return;
    const at = a.line.length;
    const res = await api.hint(a.puzzle.id, serverLine(a), level);
    if (gone || a !== attempt || a.line.length !== at || !canMove(a)) return;
    hintTaken(a, level, res);
    renderAll();
    decided(a);
  };

  actions.solution = async () => {
    const a = attempt;
    if (!a || a.solution) return;
    const res = await api.solution(a.puzzle.id);
    if (gone || a !== attempt) return;
    solutionShown(a, res);
    renderAll();
    if (a.solution) el.solNav.next.focus();
    decided(a);
  };

  actions.step = (where) => {
    const a = attempt;
    if (!a?.solution) return;
    const k = { first: 0, back: a.step - 1, next: a.step + 1, last: a.solution.length }[where];
    if (stepSolution(a, k)) renderAll(where === 'next');
  };

  actions.next = () => {
    refocus = true;
    if (single) {
      app.show({ page: 'puzzles', variant: puzzle?.variant ?? null, theme: null, mode: null });
      return;
    }
    load(puzzle?.id ?? null);
  };

  actions.restart = () => {
    streak = createStreak(picks.variant);
    refocus = true;
    load(puzzle?.id ?? null);
  };

  actions.pick = () => {
    const variant = el.picks.variant.value || null;
    const theme = el.picks.theme.value || null;
    const mode = el.picks.mode.value === 'streak' ? 'streak' : null;
    const keep = theme && (variant ? themesOf(variant).includes(theme) : true);
    app.show({ page: 'puzzles', variant, theme: keep ? theme : null, mode });
  };

  /** ← and → step the solution on show, Home and End to its ends (not while typing, and not
   *  when the board used the key for its cursor). */
  function onKey(ev) {
    if (!attempt?.solution || ev.defaultPrevented || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (ev.target?.closest?.('input, textarea, select, [contenteditable="true"]')) return;
    const where = { ArrowLeft: 'back', ArrowRight: 'next', Home: 'first', End: 'last' }[ev.key];
    if (!where) return;
    ev.preventDefault();
    actions.step(where);
  }

  // ---------- drawing ----------

  function themesOf(variant) {
    const fromIndex = (v) => Object.keys(index?.variants?.[v]?.themes || {});
    if (variant) return index ? fromIndex(variant) : THEMES[variant];
    return index ? [...new Set(Object.keys(index.variants).flatMap(fromIndex))] : ALL_THEMES;
  }

  function themeCount(variant, theme) {
    const vs = variant ? [variant] : Object.keys(index?.variants || {});
    const n = vs.reduce((sum, v) => sum + (Number(index?.variants?.[v]?.themes?.[theme]) || 0), 0);
    return index ? n : null;
  }

  function renderPicks() {
    const { variant, theme, mode } = el.picks;
    clear(variant);
    variant.append(h('option', { value: '' }, t('puz.allVariants')));
    for (const v of VARIANTS) {
      const n = index?.variants?.[v]?.count;
      variant.append(h('option', { value: v }, n != null ? t('puz.withCount', { what: t(`ratingKey.${v}`), n }) : t(`ratingKey.${v}`)));
    }
    variant.value = picks.variant || '';
    clear(theme);
    theme.append(h('option', { value: '' }, t('puz.allThemes')));
    for (const th of themesOf(picks.variant)) {
      const n = themeCount(picks.variant, th);
      const name = t(`puz.theme.${th}`) === `puz.theme.${th}` ? th : t(`puz.theme.${th}`);
      theme.append(h('option', { value: th }, n != null ? t('puz.withCount', { what: name, n }) : name));
    }
    theme.value = picks.theme || '';
    clear(mode);
    mode.append(h('option', { value: '' }, t('puz.modeRated')), h('option', { value: 'streak' }, t('puz.modeStreak')));
    mode.value = picks.mode || '';
  }

  function renderTitle() {
    el.title.textContent = single ? t('puz.titleOne') : streak ? t('puz.titleStreak') : t('puz.title');
  }

  function renderBoard(animate = false) {
    if (!puzzle) {
      const game = variantGame(picks.variant);
      el.board.render({ game, pos: positionAfter(game, []).pos, flipped: false, interactive: false, me: null, forbidden: [], legal: [], marks: [], winLine: [], animate: false });
      return;
    }
    const { game } = puzzle;
    const at = position();
    const turn = myTurn(at);
    const marks = [];
    const a = attempt;
    if (turn && a.hint && a.hint.at === a.line.length) {
      for (const c of hintCells(game, at.pos, a.hint.area)) marks.push({ idx: c.idx, kind: 'hint' });
      const [m] = a.hint.move ? hintCells(game, at.pos, [a.hint.move]) : [];
      if (m) marks.push({ idx: m.idx, kind: 'hint-move', seat: mySide() });
    }
    if (turn && a.wrong) {
      const idx = game.kind === 'connect4'
        ? connect4Drop(at.pos.cells, dims(game).cols, dims(game).rows, Number(a.wrong.move) - 1)
        : parseCell(game, a.wrong.move);
      if (idx >= 0) marks.push({ idx, kind: 'refused' });
    }
    const winLine = at.over && game.kind !== 'othello' && at.pos.last >= 0
      ? lineThrough(game, at.pos.cells, at.pos.last, game.kind === 'connect4' ? 4 : 5) || [] : [];
    el.board.render({
      game, pos: at.pos, flipped: false, interactive: turn && !at.mustPass, me: mySide(),
      forbidden: at.forbidden, legal: turn && game.kind === 'othello' ? at.legal : [], marks, winLine, animate,
    });
  }

  /** The status line: what the board shows and what is asked of the player. */
  function statusText() {
    if (!puzzle) return loadError ? t('puz.none') : t('puz.loading');
    const a = attempt;
    const me = mySide();
    const them = other(me);
    if (a.solution) {
      const last = a.step ? moveWords(puzzle.game, a.step % 2 ? me : them, a.solution[a.step - 1]) : t('puz.solStart');
      return t('puz.solStep', { k: a.step, n: a.solution.length, move: last });
    }
    switch (a.phase) {
      case 'checking': return t('puz.checking', { move: moveName(puzzle.game, a.pending) });
      case 'reply': return t('puz.correct', { seat: t(`seat.${them}`) });
      case 'solved': return a.outcome === 'solved' ? t('puz.solved') : t('puz.solvedFailed');
      default: break;
    }
    if (a.wrong) {
      const said = a.wrong.message ? `${a.wrong.message.replace(/[.\s]+$/, '')}.` : t('puz.wrong', { move: moveName(puzzle.game, a.wrong.move) });
      return `${said} ${t('puz.tryAgain')}`;
    }
    const at = position();
    const turn = at.mustPass ? t('puz.mustPass') : t('puz.yourMove', { seat: t(`seat.${me}`) });
    if (a.line.length && a.line.length % 2 === 0) return `${t('puz.replied', { move: moveWords(puzzle.game, them, a.line[a.line.length - 1]) })} ${turn}`;
    return turn;
  }

  function renderRating() {
    const variant = puzzle?.variant || picks.variant;
    const r = myRating(variant);
    clear(el.rating);
    el.rating.hidden = !variant;
    if (!variant) return;
    el.rating.dataset.variant = variant;
    el.rating.dataset.rating = r ? String(Math.round(r.rating)) : '';
    el.rating.append(t('puz.myRating', { game: t(`ratingKey.${variant}`) }), ' ',
      h('strong', { 'data-testid': 'puzzle-my-rating', title: r && r.rd > PROVISIONAL_RD ? t('rating.provisional') : null },
        r ? formatRating(r.rating, r.rd > PROVISIONAL_RD) : '…'),
      app.isAccount() ? '' : ` ${t('puz.guestNote')}`);
  }

  function renderResult() {
    const a = attempt;
    clear(el.result);
    el.result.hidden = !a?.posted;
    if (!a?.posted) return;
    el.result.dataset.outcome = a.outcome;
    const why = a.outcome === 'solved' ? t('puz.resultSolved')
      : a.gaveUp && !a.mistakes && !a.hinted ? t('puz.resultGaveUp') : a.hinted && !a.mistakes ? t('puz.resultHinted') : t('puz.resultFailed');
    el.result.append(h('strong', {}, why), ' ');
    if (!result) {
      el.result.dataset.state = 'posting';
      el.result.append(t('puz.posting'));
      return;
    }
    if (!result.ok) {
      el.result.dataset.state = 'error';
      el.result.append(h('span', { class: 'error-msg' }, result.error));
      return;
    }
    el.result.dataset.state = result.rated ? 'rated' : 'unrated';
    if (!result.rated) {
      el.result.append(t('puz.notRated'));
      return;
    }
    const change = formatChange(result.rating - result.change, result.rating);
    const dir = Math.round(result.rating) - Math.round(result.rating - result.change);
    el.result.append(t('puz.newRating'), ' ',
      h('span', { 'data-testid': 'puzzle-result-rating', 'data-rating': String(Math.round(result.rating)) }, formatRating(result.rating, result.rd > PROVISIONAL_RD)), ' ',
      h('span', { class: `rating-change ${dir > 0 ? 'up' : dir < 0 ? 'down' : 'same'}`, 'data-testid': 'puzzle-result-change', 'data-change': String(dir) }, `(${change})`));
  }

  function renderPanel() {
    const a = attempt;
    const pageState = !puzzle ? (loadError ? 'error' : 'loading') : a.solution ? 'solution' : a.phase;
    Object.assign(el.page.dataset, {
      state: pageState, puzzle: puzzle?.id || '', variant: puzzle?.variant || picks.variant || '', line: a ? shownLine(a).join(',') : '',
      outcome: a?.outcome || '', posted: String(!!a?.posted), mode: streak ? 'streak' : single ? 'one' : 'rated',
    });
    renderTitle();
    clear(el.goal);
    clear(el.facts);
    if (puzzle) {
      const g = goalKey(puzzle);
      el.goal.append(h('span', { class: `stone-icon ${g.seat}`, 'aria-hidden': 'true' }), ' ', t(g.key, { seat: t(`seat.${g.seat}`), n: g.n }));
      const themes = puzzle.themes.map((th) => (t(`puz.theme.${th}`) === `puz.theme.${th}` ? th : t(`puz.theme.${th}`))).join(', ');
      el.facts.append([
        t(`ratingKey.${puzzle.variant}`),
        themes,
        puzzle.rating != null ? t('puz.puzzleRating', { rating: Math.round(puzzle.rating) }) : '',
        puzzle.plays === 1 ? t('puz.playsOne') : t('puz.plays', { n: puzzle.plays }),
        puzzle.date ? t('puz.daily', { date: puzzle.date }) : '',
      ].filter(Boolean).join(' · '));
    } else {
      el.goal.append(loadError ? '' : t('puz.loading'));
    }
    renderSource();
    // A refused move is said in the status line, in view under the board on a phone too.
    el.status.textContent = statusText();
    el.status.classList.toggle('refused', !!a?.wrong);
    el.status.dataset.wrong = a?.wrong?.move ?? '';
    // What else went wrong: a request that failed, the page's own refusal.
    let refusal = '';
    if (loadError) refusal = loadError;
    else if (a?.error) refusal = a.error;
    else if (note) refusal = note;
    el.refused.textContent = refusal;
    el.refused.hidden = !refusal;
    renderResult();
    renderRating();
    renderButtons();
    clear(el.lineEl);
    const line = a ? (a.solution ? a.solution.slice(0, a.step) : a.line) : [];
    el.lineEl.hidden = !line.length;
    if (line.length) el.lineEl.append(t('puz.line'), ' ', line.map(moveLabel).join(' '));
    el.streak.hidden = !streak;
    if (streak) {
      el.streak.dataset.count = String(streak.count);
      el.streak.dataset.best = String(streak.best);
      el.streak.dataset.over = String(streak.over);
      el.streak.textContent = streak.over
        ? t('puz.streakOver', { n: streak.count, best: streak.best })
        : t('puz.streak', { n: streak.count, best: streak.best });
    }
  }

  /** A puzzle made from a game played here links that game's replay and says which move missed. */
  function renderSource() {
    const src = sourceLine(puzzle);
    clear(el.source);
    el.source.hidden = !src;
    if (!src) return;
    el.source.append(app.viewLink(src.route, { 'data-testid': 'puzzle-source-link', 'data-room': src.route.room }, src.text));
    if (src.missed) el.source.append(' · ', src.missed);
  }

  function renderButtons() {
    const a = attempt;
    const { hint, solution, pass, next, restart } = el.buttons;
    const decidedNow = !!a?.outcome || a?.phase === 'solved';
    const streakOver = !!streak?.over;
    next.hidden = !(loadError || (puzzle && decidedNow)) || streakOver;
    next.textContent = t(single ? 'puz.more' : 'puz.next');
    restart.hidden = !streakOver;
    const level = a && !streak && a.phase === 'play' ? nextHintLevel(a) : 0;
    hint.hidden = !level;
    hint.textContent = level === 2 ? t('puz.hintMove') : t('puz.hintArea');
    solution.hidden = !a || !!a.solution;
    solution.textContent = t('puz.showSolution');
    const at = puzzle ? position() : null;
    pass.hidden = !(at && myTurn(at) && at.mustPass);
    // What a hint or the solution costs, beside them while it still costs something.
    const costs = a && !a.outcome && !a.solution;
    el.cost.textContent = costs ? t(streak ? 'puz.costStreak' : 'puz.cost') : '';
    el.cost.hidden = !costs;
    for (const b of [hint, solution]) {
      if (costs) b.setAttribute('aria-describedby', 'puzzle-cost');
      else b.removeAttribute('aria-describedby');
    }
    el.solBox.hidden = !a?.solution;
    if (a?.solution) {
      el.solNav.first.disabled = el.solNav.back.disabled = a.step === 0;
      el.solNav.next.disabled = el.solNav.last.disabled = a.step >= a.solution.length;
    }
    el.moveInput.closest('form').hidden = !(at && myTurn(at));
    el.moveInput.placeholder = t('room.moveInputPh', { ex: puzzle?.game.kind === 'connect4' ? '4' : puzzle?.game.kind === 'othello' ? 'f5' : 'h8' });
  }

  function renderAll(animate = false) {
    renderBoard(animate);
    renderPanel();
  }

  document.addEventListener('keydown', onKey);
  renderPicks();
  renderAll();
  // Whether we are an account decides the rating asked with: wait for the welcome a while.
  const welcomeTimer = app.net.account != null ? 0 : setTimeout(start, WELCOME_WAIT_MS);
  if (app.net.account != null) start();

  return {
    onReady() {
      if (!started) {
        start();
        return;
      }
      // Signed in or out meanwhile: the ratings shown are the new identity's.
      loadMine().then(() => {
        if (!gone) renderPanel();
      });
    },
    onMessage: () => false,
    onLang() {
      renderPicks();
      renderAll();
    },
    unmount() {
      gone = true;
      clearTimeout(beat);
      clearTimeout(welcomeTimer);
      document.removeEventListener('keydown', onKey);
    },
  };
}
