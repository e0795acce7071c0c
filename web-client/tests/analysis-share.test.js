// Tests js/analysis/share.js and variant.js: the analysis board's address read and written (variants, a set-up position, the tree with its variations, the move on show) and read back to the same tree and node, a damaged link opened as far as it goes, and the link from a finished room (an opening rule's choices, a review's variation).
import test from 'node:test';
import assert from 'node:assert/strict';
import { analysisRoute, analysisQuery, encodeAnalysis, decodeAnalysis, treeText, setupText, readSetup, roomAnalysisRoute } from '../js/analysis/share.js';
import { parseVariant, variantOf, plainGame } from '../js/analysis/variant.js';
import { createTree, addMove, addLine, walk, lineTo, ordered } from '../js/analysis/tree.js';
import { parseRoute, routeUrl } from '../js/route.js';
import { parseCell, BLACK, WHITE } from '../js/rules.js';

const FREE = { kind: 'gomoku', size: 15, rule: 'freestyle' };
const C4 = { kind: 'connect4', cols: 7, rows: 6, blocked: [] };

/** Every node of a tree as its line, in order: what a round trip must keep. */
const shape = (tree) => ordered(tree).map((n) => lineTo(n).join(','));

/** Through the address and back: the route written, read by route.js, decoded. */
function roundTrip(a) {
  const url = new URL(routeUrl(encodeAnalysis(a), '/'), 'http://hall');
  return decodeAnalysis(parseRoute(url.search, url.pathname));
}

test('variants: the rated boards by their keys, other boards by their size', () => {
  assert.deepEqual(parseVariant('gomoku-renju'), { kind: 'gomoku', size: 15, rule: 'renju' });
  assert.deepEqual(parseVariant('gomoku-19-standard'), { kind: 'gomoku', size: 19, rule: 'standard' });
  assert.deepEqual(parseVariant('connect4-9x7-b4.2-b1.1'), { kind: 'connect4', cols: 9, rows: 7, blocked: [[1, 1], [4, 2]] });
  assert.equal(parseVariant('gomoku-27-renju'), null);
  assert.equal(parseVariant('connect4-13x6'), null);
  assert.equal(parseVariant('chess'), null);
  assert.equal(variantOf({ kind: 'gomoku', size: 15, rule: 'standard' }), 'gomoku-standard');
  assert.equal(variantOf({ kind: 'gomoku', size: 9 }), 'gomoku-9-freestyle');
  assert.equal(variantOf({ kind: 'connect4', cols: 7, rows: 6, blocked: [[3, 1]] }), 'connect4-7x6-b3.1');
  assert.equal(variantOf({ kind: 'othello' }), 'othello');
  assert.deepEqual(plainGame({ kind: 'gomoku', size: 15, rule: 'renju', opening_rule: 'soosorv8' }), { kind: 'gomoku', size: 15, rule: 'renju' });
  for (const v of ['gomoku-freestyle', 'gomoku-26-renju', 'othello', 'connect4', 'connect4-12x4-b12.4']) assert.equal(variantOf(parseVariant(v)), v);
});

test('the address of an analysis: compact, readable, and read back by route.js', () => {
  const tree = createTree();
  addLine(tree.root, ['h8', 'i9', 'h10']);
  const var1 = addLine(walk(tree, ['h8']), ['j10', 'k11']);
  const route = encodeAnalysis({ game: FREE, setup: null, tree, current: var1 });
  assert.deepEqual(route, { page: 'analysis', variant: 'gomoku-freestyle', setup: '', tree: 'h8i9(j10k11)h10', at: 4 });
  assert.equal(routeUrl(route, '/'), '/?analysis=gomoku-freestyle&tree=h8i9(j10k11)h10&at=4');
  assert.deepEqual(parseRoute('?analysis=gomoku-freestyle&tree=h8i9(j10k11)h10&at=4', '/'), route);
  assert.deepEqual(parseRoute('?analysis=nonsense', '/'), { page: 'analysis', variant: 'gomoku-freestyle', setup: '', tree: '', at: 0 });
  assert.equal(analysisQuery({ variant: 'othello' }), 'analysis=othello');
  // Connect Four columns as letters, an Othello pass as ~.
  const c4 = createTree();
  addLine(c4.root, ['4', '4']);
  addMove(c4.root, '12');
  assert.equal(treeText({ ...C4, cols: 12 }, c4), 'd(l)d', 'column 12 instead of the first 4');
  const othello = createTree();
  addLine(othello.root, ['d3', 'c3', 'b3', 'b2', 'f5', 'a3', 'a1', 'c1', 'pass']);
  assert.equal(treeText({ kind: 'othello' }, othello), 'd3c3b3b2f5a3a1c1~');
  assert.equal(decodeAnalysis({ variant: 'othello', tree: 'd3c3b3b2f5a3a1c1~', at: 9 }).current.move, 'pass');
});

