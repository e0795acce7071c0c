// Tests js/explorer-data.js: the explorer's address and its API path (the opening-rule filter among them), the answer as table rows (percentages that add up, malformed answers), the position a line reaches (legal points, the end of a game, renju's forbidden points, Othello's pass), and the line of a finished room to explore.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  explorerRoute, explorerQuery, explorerPath, parseMoves, percentages, explorerAnswer, linePosition, canPlay,
  roomExplorerRoute, openingsOf, openingOf, DEFAULT_DEPTH,
} from '../js/explorer-data.js';
import { parseRoute, routeUrl } from '../js/route.js';

const route = (search) => parseRoute(search, '/');

test('an address gives the explorer its game, line and filters', () => {
  assert.deepEqual(route('?explorer=connect4&moves=4,4,3&rated=yes&bots=no'),
    { page: 'explorer', key: 'connect4', moves: ['4', '4', '3'], rated: 'yes', bots: 'no', opening: 'none' });
  assert.deepEqual(route('?explorer'), { page: 'explorer', key: 'gomoku-freestyle', moves: [], rated: 'any', bots: 'any', opening: 'none' });
  assert.deepEqual(route('?explorer=chess&moves=,H8,%20h9%20,,&rated=maybe'),
    { page: 'explorer', key: 'gomoku-freestyle', moves: ['h8', 'h9'], rated: 'any', bots: 'any', opening: 'none' }, 'unknown key and filter, loose moves');
  assert.deepEqual(route('?room=abc&explorer=othello'), { page: 'room', room: 'abc' }, 'a room named wins');
  assert.equal(parseMoves('4,'.repeat(1000)).length, 240, 'a hand-made address is cut short');
});

test('an address gives the opening-rule filter: the board\'s rules only, the server\'s @ key read too', () => {
  const opening = (search) => route(search).opening;
  assert.equal(opening('?explorer=gomoku-renju&opening=soosorv8'), 'soosorv8');
  assert.equal(opening('?explorer=gomoku-renju&opening=taraguchi10'), 'taraguchi10');
  assert.equal(opening('?explorer=gomoku-freestyle&opening=swap2'), 'swap2');
  assert.equal(opening('?explorer=gomoku-standard&opening=swap2'), 'swap2');
  assert.equal(opening('?explorer=gomoku-renju&opening=swap2'), 'none', 'not a renju rule');
  assert.equal(opening('?explorer=gomoku-freestyle&opening=soosorv8'), 'none', 'not a freestyle rule');
  assert.equal(opening('?explorer=othello&opening=swap2'), 'none', 'Othello has none');
  assert.equal(opening('?explorer=gomoku-freestyle&opening=none'), 'none');
  assert.equal(opening('?explorer=gomoku-freestyle&opening=SWAP2'), 'none', 'the exact name only');
  assert.deepEqual(route('?explorer=gomoku-renju@soosorv8&moves=h8,i9'),
    { page: 'explorer', key: 'gomoku-renju', moves: ['h8', 'i9'], rated: 'any', bots: 'any', opening: 'soosorv8' }, 'the @ key');
  assert.deepEqual(route('?explorer=gomoku-renju%40taraguchi10'), route('?explorer=gomoku-renju&opening=taraguchi10'), 'an encoded @');
  assert.equal(opening('?explorer=gomoku-renju@soosorv8&opening=taraguchi10'), 'taraguchi10', '&opening= wins');
  assert.deepEqual(route('?explorer=connect4@swap2'), route('?explorer=connect4'), 'a rule the board has not is dropped');
  assert.equal(route('?explorer=chess@swap2').key, 'gomoku-freestyle');
  assert.equal(opening('?explorer=chess@swap2'), 'swap2', 'an unknown game is freestyle, whose rule swap2 is');
  assert.deepEqual(openingsOf('gomoku-freestyle'), ['none', 'swap2']);
  assert.deepEqual(openingsOf('gomoku-standard'), ['none', 'swap2']);
  assert.deepEqual(openingsOf('gomoku-renju'), ['none', 'soosorv8', 'taraguchi10']);
  assert.deepEqual(openingsOf('othello'), ['none']);
  assert.deepEqual(openingsOf('connect4'), ['none']);
  assert.equal(openingOf('gomoku-standard', 'swap2'), 'swap2');
  assert.equal(openingOf('gomoku-renju', 'swap2'), 'none');
  assert.equal(openingOf('gomoku-renju', undefined), 'none');
});

