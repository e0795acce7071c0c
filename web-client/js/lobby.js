// Lobby view: the "Your turn" card of correspondence games (correspondence.js), the "Following" card (follows.js), name (or the account signed in), the leaderboard and tournament links, the daily puzzle's card, quick pairing ("play now" seeks, with a bot offered after a while), the new-game form, and the live lists of open rooms, live games and bots.

import { h, clear } from './dom.js';
import { t, gameLabel, clockLabel, errorText } from './i18n.js';
import { clockFromKey, clockKey, sameGame } from './record.js';
import { createBoard } from './board.js';
import { replay, other } from './rules.js';
import { openingRules } from './opening.js';
import { livePosition } from './live-board.js';
import { backToGameCard, isMine, showBackToGame } from './my-game.js';
import { canBeRated } from './rating.js';
import { dailyPuzzleCard } from './puzzles/daily.js';
import { select, field, clockOptions, relabelGroups } from './form-select.js';
import { mountFollowing } from './follows.js';

const FORM_KEY = 'kibitz.newGame';
/** How long a seek waits before a bot is offered. Browser tests shorten it with the page
 *  address `?bot_offer_ms=N` (the page itself never sets it). */
const BOT_OFFER_MS = botOfferDelay();

function botOfferDelay() {
  const param = new URLSearchParams(globalThis.location?.search ?? '').get('bot_offer_ms');
  const ms = param == null ? NaN : Number(param);
  return Number.isFinite(ms) && ms >= 0 ? ms : 10000;
}

const GOMOKU15 = { kind: 'gomoku', size: 15, rule: 'freestyle' };
const RENJU15 = { kind: 'gomoku', size: 15, rule: 'renju' };
const OTHELLO = { kind: 'othello' };
const C4 = { kind: 'connect4', cols: 7, rows: 6, blocked: [] };

/** Quick-pairing presets: the common games with the common clocks. */
const PLAY_NOW = [
  { key: 'gomoku-3-2', name: 'game.gomoku', game: GOMOKU15, clock: '3+2' },
  { key: 'gomoku-10-5', name: 'game.gomoku', game: GOMOKU15, clock: '10+5' },
  { key: 'renju-5-3', name: 'game.renju', game: RENJU15, clock: '5+3' },
  { key: 'othello-3-2', name: 'game.othello', game: OTHELLO, clock: '3+2' },
  { key: 'othello-10-5', name: 'game.othello', game: OTHELLO, clock: '10+5' },
  { key: 'connect4-1-0', name: 'game.connect4', game: C4, clock: '1+0' },
  { key: 'connect4-3-2', name: 'game.connect4', game: C4, clock: '3+2' },
];

/** The games of "Play the computer", untimed: the common variant of each. */
const VS_COMPUTER = [
  { key: 'gomoku', name: 'game.gomoku', game: GOMOKU15 },
  { key: 'renju', name: 'game.renju', game: RENJU15 },
  { key: 'othello', name: 'game.othello', game: OTHELLO },
  { key: 'connect4', name: 'game.connect4', game: C4 },
];

const CLOCKS = ['1+0', '3+2', '5+3', '10+5', '5s', '30s', 'none'];
/** How long the live list keeps its games once the server lists none (between two showcase
 *  games, say). */
const KEEP_ENDED_MS = 30_000;
const LEVELS = Array.from({ length: 10 }, (_, i) => i + 1);

const DEFAULT_FORM = {
  kind: 'gomoku', size: 15, rule: 'freestyle', cols: 7, rows: 6, blocked: [],
  clock: '5+3', seat: 'random', opp: 'person', level: 3, levelBlack: 3, levelWhite: 5,
  private: false, rated: false, opening: [], openingRule: 'none',
  vsGame: 'gomoku', vsOrder: 'you',
};

function loadForm() {
  try {
    const saved = JSON.parse(localStorage.getItem(FORM_KEY) || 'null');
    if (saved && typeof saved === 'object') return { ...DEFAULT_FORM, ...saved, opening: [] };
  } catch {
    // ignore a damaged entry
  }
  return { ...DEFAULT_FORM };
}

function saveForm(form) {
  try {
    const { opening, ...rest } = form;
    localStorage.setItem(FORM_KEY, JSON.stringify(rest));
  } catch {
    // storage disabled
  }
}

const randInt = (lo, hi) => lo + Math.floor(Math.random() * (hi - lo + 1));
const randomSeat = () => (Math.random() < 0.5 ? 'black' : 'white');

/** Mounts the lobby in `root`. `app` gives net, go(room, opts), show(route), viewLink(route,
 *  attrs, ...children), getName(), setName(name), isAccount(). */
