// Tests js/puzzles/puzzle.js and js/puzzles/address.js: the server's puzzle object read (Connect Four's columns as letters or numbers), a hall puzzle's source line (the game's replay, the move missed) and id, the position a line reaches (legal squares, forbidden points, the end), moves typed by people, a hint's cells, and the puzzles' addresses through js/route.js.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  readPuzzle, toBoardMove, toServerMove, goalKey, positionAfter, canPlay, typedMove, hintCells, variantGame, sourceLine, THEMES, ALL_THEMES,
} from '../js/puzzles/puzzle.js';
import { puzzlesRoute, puzzleRoute, puzzlesQuery } from '../js/puzzles/address.js';
import { parseRoute, routeUrl } from '../js/route.js';
import { cellName } from '../js/rules.js';
import { setLang } from '../js/i18n.js';

const C4 = {
  id: 'c4-0042', variant: 'connect4', game: { kind: 'connect4', cols: 7, rows: 6, blocked: [] }, moves: ['d', 'd', 'c'],
  to_move: 'white', themes: ['win', 'zugzwang'], length: 3, goal: 'White to play and win in 3', rating: 1523, rd: 80, plays: 12,
};

test('a puzzle object is read into the page\'s shape; Connect Four letters become the board\'s column numbers', () => {
  const p = readPuzzle(C4);
  assert.equal(p.id, 'c4-0042');
  assert.equal(p.variant, 'connect4');
  assert.deepEqual(p.moves, ['4', '4', '3']);
  assert.equal(p.letters, true, 'the server writes letters: the page answers in letters');
  assert.equal(p.toMove, 'white');
  assert.deepEqual(p.themes, ['win', 'zugzwang']);
  assert.equal(p.length, 3);
  assert.equal(p.rating, 1523);
  assert.equal(p.plays, 12);
  assert.equal(p.alternatives, false);
  assert.equal(p.date, null);
  const numbers = readPuzzle({ ...C4, moves: ['4', '4'], alternatives: true, date: '2026-12-05' });
  assert.deepEqual(numbers.moves, ['4', '4']);
  assert.equal(numbers.letters, false);
  assert.equal(numbers.alternatives, true);
  assert.equal(numbers.date, '2026-12-05');
  const gomoku = readPuzzle({ id: 'g1', variant: 'gomoku-renju', moves: ['H8', 'i9'], to_move: 'black', themes: ['vcf'], length: 2 });
  assert.deepEqual(gomoku.game, variantGame('gomoku-renju'), 'no game: the variant\'s');
  assert.deepEqual(gomoku.moves, ['h8', 'i9']);
  for (const bad of [null, 'x', {}, { id: '' }, { id: 'x', variant: 'chess' }]) assert.equal(readPuzzle(bad), null, JSON.stringify(bad));
  // The side to move is the server's word: an Othello pass left out of the moves is put back.
  const oth = readPuzzle({ id: 'o1', variant: 'othello', moves: ['f5'], to_move: 'black', themes: ['endgame'], length: 1 });
  assert.deepEqual(oth.moves, ['f5', 'pass']);
  assert.deepEqual(readPuzzle({ id: 'o2', variant: 'othello', moves: ['f5'], to_move: 'white', length: 1 }).moves, ['f5']);
});

test('moves between the board and the server', () => {
  const c4 = variantGame('connect4');
  assert.equal(toBoardMove(c4, 'D'), '4');
  assert.equal(toBoardMove(c4, '4'), '4');
  assert.equal(toServerMove(c4, '4', true), 'd');
  assert.equal(toServerMove(c4, '4', false), '4');
  const g = variantGame('gomoku-freestyle');
  assert.equal(toBoardMove(g, ' H8 '), 'h8');
  assert.equal(toServerMove(g, 'h8', true), 'h8');
  assert.equal(toServerMove(variantGame('othello'), 'pass', false), 'pass');
});

test('the goal says the side, the length and a VCF', () => {
  assert.deepEqual(goalKey(readPuzzle(C4)), { key: 'puz.goal', seat: 'white', n: 3 });
  const vcf = readPuzzle({ id: 'g', variant: 'gomoku-freestyle', moves: [], to_move: 'black', themes: ['vcf'], length: 4 });
  assert.deepEqual(goalKey(vcf), { key: 'puz.goalVcf', seat: 'black', n: 4 });
});

