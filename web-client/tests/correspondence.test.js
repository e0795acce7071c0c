// Correspondence games without the DOM: the days clocks' keys and labels, the time in days ("2 d 23 h"), the move's own time apart from the vacation, the list of GET /api/correspondence, the turns newly ours, the title and the favicon's badge, the -corr rating keys in addresses.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  CORR_CLOCKS, DAY_MS, formatDays, formatVacation, corrSplit, corrLeftWords, isCorrespondence, corrGames, newTurns, turnKey, turnTitle, badgeIcon,
} from '../js/corr-data.js';
import { clockKey, clockFromKey } from '../js/record.js';
import { clockLabel, setLang } from '../js/i18n.js';
import { lowBelowMs } from '../js/clock.js';
import { LEADERBOARD_KEYS, CORR_KEYS, baseKey, isCorrKey } from '../js/rating.js';
import { parseRoute, routeUrl } from '../js/route.js';
import { CHALLENGE_CLOCKS, normalForm, challengeMessage } from '../js/challenge-data.js';

const HOUR = 3_600_000;

test('a days clock has a key, and the key gives the clock back', () => {
  assert.deepEqual(CORR_CLOCKS, ['1d/7', '2d/7', '3d/7', '5d/7', '7d/7', '14d/7']);
  assert.equal(clockKey({ days: 3, vacation_days: 7 }), '3d/7');
  assert.equal(clockKey({ days: 2 }), '2d');
  assert.equal(clockKey({ days: 14, vacation_days: 0 }), '14d');
  assert.deepEqual(clockFromKey('3d/7'), { days: 3, vacation_days: 7 });
  assert.deepEqual(clockFromKey('1d'), { days: 1, vacation_days: 0 });
  for (const k of CORR_CLOCKS) assert.equal(clockKey(clockFromKey(k)), k);
  // The live keys are as they were.
  assert.deepEqual(clockFromKey('5s'), { move_ms: 5000 });
  assert.deepEqual(clockFromKey('3+2'), { initial_ms: 180000, increment_ms: 2000 });
  assert.equal(clockFromKey('3d/x'), null);
});

test('a days clock reads "3 days per move", one day in the singular, in both languages', () => {
  assert.equal(clockLabel({ days: 3, vacation_days: 7 }), '3 days per move');
  assert.equal(clockLabel({ days: 1, vacation_days: 7 }), '1 day per move');
  setLang('zh');
  try {
    assert.equal(clockLabel({ days: 3 }), '每步 3 天');
    assert.equal(formatDays(2 * DAY_MS + 23 * HOUR), '2 天 23 小时');
  } finally {
    setLang('en');
  }
  assert.ok(isCorrespondence({ days: 1, vacation_days: 0 }));
  assert.ok(!isCorrespondence({ move_ms: 5000 }));
  assert.ok(!isCorrespondence(null));
});

test('time in days: "2 d 23 h", "5 h 12 m" under a day, m:ss under an hour, never more than there is', () => {
  assert.equal(formatDays(3 * DAY_MS), '3 d 0 h');
  assert.equal(formatDays(3 * DAY_MS - 1000), '2 d 23 h');
  assert.equal(formatDays(10 * DAY_MS - 5000), '9 d 23 h');
  assert.equal(formatDays(DAY_MS), '1 d 0 h');
  assert.equal(formatDays(DAY_MS - 1), '23 h 59 m');
  assert.equal(formatDays(5 * HOUR + 12 * 60000 + 59000), '5 h 12 m');
  assert.equal(formatDays(HOUR), '1 h 0 m');
  assert.equal(formatDays(12 * 60000 + 5000), '12:05');
  assert.equal(formatDays(59_500), '1:00');
  assert.equal(formatDays(400), '0:01');
  assert.equal(formatDays(0), '0:00');
  assert.equal(formatDays(-5), '0:00');
  assert.equal(formatDays(undefined), '0:00');
});

test('a days clock shows low in its last quarter of a move, at most its last day', () => {
  assert.equal(lowBelowMs({ days: 1, vacation_days: 7 }), DAY_MS / 4);
  assert.equal(lowBelowMs({ days: 3, vacation_days: 7 }), 3 * DAY_MS / 4);
  assert.equal(lowBelowMs({ days: 14, vacation_days: 0 }), DAY_MS);
});

const ANSWER = {
  now_ms: 1763900000000,
  games: [
    { room: 'r1', game: { kind: 'othello' }, control: { days: 3, vacation_days: 7 }, status: 'playing', you: 'white', to_move: 'white',
      your_turn: true, opponent: { name: 'Ann', bot: false }, moves: 4, left_ms: 9 * DAY_MS, vacation_ms: 7 * DAY_MS, deadline_ms: 1, rated: true },
    { room: 'r2', game: { kind: 'connect4' }, control: { days: 1 }, status: 'playing', you: 'black', to_move: 'white',
      your_turn: false, opponent: { name: 'Bot7', bot: true }, moves: 1, left_ms: DAY_MS, rated: false },
    { room: '', game: null },
    null,
  ],
};

