// The puzzle page's elements, built once: the head (title, the way back, the variant, theme and mode pickers), the board, and the side panel (the status line, where a refused move is said; the next / hint / solution buttons and the solution's steps right under it, in view on a phone; an error, the result, the streak, the player's puzzle rating, the puzzle's facts, the game of the hall it comes from, the move box, the line so far).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { createBoard } from '../board.js';

const btn = (testid, onclick, attrs = {}) => h('button', { type: 'button', 'data-testid': testid, onclick, ...attrs });

/** A step button of the solution: a symbol, its name for screen readers and on hover. */
const navBtn = (testid, key, symbol, onclick) => h('button', {
  type: 'button', 'data-testid': testid, onclick, 'aria-label': t(key), 'data-i18n-aria': key, title: t(key), 'data-i18n-title': key,
}, symbol);

/**
 * Builds the page in `root`. `actions` holds the user's actions ({ play, typed, hint, solution,
 * next, restart, step, pick }); it is looked up only when a handler fires. `lobbyLink` is the
 * way back (a view link). Returns the elements the page draws into.
 */
export function buildPuzzlePage(root, { actions, lobbyLink }) {
  const title = h('h1', { 'data-testid': 'puzzle-title' });
  const picks = {
    variant: h('select', { id: 'puzzle-variant', 'data-testid': 'puzzle-variant', onchange: () => actions.pick() }),
    theme: h('select', { id: 'puzzle-theme', 'data-testid': 'puzzle-theme', onchange: () => actions.pick() }),
    mode: h('select', { id: 'puzzle-mode', 'data-testid': 'puzzle-mode', onchange: () => actions.pick() }),
  };
  const pickField = (name, key) => h('span', { class: 'field' },
    h('label', { for: picks[name].id, 'data-i18n': key }, t(key)), picks[name]);
  const pickBox = h('div', { class: 'puzzle-picks' },
    pickField('variant', 'puz.variant'), pickField('theme', 'puz.theme'), pickField('mode', 'puz.mode'));

  const boardBox = h('div', { class: 'board-box' });
  const board = createBoard(boardBox, { onPlay: (move) => actions.play(move), label: 'puz.boardAria' });

  const goal = h('p', { class: 'puzzle-goal', 'data-testid': 'puzzle-goal' });
  const facts = h('p', { class: 'puzzle-facts note', 'data-testid': 'puzzle-facts' });
  const source = h('p', { class: 'puzzle-source note', 'data-testid': 'puzzle-source', hidden: true });
  const rating = h('p', { class: 'puzzle-rating', 'data-testid': 'puzzle-rating' });
  const streak = h('p', { class: 'puzzle-streak', 'data-testid': 'puzzle-streak', hidden: true });
  const status = h('p', { class: 'puzzle-status', 'data-testid': 'puzzle-status', 'aria-live': 'polite' });
  const refused = h('p', { class: 'error-msg puzzle-refused', role: 'alert', 'data-testid': 'puzzle-refused', hidden: true });
  const result = h('div', { class: 'puzzle-result', role: 'status', 'data-testid': 'puzzle-result', hidden: true });

  const buttons = {
    hint: btn('puzzle-hint', () => actions.hint()),
    solution: btn('puzzle-show-solution', () => actions.solution()),
    pass: btn('puzzle-pass', () => actions.play('pass'), { 'data-i18n': 'puz.pass' }),
    next: btn('puzzle-next', () => actions.next(), { class: 'primary' }),
    restart: btn('puzzle-restart', () => actions.restart(), { class: 'primary', 'data-i18n': 'puz.newStreak' }),
  };
  buttons.pass.textContent = t('puz.pass');
  buttons.restart.textContent = t('puz.newStreak');
  const cost = h('span', { class: 'note puzzle-cost', id: 'puzzle-cost', 'data-testid': 'puzzle-cost' });
  const actionsEl = h('div', { class: 'actions puzzle-actions' }, buttons.next, buttons.restart, buttons.pass, buttons.hint, buttons.solution, cost);

  const solNav = {
    first: navBtn('puzzle-sol-first', 'puz.solFirst', '«', () => actions.step('first')),
    back: navBtn('puzzle-sol-back', 'puz.solBack', '‹', () => actions.step('back')),
    next: navBtn('puzzle-sol-next', 'puz.solNext', '›', () => actions.step('next')),
    last: navBtn('puzzle-sol-last', 'puz.solLast', '»', () => actions.step('last')),
  };
  const solBox = h('div', { class: 'puzzle-solution nav', 'data-testid': 'puzzle-solution', role: 'group', 'aria-label': t('puz.solution'), 'data-i18n-aria': 'puz.solution', hidden: true },
    solNav.first, solNav.back, solNav.next, solNav.last);

  const moveInput = h('input', {
    type: 'text', class: 'move-input', maxlength: 8, autocomplete: 'off', 'data-testid': 'puzzle-move-input',
    'aria-label': t('room.moveInput'), 'data-i18n-aria': 'room.moveInput',
  });
  const moveForm = h('form', { class: 'move-form' }, moveInput,
    h('button', { type: 'submit', 'data-testid': 'puzzle-move-play', 'data-i18n': 'room.play' }, t('room.play')));
  moveForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = moveInput.value.trim();
    if (text && actions.typed(text)) moveInput.value = '';
  });
  const lineEl = h('p', { class: 'puzzle-line note', 'data-testid': 'puzzle-line' });

  const page = h('div', { class: 'page puzzles', 'data-testid': 'puzzles' },
    h('section', { class: 'card puzzle-head' },
      h('div', { class: 'page-head' }, title, lobbyLink),
      goal),
    h('div', { class: 'puzzle-board' }, boardBox),
    h('section', { class: 'card puzzle-side', 'aria-label': t('puz.panel'), 'data-i18n-aria': 'puz.panel' },
      status, actionsEl, solBox, refused, result, streak, rating, facts, source, moveForm, lineEl),
    h('section', { class: 'card puzzle-pick-card', 'aria-label': t('puz.pickAria'), 'data-i18n-aria': 'puz.pickAria' }, pickBox));
  root.append(page);

  return { page, title, picks, board, goal, facts, source, rating, streak, status, refused, result, buttons, cost, solBox, solNav, moveInput, lineEl };
}
