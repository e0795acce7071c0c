// Tests js/tournament-data.js: points with ½ (and quarters), the standings' lines, the rounds' games (forfeits included) and byes in docs/protocol.md's shape and others, the buttons a visitor gets, polling until over, the create request's body, the bots offered and the list's order.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  TOURNAMENT_GAMES, TOURNAMENT_CLOCKS, formatPoints, standingsRows, gameResult, roundRows, actionsFor,
  shouldPoll, createBody, clampRounds, botsFor, listRows, gameForKey, nameOf, playerNames,
  creatorName, roundsOf, plannedRounds,
} from '../js/tournament-data.js';
import { ratingKey, RATING_KEYS } from '../js/rating.js';
import { clockFromKey } from '../js/record.js';

test('points are written with ½, quarters with ¼ and ¾', () => {
  assert.equal(formatPoints(2.5), '2½');
  assert.equal(formatPoints(0.5), '½');
  assert.equal(formatPoints(0), '0');
  assert.equal(formatPoints(3), '3');
  assert.equal(formatPoints(1.25), '1¼');
  assert.equal(formatPoints(0.75), '¾');
  assert.equal(formatPoints(0.1 + 0.2 + 0.2), '½', 'float noise is rounded away');
  assert.equal(formatPoints(1.999999), '2');
  assert.equal(formatPoints('1.5'), '1½');
  assert.equal(formatPoints(1.4), '1.4');
  assert.equal(formatPoints(-0.5), '−½');
  assert.equal(formatPoints(null), '');
  assert.equal(formatPoints(undefined), '');
  assert.equal(formatPoints('x'), '');
});

test('standings lines keep the server\'s ranks, with the points written for the table', () => {
  const rows = standingsRows([
    { rank: 2, name: 'Babbage', points: 1, games: 2, wins: 1, buchholz: 2.5, sonneborn_berger: 0.5 },
    { rank: 1, name: 'Ada', points: 2.5, games: 3, wins: 2, buchholz: 3, sonneborn_berger: 3.25, bot: true },
    { rank: 3, name: { name: 'Cleo' }, points: 0, games: 3, wins: 0, buchholz: 4, sonneborn_berger: 0 },
  ]);
  assert.deepEqual(rows.map((r) => [r.rank, r.name, r.pointsText, r.buchholzText, r.sbText]), [
    [1, 'Ada', '2½', '3', '3¼'],
    [2, 'Babbage', '1', '2½', '½'],
    [3, 'Cleo', '0', '4', '0'],
  ]);
  assert.equal(rows[0].bot, true);
  assert.equal(rows[0].tied, false);
  assert.equal(standingsRows([{ rank: 1, name: 'A', points: 1 }, { rank: 2, name: 'B', points: 1, tied: true }])[1].tied, true);
  // A tie shares its place: "=1" on each of its lines, whatever the seed put first.
  const tie = standingsRows([
    { rank: 1, name: 'A', points: 1 },
    { rank: 2, name: 'B', points: 1, tied: true },
    { rank: 3, name: 'C', points: 0.5 },
    { rank: 4, name: 'D', points: 0 },
    { rank: 5, name: 'E', points: 0, tied: true },
    { rank: 6, name: 'F', points: 0, tied: true },
  ]);
  assert.deepEqual(tie.map((r) => r.rankText), ['=1', '=1', '3', '=4', '=4', '=4']);
  assert.deepEqual(tie.map((r) => r.shared), [true, true, false, true, true, true]);
  assert.deepEqual(rows.map((r) => r.rankText), ['1', '2', '3']);
  assert.equal(rows[0].points, 2.5);
  assert.equal(rows[0].games, 3);
  assert.equal(rows[0].wins, 2);
  // No rank: the order given; missing numbers are zero or blank.
  const bare = standingsRows([{ name: 'X', points: 1 }, { name: 'Y' }, null]);
  assert.deepEqual(bare.map((r) => [r.rank, r.name, r.pointsText, r.games, r.buchholzText]), [[1, 'X', '1', 0, ''], [2, 'Y', '0', 0, '']]);
  assert.deepEqual(standingsRows(undefined), []);
});

