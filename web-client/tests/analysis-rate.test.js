// Tests the engine's proofs and the explorer's rated moves in js/analysis/engine-panel.js without a browser: a line proven by VCF or VCT in words (English and Chinese), the moves an `analyse` may ask to be rated (legal, distinct, at most 24, as listed), the rated moves' `analysis_move` kept by the move (another id's or an unrated move's dropped), the explorer's engine cell ("…" while it may come, the value, "—"), and the connection: a request waiting for the explorer's list a short while, then amended or sent again with `rate`.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  engineState, engineReduce, engineEvalWords, engineCellWords, engineCell, engineRequest, rateList, connectEnginePanel, RATE_MAX,
} from '../js/analysis/engine-panel.js';
import { startPos, tryMove, info } from '../js/analysis/position.js';
import { setLang } from '../js/i18n.js';

const GAME = { kind: 'gomoku', size: 15, rule: 'freestyle' };
const line = (over) => ({ t: 'analysis_line', id: '1', depth: 9, eval: 35, proven: false, win_in: null, best: 'h8', pv: ['h8', 'i9'], nodes: 1, ms: 1, by: 'Kibot', ...over });
const moved = (over) => ({ t: 'analysis_move', id: '1', by: 'Kibot', move: 'h9', depth: 9, eval: -35, proven: false, ...over });
const asked = { ...engineState(), id: '1', status: 'asked', rate: ['h9', 'j8'] };
const words = (over) => engineEvalWords(engineReduce(asked, line(over)).line);

test('a win proven by VCF or VCT is named so, in plies as the panel counts them; without a proof the wording stays', () => {
  assert.equal(words({ eval: 1000, proven: true, win_in: 9, proof: 'vcf' }), 'Black wins: VCF in 9 plies');
  assert.equal(words({ eval: -1000, proven: true, win_in: -7, proof: 'vct' }), 'White wins: VCT in 7 plies');
  assert.equal(words({ eval: 1000, proven: true, win_in: 1, proof: 'vcf' }), 'Black wins: VCF in 1 ply');
  assert.equal(words({ eval: 1000, proven: true, win_in: null, proof: 'vct' }), 'Black has a forced win: VCT');
  assert.equal(words({ eval: 1000, proven: true, win_in: 9 }), 'Black wins: forced win in 9 plies');
  assert.equal(words({ eval: 1000, proven: true, win_in: 9, proof: 'magic' }), 'Black wins: forced win in 9 plies', 'an unknown proof is left out');
  assert.equal(words({ eval: 35, proof: 'vcf' }), '+3.5: black is better', 'a proof names only a proven win');
  assert.equal(engineReduce(asked, line({ proof: 'VCF<b>' })).line.proof, null);
  setLang('zh');
  try {
    assert.equal(words({ eval: 1000, proven: true, win_in: 9, proof: 'vcf' }), '黑方胜：9 步 VCF');
    assert.equal(engineCellWords({ eval: -1000, proven: true, win_in: -5, proof: 'vct' }).text, '白方 5 步胜（VCT）');
  } finally {
    setLang('en');
  }
});

test('the moves to rate: the listed ones legal in the position, each once, at most 24, written as listed', () => {
  const pos = tryMove(GAME, startPos(GAME), 'h8').pos;
  const at = info(GAME, pos);
  assert.deepEqual(rateList(GAME, pos, at, ['h9', 'h8', 'i9', 'h9', 'z99', 'pass', 'H10', 'j8']), ['h9', 'i9', 'j8'],
    'taken, repeated, off the board, a pass and a move written otherwise are left out');
  const many = [];
  for (const col of 'abcdefghijklmno') for (const row of [1, 2]) many.push(`${col}${row}`);
  assert.equal(rateList(GAME, pos, at, many).length, RATE_MAX);
  assert.deepEqual(rateList(GAME, pos, at, many), many.slice(0, 24), 'the most played first');
  assert.deepEqual(rateList(GAME, pos, at, null), []);
  // Renju: a forbidden point is not asked about.
  const renju = { kind: 'gomoku', size: 15, rule: 'renju' };
  let rp = startPos(renju);
  for (const m of ['h8', 'a1', 'j8', 'a3', 'h10', 'a5', 'j10', 'a7']) rp = tryMove(renju, rp, m).pos;
  const ri = info(renju, rp);
  assert.ok(ri.forbidden.length, 'the double three at i9 is forbidden');
  assert.deepEqual(rateList(renju, rp, ri, ['i9', 'o15']), ['o15']);
  const c4 = { kind: 'connect4', cols: 7, rows: 6, blocked: [] };
  assert.deepEqual(rateList(c4, startPos(c4), info(c4, startPos(c4)), ['4', '3', '8']), ['4', '3']);
});

