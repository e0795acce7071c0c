// Tests js/analysis/setup.js (with position.js and sgf.js under it): pasted SGF (variations, set-up stones, Othello's left-out passes), PSQ, JSON, Othello and Connect Four positions as text, move strings of each game, and bad input refused with its reason in words.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parsePasted, pasteError, pasteSummary } from '../js/analysis/setup.js';
import { startPos, info, tryMove, positionText, canonicalMove } from '../js/analysis/position.js';
import { lineTo, lineEnd, ordered, size } from '../js/analysis/tree.js';
import { parseSgf, prop } from '../js/analysis/sgf.js';
import { parseCell, BLACK, WHITE, BLOCKED } from '../js/rules.js';

const FREE = { kind: 'gomoku', size: 15, rule: 'freestyle' };
const RENJU = { kind: 'gomoku', size: 15, rule: 'renju' };
const OTHELLO = { kind: 'othello' };
const C4 = { kind: 'connect4', cols: 7, rows: 6, blocked: [] };

const mainLine = (res) => lineTo(lineEnd(res.tree.root));
/** A failed paste as text, for an assertion's message (a tree is circular). */
const why = (res) => (res.ok ? '' : why(res));

test('an SGF game with variations is read as a tree; its rule and size come from the file', () => {
  const sgf = '(;FF[4]GM[4]SZ[15]RU[renju]PB[Ann]\n;B[hh];W[ii](;B[jj];W[kk])(;B[gg]C[a comment];W[ff]))';
  const res = parsePasted(FREE, sgf);
  assert.equal(res.ok, true, why(res));
  assert.equal(res.kind, 'sgf');
  assert.deepEqual(res.game, RENJU);
  assert.equal(res.setup, null);
  // SGF counts rows from the top: hh is h8 on 15x15, ii is i7.
  assert.deepEqual(mainLine(res), ['h8', 'i7', 'j6', 'k5']);
  assert.deepEqual(ordered(res.tree).map((n) => n.move), ['h8', 'i7', 'j6', 'g9', 'f10', 'k5']);
  assert.equal(pasteSummary(res), 'Read an SGF record: 6 moves.');
  // No RU: the page's own rule; SZ[19] a 19x19 board.
  const big = parsePasted(RENJU, '(;GM[4]SZ[19];B[jj])');
  assert.deepEqual(big.game, { kind: 'gomoku', size: 19, rule: 'renju' });
  assert.deepEqual(mainLine(big), ['j10']);
});

test('SGF set-up stones make a set-up position, PL says who moves', () => {
  const res = parsePasted(FREE, '(;GM[4]SZ[15]AB[hh][ii]AW[gg]PL[W];W[jj])');
  assert.equal(res.ok, true, why(res));
  assert.equal(res.setup.toMove, 'white');
  assert.equal(res.setup.cells[parseCell(FREE, 'h8')], BLACK);
  assert.equal(res.setup.cells[parseCell(FREE, 'g9')], WHITE);
  assert.deepEqual(mainLine(res), ['j6']);
  assert.equal(res.tree.root.children[0].ply, 1);
  // Rectangles of points: aa:bb is four stones; without PL black moves when the counts are equal.
  const rect = parsePasted(FREE, '(;GM[4]AB[aa:bb]AW[cc][dd][ee][ff])');
  assert.equal(Array.from(rect.setup.cells).filter((c) => c === BLACK).length, 4);
  assert.equal(rect.setup.toMove, 'black');
});

test('an Othello SGF that leaves out a forced pass gets it put in', () => {
  // After bots.test.mjs's opening (othello-pass.mjs found it) white's c1 leaves black without a move.
  const moves = ['d3', 'c3', 'b3', 'b2', 'f5', 'a3', 'a1', 'c1'];
  let pos = startPos(OTHELLO);
  for (const m of moves) pos = tryMove(OTHELLO, pos, m).pos;
  assert.equal(info(OTHELLO, pos).mustPass, true, 'the opening forces a pass');
  const again = info(OTHELLO, tryMove(OTHELLO, pos, 'pass').pos).legal[0];
  const point = (m) => m[0] + String.fromCharCode(96 + Number(m.slice(1)));
  const nodes = moves.map((m, i) => `;${i % 2 ? 'W' : 'B'}[${point(m)}]`).join('');
  const sq = String.fromCharCode(97 + (again % 8)) + String.fromCharCode(97 + Math.floor(again / 8));
  const res = parsePasted(OTHELLO, `(;GM[2]SZ[8]${nodes};W[${sq}])`);
  assert.equal(res.ok, true, why(res));
  assert.deepEqual(res.game, OTHELLO);
  const line = mainLine(res);
  assert.equal(line.length, moves.length + 2);
  assert.equal(line[moves.length], 'pass');
});