test('a game\'s result in every shape the API may give it', () => {
  const over = (winner, score, forfeit = false) => ({ state: 'over', winner, score, forfeit });
  const none = (state) => ({ state, winner: null, score: '', forfeit: false });
  // As docs/protocol.md gives it: the result and what each side scored.
  assert.deepEqual(gameResult({ room: 'r1', result: 'black', black_points: 1, white_points: 0 }), over('black', '1–0'));
  assert.deepEqual(gameResult({ room: 'r1', result: 'draw', black_points: 0.5, white_points: 0.5 }), over('draw', '½–½'));
  // The points decide: an opening rule swapped the colours, the players keep their results.
  assert.deepEqual(gameResult({ room: 'r1', result: 'black', black_points: 0, white_points: 1 }), over('white', '0–1'));
  // An aborted game is a forfeit of the side that never moved.
  assert.deepEqual(gameResult({ room: 'r1', result: 'aborted', black_points: 0, white_points: 1 }), over('white', '0–1', true));
  // Other shapes: the result alone.
  assert.deepEqual(gameResult({ room: 'r1', result: 'black' }), over('black', '1–0'));
  assert.deepEqual(gameResult({ room: 'r1', result: 'white' }), over('white', '0–1'));
  assert.deepEqual(gameResult({ room: 'r1', result: 'draw' }), over('draw', '½–½'));
  assert.deepEqual(gameResult({ room: 'r1', result: '1-0' }), over('black', '1–0'));
  assert.deepEqual(gameResult({ room: 'r1', result: '1/2-1/2' }), over('draw', '½–½'));
  assert.deepEqual(gameResult({ room: 'r1', result: { result: 'white', reason: 'resign' } }), over('white', '0–1'));
  assert.deepEqual(gameResult({ room: 'r1', result: { winner: 'black' } }), over('black', '1–0'));
  assert.deepEqual(gameResult({ room: 'r1', result: 'aborted' }), none('aborted'));
  assert.deepEqual(gameResult({ room: 'r1', result: null, black_points: null, white_points: null }), none('playing'));
  assert.deepEqual(gameResult({ room: 'r1', status: 'over' }), none('aborted'));
  assert.deepEqual(gameResult({ black: 'A', white: 'B' }), none('pending'));
});

test('rounds as docs/protocol.md gives them: `pairings` with games, results, points and the bye', () => {
  const d = {
    rounds: 2,
    pairings: [
      { round: 1, games: [{ room: 'r1', black: 'Alice', white: 'Kibot', black_player: 'p1', white_player: 'p2', result: 'black', black_points: 1, white_points: 0 }], bye: 'Bob', bye_player: 'p3' },
      { round: 2, games: [{ room: 'r2', black: 'Bob', white: 'Alice', black_player: 'p3', white_player: 'p1', result: null, black_points: null, white_points: null }], bye: null, bye_player: null },
    ],
  };
  assert.deepEqual(roundRows(roundsOf(d)), [
    { number: 1, games: [{ room: 'r1', black: 'Alice', white: 'Kibot', state: 'over', winner: 'black', score: '1–0', forfeit: false }], byes: ['Bob'] },
    { number: 2, games: [{ room: 'r2', black: 'Bob', white: 'Alice', state: 'playing', winner: null, score: '', forfeit: false }], byes: [] },
  ]);
});

test('a game whose room waits for a free place of a bot says for whom', () => {
  const d = { pairings: [{ round: 1, games: [{ room: 'r1', black: 'Ann', white: 'Zed', result: null, black_points: null, white_points: null, waits_for: 'Zed' }] }] };
  const [game] = roundRows(roundsOf(d))[0].games;
  assert.equal(game.waitsFor, 'Zed');
  assert.equal(game.state, 'playing');
});

test('rounds: games black – white with their results, byes from the round or the tournament', () => {
  const rows = roundRows([
    { round: 1, games: [{ room: 'r1', black: 'Ada', white: { name: 'Bob', bot: true }, result: 'white' }], bye: 'Cleo' },
    { round: 2, games: [{ room: 'r2', black: 'Cleo', white: 'Ada', result: null }], byes: [{ name: 'Bob' }] },
    [{ room: 'r3', black: 'Bob', white: 'Cleo', result: 'draw' }],
  ], [{ round: 3, name: 'Ada' }, [1, 'Cleo']]);
  assert.deepEqual(rows, [
    { number: 1, games: [{ room: 'r1', black: 'Ada', white: 'Bob', state: 'over', winner: 'white', score: '0–1', forfeit: false }], byes: ['Cleo'] },
    { number: 2, games: [{ room: 'r2', black: 'Cleo', white: 'Ada', state: 'playing', winner: null, score: '', forfeit: false }], byes: ['Bob'] },
    { number: 3, games: [{ room: 'r3', black: 'Bob', white: 'Cleo', state: 'over', winner: 'draw', score: '½–½', forfeit: false }], byes: ['Ada'] },
  ]);
  assert.deepEqual(roundRows(null), []);
  assert.deepEqual(roundRows([{ number: 4, pairings: [{ black: 'A', white: 'B' }] }])[0].games[0].state, 'pending');
});

