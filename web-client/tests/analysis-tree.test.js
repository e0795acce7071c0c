// Tests js/analysis/tree.js: adding moves (a different move branches), promoting a variation, deleting one, walking back, forward and between sibling variations, the order the move list and the link write, and move numbers from either side.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  createTree, addMove, addLine, lineTo, pathTo, nodeAt, walk, isMain, next, prev, lineEnd, sibling, promote, remove,
  ordered, size, lineItems, seatOfNode, moveNumber,
} from '../js/analysis/tree.js';

/** A tree with the main line h8 i9 h10, a variation j10 k11 for white's first move and one g7 for black's second. */
function sample() {
  const tree = createTree();
  const end = addLine(tree.root, ['h8', 'i9', 'h10']);
  const h8 = walk(tree, ['h8']);
  const j10 = addMove(h8, 'j10');
  addMove(j10.node, 'k11');
  addMove(walk(tree, ['h8', 'i9']), 'g7');
  return { tree, end, h8, j10: j10.node };
}

test('moves add to the line; a move that differs from the next one branches, the same one is followed', () => {
  const tree = createTree();
  const a = addMove(tree.root, 'h8');
  assert.deepEqual([a.added, a.branched], [true, false]);
  const b = addMove(a.node, 'i9');
  const again = addMove(a.node, 'i9');
  assert.equal(again.node, b.node, 'the same move is the same node');
  assert.equal(again.added, false);
  const c = addMove(a.node, 'j10');
  assert.deepEqual([c.added, c.branched], [true, true]);
  assert.deepEqual(a.node.children.map((n) => n.move), ['i9', 'j10'], 'the main continuation stays first');
  assert.equal(c.node.ply, 2);
  assert.deepEqual(lineTo(c.node), ['h8', 'j10']);
  assert.deepEqual(pathTo(c.node), [0, 1]);
  assert.equal(nodeAt(tree, [0, 1]), c.node);
  assert.equal(nodeAt(tree, [0, 2]), null);
  assert.equal(walk(tree, ['h8', 'x1']), null);
});

test('navigation: back, forward along the main continuation, the end of the line, sibling variations', () => {
  const { tree, end, h8, j10 } = sample();
  assert.equal(next(tree.root), h8);
  assert.equal(prev(h8), tree.root);
  assert.equal(prev(tree.root), null);
  assert.equal(lineEnd(tree.root), end);
  assert.deepEqual(lineTo(lineEnd(j10)), ['h8', 'j10', 'k11'], 'the end of a variation\'s own line');
  const i9 = walk(tree, ['h8', 'i9']);
  assert.equal(sibling(i9, 1), j10);
  assert.equal(sibling(j10, -1), i9);
  assert.equal(sibling(j10, 1), null);
  assert.equal(sibling(tree.root, 1), null);
  assert.equal(isMain(end), true);
  assert.equal(isMain(walk(tree, ['h8', 'j10', 'k11'])), false);
});

test('promoting a variation makes it the main continuation where it branches, one level at a time', () => {
  const { tree, j10 } = sample();
  const k11 = j10.children[0];
  assert.equal(promote(k11), true);
  assert.deepEqual(lineTo(lineEnd(tree.root)), ['h8', 'j10', 'k11'], 'j10 k11 is the main line now');
  assert.equal(isMain(k11), true);
  assert.equal(promote(k11), false, 'nothing above it to promote');
  const g7 = walk(tree, ['h8', 'i9', 'g7']);
  assert.equal(isMain(g7), false);
  assert.equal(promote(g7), true, 'g7 becomes i9\'s main continuation');
  assert.deepEqual(lineTo(lineEnd(walk(tree, ['h8', 'i9']))), ['h8', 'i9', 'g7']);
  assert.equal(isMain(g7), false, 'i9 itself is still a variation');
  assert.equal(promote(g7), true);
  assert.equal(isMain(g7), true);
});

test('deleting a node removes it and everything after it; the root stays', () => {
  const { tree, h8, j10 } = sample();
  assert.equal(size(tree), 6);
  assert.equal(remove(j10), h8);
  assert.equal(size(tree), 4);
  assert.deepEqual(h8.children.map((n) => n.move), ['i9']);
  assert.equal(remove(tree.root), null);
  assert.equal(remove(h8), tree.root);
  assert.equal(size(tree), 0);
});

test('the order of the move list: each move, then its variations, then the line goes on', () => {
  const { tree } = sample();
  assert.deepEqual(ordered(tree).map((n) => n.move), ['h8', 'i9', 'j10', 'k11', 'h10', 'g7']);
  const items = lineItems(tree.root);
  const shape = (list) => list.map((it) => (it.node ? it.node.move : shape(it.variation)));
  assert.deepEqual(shape(items), ['h8', 'i9', ['j10', 'k11'], 'h10', ['g7']]);
});

test('seats and move numbers follow the side that moves first', () => {
  const tree = createTree();
  const a = addMove(tree.root, 'h8').node;
  const bb = addMove(a, 'i9').node;
  const cc = addMove(bb, 'j10').node;
  assert.deepEqual([a, bb, cc].map((n) => seatOfNode(n)), ['black', 'white', 'black']);
  assert.deepEqual([a, bb, cc].map((n) => moveNumber(n)), [1, 1, 2]);
  assert.deepEqual([a, bb, cc].map((n) => seatOfNode(n, 'white')), ['white', 'black', 'white']);
  assert.deepEqual([a, bb, cc].map((n) => moveNumber(n, 'white')), [1, 2, 2]);
});