test('the list of GET /api/correspondence: ours to move, then the others, anything else left out', () => {
  const { yours, waiting } = corrGames(ANSWER);
  assert.deepEqual(yours.map((g) => g.room), ['r1']);
  assert.deepEqual(waiting.map((g) => g.room), ['r2']);
  assert.deepEqual(yours[0], {
    room: 'r1', game: { kind: 'othello' }, control: { days: 3, vacation_days: 7 }, you: 'white', yourTurn: true,
    opponent: { name: 'Ann', bot: false }, moves: 4, leftMs: 9 * DAY_MS, vacationMs: 7 * DAY_MS, firstMove: false, rated: true,
  });
  // No vacation said (a server of an earlier release): none; a first move: the time before an abort.
  assert.equal(waiting[0].vacationMs, 0);
  assert.equal(waiting[0].firstMove, true);
  assert.equal(waiting[0].opponent.bot, true);
  assert.deepEqual(corrGames(null), { yours: [], waiting: [] });
  assert.deepEqual(corrGames({ games: 'no' }), { yours: [], waiting: [] });
});

test('a move\'s own time apart from the vacation: the reading less the vacation while positive, then the vacation counting down', () => {
  assert.deepEqual(corrSplit(10 * DAY_MS, 7 * DAY_MS), { own: 3 * DAY_MS, vacation: 7 * DAY_MS });
  assert.deepEqual(corrSplit(10 * DAY_MS - HOUR, 7 * DAY_MS), { own: 3 * DAY_MS - HOUR, vacation: 7 * DAY_MS });
  // The move's own days spent: the vacation runs.
  assert.deepEqual(corrSplit(5 * DAY_MS, 7 * DAY_MS), { own: 0, vacation: 5 * DAY_MS });
  assert.deepEqual(corrSplit(-5, 7 * DAY_MS), { own: 0, vacation: 0 });
  // No vacation (none in the game, or not said): the reading as it is.
  assert.deepEqual(corrSplit(2 * DAY_MS, undefined), { own: 2 * DAY_MS, vacation: 0 });
  assert.equal(formatVacation(7 * DAY_MS), '7 d');
  assert.equal(formatVacation(7 * DAY_MS - HOUR), '6 d 23 h');
  assert.equal(formatVacation(5 * HOUR), '5 h 0 m');
  setLang('zh');
  try {
    assert.equal(formatVacation(7 * DAY_MS), '7 天');
  } finally {
    setLang('en');
  }
});

test('the list says the move\'s own time and the vacation beside it; a first move its time before an abort', () => {
  const g = { yourTurn: true, leftMs: 10 * DAY_MS - HOUR, vacationMs: 7 * DAY_MS, firstMove: false, opponent: { name: 'Ann' } };
  assert.equal(corrLeftWords(g), '2 d 23 h left (+7 d vacation)');
  assert.equal(corrLeftWords({ ...g, yourTurn: false }), '2 d 23 h left for Ann (+7 d vacation)');
  assert.equal(corrLeftWords({ ...g, leftMs: 6 * DAY_MS }), '0:00 left (+6 d vacation)');
  assert.equal(corrLeftWords({ ...g, vacationMs: 0, leftMs: 2 * DAY_MS }), '2 d 0 h left');
  assert.equal(corrLeftWords({ ...g, firstMove: true, leftMs: 3 * DAY_MS - HOUR }), '2 d 23 h left');
  setLang('zh');
  try {
    assert.equal(corrLeftWords(g), '剩余 2 天 23 小时（另有假期 7 天）');
  } finally {
    setLang('en');
  }
});

test('a turn newly ours is told once: not from the first list, not again for the same move', () => {
  const { yours } = corrGames(ANSWER);
  assert.deepEqual(newTurns(null, yours), []);
  assert.deepEqual(newTurns(new Set(), yours).map((g) => g.room), ['r1']);
  assert.deepEqual(newTurns(new Set([turnKey('r1', 4)]), yours), []);
  // The same room, a later move: a new turn.
  assert.deepEqual(newTurns(new Set([turnKey('r1', 2)]), yours).map((g) => g.room), ['r1']);
});

test('the title counts our turns, the favicon carries the count', () => {
  assert.equal(turnTitle('Kibitz', 0), 'Kibitz');
  assert.equal(turnTitle('Kibitz', 2), '(2) Your turn · Kibitz');
  assert.equal(turnTitle('Othello — Kibitz', 1), '(1) Your turn · Othello — Kibitz');
  const icon = decodeURIComponent(badgeIcon(3).replace('data:image/svg+xml,', ''));
  assert.match(icon, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(icon, />3<\/text><\/svg>$/);
  assert.match(decodeURIComponent(badgeIcon(12)), />9\+<\/text>/);
});

test('the -corr rating keys: on the leaderboard\'s address, and their game', () => {
  assert.deepEqual(CORR_KEYS, ['gomoku-freestyle-corr', 'gomoku-standard-corr', 'gomoku-renju-corr', 'othello-corr', 'connect4-corr']);
  assert.equal(LEADERBOARD_KEYS.length, 10);
  assert.equal(baseKey('othello-corr'), 'othello');
  assert.ok(isCorrKey('connect4-corr') && !isCorrKey('connect4'));
  assert.deepEqual(parseRoute('?leaderboard=othello-corr', '/'), { page: 'leaderboard', key: 'othello-corr', bots: false });
  assert.equal(routeUrl({ page: 'leaderboard', key: 'gomoku-renju-corr', bots: true }), '/?leaderboard=gomoku-renju-corr&bots=true');
});

test('a challenge may be by correspondence: its clock kept in the form and sent as days', () => {
  assert.ok(CHALLENGE_CLOCKS.includes('3d/7') && CHALLENGE_CLOCKS.includes('5+3'));
  const form = normalForm({ clock: '3d/7' });
  assert.equal(form.clock, '3d/7');
  assert.deepEqual(challengeMessage('Bob', form).clock, { days: 3, vacation_days: 7 });
  assert.equal(normalForm({ clock: '4d/7' }).clock, '5+3');
});