test('names of players in any shape', () => {
  assert.equal(nameOf('Ada'), 'Ada');
  assert.equal(nameOf({ name: 'Ada', bot: false }), 'Ada');
  assert.equal(nameOf(null), '');
  assert.deepEqual(playerNames({ players: ['Ada', { name: 'Bob' }, null] }), ['Ada', 'Bob']);
  assert.deepEqual(playerNames({}), []);
});

test('the buttons: join for an account not in it, leave for a player, start for the creator, only while open', () => {
  const open = { status: 'open', creator: 'Ada', players: ['Ada', 'Bob'] };
  assert.deepEqual(actionsFor(open, 'ada', true), { join: false, leave: true, start: true, signIn: false }, 'names in any case');
  assert.deepEqual(actionsFor(open, 'Bob', true), { join: false, leave: true, start: false, signIn: false });
  assert.deepEqual(actionsFor(open, 'Cleo', true), { join: true, leave: false, start: false, signIn: false });
  assert.deepEqual(actionsFor(open, 'Guest1234', false), { join: false, leave: false, start: false, signIn: true });
  assert.deepEqual(actionsFor({ ...open, creator: { name: 'Cleo' }, players: [] }, 'Cleo', true), { join: true, leave: false, start: true, signIn: false });
  for (const status of ['running', 'over']) {
    assert.deepEqual(actionsFor({ ...open, status }, 'Ada', true), { join: false, leave: false, start: false, signIn: false });
  }
  assert.deepEqual(actionsFor(null, 'Ada', true), { join: false, leave: false, start: false, signIn: false });
});

test('the API\'s shape: the creator by name, the rounds in `pairings` and their planned number in `rounds`', () => {
  const d = { creator: 'p-123', creator_name: 'Ada', rounds: 3, pairings: [{ round: 1, games: [], bye: 'Bob' }] };
  assert.equal(creatorName(d), 'Ada');
  assert.equal(creatorName({ creator: 'Ada' }), 'Ada', 'the sketch\'s shape: a name');
  assert.equal(roundsOf(d), d.pairings);
  assert.equal(plannedRounds(d), 3);
  assert.equal(plannedRounds({ rounds: null }), null);
  assert.deepEqual(roundsOf({ rounds: [{ games: [] }] }), [{ games: [] }]);
  assert.equal(plannedRounds({ rounds: [{ games: [] }] }), null);
  assert.deepEqual(actionsFor({ status: 'open', creator: 'p-1', creator_name: 'Ada', players: [{ player: 'p-1', name: 'Ada', bot: false }] }, 'Ada', true),
    { join: false, leave: true, start: true, signIn: false });
});

test('the page polls until the tournament is over', () => {
  assert.equal(shouldPoll({ status: 'open' }), true);
  assert.equal(shouldPoll({ status: 'running' }), true);
  assert.equal(shouldPoll({ status: 'over' }), false);
  assert.equal(shouldPoll(null), true);
});

test('the games offered are the rated ones, one a rating key; the clocks read back', () => {
  assert.deepEqual(TOURNAMENT_GAMES.map((g) => ratingKey(g.game)), RATING_KEYS);
  assert.deepEqual(gameForKey('othello'), { kind: 'othello' });
  assert.deepEqual(gameForKey('nope'), { kind: 'gomoku', size: 15, rule: 'freestyle' });
  const a = gameForKey('connect4');
  a.blocked.push([1, 1]);
  assert.deepEqual(gameForKey('connect4').blocked, [], 'a fresh copy each time');
  for (const k of TOURNAMENT_CLOCKS) assert.ok(clockFromKey(k), `${k}: every tournament game has a clock`);
});

