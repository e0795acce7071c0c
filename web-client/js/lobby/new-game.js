// The lobby's new-game form: "Create game" with the game in one line beside it, and the settings folded away under "More options" (game, board, clock, opponent, seat, private, rated, set-up stones).

import { h } from '../dom.js';
import { t, gameLabel, clockLabel } from '../i18n.js';
import { clockFromKey } from '../record.js';
import { other } from '../rules.js';
import { canBeRated } from '../rating.js';
import { select, field, clockOptions, relabelGroups } from '../form-select.js';
import { CLOCKS, randomSeat } from './presets.js';
import { card } from './card.js';
import { createGomokuSetup } from './gomoku-setup.js';
import { createConnect4Setup } from './connect4-setup.js';
import { createOpeningStones } from './opening-stones.js';
import { createOpponentSetup } from './opponent-setup.js';

/** The game the settings (`get`, settings.js) describe, as the server takes it. */
function gameOf(get) {
  const kind = get('kind');
  if (kind === 'gomoku') {
    const game = { kind: 'gomoku', size: get('size'), rule: get('rule') };
    return get('openingRule') !== 'none' ? { ...game, opening_rule: get('openingRule') } : game;
  }
  if (kind === 'othello') return { kind: 'othello' };
  return { kind: 'connect4', cols: get('cols'), rows: get('rows'), blocked: get('blocked').map(([c, r]) => [c, r]) };
}

/** The `create` message of the settings, with the set-up stones `opening`, rated or not. */
function createMessage(get, opening, rated) {
  const game = gameOf(get);
  const opp = get('opp');
  let seat = get('seat');
  let bots = null;
  if (opp === 'botbot' || (opp === 'bot' && seat === 'none')) {
    seat = 'none';
    bots = opp === 'botbot' ? { black: get('levelBlack'), white: get('levelWhite') } : { black: get('level'), white: get('level') };
  } else if (opp === 'bot') {
    // Draw the colour here, so the bot can be told which seat is its own.
    if (seat === 'random') seat = randomSeat();
    bots = { [other(seat)]: get('level') };
  }
  const msg = { t: 'create', game, seat, clock: clockFromKey(get('clock')), private: !!get('private') };
  if (bots) msg.bots = bots;
  if (get('kind') === 'gomoku' && !game.opening_rule && opening.length) msg.opening = opening;
  if (rated) {
    msg.rated = true;
    // A bot plays rated games at full strength only (the server refuses another level).
    if (msg.bots) for (const side of Object.keys(msg.bots)) msg.bots[side] = 10;
  }
  return msg;
}

/**
 * The Rated box and the note under it: usable only by an account (`app.isAccount()`), for a
 * game that has a rating (`game()`, with `stones()` set-up stones: none may be rated); the
 * note says why when it is not. Returns { element, on(), render() }: `on()` says whether the
 * game is asked for rated (ticked, and allowed).
 */
function ratedField({ app, settings, game, stones }) {
  const box = h('input', { type: 'checkbox', id: 'new-game-rated', 'data-testid': 'new-game-rated', 'aria-describedby': 'new-game-rated-why', checked: settings.get('rated'), onchange: (ev) => settings.set({ rated: ev.target.checked }) });
  const why = h('span', { class: 'note', id: 'new-game-rated-why', 'data-testid': 'new-game-rated-why' });
  const element = h('div', { class: 'rated-field' },
    h('label', { class: 'check', for: 'new-game-rated' }, box, h('span', { 'data-i18n': 'lobby.rated' }, t('lobby.rated'))),
    why);

  /** Why a rated game cannot be made now (a key of the note under the box), or null. */
  function blocked() {
    if (!app.isAccount()) return 'lobby.ratedSignIn';
    if (!canBeRated(game(), stones())) return 'lobby.ratedNotThisGame';
    return null;
  }
  const on = () => !!settings.get('rated') && !blocked();

  return {
    element,
    on,
    render() {
      const reason = blocked();
      box.disabled = !!reason;
      box.checked = on();
      why.textContent = t(reason || 'lobby.ratedNote');
      why.dataset.reason = reason ? reason.replace('lobby.', '') : 'ok';
    },
  };
}

/** The form: the line `summary` and "Create game" first, then `fields` folded away under
 *  "More options", so that "Create game" is in view on a laptop screen whether they are open
 *  or not. */