test('a PSQ record is read with the page\'s rule', () => {
  const psq = 'Piskvorky 15x15, 11:11, 0\n8,8,0\n9,7,0\n10,6,0\n-1\nAlice\nBob\n';
  const res = parsePasted(RENJU, psq);
  assert.equal(res.ok, true, why(res));
  assert.deepEqual(res.game, RENJU);
  assert.deepEqual(mainLine(res), ['h8', 'i9', 'j10']);
  assert.equal(parsePasted(FREE, 'Piskvorky 15x15, 11:11, 0\n16,1,0\n').ok, false);
  assert.equal(pasteError(parsePasted(FREE, 'Piskvorky 15x15, 11:11, 0\n16,1,0\n')), 'Line 2 of the PSQ record cannot be read.');
});

test('an Othello position as text: 64 cells and the side to move', () => {
  const cells = Array(64).fill('-');
  cells[27] = 'O'; // d4
  for (const i of [28, 35, 36, 37]) cells[i] = 'X'; // e4, d5, e5, f5
  const text = `${cells.join('')} O`;
  const res = parsePasted(FREE, text);
  assert.equal(res.ok, true, why(res));
  assert.equal(res.kind, 'position');
  assert.deepEqual(res.game, OTHELLO, 'a board of 64 cells is Othello\'s');
  assert.equal(res.setup.toMove, 'white');
  assert.equal(res.setup.cells[parseCell(OTHELLO, 'f5')], BLACK);
  assert.equal(positionText(res.setup.cells, res.setup.toMove), text);
  // Othello's own start is no set-up at all; rows may be split by / or lines.
  const start = parsePasted(OTHELLO, '--------/--------/--------/---OX---\n---XO---/--------/--------/-------- X');
  assert.equal(start.ok, true, why(start));
  assert.equal(start.setup, null);
});

test('a Connect Four position: gravity checked, blocked cells and another size read', () => {
  const rows = ['-------', '-------', '-------', '-------', '---O---', '---XX--'];
  const res = parsePasted(C4, rows.join('/'));
  assert.equal(res.ok, true, why(res));
  assert.equal(res.setup.toMove, 'white', 'black has one more disc');
  assert.equal(res.setup.cells[parseCell(C4, 'e1')], BLACK);
  const floating = parsePasted(C4, ['-------', '-------', '-------', '---O---', '-------', '---XX--'].join('/'));
  assert.equal(floating.ok, false);
  assert.equal(pasteError(floating), 'The disc on d3 has an empty cell under it.');
  const blocked = parsePasted(C4, ['--------', '--------', '--------', '--------', '--------', '--------', '---X#---'].join('\n'));
  assert.equal(blocked.ok, true, why(blocked));
  assert.deepEqual(blocked.game, { kind: 'connect4', cols: 8, rows: 7, blocked: [[5, 1]] });
  assert.equal(blocked.setup.cells[parseCell(blocked.game, 'e1')], BLOCKED);
});

test('move strings of each game', () => {
  assert.deepEqual(mainLine(parsePasted(FREE, 'h8i9h10')), ['h8', 'i9', 'h10']);
  assert.deepEqual(mainLine(parsePasted(FREE, '1. H8 I9 2. h10')), ['h8', 'i9', 'h10']);
  assert.deepEqual(mainLine(parsePasted(OTHELLO, 'f5d6c3')), ['f5', 'd6', 'c3']);
  assert.deepEqual(mainLine(parsePasted(C4, '4453')), ['4', '4', '5', '3']);
  const wide = { kind: 'connect4', cols: 12, rows: 6, blocked: [] };
  assert.deepEqual(mainLine(parsePasted(wide, '10, 3 12')), ['10', '3', '12']);
  assert.equal(parsePasted(C4, '4453').kind, 'moves');
});