test('an explorer route gives its address, which reads back the same', () => {
  const routes = [
    { page: 'explorer', key: 'othello', moves: ['f5', 'd6', 'pass'], rated: 'any', bots: 'yes', opening: 'none' },
    { page: 'explorer', key: 'gomoku-renju', moves: [], rated: 'no', bots: 'any', opening: 'none' },
    { page: 'explorer', key: 'connect4', moves: ['4'], rated: 'any', bots: 'any', opening: 'none' },
    { page: 'explorer', key: 'gomoku-renju', moves: ['h8', 'i9', 'j10'], rated: 'any', bots: 'no', opening: 'soosorv8' },
    { page: 'explorer', key: 'gomoku-standard', moves: [], rated: 'any', bots: 'any', opening: 'swap2' },
  ];
  for (const r of routes) {
    const url = new URL(routeUrl(r, '/'), 'http://x');
    assert.deepEqual(parseRoute(url.search, url.pathname), r, JSON.stringify(r));
  }
  assert.equal(routeUrl(routes[2], '/hall/'), '/hall/?explorer=connect4&moves=4');
  assert.equal(explorerQuery({ key: 'connect4', moves: ['4', '3'], rated: 'yes', bots: 'any' }), 'explorer=connect4&moves=4,3&rated=yes',
    'commas stay readable, defaults stay out');
  assert.equal(explorerQuery({ key: 'gomoku-renju', moves: ['h8'], opening: 'taraguchi10' }), 'explorer=gomoku-renju&opening=taraguchi10&moves=h8',
    'the rule beside the game');
  assert.equal(explorerQuery({ key: 'gomoku-freestyle', opening: 'none' }), 'explorer=gomoku-freestyle');
  // Another game's tab takes the route with its key: a rule that is not the game's is dropped.
  const swap2 = { page: 'explorer', key: 'gomoku-freestyle', moves: [], rated: 'yes', bots: 'any', opening: 'swap2' };
  assert.equal(explorerQuery({ ...swap2, key: 'gomoku-standard' }), 'explorer=gomoku-standard&opening=swap2&rated=yes');
  assert.equal(explorerQuery({ ...swap2, key: 'gomoku-renju' }), 'explorer=gomoku-renju&rated=yes');
  assert.equal(explorerQuery({ ...swap2, key: 'connect4' }), 'explorer=connect4&rated=yes');
  assert.equal(explorerQuery({ key: 'othello' }), 'explorer=othello', 'a route without the field (an older caller)');
});

test('the API path names the key, the moves and both filters', () => {
  assert.equal(explorerPath({ key: 'connect4', moves: ['4', '4'], rated: 'yes', bots: 'no' }), '/api/explorer/connect4?moves=4,4&rated=yes&bots=no');
  assert.equal(explorerPath({ key: 'othello' }), '/api/explorer/othello?moves=&rated=any&bots=any');
  assert.equal(explorerPath({ key: 'othello', rated: 'perhaps' }), '/api/explorer/othello?moves=&rated=any&bots=any');
  assert.equal(explorerPath({ key: 'gomoku-renju', moves: ['h8', 'i9', 'j10', 'g7'], opening: 'soosorv8' }),
    '/api/explorer/gomoku-renju@soosorv8?moves=h8,i9,j10,g7&rated=any&bots=any', 'an opening rule is the @ key');
  assert.equal(explorerPath({ key: 'gomoku-freestyle', moves: ['h8'], rated: 'yes', opening: 'swap2' }),
    '/api/explorer/gomoku-freestyle@swap2?moves=h8&rated=yes&bots=any');
  assert.equal(explorerPath({ key: 'gomoku-freestyle', opening: 'none' }), '/api/explorer/gomoku-freestyle?moves=&rated=any&bots=any');
  assert.equal(explorerPath({ key: 'gomoku-renju', opening: 'swap2' }), '/api/explorer/gomoku-renju?moves=&rated=any&bots=any',
    'another board\'s rule is not asked for');
});