function formElement(summary, fields) {
  return h('form', { class: 'new-game', 'data-testid': 'new-game-form' },
    h('div', { class: 'row new-game-head' },
      summary,
      h('button', { type: 'submit', class: 'primary', 'data-testid': 'btn-new-game', 'data-i18n': 'lobby.create' }, t('lobby.create'))),
    h('details', { class: 'more-options', 'data-testid': 'more-options' },
      h('summary', { 'data-testid': 'btn-more-options', 'data-i18n': 'lobby.moreOptions' }, t('lobby.moreOptions')),
      h('div', { class: 'new-game-fields' }, ...fields)));
}

/**
 * The "New game" card. `settings` (settings.js) holds the form's choices; `request(msg, { as,
 * clock })` sends the room to create. Returns { element, renderRated(), relabel(), destroy() }:
 * renderRated again once the welcome says whether we are an account.
 */
export function createNewGameForm({ app, settings, request }) {
  const get = settings.get;
  const stones = createOpeningStones({ settings, onChange: () => renderRated() });
  const gomoku = createGomokuSetup({
    settings,
    onChange: (patch) => {
      if ('size' in patch) stones.clear();
      refresh();
    },
  });
  const connect4 = createConnect4Setup({ settings, onChange: () => refresh() });
  const opponent = createOpponentSetup({ settings, onChange: () => refresh() });
  const kind = select({ 'data-testid': 'new-game-kind' }, ['gomoku', 'othello', 'connect4'].map((k) => [k, t(`game.${k}`), `game.${k}`]), get('kind'), (v) => {
    settings.set({ kind: v });
    refresh();
  });
  // The live clocks, then correspondence ones (days per move: players come and go).
  const clock = select({ 'data-testid': 'new-game-clock' }, clockOptions(CLOCKS), get('clock'), (v) => settings.set({ clock: v }));
  const privateBox = h('input', { type: 'checkbox', id: 'new-game-private', 'data-testid': 'new-game-private', checked: get('private'), onchange: (ev) => settings.set({ private: ev.target.checked }) });
  const rated = ratedField({ app, settings, game: () => gameOf(get), stones: () => openingStones() });
  const summary = h('span', { class: 'note new-game-summary', 'data-testid': 'new-game-summary' });

  const form = formElement(summary, [
    field('lobby.game', kind, 'ng-kind'),
    gomoku.element, connect4.element,
    field('lobby.clock', clock, 'ng-clock'),
    opponent.elements,
    h('label', { class: 'check', for: 'new-game-private' }, privateBox, h('span', { 'data-i18n': 'lobby.private' }, t('lobby.private'))),
    rated.element,
    stones.element,
  ]);
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const msg = createMessage(get, stones.moves(), rated.on());
    request(msg, { as: msg.seat === 'none' ? 'spectator' : 'player', clock: msg.clock });
  });

  /** The set-up stones the new game would start from (an opening rule starts on an empty board). */
  const openingStones = () => (get('kind') === 'gomoku' && get('openingRule') === 'none' ? stones.moves().length : 0);

  /** The new game in one line: what "Create game" makes with the settings as they are. */
  function renderSummary() {
    const parts = [gameLabel(gameOf(get)), clockLabel(clockFromKey(get('clock'))), t(`lobby.opp.${get('opp')}`)];
    if (rated.on()) parts.push(t('lobby.rated'));
    summary.textContent = parts.join(' · ');
  }

  function renderRated() {
    rated.render();
    renderSummary();
  }

  /** Shows the parts of the form the settings call for, each drawn as they stand. */
  function refresh() {
    kind.value = get('kind');
    gomoku.element.hidden = get('kind') !== 'gomoku';
    gomoku.render();
    // An opening rule starts on an empty board: no set-up stones with it.
    stones.element.hidden = get('kind') !== 'gomoku' || get('openingRule') !== 'none';
    connect4.element.hidden = get('kind') !== 'connect4';
    opponent.render();
    if (get('kind') === 'connect4') connect4.render();
    if (get('kind') === 'gomoku') stones.render();
    renderRated();
  }

  // Every change of a setting may change the line (a clock, a blocked cell, the Rated box).
  const stopSummary = settings.onChange(() => renderSummary());
  refresh();

  return {
    element: card('lobby.newGame', form),
    renderRated,
    relabel() {
      for (const opt of clock.options) opt.textContent = clockLabel(clockFromKey(opt.value));
      relabelGroups(clock);
      if (get('kind') === 'connect4') connect4.render();
      if (get('kind') === 'gomoku') stones.render();
      renderRated();
    },
    destroy() {
      stopSummary();
      opponent.destroy();
    },
  };
}