test('bad input is refused with its reason, in words', () => {
  const say = (game, text) => pasteError(parsePasted(game, text));
  assert.equal(say(FREE, '   '), 'Paste a game or a position first.');
  assert.equal(say(FREE, 'h8h8'), 'Move 2 (h8) cannot be played: the point is taken.');
  assert.equal(say(FREE, 'h8z99'), 'Move 2 (z99) cannot be played: not a move of this game.');
  assert.equal(say(FREE, 'hello there'), 'This is neither a game record, a position nor a move string of Gomoku.');
  assert.equal(say(C4, 'h8'), 'This is neither a game record, a position nor a move string of Connect Four.');
  assert.equal(say(C4, '4444444'), 'Move 7 (4) cannot be played: the column is full.');
  assert.equal(say(OTHELLO, 'a1'), 'Move 1 (a1) cannot be played: it turns no disc.');
  assert.equal(say(FREE, '(;GM[1]SZ[19];B[aa])'), 'SGF game GM[1] is neither Gomoku (4) nor Othello (2).');
  assert.equal(say(FREE, '(;GM[4]SZ[15];B[hh];B[ii])'), 'Move 2 (i7) is marked Black, but the other side is to move.');
  assert.equal(say(FREE, '(;GM[4];B[hh'), 'The SGF cannot be read: a property value is not closed.');
  assert.equal(say(FREE, '(;GM[4];B[hh]'), 'The SGF cannot be read: a bracket is not closed.');
  assert.equal(say(FREE, '(;GM[4];B[zz])'), 'The SGF point zz is not on the board.');
  assert.equal(say(FREE, '---X--- X'), 'A board of 7 cells is none of the boards here.');
  assert.equal(say(FREE, '{"game": 3}'), 'This JSON is not a game record the analysis board reads.');
  // Renju: a forbidden point for black is refused too.
  const three = parsePasted(RENJU, 'h8a1i8a2j9a3j10a4');
  assert.equal(three.ok, true, why(three));
  const bad = parsePasted(RENJU, 'h8a1i8a2j9a3j10a4j8');
  assert.equal(pasteError(bad), 'Move 9 (j8) cannot be played: forbidden for black.');
});

test('a room\'s JSON record and the board\'s own JSON export are read', () => {
  const room = parsePasted(FREE, JSON.stringify({ game: { kind: 'gomoku', size: 15, rule: 'freestyle', opening_rule: 'swap2' }, moves: ['h8', 'i9', 'j10', 'stay', 'k11'] }));
  assert.equal(room.ok, true, why(room));
  assert.deepEqual(mainLine(room), ['h8', 'i9', 'j10', 'k11'], 'an opening rule\'s choices place no stone');
  const own = parsePasted(FREE, JSON.stringify({ game: C4, setup: null, tree: [{ move: '4', children: [{ move: '4', children: [] }, { move: '3', children: [] }] }] }));
  assert.equal(own.ok, true, why(own));
  assert.equal(size(own.tree), 3);
  assert.deepEqual(own.game, C4);
});

test('positions: wins by the rule, canonical moves, the SGF reader\'s tree', () => {
  const STD = { kind: 'gomoku', size: 15, rule: 'standard' };
  const six = ['a1', 'a2', 'b1', 'b2', 'c1', 'c2', 'e1', 'e2', 'f1', 'f2', 'd1'];
  const play = (game, moves) => moves.reduce((p, m) => tryMove(game, p, m).pos, startPos(game));
  assert.equal(info(FREE, play(FREE, six)).winner, 'black', 'six in a row wins in freestyle');
  assert.equal(info(STD, play(STD, six)).over, false, 'an overline is no win in standard');
  assert.equal(canonicalMove(FREE, ' H8 '), 'h8');
  assert.equal(canonicalMove(C4, '08'), null);
  assert.equal(canonicalMove(C4, '07'), '7');
  const parsed = parseSgf('(;GM[4];B[aa](;W[bb])(;W[cc];B[dd]))');
  assert.equal(parsed.ok, true);
  assert.equal(prop(parsed.root, 'GM'), '4');
  assert.equal(parsed.root.children[0].children.length, 2);
});
