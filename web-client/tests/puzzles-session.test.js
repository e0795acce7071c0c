// Tests js/puzzles/session.js, streak.js and guest.js: an attempt's line through correct moves, the reply's beat, a refused move (taken back, the attempt failed), hints and the solution (failed too), the result's body and when it is due; a streak's count, target and best remembered; a guest's ratings kept per variant.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readPuzzle } from '../js/puzzles/puzzle.js';
import {
  createAttempt, canMove, sendMove, answerMove, showReply, nextHintLevel, hintTaken, solutionShown, stepSolution,
  shownLine, resultDue, resultBody, serverLine,
} from '../js/puzzles/session.js';
import { createStreak, streakTarget, streakSolved, streakFailed, loadBest, saveBest, STREAK_START, STREAK_STEP } from '../js/puzzles/streak.js';
import { GUEST_START, guestRating, guestRatings, saveGuestRating } from '../js/puzzles/guest.js';

/** A localStorage stand-in. */
function memoryStorage() {
  const m = new Map();
  return { getItem: (k) => (m.has(k) ? m.get(k) : null), setItem: (k, v) => m.set(k, String(v)), map: m };
}

const ok = (data) => ({ ok: true, status: 200, data, error: null });
const refused = (error) => ({ ok: false, status: 400, data: { error }, error });

const c4 = () => readPuzzle({ id: 'c4-1', variant: 'connect4', game: { kind: 'connect4', cols: 7, rows: 6, blocked: [] }, moves: ['d', 'd'], to_move: 'black', themes: ['win'], length: 2 });
const gomoku = () => readPuzzle({ id: 'g-1', variant: 'gomoku-freestyle', moves: ['h8', 'a1'], to_move: 'black', themes: ['vcf'], length: 2 });

test('correct moves, the reply after its beat, then the win: solved, and the result says so', () => {
  const a = createAttempt(gomoku());
  assert.equal(canMove(a), true);
  assert.deepEqual(sendMove(a, 'h9'), ['h9']);
  assert.equal(a.phase, 'checking');
  assert.equal(sendMove(a, 'h10'), null, 'one move at a time');
  assert.deepEqual(shownLine(a), ['h9'], 'the move is drawn while it is checked');
  assert.equal(answerMove(a, ok({ correct: true, reply: 'H10', solved: false })), 'correct');
  assert.equal(a.phase, 'reply');
  assert.deepEqual(shownLine(a), ['h9'], 'the reply waits for its beat');
  assert.equal(canMove(a), false);
  assert.equal(showReply(a), true);
  assert.deepEqual(shownLine(a), ['h9', 'h10']);
  assert.equal(showReply(a), false);
  assert.equal(resultDue(a), false);
  assert.deepEqual(sendMove(a, 'h7'), ['h9', 'h10', 'h7']);
  assert.equal(answerMove(a, ok({ correct: true, reply: null, solved: true })), 'solved');
  assert.equal(a.phase, 'solved');
  assert.equal(a.outcome, 'solved');
  assert.equal(canMove(a), false);
  assert.equal(resultDue(a), true);
  assert.deepEqual(resultBody(a, { rating: 1500, rd: 350, volatility: 0.06, plays: 3 }), {
    line: ['h9', 'h10', 'h7'], solved: true, hinted: false, guest: { rating: 1500, rd: 350, volatility: 0.06 },
  });
  assert.equal(resultDue(a), false, 'posted once');
});

test('a refused move is taken back with the server\'s words, the attempt fails, and a later win is not solved', () => {
  const a = createAttempt(c4());
  assert.deepEqual(sendMove(a, '1'), ['a'], 'the server\'s letters');
  assert.equal(answerMove(a, ok({ correct: false, message: 'a does not win within 2 moves' })), 'wrong');
  assert.deepEqual(a.wrong, { move: '1', message: 'a does not win within 2 moves' });
  assert.deepEqual(a.line, [], 'taken back');
  assert.deepEqual(shownLine(a), []);
  assert.equal(canMove(a), true, 'the player may try again');
  assert.equal(a.outcome, 'failed');
  assert.equal(resultDue(a), true, 'the failure is posted at once');
  assert.deepEqual(resultBody(a), { line: [], solved: false, hinted: false }, 'no guest: an account');
  // Another move is accepted, the reply comes, the win: still failed, nothing more to post.
  assert.deepEqual(sendMove(a, '3'), ['c']);
  assert.equal(a.wrong, null);
  answerMove(a, ok({ correct: true, reply: 'c', solved: false }));
  showReply(a);
  assert.deepEqual(a.line, ['3', '3']);
  assert.deepEqual(serverLine(a), ['c', 'c']);
  sendMove(a, '5');
  assert.equal(answerMove(a, ok({ correct: true, reply: null, solved: true })), 'solved');
  assert.equal(a.outcome, 'failed');
  assert.equal(resultDue(a), false);
  assert.equal(a.mistakes, 1);
});

test('a request that fails counts for nothing; an answer for no move is ignored', () => {
  const a = createAttempt(gomoku());
  assert.equal(answerMove(a, ok({ correct: true })), null);
  sendMove(a, 'h9');
  assert.equal(answerMove(a, refused('move 1 ("h8") is occupied')), 'error');
  assert.equal(a.error, 'move 1 ("h8") is occupied');
  assert.equal(a.failed, false);
  assert.equal(a.outcome, null);
  assert.equal(canMove(a), true);
  sendMove(a, 'h9');
  assert.equal(a.error, null);
});

