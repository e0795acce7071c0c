// The new-game form's set-up stones: a Gomoku board to place the stones the game starts from, the moves in a line under it, and undo and clear buttons. They last for this visit only (settings.js never keeps them).

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { createBoard } from '../board.js';
import { replay } from '../rules.js';

/**
 * The part of the form, on the board of `settings`' size and rule. `onChange()` follows each
 * stone placed or taken back by the player. Returns { element, moves(), clear(), render() }:
 * render again when the size, the rule or the language changes.
 */
export function createOpeningStones({ settings, onChange }) {
  let moves = [];
  const note = h('p', { class: 'note opening-moves', 'data-testid': 'opening-moves' });
  const boardBox = h('div', { class: 'opening-board' });
  const board = createBoard(boardBox, { testPrefix: 'opening-', label: 'board.openingAria', onPlay: (move) => set([...moves, move]) });

  function set(next) {
    moves = next;
    render();
    onChange();
  }

  function render() {
    const game = { kind: 'gomoku', size: settings.get('size'), rule: settings.get('rule') };
    const positions = replay(game, moves);
    const pos = positions[positions.length - 1];
    board.render({ game, pos, interactive: true, me: pos.toMove, touchConfirm: false, flipped: false });
    note.textContent = moves.length ? moves.join(' ') : t('lobby.openingNone');
  }

  const element = h('div', { class: 'part opening' },
    h('p', { class: 'label', 'data-i18n': 'lobby.opening' }, t('lobby.opening')),
    boardBox,
    h('div', { class: 'row' },
      note,
      h('button', { type: 'button', 'data-testid': 'btn-opening-undo', onclick: () => set(moves.slice(0, -1)), 'data-i18n': 'lobby.openingUndo' }, t('lobby.openingUndo')),
      h('button', { type: 'button', 'data-testid': 'btn-opening-clear', onclick: () => set([]), 'data-i18n': 'lobby.openingClear' }, t('lobby.openingClear'))));

  return {
    element,
    moves: () => [...moves],
    /** The stones go (the board's size changed); the form redraws the part itself. */
    clear() {
      moves = [];
    },
    render,
  };
}
