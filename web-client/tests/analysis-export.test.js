// Tests js/analysis/export.js: the tree and the line on show as SGF (variations, set-up stones, Othello passes), PSQ and JSON, each read back by the paste box (setup.js) to the same tree; which formats a game has, and the file names.
import test from 'node:test';
import assert from 'node:assert/strict';
import { sgfExport, psqExport, jsonExport, exportFormats, exportFile, exportText, lineThrough } from '../js/analysis/export.js';
import { parsePasted } from '../js/analysis/setup.js';
import { createTree, addLine, walk, lineTo, ordered } from '../js/analysis/tree.js';
import { parseCell, BLACK, WHITE } from '../js/rules.js';

const FREE = { kind: 'gomoku', size: 15, rule: 'freestyle' };
const RENJU = { kind: 'gomoku', size: 15, rule: 'renju' };
const C4 = { kind: 'connect4', cols: 7, rows: 6, blocked: [] };
const shape = (tree) => ordered(tree).map((n) => lineTo(n).join(','));

/** h8 i9 h10 with j10 k11 instead of i9, and the node on show j10. */
function sample() {
  const tree = createTree();
  addLine(tree.root, ['h8', 'i9', 'h10']);
  const current = addLine(walk(tree, ['h8']), ['j10', 'k11']).parent;
  return { tree, current };
}

test('SGF of the tree: variations in brackets, read back the same', () => {
  const { tree, current } = sample();
  const sgf = sgfExport({ game: RENJU, setup: null, tree, current });
  assert.equal(sgf, '(;FF[4]GM[4]SZ[15]RU[renju];B[hh](;W[ig];B[hf])(;W[jf];B[ke]))\n');
  const back = parsePasted(FREE, sgf);
  assert.deepEqual(back.game, RENJU);
  assert.deepEqual(shape(back.tree), shape(tree));
  // The line on show: the moves to j10 and on along its own line.
  assert.equal(sgfExport({ game: RENJU, setup: null, tree, current, scope: 'line' }), '(;FF[4]GM[4]SZ[15]RU[renju];B[hh];W[jf];B[ke])\n');
  assert.deepEqual(lineThrough(current), ['h8', 'j10', 'k11']);
});

test('SGF of a set-up position: AB, AW and PL, and the first move the side to move\'s', () => {
  const cells = new Int8Array(225);
  cells[parseCell(FREE, 'h8')] = BLACK;
  cells[parseCell(FREE, 'a15')] = WHITE;
  const setup = { cells, toMove: 'white' };
  const tree = createTree();
  const current = addLine(tree.root, ['i9', 'j10']);
  const sgf = sgfExport({ game: FREE, setup, tree, current });
  assert.equal(sgf, '(;FF[4]GM[4]SZ[15]RU[freestyle]AB[hh]AW[aa]PL[W];W[ig];B[jf])\n');
  const back = parsePasted(FREE, sgf);
  assert.deepEqual(Array.from(back.setup.cells), Array.from(cells));
  assert.equal(back.setup.toMove, 'white');
  assert.deepEqual(lineTo(walk(back.tree, ['i9', 'j10'])), ['i9', 'j10']);
});

test('Othello SGF writes a pass as an empty move', () => {
  const game = { kind: 'othello' };
  const tree = createTree();
  const current = addLine(tree.root, ['d3', 'c3', 'b3', 'b2', 'f5', 'a3', 'a1', 'c1', 'pass']);
  const sgf = sgfExport({ game, setup: null, tree, current });
  assert.ok(sgf.endsWith(';W[ca];B[])\n'), sgf);
  assert.deepEqual(lineTo(walk(parsePasted(game, sgf).tree, lineTo(current))), lineTo(current));
});

test('PSQ of the line on show, from the empty board only', () => {
  const { tree, current } = sample();
  const psq = psqExport({ game: FREE, setup: null, tree, current });
  assert.equal(psq, 'Piskvorky 15x15, 11:11, 0\n8,8,0\n10,6,0\n11,5,0\n-1\n');
  assert.deepEqual(lineTo(walk(parsePasted(FREE, psq).tree, ['h8', 'j10', 'k11'])), ['h8', 'j10', 'k11']);
  assert.equal(psqExport({ game: FREE, setup: { cells: new Int8Array(225), toMove: 'white' }, tree, current }), null);
  assert.equal(psqExport({ game: C4, setup: null, tree, current }), null);
});

test('JSON of the tree and of the line, read back for every game', () => {
  const tree = createTree();
  addLine(tree.root, ['4', '4', '3']);
  const current = addLine(walk(tree, ['4']), ['5']);
  const json = JSON.parse(jsonExport({ game: C4, setup: null, tree, current }));
  assert.equal(json.format, 'kibitz-analysis');
  assert.deepEqual(json.game, C4);
  assert.deepEqual(json.current, ['4', '5']);
  assert.deepEqual(json.tree, [{ move: '4', children: [{ move: '4', children: [{ move: '3', children: [] }] }, { move: '5', children: [] }] }]);
  const back = parsePasted(FREE, JSON.stringify(json));
  assert.deepEqual(back.game, C4);
  assert.deepEqual(shape(back.tree), shape(tree));
  const line = JSON.parse(exportText('json', { game: C4, setup: null, tree, current, scope: 'line' }));
  assert.deepEqual(line.moves, ['4', '5']);
  // A set-up position goes as its text.
  const cells = new Int8Array(42);
  cells[parseCell(C4, 'd1')] = BLACK;
  const withSetup = JSON.parse(jsonExport({ game: C4, setup: { cells, toMove: 'white' }, tree: createTree(), current: createTree().root }));
  assert.equal(withSetup.setup.position, `${'-'.repeat(38)}X--- O`);
  assert.equal(parsePasted(C4, JSON.stringify(withSetup)).setup.toMove, 'white');
});

test('formats and file names', () => {
  assert.deepEqual(exportFormats(FREE, null), ['sgf', 'psq', 'json']);
  assert.deepEqual(exportFormats(FREE, { cells: new Int8Array(225), toMove: 'black' }), ['sgf', 'json']);
  assert.deepEqual(exportFormats({ kind: 'othello' }, null), ['sgf', 'json']);
  assert.deepEqual(exportFormats(C4, null), ['json']);
  assert.equal(exportText('sgf', { game: C4, setup: null, tree: createTree(), current: null }), null);
  assert.equal(exportFile(RENJU, 'sgf', 'line'), 'analysis-gomoku-renju-line.sgf');
  assert.equal(exportFile({ kind: 'gomoku', size: 19, rule: 'standard' }, 'json'), 'analysis-gomoku-19-standard-tree.json');
});