test('the create request: a Swiss carries its rounds, a round-robin none; bots only when picked, with their levels', () => {
  const rr = createBody({ name: '  Friday blitz ', kind: 'round_robin', gameKey: 'gomoku-renju', clock: '3+2', rounds: 5, rated: true, bots: [] }, 'tok');
  assert.deepEqual(rr, {
    token: 'tok', name: 'Friday blitz', kind: 'round_robin', game: { kind: 'gomoku', size: 15, rule: 'renju' },
    clock: { initial_ms: 180000, increment_ms: 2000 }, rated: true,
  });
  const sw = createBody({ name: 'S'.repeat(50), kind: 'swiss', gameKey: 'connect4', clock: '5s', rounds: '40', rated: false, bots: ['Kibot', 'Kibot', 'Ada'] }, 'tok');
  assert.equal(sw.rounds, 20, 'clamped to the server\'s range');
  assert.equal(sw.name.length, 40, 'the server\'s longest name');
  assert.deepEqual(sw.clock, { move_ms: 5000 });
  assert.deepEqual(sw.bots, ['Kibot', 'Ada']);
  // A level below the top goes with the name; in a rated tournament bots play at the top level.
  const levels = { bots: ['Kibot', 'Ada', 'Zed'], botLevels: { Kibot: 3, Ada: 10, Zed: 0 } };
  assert.deepEqual(createBody({ name: 'x', ...levels }, 't').bots, [{ name: 'Kibot', level: 3 }, 'Ada', 'Zed']);
  assert.deepEqual(createBody({ name: 'x', rated: true, ...levels }, 't').bots, ['Kibot', 'Ada', 'Zed']);
  // More levels of one bot are entrants of their own, but not in a rated tournament.
  const more = { bots: ['Kibot'], botLevels: { Kibot: 2 }, moreLevels: { Kibot: [5, 10], Ada: [3] } };
  assert.deepEqual(createBody({ name: 'x', ...more }, 't').bots, [{ name: 'Kibot', level: 2 }, { name: 'Kibot', level: 5 }, { name: 'Kibot', level: 10 }]);
  assert.deepEqual(createBody({ name: 'x', rated: true, ...more }, 't').bots, ['Kibot']);
  assert.deepEqual(sw.game, { kind: 'connect4', cols: 7, rows: 6, blocked: [] });
  assert.equal(createBody({ name: 'x', kind: 'knockout' }, 't').kind, 'round_robin');
  assert.equal('rounds' in createBody({ name: 'x', kind: 'swiss', rounds: '' }, 't'), false, 'no number: the server\'s ceil(log2 n)');
  assert.equal(createBody({ name: 'x', kind: 'swiss', rounds: ' 4 ' }, 't').rounds, 4);
  assert.equal(clampRounds('abc'), 3);
  assert.equal(clampRounds(0), 1);
  assert.equal(clampRounds(2.4), 2);
});

test('the bots offered are the connected ones that play the game', () => {
  const bots = [
    { name: 'Zed', games: ['othello'], busy: 1, capacity: 4 },
    { name: 'Ada', games: ['gomoku', 'othello', 'connect4'], busy: 0, capacity: 4 },
    { name: 'Old' },
    null,
  ];
  assert.deepEqual(botsFor(bots, { kind: 'othello' }).map((b) => b.name), ['Ada', 'Old', 'Zed']);
  assert.deepEqual(botsFor(bots, { kind: 'gomoku' }).map((b) => b.name), ['Ada', 'Old']);
  assert.deepEqual(botsFor(undefined, { kind: 'gomoku' }), []);
});

test('the list: open first, then running, then over, newest first within each', () => {
  const rows = listRows([
    { id: 't1', name: 'Old', kind: 'swiss', status: 'over', players: 4, game: { kind: 'othello' } },
    { id: 't2', name: 'Now', kind: 'round_robin', status: 'running', players: ['a', 'b'] },
    { id: 't3', name: 'Soon', kind: 'round_robin', status: 'open', players_count: 1 },
    { id: 't4', status: 'open' },
    { name: 'no id' },
  ]);
  assert.deepEqual(rows.map((r) => [r.id, r.status, r.players]), [['t3', 'open', 1], ['t4', 'open', 0], ['t2', 'running', 2], ['t1', 'over', 4]]);
  assert.equal(rows[1].name, 't4', 'no name: the id');
  const documented = listRows({ tournaments: [{ id: 'T1', name: 'Friday blitz', kind: 'swiss', status: 'running', players: 5, game: { kind: 'connect4' }, clock: {}, rounds: 4, round: 2, created_ms: 1 }] });
  assert.deepEqual(documented, [{ id: 'T1', name: 'Friday blitz', kind: 'swiss', status: 'running', players: 5, game: { kind: 'connect4' }, rated: false, round: 2, rounds: 4 }]);
  assert.deepEqual(listRows({ tournaments: [{ id: 9, status: 'open' }] }).map((r) => r.id), ['9']);
  assert.deepEqual(listRows(null), []);
});
