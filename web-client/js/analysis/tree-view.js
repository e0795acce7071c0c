// The analysis board's move list: the main line as numbered moves, each variation in brackets on a line of its own (indented by its depth), every move a button that shows its position, the one on show marked; kept scrolled to it.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { lineItems, lineTo, isMain, seatOfNode, moveNumber } from './tree.js';

const moveLabel = (move) => (move === 'pass' ? t('room.pass') : move);

/** The number a move is written with: "3." before black's, "3…" before white's. */
export const numberText = (node, first) => `${moveNumber(node, first)}${seatOfNode(node, first) === 'black' ? '.' : '…'}`;

/** The move list; `onPick(node)` when a move is chosen. Returns { element, render(tree, current, first) }. */
export function createTreeView({ onPick }) {
  const element = h('div', {
    class: 'move-list an-moves', 'data-testid': 'analysis-moves', role: 'group', 'aria-label': t('analysis.movesAria'), 'data-i18n-aria': 'analysis.movesAria',
  });

  function moveButton(node, current, first, numbered) {
    const num = numberText(node, first);
    const main = isMain(node);
    const here = node === current;
    return [
      numbered ? h('span', { class: 'num', 'aria-hidden': 'true' }, num) : null,
      h('button', {
        type: 'button',
        class: `mv${node.move === 'pass' ? ' pass' : ''}${here ? ' current' : ''}`,
        'data-testid': 'analysis-move',
        'data-line': lineTo(node).join(','),
        'data-main': String(main),
        'aria-current': here ? 'step' : null,
        'aria-label': `${num} ${moveLabel(node.move)}${main ? '' : `, ${t('analysis.inVariation')}`}`,
        onclick: () => onPick(node),
      }, moveLabel(node.move)),
    ];
  }

  /** The items of one line (lineItems) in `box`; a variation gets a block of its own. */
  function fill(box, items, current, first, depth) {
    let needNumber = true;
    for (const it of items) {
      if (it.variation) {
        const inner = h('span', { class: 'an-var-moves' });
        fill(inner, it.variation, current, first, depth + 1);
        box.append(h('span', {
          class: `an-variation depth-${Math.min(depth + 1, 4)}`, role: 'group', 'aria-label': t('analysis.variation'),
        }, h('span', { class: 'an-paren', 'aria-hidden': 'true' }, '('), inner, h('span', { class: 'an-paren', 'aria-hidden': 'true' }, ')')));
        needNumber = true;
        continue;
      }
      const black = seatOfNode(it.node, first) === 'black';
      box.append(h('span', { class: 'an-move' }, ...moveButton(it.node, current, first, black || needNumber)));
      needNumber = false;
    }
  }

  function render(tree, current, first = 'black') {
    clear(element);
    if (!tree.root.children.length) {
      element.append(h('p', { class: 'empty' }, t('analysis.noMoves')));
      return;
    }
    fill(element, lineItems(tree.root), current, first, 0);
    const cur = element.querySelector('.current');
    if (cur && element.scrollHeight > element.clientHeight) {
      const top = cur.getBoundingClientRect().top - element.getBoundingClientRect().top + element.scrollTop;
      if (top < element.scrollTop || top + cur.offsetHeight > element.scrollTop + element.clientHeight) {
        element.scrollTop = Math.max(0, top - (element.clientHeight - cur.offsetHeight) / 2);
      }
    }
  }

  return { element, render };
}