test('percentages are whole and add up to 100', () => {
  assert.deepEqual(percentages([4, 0, 3]), [57, 0, 43]);
  assert.deepEqual(percentages([1, 1, 1]), [34, 33, 33]);
  assert.deepEqual(percentages([2, 1, 0]), [67, 33, 0]);
  assert.deepEqual(percentages([0, 0, 0]), [0, 0, 0]);
  for (const parts of [[1, 2, 3], [7, 0, 1], [5, 5, 1], [99, 1, 1]]) {
    assert.equal(percentages(parts).reduce((a, b) => a + b, 0), 100, JSON.stringify(parts));
  }
});

test('an answer becomes rows; nothing malformed gets through', () => {
  const a = explorerAnswer({
    variant: 'gomoku-freestyle', moves: ['h8', 'h9'], to_move: 'black', games: 12, depth: 30,
    next: [
      { move: 'i8', games: 7, black: 4, draws: 0, white: 3, rating: 1542 },
      { move: 'g7', games: 5, black: 2, draws: 1, white: 2, rating: null },
      { games: 3 }, null,
    ],
  });
  assert.deepEqual(a.moves, ['h8', 'h9']);
  assert.equal(a.toMove, 'black');
  assert.equal(a.games, 12);
  assert.equal(a.depth, 30);
  assert.deepEqual(a.rows, [
    { move: 'i8', games: 7, black: 4, draws: 0, white: 3, rating: 1542, pct: { black: 57, draws: 0, white: 43 } },
    { move: 'g7', games: 5, black: 2, draws: 1, white: 2, rating: null, pct: { black: 40, draws: 20, white: 40 } },
  ]);
  const none = explorerAnswer(null);
  assert.deepEqual(none, { moves: null, toMove: 'black', games: 0, depth: DEFAULT_DEPTH, rows: [] });
  const odd = explorerAnswer({ next: [{ move: '4', black: '2', draws: -1, white: 1, rating: 'x' }], depth: 'deep' });
  assert.deepEqual(odd.rows[0], { move: '4', games: 3, black: 2, draws: 0, white: 1, rating: null, pct: { black: 67, draws: 0, white: 33 } });
  assert.equal(odd.games, 3, 'the sum of the rows when the answer has no total');
  assert.equal(odd.depth, DEFAULT_DEPTH);
});

test('the position of a line: who moves, which moves are legal, when the game is over', () => {
  const c4 = linePosition('connect4', ['4', '4', '4', '4', '4', '4']);
  assert.equal(c4.pos.toMove, 'black');
  assert.equal(canPlay(c4, '4'), false, 'a full column');
  assert.equal(canPlay(c4, '3'), true);
  assert.equal(canPlay(c4, '8'), false, 'off the board');
  const won = linePosition('connect4', ['4', '5', '4', '5', '4', '5', '4']);
  assert.equal(won.over, true);
  assert.equal(canPlay(won, '1'), false);

  const gomoku = linePosition('gomoku-freestyle', ['h8', 'h9']);
  assert.equal(canPlay(gomoku, 'h8'), false, 'an occupied point');
  assert.equal(canPlay(gomoku, 'j10'), true);
  const five = ['a1', 'a15', 'b1', 'b15', 'c1', 'c15', 'd1', 'd15', 'e1'];
  assert.equal(linePosition('gomoku-freestyle', five).over, true);
  // Six in a row wins freestyle but not standard, where only five does.
  const six = ['a1', 'a15', 'b1', 'b15', 'c1', 'c15', 'e1', 'e15', 'f1', 'f15', 'd1'];
  assert.equal(linePosition('gomoku-freestyle', six).over, true);
  assert.equal(linePosition('gomoku-standard', six).over, false);

  // Renju: black's double three at g8 (e8 f8 g8 across, g8 g9 g10 down) is forbidden, refused
  // here as the server would refuse it.
  const renju = linePosition('gomoku-renju', ['e8', 'a1', 'f8', 'a3', 'g9', 'a5', 'g10', 'a7']);
  assert.equal(renju.pos.toMove, 'black');
  assert.ok(renju.forbidden.some((f) => f.idx === (15 - 8) * 15 + 6), 'g8 is forbidden');
  assert.equal(canPlay(renju, 'g8'), false);
  assert.equal(canPlay(renju, 'h3'), true);
  assert.deepEqual(linePosition('gomoku-freestyle', ['e8', 'a1', 'f8', 'a3', 'g9', 'a5', 'g10', 'a7']).forbidden, [], 'renju only');

  const othello = linePosition('othello', []);
  assert.deepEqual(othello.legal.length, 4);
  assert.equal(canPlay(othello, 'f5'), true);
  assert.equal(canPlay(othello, 'a1'), false);
  assert.equal(canPlay(othello, 'pass'), false, 'no pass while a move is legal');
});