test('a round trip keeps the tree, its order and the node on show', () => {
  const tree = createTree();
  addLine(tree.root, ['h8', 'i9', 'h10', 'h11']);
  const i9 = walk(tree, ['h8', 'i9']);
  addLine(walk(tree, ['h8']), ['j10', 'k11', 'l12']);
  addLine(walk(tree, ['h8']), ['g7']);
  const deep = addLine(walk(tree, ['h8', 'j10']), ['j9', 'j11']);
  addLine(i9, ['g9']);
  for (const current of [tree.root, i9, deep, walk(tree, ['h8', 'g7'])]) {
    const back = roundTrip({ game: FREE, setup: null, tree, current });
    assert.equal(back.dropped, 0);
    assert.deepEqual(shape(back.tree), shape(tree));
    assert.deepEqual(lineTo(back.current), lineTo(current));
  }
});

test('a set-up position travels in the link: stones and the side to move', () => {
  const cells = new Int8Array(225);
  cells[parseCell(FREE, 'h8')] = BLACK;
  cells[parseCell(FREE, 'i9')] = BLACK;
  cells[parseCell(FREE, 'j10')] = WHITE;
  const setup = { cells, toMove: 'white' };
  assert.equal(setupText(FREE, setup), 'i9h8.j10.w', 'board order: the top row first');
  const tree = createTree();
  const k11 = addMove(tree.root, 'k11').node;
  const back = roundTrip({ game: FREE, setup, tree, current: k11 });
  assert.deepEqual(Array.from(back.setup.cells), Array.from(cells));
  assert.equal(back.setup.toMove, 'white');
  assert.deepEqual(lineTo(back.current), ['k11']);
  assert.equal(readSetup(FREE, '..b'), null, 'an empty board with black to move is the start');
  assert.equal(readSetup(FREE, 'h8h8..b'), undefined, 'a point twice is no position');
  assert.equal(readSetup(C4, 'd3..w'), undefined, 'a floating disc is no position');
  // Othello's start as a set-up is no set-up.
  assert.equal(readSetup({ kind: 'othello' }, 'e4d5.d4e5.b'), null);
});

test('a damaged link opens as far as it is legal', () => {
  const back = decodeAnalysis({ variant: 'gomoku-freestyle', setup: 'zz', tree: 'h8i9(h8)(j10k11)z', at: 3 });
  // The start could not be read, the variation h8 is taken, z is no move: 3 left out.
  assert.equal(back.dropped, 3);
  assert.equal(back.setup, null);
  assert.deepEqual(shape(back.tree), ['h8', 'h8,i9', 'h8,j10', 'h8,j10,k11']);
  assert.deepEqual(lineTo(back.current), ['h8'], 'the node on show was dropped: the move before it');
  const c4 = decodeAnalysis({ variant: 'connect4', tree: 'dddd(c)ddz', at: 99 });
  assert.deepEqual(lineTo(c4.current), ['4', '4', '4', '4', '4', '4']);
  assert.equal(c4.dropped, 1, 'z is no column');
});

test('a finished room opens with its moves as the main line at the position on show', () => {
  const game = { kind: 'gomoku', size: 15, rule: 'freestyle', opening_rule: 'swap2' };
  const R = { game, opening: [], moves: ['h8', 'i9', 'j10', 'stay', 'k11', 'l12'], shownIndex: 5 };
  const route = roomAnalysisRoute(R);
  assert.deepEqual(route, { page: 'analysis', variant: 'gomoku-freestyle', setup: '', tree: 'h8i9j10k11l12', at: 4 }, 'the choice `stay` places no stone');
  // A review's variation from the position after 2 moves.
  const withVar = roomAnalysisRoute({ ...R, shownIndex: 2, variation: { base: 2, moves: ['a1', 'a2'] } });
  const back = decodeAnalysis(withVar);
  assert.deepEqual(lineTo(back.current), ['h8', 'i9', 'a1', 'a2']);
  assert.deepEqual(shape(back.tree)[0], 'h8');
  assert.equal(back.tree.root.children[0].children[0].children.length, 2, 'the variation branches from i9');
  // Connect Four with blocked cells, preset opening moves.
  const blocked = roomAnalysisRoute({ game: { kind: 'connect4', cols: 7, rows: 6, blocked: [[4, 1]] }, opening: ['3'], moves: ['4'], shownIndex: 2 });
  assert.equal(blocked.variant, 'connect4-7x6-b4.1');
  assert.equal(blocked.tree, 'cd');
  assert.equal(roomAnalysisRoute({ game: { kind: 'chess' }, moves: [] }), null);
});