test('the position a line reaches: Othello\'s legal squares, renju\'s forbidden points, the end of a game', () => {
  const oth = positionAfter(variantGame('othello'), ['f5']);
  assert.equal(oth.pos.toMove, 'white');
  assert.deepEqual(oth.legal.map((i) => cellName(oth.game, i)).sort(), ['d6', 'f4', 'f6']);
  assert.equal(canPlay(oth, 'f6'), true);
  assert.equal(canPlay(oth, 'a1'), false);
  assert.equal(canPlay(oth, 'pass'), false);

  // Black's double three at h8 in renju (g8, i8 across; h7, h9 down, with white far away).
  const renju = variantGame('gomoku-renju');
  const line = ['g8', 'a1', 'i8', 'a3', 'h7', 'a5', 'h9', 'a7'];
  const r = positionAfter(renju, line);
  assert.equal(r.pos.toMove, 'black');
  assert.ok(r.forbidden.some((f) => cellName(renju, f.idx) === 'h8'), 'h8 is a double three');
  assert.equal(canPlay(r, 'h8'), false);
  assert.equal(canPlay(r, 'j10'), true);
  const free = positionAfter(variantGame('gomoku-freestyle'), line);
  assert.deepEqual(free.forbidden, [], 'freestyle has none');

  // Connect Four: four up column 4 ends it; a full column cannot be played.
  const c4 = variantGame('connect4');
  const won = positionAfter(c4, ['4', '5', '4', '5', '4', '5', '4']);
  assert.equal(won.over, true);
  assert.equal(canPlay(won, '1'), false);
  const full = positionAfter(c4, ['1', '1', '1', '1', '1', '1']);
  assert.equal(full.over, false);
  assert.equal(canPlay(full, '1'), false);
  assert.equal(canPlay(full, '2'), true);
});

test('a move typed by a person, and a hint\'s cells', () => {
  const c4 = variantGame('connect4');
  assert.equal(typedMove(c4, '4'), '4');
  assert.equal(typedMove(c4, 'D'), '4');
  assert.equal(typedMove(c4, '9'), null);
  assert.equal(typedMove(c4, 'h8'), null);
  const g = variantGame('gomoku-freestyle');
  assert.equal(typedMove(g, 'H8'), 'h8');
  assert.equal(typedMove(g, 'z99'), null);
  assert.equal(typedMove(variantGame('othello'), 'pass'), 'pass');

  // Connect Four's hint names columns: the cell the next stone would take.
  const at = positionAfter(c4, ['4', '4']);
  const cells = hintCells(c4, at.pos, ['d', 'c', '3']);
  assert.deepEqual(cells.map((c) => cellName(c4, c.idx)), ['d3', 'c1'], 'a column named twice counts once');
  const gat = positionAfter(g, []);
  assert.deepEqual(hintCells(g, gat.pos, ['G7', 'h7', 'zz']).map((c) => c.move), ['g7', 'h7']);
  assert.deepEqual(hintCells(g, gat.pos, null), []);
});