test('Othello: a side without a move must pass; with neither, the game is over', () => {
  // tests/browser/bots.test.mjs's opening: after it and c1, black has no move.
  const line = ['d3', 'c3', 'b3', 'b2', 'f5', 'a3', 'a1', 'c1'];
  const stuck = linePosition('othello', line);
  assert.equal(stuck.pos.toMove, 'black');
  assert.equal(stuck.mustPass, true);
  assert.equal(stuck.over, false);
  assert.equal(canPlay(stuck, 'pass'), true);
  assert.equal(canPlay(stuck, 'e6'), false);
  const after = linePosition('othello', [...line, 'pass']);
  assert.equal(after.pos.toMove, 'white');
  assert.ok(after.legal.length > 0);
  // A nine-move game that leaves white without a disc: nobody can move, the game is over.
  const wiped = linePosition('othello', ['e6', 'f4', 'e3', 'f6', 'g5', 'd6', 'e7', 'f5', 'c5']);
  assert.equal(wiped.over, true);
  assert.equal(wiped.mustPass, false);
  assert.equal(canPlay(wiped, 'pass'), false);
});

test('a finished room gives the explorer its line at the position on show', () => {
  const room = (game, moves, extra = {}) => ({ game, moves, opening: [], status: 'over', shownIndex: moves.length, ...extra });
  assert.deepEqual(roomExplorerRoute(room({ kind: 'connect4', cols: 7, rows: 6 }, ['4', '4', '3'])),
    { page: 'explorer', key: 'connect4', moves: ['4', '4', '3'], rated: 'any', bots: 'any', opening: 'none' });
  assert.deepEqual(roomExplorerRoute(room({ kind: 'connect4', cols: 7, rows: 6 }, ['4', '4', '3'], { shownIndex: 1 })).moves, ['4'],
    'a replay shows an earlier position');
  assert.equal(roomExplorerRoute(room({ kind: 'connect4', cols: 7, rows: 6, blocked: [[1, 1]] }, ['4'])), null, 'blocked cells');
  assert.equal(roomExplorerRoute(room({ kind: 'connect4', cols: 8, rows: 6 }, ['4'])), null, 'another board');
  assert.equal(roomExplorerRoute(room({ kind: 'gomoku', size: 19, rule: 'freestyle' }, ['j10'])), null);
  assert.equal(roomExplorerRoute(room({ kind: 'gomoku', size: 15, rule: 'renju' }, ['h8'], { opening: ['h8'], moves: ['h9'] })), null, 'preset stones');
  assert.equal(roomExplorerRoute(room({ kind: 'othello' }, ['f5', 'pass'])).key, 'othello');
  assert.deepEqual(roomExplorerRoute(room({ kind: 'gomoku', size: 15, rule: 'standard', opening_rule: 'swap2' }, ['h8', 'h9', 'i8', 'stay', 'j10'])),
    { page: 'explorer', key: 'gomoku-standard', moves: ['h8', 'h9', 'i8', 'j10'], rated: 'any', bots: 'any', opening: 'swap2' },
    'explored among swap2\'s games; its choices place no stone');
  const soosorv8 = ['h8', 'i9', 'j10', 'stay', 'g7', 'declare 2', 'stay', 'fifths k5,e12', 'choose e12', 'a1'];
  assert.deepEqual(roomExplorerRoute(room({ kind: 'gomoku', size: 15, rule: 'renju', opening_rule: 'soosorv8' }, soosorv8)),
    { page: 'explorer', key: 'gomoku-renju', moves: ['h8', 'i9', 'j10', 'g7', 'e12', 'a1'], rated: 'any', bots: 'any', opening: 'soosorv8' });
  assert.equal(roomExplorerRoute({ game: null }), null);
});
