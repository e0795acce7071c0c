// Tests js/analysis/engine-panel.js without a browser: the panel's state and words from synthetic `analysis_line` and `analysis_status` messages (a proven win, a score, depth, the best line, the message when no worker is connected, old ids dropped), and the connection's requests.
import test from 'node:test';
import assert from 'node:assert/strict';
import { engineState, engineReduce, engineWords, engineEvalWords, connectEnginePanel } from '../js/analysis/engine-panel.js';

const GAME = { kind: 'gomoku', size: 15, rule: 'freestyle' };
const line = (over) => ({ t: 'analysis_line', id: '1', depth: 9, eval: 35, proven: false, win_in: null, best: 'h8', pv: ['h8', 'i9'], nodes: 123456, ms: 800, by: 'Kibot', ...over });
const asked = { ...engineState(), id: '1', status: 'asked' };

test('the panel says nothing of an engine until it is connected', () => {
  const w = engineWords(engineState());
  assert.equal(w.status, 'No engine analyses positions here yet.');
  assert.deepEqual([w.eval, w.depth, w.best, w.pv, w.by], [null, null, null, null, null]);
});

test('a line: evaluation, depth, best move, best line and who made it', () => {
  const s = engineReduce(asked, line());
  assert.equal(s.status, 'running');
  const w = engineWords(s);
  assert.equal(w.status, 'Analysing…');
  assert.equal(w.eval, '+3.5: black is better');
  assert.equal(w.depth, 'depth 9');
  assert.equal(w.best, 'h8');
  assert.equal(w.pv, 'h8 i9');
  assert.equal(w.by, 'by Kibot · 123,456 nodes in 0.8 s');
  assert.equal(engineWords(engineReduce(asked, line({ eval: -3 }))).eval, '−0.3: level');
  assert.equal(engineWords(engineReduce(asked, line({ eval: -120 }))).eval, '−12.0: white is better');
});

test('a proven win says who wins and in how many plies', () => {
  assert.equal(engineEvalWords(engineReduce(asked, line({ eval: 1000, proven: true, win_in: 9 })).line), 'Black wins: forced win in 9 plies');
  assert.equal(engineEvalWords(engineReduce(asked, line({ eval: -1000, proven: true, win_in: -4 })).line), 'White wins: forced win in 4 plies');
  assert.equal(engineEvalWords(engineReduce(asked, line({ eval: -1000, proven: true, win_in: null })).line), 'White has a forced win');
  // An eval of 1000 that is not proven is a score.
  assert.equal(engineEvalWords(engineReduce(asked, line({ eval: 1000 })).line), '+100.0: black is better');
});

test('statuses: waiting for a worker with the server\'s message, done, failed', () => {
  const pending = engineReduce(asked, { t: 'analysis_status', id: '1', status: 'pending', message: 'no analysis worker is connected; the analysis waits for one' });
  assert.equal(engineWords(pending).status, 'Waiting for an analysis worker… no analysis worker is connected; the analysis waits for one');
  const running = engineReduce(engineReduce(pending, { t: 'analysis_status', id: '1', status: 'running' }), line({ depth: 12 }));
  assert.equal(engineWords(running).depth, 'depth 12');
  assert.equal(running.message, '', 'the waiting message goes once lines come');
  const done = engineReduce(running, { t: 'analysis_status', id: '1', status: 'done' });
  assert.equal(engineWords(done).status, 'Analysis finished.');
  assert.equal(engineWords(done).depth, 'depth 12', 'the last line stays');
  assert.equal(engineReduce(done, line({ depth: 13 })).status, 'done');
  const failed = engineReduce(asked, { t: 'analysis_status', id: '1', status: 'failed', message: 'the worker went away' });
  assert.equal(engineWords(failed).status, 'The analysis failed. the worker went away');
  assert.equal(engineReduce(asked, { t: 'analysis_status', id: '1', status: 'bogus' }), asked, 'an unknown status changes nothing');
});

test('messages of an old request, of no request or of another kind are dropped', () => {
  assert.equal(engineReduce(asked, line({ id: '0' })), asked);
  assert.equal(engineReduce(engineState(), line()).line, null, 'nothing asked, nothing shown');
  assert.equal(engineReduce(asked, { t: 'state', id: '1' }), asked);
  const wild = engineReduce(asked, line({ eval: 5000, pv: 'h8', by: 7 }));
  assert.equal(wild.line.eval, 1000, 'eval is kept within ±1000');
  assert.deepEqual(wild.line.pv, []);
  assert.equal(wild.line.by, null);
});

test('connected: analyse sends the request, a new one replaces it, stop ends it', () => {
  const sent = [];
  const shown = [];
  const net = { send: (msg) => { sent.push(msg); return true; } };
  const conn = connectEnginePanel({ render: (s) => shown.push(s) }, net);
  assert.equal(shown.at(-1).status, 'idle');
  const id1 = conn.analyse({ game: GAME, position: null, moves: ['h8'] });
  assert.deepEqual(sent.at(-1), { t: 'analyse', id: id1, game: GAME, position: null, moves: ['h8'] });
  assert.equal(conn.state.status, 'asked');
  const id2 = conn.analyse({ game: GAME, position: `${'-'.repeat(225)} X`, moves: [] });
  assert.notEqual(id2, id1);
  assert.equal(conn.onMessage(line({ id: id1 })), true, 'an analysis message is the panel\'s');
  assert.equal(conn.state.line, null, 'the old request\'s line is dropped');
  conn.onMessage(line({ id: id2, best: 'i9' }));
  assert.equal(conn.state.line.best, 'i9');
  assert.equal(shown.at(-1).line.best, 'i9', 'the panel drew it');
  assert.equal(conn.onMessage({ t: 'moved' }), false);
  conn.stop();
  assert.deepEqual(sent.at(-1), { t: 'analyse_stop' });
  assert.equal(conn.state.status, 'stopped');
  conn.onMessage(line({ id: id2, best: 'j10' }));
  assert.equal(conn.state.line.best, 'i9', 'nothing after stop');
  // Offline: nothing could be sent, and the panel says so.
  const off = connectEnginePanel({ render() {} }, { send: () => false });
  off.analyse({ game: GAME, moves: [] });
  assert.equal(engineWords(off.state).status, 'Not connected: no analysis was asked for.');
});