test('the puzzles\' addresses read and written, through the page\'s router', () => {
  const q = (s) => new URLSearchParams(s);
  assert.deepEqual(puzzlesRoute(q('puzzles')), { page: 'puzzles', variant: null, theme: null, mode: null });
  assert.deepEqual(puzzlesRoute(q('puzzles&variant=othello&theme=corner&mode=streak')), { page: 'puzzles', variant: 'othello', theme: 'corner', mode: 'streak' });
  assert.deepEqual(puzzlesRoute(q('puzzles&variant=othello&theme=vcf')), { page: 'puzzles', variant: 'othello', theme: null, mode: null }, 'a theme of another game');
  assert.deepEqual(puzzlesRoute(q('puzzles&variant=chess&theme=vcf&mode=blitz')), { page: 'puzzles', variant: null, theme: 'vcf', mode: null });
  assert.equal(puzzleRoute(q('puzzle=%20')), null);
  assert.deepEqual(puzzleRoute(q('puzzle=c4-0042')), { page: 'puzzle', id: 'c4-0042' });
  assert.equal(puzzlesQuery({ page: 'puzzles', variant: 'connect4', theme: 'win', mode: 'streak' }), 'puzzles&variant=connect4&theme=win&mode=streak');
  assert.equal(puzzlesQuery({ page: 'puzzles' }), 'puzzles');
  assert.equal(puzzlesQuery({ page: 'puzzle', id: 'a b' }), 'puzzle=a%20b');

  assert.deepEqual(parseRoute('?puzzles', '/'), { page: 'puzzles', variant: null, theme: null, mode: null });
  assert.deepEqual(parseRoute('?puzzle=g-1', '/'), { page: 'puzzle', id: 'g-1' });
  assert.equal(routeUrl({ page: 'puzzles', variant: 'gomoku-renju', theme: 'renju-foul', mode: null }, '/'), '/?puzzles&variant=gomoku-renju&theme=renju-foul');
  for (const route of [
    { page: 'puzzles', variant: null, theme: null, mode: null },
    { page: 'puzzles', variant: 'gomoku-freestyle', theme: 'vcf', mode: 'streak' },
    { page: 'puzzle', id: 'x/1' },
  ]) {
    const url = new URL(routeUrl(route, '/'), 'http://x');
    assert.deepEqual(parseRoute(url.search, url.pathname), route, JSON.stringify(route));
  }
  assert.ok(ALL_THEMES.includes('renju-foul') && THEMES.othello.includes('parity'));
});

test('a puzzle from a game played here links that game\'s replay and says which move missed the win', () => {
  const hall = {
    id: 'gomoku-freestyle-h3fa9c2d10b7e', variant: 'gomoku-freestyle', moves: ['h8', 'i9', 'j10'], to_move: 'white', themes: ['vcf'], length: 4,
    source: { room: 'r7k2', ply: 23 },
  };
  const p = readPuzzle(hall);
  assert.equal(p.id, 'gomoku-freestyle-h3fa9c2d10b7e');
  assert.deepEqual(p.source, { room: 'r7k2', ply: 23 });
  // Ply 23 is the 24th move: white's 12th, "12… " in the room's move list.
  const line = sourceLine(p);
  assert.deepEqual(line, { route: { page: 'room', room: 'r7k2' }, text: 'From a game played here', missed: 'White missed this win at move 12.' });
  assert.equal(routeUrl(line.route, '/'), '/?room=r7k2', 'a room\'s address names no move: the line says which');
  assert.equal(sourceLine(readPuzzle({ ...hall, source: { room: 'r7k2', ply: 0 } })).missed, 'Black missed this win at move 1.');
  assert.equal(sourceLine(readPuzzle({ ...hall, source: { room: 'r7k2' } })).missed, '', 'no ply: the link alone');
  for (const bad of [undefined, null, 'r7k2', {}, { room: '' }, { room: 'x'.repeat(65), ply: 1 }, { room: 7, ply: 1 }]) {
    const q = readPuzzle({ ...hall, source: bad });
    assert.equal(q.source, null, JSON.stringify(bad));
    assert.equal(sourceLine(q), null);
  }
  assert.equal(readPuzzle({ ...hall, source: { room: 'r7k2', ply: -1 } }).source.ply, null);
  assert.equal(readPuzzle({ ...hall, source: { room: 'r7k2', ply: 2.5 } }).source.ply, null);
  assert.equal(sourceLine(readPuzzle(C4)), null, 'a shipped puzzle names no game');
  setLang('zh');
  try {
    assert.deepEqual(sourceLine(p), { route: { page: 'room', room: 'r7k2' }, text: '来自本站的一盘对局', missed: '白方在第 12 回合错过了这个胜机。' });
  } finally {
    setLang('en');
  }
  // The hall's ids travel through the address as they are.
  const url = new URL(routeUrl({ page: 'puzzle', id: p.id }, '/'), 'http://x');
  assert.equal(url.search, '?puzzle=gomoku-freestyle-h3fa9c2d10b7e');
  assert.deepEqual(parseRoute(url.search, url.pathname), { page: 'puzzle', id: 'gomoku-freestyle-h3fa9c2d10b7e' });
});
