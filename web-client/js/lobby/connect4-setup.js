// The new-game form's Connect Four settings: columns and rows, two presets (a random 9–12 board with one blocked cell, the classic 7×6), and a grid of the board's cells to block.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { select, field } from '../form-select.js';
import { randInt } from './presets.js';

const SIZES = Array.from({ length: 9 }, (_, i) => [i + 4, String(i + 4)]);

/**
 * The settings' part of the form, kept in `settings` (settings.js). `onChange()` follows a
 * change of the board's size (a preset's included); a cell blocked or freed changes only the
 * cells. Returns { element, render() }: render again when the form changes or the language.
 */
export function createConnect4Setup({ settings, onChange }) {
  /** The blocked cells that still fit the board. */
  const fitting = (cols, rows) => settings.get('blocked').filter(([c, r]) => c <= cols && r <= rows);
  const cols = select({ 'data-testid': 'new-game-cols' }, SIZES, settings.get('cols'), (v) => {
    settings.set({ cols: Number(v), blocked: fitting(Number(v), settings.get('rows')) });
    onChange();
  });
  const rows = select({ 'data-testid': 'new-game-rows' }, SIZES, settings.get('rows'), (v) => {
    settings.set({ rows: Number(v), blocked: fitting(settings.get('cols'), Number(v)) });
    onChange();
  });
  const grid = h('div', { class: 'blocked-grid', role: 'group' });

  /** Takes the board `board` ({ cols, rows, blocked, kind? }) and shows it. */
  function preset(board) {
    settings.set(board);
    cols.value = String(board.cols);
    rows.value = String(board.rows);
    onChange();
  }

  function random912() {
    const c = randInt(9, 12);
    const r = randInt(9, 12);
    preset({ kind: 'connect4', cols: c, rows: r, blocked: [[randInt(1, c), randInt(1, r)]] });
  }

  const element = h('div', { class: 'part' },
    h('div', { class: 'row' }, field('lobby.cols', cols, 'ng-cols'), field('lobby.rows', rows, 'ng-rows')),
    h('div', { class: 'row' },
      h('button', { type: 'button', 'data-testid': 'btn-random-9-12', onclick: random912, 'data-i18n': 'lobby.random912' }, t('lobby.random912')),
      h('button', { type: 'button', 'data-testid': 'btn-classic-7-6', onclick: () => preset({ cols: 7, rows: 6, blocked: [] }), 'data-i18n': 'lobby.classic76' }, t('lobby.classic76'))),
    h('p', { class: 'label', 'data-i18n': 'lobby.blocked' }, t('lobby.blocked')),
    grid);

  function toggle(c, r) {
    const blocked = settings.get('blocked');
    const on = blocked.some(([bc, br]) => bc === c && br === r);
    settings.set({ blocked: on ? blocked.filter(([bc, br]) => !(bc === c && br === r)) : [...blocked, [c, r]] });
    render();
  }

  /** The grid of cells, the top row first, each a button pressed when blocked. */
  function render() {
    const w = settings.get('cols');
    const blocked = settings.get('blocked');
    clear(grid);
    grid.style.gridTemplateColumns = `repeat(${w}, 1fr)`;
    grid.setAttribute('aria-label', t('lobby.blocked'));
    for (let r = settings.get('rows'); r >= 1; r--) {
      for (let c = 1; c <= w; c++) {
        const on = blocked.some(([bc, br]) => bc === c && br === r);
        grid.append(h('button', {
          type: 'button', class: `blocked-cell${on ? ' on' : ''}`, 'aria-pressed': String(on),
          'aria-label': t('lobby.blockedCell', { c, r }), 'data-testid': `blocked-${c}-${r}`,
          onclick: () => toggle(c, r),
        }));
      }
    }
  }

  return { element, render };
}