test('the request carries `rate` when there are moves to rate, and says when the list is still on its way', () => {
  assert.deepEqual(engineRequest(GAME, null, ['h8'], ['h9', 'i9']), { game: GAME, position: null, moves: ['h8'], rate: ['h9', 'i9'] });
  assert.deepEqual(engineRequest(GAME, null, ['h8'], []), { game: GAME, position: null, moves: ['h8'] });
  assert.deepEqual(engineRequest(GAME, null, ['h8'], null), { game: GAME, position: null, moves: ['h8'], ratePending: true });
});

test('a rated move\'s value is kept by the move; another id\'s, an unrated move\'s are dropped', () => {
  const s1 = engineReduce(asked, moved());
  assert.deepEqual(s1.moves.h9, { depth: 9, eval: -35, proven: false, win_in: null, proof: null });
  const s2 = engineReduce(s1, moved({ move: 'j8', eval: 1000, proven: true, win_in: 9, proof: 'vcf' }));
  assert.deepEqual(Object.keys(s2.moves), ['h9', 'j8']);
  assert.equal(engineReduce(s2, moved({ id: '0', move: 'h9', eval: 500 })), s2, 'an old request\'s');
  assert.equal(engineReduce(s2, moved({ move: 'a1' })), s2, 'a move not rated');
  assert.equal(engineReduce({ ...asked, rate: null }, moved()).moves.h9, undefined, 'nothing rated yet');
  assert.equal(engineReduce(s2, moved({ move: 7 })), s2);
  assert.equal(engineReduce(s2, line()).moves, s2.moves, 'a line keeps the rated moves');
});

test('the explorer\'s engine cell: waiting while the analysis may rate the move, then its value in short; "—" otherwise', () => {
  assert.deepEqual(engineCell(asked, 'h9'), { kind: 'wait' });
  assert.deepEqual(engineCell({ ...asked, rate: null }, 'a1'), { kind: 'wait' }, 'the rated moves not known yet');
  assert.deepEqual(engineCell(asked, 'a1'), { kind: 'none' }, 'not rated');
  const running = engineReduce({ ...asked, status: 'running' }, moved({ eval: -35 }));
  assert.deepEqual(engineCell(running, 'h9'), { kind: 'value', text: '−3.5', words: '−3.5: white is better', proven: false });
  assert.deepEqual(engineCell({ ...running, status: 'done' }, 'j8'), { kind: 'none' }, 'finished without it');
  assert.deepEqual(engineCell({ ...running, status: 'failed' }, 'j8'), { kind: 'none' });
  assert.deepEqual(engineCell(null, 'h9'), { kind: 'none' });
  assert.deepEqual(engineCellWords({ eval: 3, proven: false }), { text: '+0.3', words: '+0.3: level', proven: false });
  assert.deepEqual(engineCellWords({ eval: 0, proven: false }).text, '0.0');
  assert.deepEqual(engineCellWords({ eval: 1000, proven: true, win_in: 9, proof: 'vcf' }),
    { text: 'Black wins in 9 (VCF)', words: 'Black wins: VCF in 9 plies', proven: true });
  assert.deepEqual(engineCellWords({ eval: -1000, proven: true, win_in: -4, proof: null }),
    { text: 'White wins in 4', words: 'White wins: forced win in 4 plies', proven: true });
  assert.equal(engineCellWords({ eval: 1000, proven: true, win_in: null }).text, 'Black wins');
  assert.equal(engineCellWords({ eval: 1000, proven: false }).text, '+100.0', 'not proven: a score');
});

