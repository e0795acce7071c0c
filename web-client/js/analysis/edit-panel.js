// The analysis board's edit mode: starting from the position on show, points chosen on the board place or remove stones (Gomoku) or discs (Othello) of the colour picked, the side to move is chosen, the board emptied or set back to the game's start; Done starts the analysis from that position.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { emptyBoard, dims, EMPTY, BLACK, WHITE } from '../rules.js';

const TOOLS = [['black', BLACK], ['white', WHITE], ['empty', EMPTY]];

/**
 * The panel. `game()` is the board's game, `position()` the cells and side to move on show,
 * `onChange(edit)` redraws the board with the edit ({ cells, toMove, tool }, or null once it
 * ends), `onApply({ cells, toMove })` starts the analysis there, `say(text)` speaks.
 * Returns { element, editing(), editAt(idx), render() }.
 */
export function createEditPanel({ game, position, onChange, onApply, say }) {
  let edit = null;
  const element = h('div', { class: 'an-edit', 'data-testid': 'analysis-edit-panel' });

  function begin() {
    const { cells, toMove } = position();
    edit = { cells: Int8Array.from(cells), toMove, tool: 'black' };
    render();
    onChange(edit);
    say(t('analysis.setup.editing'));
  }

  function end() {
    edit = null;
    render();
    onChange(null);
  }

  /** A point chosen in edit mode: the tool's stone there, or emptied when it held that stone. */
  function editAt(idx) {
    if (!edit || idx < 0 || idx >= edit.cells.length) return;
    const stone = TOOLS.find(([name]) => name === edit.tool)[1];
    edit.cells[idx] = edit.cells[idx] === stone ? EMPTY : stone;
    onChange(edit);
  }

  function setCells(cells) {
    edit.cells = cells;
    onChange(edit);
  }

  function toolChoice() {
    // A group of radios, not a fieldset: see export-panel.js.
    const box = h('div', { class: 'an-tools', role: 'radiogroup', 'aria-labelledby': 'analysis-tools' },
      h('span', { class: 'an-legend', id: 'analysis-tools' }, t('analysis.setup.tool')));
    for (const [name] of TOOLS) {
      const id = `analysis-tool-${name}`;
      const radio = h('input', { type: 'radio', name: 'analysis-tool', id, value: name, 'data-testid': id, checked: edit.tool === name });
      radio.addEventListener('change', () => { edit.tool = name; });
      box.append(h('span', { class: 'field' }, radio, h('label', { for: id }, t(`analysis.setup.${name}`))));
    }
    return box;
  }

  function sideChoice() {
    const select = h('select', { id: 'analysis-edit-side', 'data-testid': 'analysis-edit-side' },
      ['black', 'white'].map((s) => h('option', { value: s }, t(`seat.${s}`))));
    select.value = edit.toMove;
    select.addEventListener('change', () => {
      edit.toMove = select.value;
      onChange(edit);
    });
    return h('span', { class: 'field' }, h('label', { for: 'analysis-edit-side' }, t('analysis.setup.toMove')), select);
  }

  function render() {
    clear(element);
    const g = game();
    if (g.kind === 'connect4') {
      element.append(h('p', { class: 'note' }, t('analysis.setup.noEdit')));
      return;
    }
    const btn = (id, key, fn, cls = '') => h('button', { type: 'button', class: cls, 'data-testid': `analysis-edit-${id}`, onclick: fn }, t(key));
    if (!edit) {
      element.append(h('button', { type: 'button', 'data-testid': 'analysis-edit', 'aria-pressed': 'false', onclick: begin }, t('analysis.setup.edit')),
        h('p', { class: 'note' }, t('analysis.setup.note')));
      return;
    }
    const size = dims(g).cols * dims(g).rows;
    element.append(
      h('p', { class: 'note' }, t('analysis.setup.editing')),
      toolChoice(),
      h('div', { class: 'an-row' }, sideChoice(),
        btn('clear', 'analysis.setup.clear', () => setCells(new Int8Array(size))),
        btn('start', 'analysis.setup.reset', () => setCells(emptyBoard(g)))),
      h('div', { class: 'an-row' },
        btn('done', 'analysis.setup.done', () => {
          const { cells, toMove } = edit;
          edit = null;
          render();
          onApply({ cells, toMove });
        }, 'primary'),
        btn('cancel', 'analysis.setup.cancel', end)));
  }

  render();
  return { element, editing: () => edit, editAt, render, cancel: () => edit && end() };
}