export function mountLobby(root, app) {
  const form = loadForm();
  let seeking = null; // { preset, since, timer }
  let createAs = 'player';
  let createClock; // the clock spec of the room being created or sought
  let lastLobby = null;
  let errorTimer = 0;

  // ---- name ----
  const nameInput = h('input', { id: 'name-input', type: 'text', maxlength: app.net.nameMax, autocomplete: 'nickname', 'data-testid': 'name-input', value: app.getName() });
  const nameNote = h('span', { class: 'note', 'aria-live': 'polite', 'data-testid': 'name-note' });
  const nameForm = h('form', { class: 'name-form' },
    h('label', { for: 'name-input', 'data-i18n': 'lobby.name' }, t('lobby.name')),
    nameInput,
    h('button', { type: 'submit', 'data-testid': 'btn-save-name', 'data-i18n': 'lobby.nameSave' }, t('lobby.nameSave')),
    nameNote);
  nameForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const name = nameInput.value.trim();
    if (!name) {
      nameNote.textContent = t('lobby.nameBlank');
      nameInput.focus();
      return;
    }
    app.setName(name);
    nameNote.textContent = t('lobby.nameSaved');
  });

  // A guest names itself and is told what an account adds; an account's name is its own and
  // links to its page. Which one we are is known from the welcome (`onReady`).
  const whoBox = h('div', { class: 'who-box' });
  function renderWho() {
    clear(whoBox);
    const board = app.viewLink({ page: 'leaderboard', key: 'gomoku-freestyle', bots: false },
      { class: 'leaderboard-link', 'data-testid': 'link-leaderboard', 'data-i18n': 'lobby.leaderboard' }, t('lobby.leaderboard'));
    const tournaments = app.viewLink({ page: 'tournaments' },
      { class: 'tournaments-link', 'data-testid': 'link-tournaments', 'data-i18n': 'tour.link' }, t('tour.link'));
    if (app.isAccount()) {
      whoBox.append(h('p', { class: 'signed-in', 'data-testid': 'lobby-signed-in' },
        t('lobby.signedInAs'), ' ',
        app.viewLink({ page: 'player', name: app.getName() }, { class: 'who', 'data-testid': 'lobby-my-page' }, app.getName())),
      h('p', { class: 'note' }, board, ' · ', tournaments));
      return;
    }
    nameInput.value = app.getName();
    whoBox.append(nameForm, h('p', { class: 'note account-hint' },
      app.viewLink({ page: 'account', mode: 'register' }, { 'data-testid': 'lobby-link-register' }, t('account.register')),
      ' / ',
      app.viewLink({ page: 'account', mode: 'signin' }, { 'data-testid': 'lobby-link-signin' }, t('account.signIn')),
      ' ', t('lobby.accountWhy'), ' · ', board, ' · ', tournaments));
  }

  const errorBox = h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'error-msg', hidden: true });
  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = false;
    clearTimeout(errorTimer);
    errorTimer = setTimeout(() => { errorBox.hidden = true; }, 8000);
  }

  // ---- play now ----
  const playButtons = {};
  const playGrid = h('div', { class: 'play-grid' });
  for (const preset of PLAY_NOW) {
    const count = h('span', { class: 'waiting' });
    const btn = h('button', {
      type: 'button',
      class: 'play-now',
      'data-testid': `btn-play-now-${preset.key}`,
      onclick: () => startSeek(preset),
    }, h('span', { class: 'play-game', 'data-i18n': preset.name }, t(preset.name)), h('span', { class: 'play-clock' }, clockLabel(clockFromKey(preset.clock))), count);
    btn.count = count;
    playButtons[preset.key] = btn;
    playGrid.append(btn);
  }
  const seekBox = h('div', { class: 'seek-box', 'data-testid': 'seek-status', hidden: true, role: 'status' });

  function renderSeek() {
    clear(seekBox);
    for (const p of PLAY_NOW) playButtons[p.key].setAttribute('aria-pressed', String(!!seeking && seeking.preset.key === p.key));
    if (!seeking) {
      seekBox.hidden = true;
      return;
    }
    seekBox.hidden = false;
    const { preset } = seeking;
    seekBox.append(
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('span', {}, t('lobby.seeking', { game: gameLabel(preset.game), clock: clockLabel(clockFromKey(preset.clock)) })),
      h('button', { type: 'button', 'data-testid': 'btn-unseek', onclick: stopSeek }, t('lobby.seekCancel')),
    );
    if (seeking.offerBot) {
      const level = select({ 'aria-label': t('lobby.botLevel'), 'data-testid': 'seek-bot-level' }, LEVELS.map((l) => [l, String(l)]), form.level, (v) => { form.level = Number(v); saveForm(form); });
      seekBox.append(h('span', { class: 'bot-offer' },
        h('button', { type: 'button', class: 'primary', 'data-testid': 'btn-play-bot', onclick: playBotInstead }, t('lobby.playBot')),
        level));
    }
  }

  function startSeek(preset) {
    if (seeking) app.net.send({ t: 'unseek' });
    const ok = app.net.send({ t: 'seek', game: preset.game, clock: clockFromKey(preset.clock) });
    if (!ok) {
      showError(t('net.notSent'));
      return;
    }
    if (seeking) clearTimeout(seeking.timer);
    seeking = { preset, offerBot: false };
    createAs = 'player';
    createClock = clockFromKey(preset.clock);
    seeking.timer = setTimeout(() => {
      if (!seeking) return;
      seeking.offerBot = true;
      renderSeek();
    }, BOT_OFFER_MS);
    renderSeek();
  }

  function stopSeek() {
    if (!seeking) return;
    app.net.send({ t: 'unseek' });
    clearTimeout(seeking.timer);
    seeking = null;
    renderSeek();
  }

  function playBotInstead() {
    if (!seeking) return;
    const { preset } = seeking;
    stopSeek();
    const seat = randomSeat();
    createAs = 'player';
    createClock = clockFromKey(preset.clock);
    const ok = app.net.send({ t: 'create', game: preset.game, seat, clock: clockFromKey(preset.clock), bots: { [other(seat)]: form.level }, private: false });
    if (!ok) showError(t('net.notSent'));
  }

  // ---- play the computer: one row ----
  const vsGameSelect = select({ 'data-testid': 'vs-computer-game', 'aria-label': t('lobby.game'), 'data-i18n-aria': 'lobby.game' },
    VS_COMPUTER.map((g) => [g.key, t(g.name), g.name]), form.vsGame, (v) => { form.vsGame = v; saveForm(form); });
  const vsLevelSelect = select({ 'data-testid': 'vs-computer-level', 'aria-label': t('lobby.botLevel'), 'data-i18n-aria': 'lobby.botLevel' },
    LEVELS.map((l) => [l, String(l)]), form.level, (v) => { form.level = Number(v); levelSelect.value = v; saveForm(form); });
  const vsOrderSelect = select({ 'data-testid': 'vs-computer-order', 'aria-label': t('lobby.order'), 'data-i18n-aria': 'lobby.order' },
    ['you', 'computer'].map((v) => [v, t(`lobby.order.${v}`), `lobby.order.${v}`]), form.vsOrder, (v) => { form.vsOrder = v; saveForm(form); });
  const vsComputerRow = h('form', { class: 'vs-computer row', 'data-testid': 'vs-computer' },
    vsGameSelect, vsLevelSelect, vsOrderSelect,
    h('button', { type: 'submit', class: 'primary', 'data-testid': 'btn-vs-computer', 'data-i18n': 'lobby.playComputer' }, t('lobby.playComputer')));
  vsComputerRow.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const choice = VS_COMPUTER.find((g) => g.key === form.vsGame) || VS_COMPUTER[0];
    // Black moves first in every game here.
    const seat = form.vsOrder === 'computer' ? 'white' : 'black';
    createAs = 'player';
    createClock = null;
    const ok = app.net.send({ t: 'create', game: choice.game, seat, clock: null, bots: { [other(seat)]: form.level }, private: false });
    if (!ok) showError(t('net.notSent'));
  });

  // ---- new game form ----
  const gomokuPart = h('div', { class: 'part' });
  const c4Part = h('div', { class: 'part' });
  const botPart = h('div', { class: 'part' });
  const botbotPart = h('div', { class: 'part' });
  const openingPart = h('div', { class: 'part opening' });
  const blockedGrid = h('div', { class: 'blocked-grid', role: 'group' });
  const openingNote = h('p', { class: 'note opening-moves', 'data-testid': 'opening-moves' });
  const openingBoardBox = h('div', { class: 'opening-board' });
  const openingBoard = createBoard(openingBoardBox, {
    testPrefix: 'opening-',
    label: 'board.openingAria',
    onPlay: (move) => {
      form.opening.push(move);
      renderOpening();
      renderRated();
    },
  });

  const kindSelect = select({ 'data-testid': 'new-game-kind' }, [
    ['gomoku', t('game.gomoku'), 'game.gomoku'], ['othello', t('game.othello'), 'game.othello'], ['connect4', t('game.connect4'), 'game.connect4'],
  ], form.kind, (v) => { form.kind = v; onFormChange(); });
  const sizeSelect = select({ 'data-testid': 'new-game-size' }, [11, 15, 19].map((n) => [n, `${n}×${n}`]), form.size, (v) => {
    form.size = Number(v);
    form.opening = [];
    onFormChange();
  });
  const ruleSelect = select({ 'data-testid': 'new-game-rule' }, ['freestyle', 'standard', 'renju'].map((r) => [r, t(`rule.${r}`), `rule.${r}`]), form.rule, (v) => { form.rule = v; onFormChange(); });
  // The opening rules the board and rule allow (refilled as they change); `none` first.
  const openingRuleSelect = h('select', { 'data-testid': 'new-game-opening-rule', onchange: (ev) => { form.openingRule = ev.target.value; onFormChange(); } });
  const sizes = Array.from({ length: 9 }, (_, i) => [i + 4, String(i + 4)]);
  const colsSelect = select({ 'data-testid': 'new-game-cols' }, sizes, form.cols, (v) => { form.cols = Number(v); trimBlocked(); onFormChange(); });
  const rowsSelect = select({ 'data-testid': 'new-game-rows' }, sizes, form.rows, (v) => { form.rows = Number(v); trimBlocked(); onFormChange(); });
  // The live clocks, then correspondence ones (days per move: players come and go).
  const clockSelect = select({ 'data-testid': 'new-game-clock' }, clockOptions(CLOCKS), form.clock, (v) => { form.clock = v; renderSummary(); saveForm(form); });
  const seatSelect = select({ 'data-testid': 'new-game-seat' }, ['black', 'white', 'random', 'none'].map((v) => [v, t(`lobby.seat.${v}`), `lobby.seat.${v}`]), form.seat, (v) => { form.seat = v; saveForm(form); });
  const levelOptions = LEVELS.map((l) => [l, String(l)]);
  const levelSelect = select({ 'data-testid': 'new-game-level' }, levelOptions, form.level, (v) => { form.level = Number(v); vsLevelSelect.value = v; saveForm(form); });
  const levelBlackSelect = select({ 'data-testid': 'new-game-level-black' }, levelOptions, form.levelBlack, (v) => { form.levelBlack = Number(v); saveForm(form); });
  const levelWhiteSelect = select({ 'data-testid': 'new-game-level-white' }, levelOptions, form.levelWhite, (v) => { form.levelWhite = Number(v); saveForm(form); });
  const privateBox = h('input', { type: 'checkbox', id: 'new-game-private', 'data-testid': 'new-game-private', checked: form.private, onchange: (ev) => { form.private = ev.target.checked; saveForm(form); } });
  const ratedBox = h('input', { type: 'checkbox', id: 'new-game-rated', 'data-testid': 'new-game-rated', 'aria-describedby': 'new-game-rated-why', checked: form.rated, onchange: (ev) => { form.rated = ev.target.checked; renderSummary(); saveForm(form); } });
  const ratedWhy = h('span', { class: 'note', id: 'new-game-rated-why', 'data-testid': 'new-game-rated-why' });

  const oppGroup = h('fieldset', { class: 'opp-group' }, h('legend', { 'data-i18n': 'lobby.opponent' }, t('lobby.opponent')));
  for (const v of ['person', 'bot', 'botbot']) {
    const id = `opp-${v}`;
    oppGroup.append(h('label', { class: 'radio', for: id },
      h('input', { type: 'radio', name: 'opp', id, value: v, 'data-testid': `new-game-opp-${v}`, checked: form.opp === v, onchange: () => { form.opp = v; onFormChange(); } }),
      h('span', { 'data-i18n': `lobby.opp.${v}` }, t(`lobby.opp.${v}`))));
  }

  gomokuPart.append(h('div', { class: 'row' }, field('lobby.size', sizeSelect, 'ng-size'), field('lobby.rule', ruleSelect, 'ng-rule')),
    field('lobby.openingRule', openingRuleSelect, 'ng-opening-rule'));
  c4Part.append(
    h('div', { class: 'row' }, field('lobby.cols', colsSelect, 'ng-cols'), field('lobby.rows', rowsSelect, 'ng-rows')),
    h('div', { class: 'row' },
      h('button', { type: 'button', 'data-testid': 'btn-random-9-12', onclick: random912, 'data-i18n': 'lobby.random912' }, t('lobby.random912')),
      h('button', { type: 'button', 'data-testid': 'btn-classic-7-6', onclick: classic76, 'data-i18n': 'lobby.classic76' }, t('lobby.classic76'))),
    h('p', { class: 'label', 'data-i18n': 'lobby.blocked' }, t('lobby.blocked')),
    blockedGrid,
  );
  botPart.append(field('lobby.botLevel', levelSelect, 'ng-level'));
  botbotPart.append(h('div', { class: 'row' }, field('lobby.blackBot', levelBlackSelect, 'ng-level-black'), field('lobby.whiteBot', levelWhiteSelect, 'ng-level-white')));
  openingPart.append(
    h('p', { class: 'label', 'data-i18n': 'lobby.opening' }, t('lobby.opening')),
    openingBoardBox,
    h('div', { class: 'row' },
      openingNote,
      h('button', { type: 'button', 'data-testid': 'btn-opening-undo', onclick: () => { form.opening.pop(); renderOpening(); renderRated(); }, 'data-i18n': 'lobby.openingUndo' }, t('lobby.openingUndo')),
      h('button', { type: 'button', 'data-testid': 'btn-opening-clear', onclick: () => { form.opening = []; renderOpening(); renderRated(); }, 'data-i18n': 'lobby.openingClear' }, t('lobby.openingClear'))),
  );
  const seatField = field('lobby.seat', seatSelect, 'ng-seat');

  // The button comes first and the settings fold away, so "Create game" is in view on a
  // laptop screen whether they are open or not.
  const summaryNote = h('span', { class: 'note new-game-summary', 'data-testid': 'new-game-summary' });
  const moreOptions = h('details', { class: 'more-options', 'data-testid': 'more-options' },
    h('summary', { 'data-testid': 'btn-more-options', 'data-i18n': 'lobby.moreOptions' }, t('lobby.moreOptions')),
    h('div', { class: 'new-game-fields' },
      field('lobby.game', kindSelect, 'ng-kind'),
      gomokuPart, c4Part,
      field('lobby.clock', clockSelect, 'ng-clock'),
      oppGroup, botPart, botbotPart, seatField,
      h('label', { class: 'check', for: 'new-game-private' }, privateBox, h('span', { 'data-i18n': 'lobby.private' }, t('lobby.private'))),
      h('div', { class: 'rated-field' },
        h('label', { class: 'check', for: 'new-game-rated' }, ratedBox, h('span', { 'data-i18n': 'lobby.rated' }, t('lobby.rated'))),
        ratedWhy),
      openingPart));
  const newGameForm = h('form', { class: 'new-game', 'data-testid': 'new-game-form' },
    h('div', { class: 'row new-game-head' },
      summaryNote,
      h('button', { type: 'submit', class: 'primary', 'data-testid': 'btn-new-game', 'data-i18n': 'lobby.create' }, t('lobby.create'))),
    moreOptions,
  );
  newGameForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    createGame();
  });

  function trimBlocked() {
    form.blocked = form.blocked.filter(([c, r]) => c <= form.cols && r <= form.rows);
  }

  function random912() {
    form.kind = 'connect4';
    form.cols = randInt(9, 12);
    form.rows = randInt(9, 12);
    form.blocked = [[randInt(1, form.cols), randInt(1, form.rows)]];
    colsSelect.value = String(form.cols);
    rowsSelect.value = String(form.rows);
    onFormChange();
  }

  function classic76() {
    form.cols = 7;
    form.rows = 6;
    form.blocked = [];
    colsSelect.value = '7';
    rowsSelect.value = '6';
    onFormChange();
  }

  function renderBlocked() {
    clear(blockedGrid);
    blockedGrid.style.gridTemplateColumns = `repeat(${form.cols}, 1fr)`;
    blockedGrid.setAttribute('aria-label', t('lobby.blocked'));
    for (let r = form.rows; r >= 1; r--) {
      for (let c = 1; c <= form.cols; c++) {
        const on = form.blocked.some(([bc, br]) => bc === c && br === r);
        blockedGrid.append(h('button', {
          type: 'button',
          class: `blocked-cell${on ? ' on' : ''}`,
          'aria-pressed': String(on),
          'aria-label': t('lobby.blockedCell', { c, r }),
          'data-testid': `blocked-${c}-${r}`,
          onclick: () => {
            if (on) form.blocked = form.blocked.filter(([bc, br]) => !(bc === c && br === r));
            else form.blocked.push([c, r]);
            renderSummary();
            saveForm(form);
            renderBlocked();
          },
        }));
      }
    }
  }

  function openingGame() {
    return { kind: 'gomoku', size: form.size, rule: form.rule };
  }

  function renderOpening() {
    const game = openingGame();
    const positions = replay(game, form.opening);
    const pos = positions[positions.length - 1];
    openingBoard.render({ game, pos, interactive: true, me: pos.toMove, touchConfirm: false, flipped: false });
    openingNote.textContent = form.opening.length ? form.opening.join(' ') : t('lobby.openingNone');
  }

  function renderOpeningRules() {
    const rules = openingRules({ kind: 'gomoku', size: form.size, rule: form.rule });
    if (!rules.includes(form.openingRule)) form.openingRule = 'none';
    clear(openingRuleSelect);
    openingRuleSelect.append(h('option', { value: 'none', 'data-i18n': 'lobby.openingRuleNone' }, t('lobby.openingRuleNone')));
    for (const r of rules) openingRuleSelect.append(h('option', { value: r, 'data-i18n': `openingRule.${r}` }, t(`openingRule.${r}`)));
    openingRuleSelect.value = form.openingRule;
  }

  function onFormChange() {
    kindSelect.value = form.kind;
    gomokuPart.hidden = form.kind !== 'gomoku';
    renderOpeningRules();
    // An opening rule starts on an empty board: no set-up stones with it.
    openingPart.hidden = form.kind !== 'gomoku' || form.openingRule !== 'none';
    c4Part.hidden = form.kind !== 'connect4';
    botPart.hidden = form.opp !== 'bot';
    botbotPart.hidden = form.opp !== 'botbot';
    seatField.hidden = form.opp === 'botbot';
    if (form.kind === 'connect4') renderBlocked();
    if (form.kind === 'gomoku') renderOpening();
    renderRated();
    saveForm(form);
  }

  /** The new game in one line: what "Create game" makes with the settings as they are. */
  function renderSummary() {
    const parts = [gameLabel(formGame()), clockLabel(clockFromKey(form.clock)), t(`lobby.opp.${form.opp}`)];
    if (ratedOn()) parts.push(t('lobby.rated'));
    summaryNote.textContent = parts.join(' · ');
  }

  /** The preset opening stones the new game would start from. */
  const openingStones = () => (form.kind === 'gomoku' && form.openingRule === 'none' ? form.opening.length : 0);

  /** Why a rated game cannot be made now (a key of the note under the box), or null. */
  function ratedBlocked() {
    if (!app.isAccount()) return 'lobby.ratedSignIn';
    if (!canBeRated(formGame(), openingStones())) return 'lobby.ratedNotThisGame';
    return null;
  }

  /** Whether the new game is asked for rated: ticked, and allowed. */
  const ratedOn = () => !!form.rated && !ratedBlocked();

  /** The Rated box: usable only by an account, for a game that has a rating; the note under it
   *  says why when it is not. */
  function renderRated() {
    const why = ratedBlocked();
    ratedBox.disabled = !!why;
    ratedBox.checked = ratedOn();
    ratedWhy.textContent = t(why || 'lobby.ratedNote');
    ratedWhy.dataset.reason = why ? why.replace('lobby.', '') : 'ok';
    renderSummary();
  }

  function formGame() {
    if (form.kind === 'gomoku') {
      const game = { kind: 'gomoku', size: form.size, rule: form.rule };
      return form.openingRule !== 'none' ? { ...game, opening_rule: form.openingRule } : game;
    }
    if (form.kind === 'othello') return { kind: 'othello' };
    return { kind: 'connect4', cols: form.cols, rows: form.rows, blocked: form.blocked.map(([c, r]) => [c, r]) };
  }

  function createGame() {
    const game = formGame();
    let seat = form.seat;
    let bots = null;
    if (form.opp === 'botbot' || (form.opp === 'bot' && seat === 'none')) {
      seat = 'none';
      bots = form.opp === 'botbot' ? { black: form.levelBlack, white: form.levelWhite } : { black: form.level, white: form.level };
    } else if (form.opp === 'bot') {
      // Draw the colour here, so the bot can be told which seat is its own.
      if (seat === 'random') seat = randomSeat();
      bots = { [other(seat)]: form.level };
    }
    const msg = { t: 'create', game, seat, clock: clockFromKey(form.clock), private: !!form.private };
    if (bots) msg.bots = bots;
    if (form.kind === 'gomoku' && !game.opening_rule && form.opening.length) msg.opening = [...form.opening];
    if (ratedOn()) {
      msg.rated = true;
      // A bot plays rated games at full strength only (the server refuses another level).
      if (msg.bots) for (const side of Object.keys(msg.bots)) msg.bots[side] = 10;
    }
    createAs = seat === 'none' ? 'spectator' : 'player';
    createClock = msg.clock;
    if (!app.net.send(msg)) showError(t('net.notSent'));
  }

  // ---- lists ----
  const openList = h('ul', { class: 'room-list', 'data-testid': 'open-rooms' });
  const liveList = h('ul', { class: 'room-list', 'data-testid': 'live-games' });
  const botsList = h('ul', { class: 'room-list', 'data-testid': 'bots-list' });

  function seatName(seat) {
    if (!seat) return h('span', { class: 'muted' }, t('lobby.emptySeat'));
    const span = h('span', { class: 'who' }, String(seat.name ?? '?'));
    if (seat.bot) span.append(h('span', { class: 'bot-badge' }, t('player.bot')));
    return span;
  }

  function moreItem(list, total, shown, testid) {
    const more = (Number(total) || 0) - shown;
    if (more > 0) list.append(h('li', { class: 'empty more', 'data-testid': testid }, t('lobby.more', { n: more })));
  }

  /** A live game drawn small, from the position the lobby sends; a click watches it. */
  function miniBoard(r) {
    const pos = livePosition(r);
    if (!pos) return null;
    const box = h('button', {
      type: 'button', class: 'mini-board', 'data-testid': `mini-${r.room}`, 'data-ply': r.ply ?? 0,
      'aria-label': t('lobby.watchGame', { game: gameLabel(r.game) }),
      onclick: () => app.go(r.room, { as: 'spectator' }),
    });
    createBoard(box, { mini: true, testPrefix: `mini-${r.room}-` })
      .render({ game: r.game, pos, flipped: false, interactive: false, me: null, animate: false });
    return box;
  }

  // The live games last listed, and when: a list that empties (a showcase game over, the next
  // one not started yet) keeps them for a while, marked finished, rather than saying at once
  // that nothing is played.
  let lastLive = [];
  let lastLiveAt = 0;
  let endedTimer = 0;

  function renderLists(msg) {
    lastLobby = msg;
    clear(openList);
    clear(liveList);
    clear(botsList);
    const open = Array.isArray(msg.open) ? msg.open : [];
    let live = Array.isArray(msg.live) ? msg.live : [];
    let ended = false;
    if (live.length) {
      lastLive = live;
      lastLiveAt = Date.now();
    } else if (lastLive.length && Date.now() - lastLiveAt < KEEP_ENDED_MS) {
      live = lastLive;
      ended = true;
      clearTimeout(endedTimer);
      endedTimer = setTimeout(() => { if (lastLobby === msg) renderLists(msg); }, KEEP_ENDED_MS - (Date.now() - lastLiveAt) + 50);
    }
    const bots = Array.isArray(msg.bots) ? msg.bots : [];
    if (!open.length) openList.append(h('li', { class: 'empty' }, t('lobby.openEmpty')));
    for (const r of open) {
      const seats = r.seats || {};
      const host = seats.black || seats.white;
      openList.append(h('li', { class: 'room-item', 'data-room': r.room },
        h('span', { class: 'room-game' }, gameLabel(r.game)),
        h('span', { class: 'room-clock' }, clockLabel(r.clock)),
        h('span', { class: 'room-who' }, seatName(host), h('span', { class: `stone-icon ${seats.black ? 'black' : 'white'}`, 'aria-hidden': 'true' })),
        h('button', { type: 'button', class: 'primary', 'data-testid': `btn-join-${r.room}`, onclick: () => app.go(r.room, { as: 'player', clockSpec: r.clock ?? null }) }, t('lobby.join'))));
    }
    // The server lists the newest open rooms and the most watched games, with the totals.
    moreItem(openList, msg.open_total, open.length, 'open-more');
    if (!live.length) liveList.append(h('li', { class: 'empty' }, t('lobby.liveEmpty')));
    for (const r of live) {
      const seats = r.seats || {};
      // Our own game is not one to watch: the way back to our seat.
      const mine = isMine(seats.black, app.net.player) || isMine(seats.white, app.net.player);
      // Also first on the page, whichever device this is (a game begun on another one).
      if (mine && !ended) showBackToGame(backBox, r.room, (room) => app.go(room, { as: 'player' }));
      const go = mine
        ? h('button', { type: 'button', class: 'primary', 'data-testid': `btn-back-${r.room}`, onclick: () => app.go(r.room, { as: 'player' }) }, t('lobby.backToGame'))
        : h('button', { type: 'button', 'data-testid': `btn-watch-${r.room}`, onclick: () => app.go(r.room, { as: 'spectator' }) }, t('lobby.watch'));
      liveList.append(h('li', { class: `room-item live-item${mine ? ' mine' : ''}${ended ? ' ended' : ''}`, 'data-room': r.room },
        miniBoard(r),
        h('span', { class: 'room-game' }, gameLabel(r.game)),
        h('span', { class: 'room-who' }, seatName(seats.black), ' – ', seatName(seats.white)),
        h('span', { class: 'room-meta' }, ended ? h('span', { 'data-testid': `ended-${r.room}` }, t('lobby.justEnded'), ' · ') : null,
          t('lobby.ply', { n: r.ply ?? 0 }), ' · ',
          h('span', { 'data-testid': `spectators-${r.room}` }, t('lobby.spectators', { n: r.spectators ?? 0 }))),
        go));
    }
    moreItem(liveList, msg.live_total, live.length, 'live-more');
    if (!bots.length) botsList.append(h('li', { class: 'empty' }, t('lobby.botsEmpty')));
    for (const b of bots) {
      const games = (Array.isArray(b.games) ? b.games : []).map((g) => t(`game.${g}`)).join(', ');
      let levels = '';
      if (Array.isArray(b.levels) && b.levels.length) {
        const nums = b.levels.map(Number).filter(Number.isFinite);
        levels = nums.length ? `${Math.min(...nums)}–${Math.max(...nums)}` : '';
      } else if (b.levels != null) levels = String(b.levels);
      botsList.append(h('li', { class: 'room-item bot-item' },
        h('span', { class: 'who' }, String(b.name ?? '?'), h('span', { class: 'bot-badge' }, t('player.bot'))),
        h('span', { class: 'room-game' }, games),
        levels ? h('span', { class: 'room-meta' }, t('lobby.botLevels', { levels })) : null,
        h('span', { class: 'room-meta' }, t('lobby.botBusy', { busy: b.busy ?? 0, capacity: b.capacity ?? '?' }))));
    }
    const seeks = Array.isArray(msg.seeks) ? msg.seeks : [];
    for (const preset of PLAY_NOW) {
      const btn = playButtons[preset.key];
      const n = seeks.filter((sk) => sameGame(sk.game, preset.game) && clockKey(sk.clock) === preset.clock)
        .reduce((sum, sk) => sum + (Number(sk.waiting) || 0), 0);
      btn.count.textContent = n ? t('lobby.waiting', { n }) : '';
    }
  }

  // The games of the players we follow, and them (follows.js): first of the lists.
  const following = mountFollowing(app);
  // Our game under way, if we have one: first on the page, the way back to it.
  const backBox = backToGameCard((room) => app.go(room, { as: 'player' }));

  const card = (titleKey, ...children) => h('section', { class: `card card-${titleKey.split('.').pop()}` }, h('h2', { 'data-i18n': titleKey }, t(titleKey)), ...children);

  clear(root);
  root.append(h('div', { class: 'lobby' },
    h('div', { class: 'lobby-main' },
      // Our games by correspondence, theirs to move first: first on the page (when any).
      backBox, app.turns?.lobbyCard(),
      h('section', { class: 'card' }, whoBox),
      errorBox,
      card('lobby.playNow', h('p', { class: 'note', 'data-i18n': 'lobby.playNowHint' }, t('lobby.playNowHint')), playGrid, seekBox),
      card('lobby.vsComputer', vsComputerRow),
      card('lobby.newGame', newGameForm)),
    h('div', { class: 'lobby-lists' },
      following.card, dailyPuzzleCard(app),
      card('lobby.open', openList),
      card('lobby.live',
        h('a', { href: 'tv', class: 'tv-link', 'data-testid': 'link-tv', 'data-i18n': 'lobby.tv', onclick: (ev) => { ev.preventDefault(); app.goTv(); } }, t('lobby.tv')),
        liveList),
      card('lobby.bots', botsList))));
  renderWho();
  onFormChange();
  renderLists({});

  function subscribe() {
    app.net.send({ t: 'lobby' });
  }
  if (app.net.ready) subscribe();

  return {
    onReady() {
      // The welcome says whether we are an account: the name box and the Rated box follow;
      // and how long a name the server takes.
      nameInput.maxLength = app.net.nameMax;
      renderWho();
      renderRated();
      subscribe();
      following.refresh();
      // A dropped connection ends the seek on the server: ask again.
      if (seeking) app.net.send({ t: 'seek', game: seeking.preset.game, clock: clockFromKey(seeking.preset.clock) });
    },
    onMessage(msg) {
      switch (msg.t) {
        case 'lobby':
          renderLists(msg);
          return true;
        case 'seeking':
          return true;
        case 'created':
          if (seeking) clearTimeout(seeking.timer);
          seeking = null;
          app.go(msg.room, { fresh: true, as: createAs, clockSpec: createClock });
          return true;
        case 'error':
          if (msg.room) return false;
          showError(errorText(msg));
          return true;
        default:
          return false;
      }
    },
    onLang() {
      renderSeek();
      if (lastLobby) renderLists(lastLobby);
      for (const p of PLAY_NOW) playButtons[p.key].querySelector('.play-clock').textContent = clockLabel(clockFromKey(p.clock));
      for (const opt of clockSelect.options) opt.textContent = clockLabel(clockFromKey(opt.value));
      relabelGroups(clockSelect);
      if (form.kind === 'connect4') renderBlocked();
      if (form.kind === 'gomoku') renderOpening();
      renderWho();
      renderRated();
    },
    unmount() {
      if (seeking) {
        clearTimeout(seeking.timer);
        app.net.send({ t: 'unseek' });
      }
      clearTimeout(errorTimer);
      following.unmount();
      app.net.send({ t: 'unlobby' });
    },
  };
}