/** A stand-in for the connection and the timers (one timer at a time, as the panel keeps). */
function rig() {
  const sent = [];
  const net = { send(msg) { sent.push(msg); return true; } };
  const clock = { fn: null, ms: null, set(fn, ms) { clock.fn = fn; clock.ms = ms; return 1; }, clear() { clock.fn = null; }, fire() { const fn = clock.fn; clock.fn = null; fn?.(); } };
  const conn = connectEnginePanel({ render() {} }, net, { timers: clock });
  return { sent, clock, conn };
}

const POS = { game: GAME, position: null, moves: ['h8'] };

test('the list known within the pause: one request, with `rate`', () => {
  const { sent, clock, conn } = rig();
  conn.want({ ...POS, ratePending: true });
  conn.amend({ ...POS, rate: ['h9', 'i9'] });
  assert.equal(sent.length, 0, 'the pause runs on');
  clock.fire();
  assert.deepEqual(sent, [{ t: 'analyse', id: sent[0].id, game: GAME, position: null, moves: ['h8'], rate: ['h9', 'i9'] }]);
  assert.deepEqual(conn.state.rate, ['h9', 'i9']);
  conn.onMessage(moved({ id: sent[0].id }));
  assert.equal(conn.state.moves.h9.eval, -35);
  assert.equal(conn.onMessage(moved({ id: 'old' })), true, 'the panel\'s, though dropped');
});

test('the list late: the request waits a little for it after the pause, then goes with it', () => {
  const { sent, clock, conn } = rig();
  conn.want({ ...POS, ratePending: true });
  clock.fire();
  assert.equal(sent.length, 0, 'waits for the list');
  assert.equal(clock.ms, 600);
  conn.amend({ ...POS, rate: ['h9'] });
  assert.equal(sent.length, 1, 'sent as soon as the list came');
  assert.deepEqual(sent[0].rate, ['h9']);
  assert.equal(clock.fn, null);
});

test('the list later still: the main line goes without it, then the request is sent again with `rate`', () => {
  const { sent, clock, conn } = rig();
  conn.want({ ...POS, ratePending: true });
  clock.fire();
  clock.fire();
  assert.equal(sent.length, 1);
  assert.equal('rate' in sent[0], false);
  assert.equal(conn.state.rate, null, 'the cells wait for the request that rates them');
  conn.onMessage({ t: 'analysis_status', id: sent[0].id, status: 'running' });
  conn.amend({ ...POS, rate: ['h9', 'j8'] });
  assert.equal(sent.length, 2);
  assert.deepEqual(sent[1].rate, ['h9', 'j8']);
  assert.notEqual(sent[1].id, sent[0].id);
  conn.amend({ ...POS, rate: ['h9', 'j8'] });
  assert.equal(sent.length, 2, 'once');
  // An empty list changes nothing: what went is the whole request.
  const other = rig();
  other.conn.want({ ...POS, ratePending: true });
  other.clock.fire();
  other.clock.fire();
  other.conn.amend({ ...POS });
  assert.equal(other.sent.length, 1);
  assert.deepEqual(other.conn.state.rate, null);
});

test('a list known before the pause ends, or an engine stopped meanwhile, sends nothing more', () => {
  const { sent, clock, conn } = rig();
  conn.want({ ...POS, rate: ['h9'] });
  clock.fire();
  assert.equal(sent.length, 1);
  conn.amend({ ...POS, rate: ['h9'] });
  assert.equal(sent.length, 1, 'sent with its list: nothing to amend');
  conn.want({ ...POS, moves: ['h8', 'h9'], ratePending: true });
  conn.stop('off');
  conn.amend({ ...POS, moves: ['h8', 'h9'], rate: ['a1'] });
  assert.equal(clock.fn, null);
  assert.deepEqual(sent.map((m) => m.t), ['analyse', 'analyse_stop']);
});
