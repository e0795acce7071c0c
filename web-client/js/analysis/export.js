// Exports of the analysis board: the line on show or the whole tree as SGF (Gomoku and Othello: variations in brackets, a set-up position as AB/AW/PL), PSQ (Gomoku from the empty board, one line) and JSON (every game: the game, the start position, the tree or the line), with their file names; no DOM, so node tests it.

import { parseCell, dims } from '../rules.js';
import { seatOfNode, lineTo, lineEnd, createTree, addLine } from './tree.js';
import { positionText } from './position.js';
import { sgfRoot, sgfMoveNode, sgfCanWrite } from './sgf.js';
import { variantOf } from './variant.js';

/** The formats `game` exports to, from `setup` (null: the game's own start). */
export function exportFormats(game, setup) {
  const out = [];
  if (sgfCanWrite(game)) out.push('sgf');
  if (game.kind === 'gomoku' && !setup) out.push('psq');
  out.push('json');
  return out;
}

/** The line through `node`: the moves from the start to it and on along its main continuation. */
export const lineThrough = (node) => lineTo(lineEnd(node));

/** A tree of the one line through `node`. */
function lineTree(node) {
  const tree = createTree();
  addLine(tree.root, lineThrough(node));
  return tree;
}

/** The SGF of `tree` (or, with `scope` 'line', the line through `current`). */
export function sgfExport({ game, setup, tree, current, scope = 'tree' }) {
  const t = scope === 'line' ? lineTree(current) : tree;
  const first = setup ? setup.toMove : 'black';
  const node = (n) => sgfMoveNode(game, seatOfNode(n, first), n.move, n.move === 'pass' ? -1 : parseCell(game, n.move));
  const seq = (from) => {
    let out = '';
    let p = from;
    while (p.children.length === 1) {
      p = p.children[0];
      out += node(p);
    }
    if (p.children.length > 1) for (const c of p.children) out += `(${node(c)}${seq(c)})`;
    return out;
  };
  return `(;${sgfRoot(game, setup)}${seq(t.root)})\n`;
}

/** The PSQ of the line through `current` (Gomoku from the empty board), or null. */
export function psqExport({ game, setup, current }) {
  if (game.kind !== 'gomoku' || setup) return null;
  const { cols } = dims(game);
  const lines = lineThrough(current).map((m) => {
    const idx = parseCell(game, m);
    return `${(idx % cols) + 1},${Math.floor(idx / cols) + 1},0`;
  });
  return `Piskvorky ${cols}x${cols}, 11:11, 0\n${lines.map((l) => `${l}\n`).join('')}-1\n`;
}

/** A tree's moves as JSON: [{ move, children }], main continuations first. */
function jsonTree(node) {
  return node.children.map((c) => ({ move: c.move, children: jsonTree(c) }));
}

/** The JSON of the analysis: the tree with the moves to `current`, or (`scope` 'line') the line. */
export function jsonExport({ game, setup, tree, current, scope = 'tree' }) {
  const out = {
    format: 'kibitz-analysis',
    game,
    setup: setup ? { position: positionText(setup.cells, setup.toMove), to_move: setup.toMove } : null,
  };
  if (scope === 'line') out.moves = lineThrough(current);
  else {
    out.tree = jsonTree(tree.root);
    out.current = lineTo(current);
  }
  return `${JSON.stringify(out, null, 1)}\n`;
}

/** The text of `format` ('sgf', 'psq', 'json') for the analysis `a` ({ game, setup, tree, current, scope }). */
export function exportText(format, a) {
  if (format === 'sgf') return sgfCanWrite(a.game) ? sgfExport(a) : null;
  if (format === 'psq') return psqExport(a);
  return jsonExport(a);
}

/** A file name for an export: `analysis-gomoku-renju-line.sgf`. */
export const exportFile = (game, format, scope = 'tree') => `analysis-${variantOf(game)}-${scope}.${format}`;

/** The MIME type of a format's file. */
export const exportType = (format) => ({ sgf: 'application/x-go-sgf', psq: 'text/plain', json: 'application/json' }[format] || 'text/plain');