test('hints: the area, then the move; the attempt counts as failed (hinted)', () => {
  const a = createAttempt(gomoku());
  assert.equal(nextHintLevel(a), 1);
  assert.equal(hintTaken(a, 1, ok({ area: ['H9', 'h10', 'g9'] })), true);
  assert.deepEqual(a.hint, { at: 0, level: 1, area: ['h9', 'h10', 'g9'], move: null });
  assert.equal(a.hinted, true);
  assert.equal(a.outcome, 'failed');
  assert.equal(nextHintLevel(a), 2);
  hintTaken(a, 2, ok({ move: 'h9' }));
  assert.equal(a.hint.move, 'h9');
  assert.deepEqual(a.hint.area, ['h9', 'h10', 'g9'], 'the area stays');
  assert.equal(nextHintLevel(a), 0, 'nothing more to give');
  assert.deepEqual(resultBody(a, GUEST_START), { line: [], solved: false, hinted: true, guest: { rating: 1500, rd: 350, volatility: 0.06 } });
  // The hinted move played: the hint is gone, the next move may have its own.
  sendMove(a, 'h9');
  answerMove(a, ok({ correct: true, reply: 'h10', solved: false }));
  assert.equal(a.hint, null);
  assert.equal(nextHintLevel(a), 0, 'not while the reply waits');
  showReply(a);
  assert.equal(nextHintLevel(a), 1);
  assert.equal(hintTaken(a, 1, refused('no such puzzle')), false);
  assert.equal(a.error, 'no such puzzle');
  // Connect Four's hints are columns, as letters.
  const b = createAttempt(c4());
  hintTaken(b, 1, ok({ area: ['c', 'e'] }));
  assert.deepEqual(b.hint.area, ['3', '5']);
});

test('the solution: stepped from the puzzle\'s position; asked before the end it counts as failed', () => {
  const a = createAttempt(gomoku());
  sendMove(a, 'h9');
  answerMove(a, ok({ correct: true, reply: 'h10', solved: false }));
  showReply(a);
  assert.equal(solutionShown(a, ok({ line: ['h9', 'h10', 'h7'] })), true);
  assert.equal(a.outcome, 'failed');
  assert.equal(a.gaveUp, true);
  assert.equal(canMove(a), false);
  assert.deepEqual(shownLine(a), [], 'from the puzzle\'s position');
  assert.equal(stepSolution(a, 1), true);
  assert.deepEqual(shownLine(a), ['h9']);
  assert.equal(stepSolution(a, 9), true);
  assert.deepEqual(shownLine(a), ['h9', 'h10', 'h7']);
  assert.equal(stepSolution(a, 3), false);
  assert.equal(stepSolution(a, -2), true);
  assert.equal(a.step, 0);
  // After a win the solution is only looked at.
  const b = createAttempt(gomoku());
  sendMove(b, 'h9');
  answerMove(b, ok({ correct: true, reply: null, solved: true }));
  solutionShown(b, ok({ line: ['h9'] }));
  assert.equal(b.outcome, 'solved');
  assert.equal(b.gaveUp, false);
  assert.equal(solutionShown(createAttempt(gomoku()), refused('gone')), false);
});

test('a streak: rising targets, the count, the best remembered per variant, over at the first failure', () => {
  const storage = memoryStorage();
  const s = createStreak('connect4', storage);
  assert.deepEqual([s.count, s.best, s.over], [0, 0, false]);
  assert.equal(streakTarget(s), STREAK_START);
  streakSolved(s, 'a', storage);
  streakSolved(s, 'b', storage);
  assert.equal(s.count, 2);
  assert.equal(streakTarget(s), STREAK_START + 2 * STREAK_STEP);
  assert.equal(s.best, 2);
  assert.equal(loadBest('connect4', storage), 2);
  assert.equal(loadBest(null, storage), 0, 'another key');
  streakFailed(s, 'c');
  assert.equal(s.over, true);
  streakSolved(s, 'd', storage);
  assert.equal(s.count, 2, 'nothing counts once over');
  const again = createStreak('connect4', storage);
  assert.equal(again.best, 2);
  streakSolved(again, 'a', storage);
  assert.equal(again.newBest, false);
  assert.equal(loadBest('connect4', storage), 2, 'a shorter streak keeps the best');
  assert.equal(saveBest('connect4', 1, storage), false);
  storage.setItem('kibitz.puzzleStreakBest', 'not json');
  assert.equal(loadBest('connect4', storage), 0);
});

test('a guest\'s ratings: the start, the server\'s answer kept per variant, damaged entries ignored', () => {
  const storage = memoryStorage();
  assert.deepEqual(guestRating('othello', storage), { rating: 1500, rd: 350, volatility: 0.06, plays: 0 });
  const kept = saveGuestRating('othello', { rating: 1512.3, rd: 290.1, volatility: 0.06, change: 12.3 }, storage);
  assert.deepEqual(kept, { rating: 1512.3, rd: 290.1, volatility: 0.06, plays: 1 });
  assert.deepEqual(guestRating('othello', storage), kept);
  assert.deepEqual(guestRating('connect4', storage), { ...GUEST_START }, 'each variant its own');
  saveGuestRating('othello', { rating: 1490, rd: 250, volatility: 0.0601 }, storage);
  assert.equal(guestRating('othello', storage).plays, 2);
  assert.equal(saveGuestRating('othello', { rating: 'high' }, storage), null);
  assert.deepEqual(Object.keys(guestRatings(storage)), ['othello']);
  storage.setItem('kibitz.puzzleRatings', '{"othello":{"rating":-5,"rd":1,"volatility":0.06}}');
  assert.deepEqual(guestRating('othello', storage), { ...GUEST_START });
  assert.deepEqual(guestRatings(storage), {});
});
