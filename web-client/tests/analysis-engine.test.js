// Tests js/analysis/engine-panel.js without a browser: the panel's state and words from synthetic `analysis_line` and `analysis_status` messages (a proven win, a score, depth, the best line, the message when no worker is connected, old ids dropped), what the live region says (the first and the last line, not each depth), the request of a position and the best move's mark, the switch kept in storage, and the connection's requests (the pause before asking, a refused request, stop, a reconnection).
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  engineState, engineReduce, engineWords, engineEvalWords, connectEnginePanel, engineAnnouncement, engineRequest, bestMark,
  engineOn, rememberEngine, ENGINE_KEY,
} from '../js/analysis/engine-panel.js';
import { startPos, tryMove } from '../js/analysis/position.js';
import { emptyBoard, parseCell, BLACK } from '../js/rules.js';

const GAME = { kind: 'gomoku', size: 15, rule: 'freestyle' };
const line = (over) => ({ t: 'analysis_line', id: '1', depth: 9, eval: 35, proven: false, win_in: null, best: 'h8', pv: ['h8', 'i9'], nodes: 123456, ms: 800, by: 'Kibot', ...over });
const asked = { ...engineState(), id: '1', status: 'asked' };

test('the panel says the engine is off until it is connected', () => {
  const w = engineWords(engineState());
  assert.equal(w.status, 'The engine is off.');
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
  assert.equal(engineEvalWords(engineReduce(asked, line({ eval: 1000, proven: true, win_in: 1 })).line), 'Black wins: forced win in 1 ply');
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

/** A stand-in for the connection and the timers: what was sent, what was drawn, the pending timer. */
function rig({ online = true } = {}) {
  const sent = [];
  const shown = [];
  const net = { up: online, send(msg) { if (!this.up) return false; sent.push(msg); return true; } };
  const clock = { fn: null, ms: null, set(fn, ms) { clock.fn = fn; clock.ms = ms; return 1; }, clear() { clock.fn = null; }, fire() { const fn = clock.fn; clock.fn = null; fn?.(); } };
  const conn = connectEnginePanel({ render: (s, prev) => shown.push({ s, prev }) }, net, { timers: clock });
  return { sent, shown, net, clock, conn };
}

test('connected: analyse sends the request, a new one replaces it, stop ends it', () => {
  const { sent, shown, conn } = rig();
  const id1 = conn.analyse({ game: GAME, position: null, moves: ['h8'] });
  assert.deepEqual(sent.at(-1), { t: 'analyse', id: id1, game: GAME, position: null, moves: ['h8'] });
  assert.equal(conn.state.status, 'asked');
  const id2 = conn.analyse({ game: GAME, position: `${'-'.repeat(225)} X`, moves: [] });
  assert.notEqual(id2, id1);
  assert.equal(conn.onMessage(line({ id: id1 })), true, 'an analysis message is the panel\'s');
  assert.equal(conn.state.line, null, 'the old request\'s line is dropped');
  conn.onMessage(line({ id: id2, best: 'i9' }));
  assert.equal(conn.state.line.best, 'i9');
  assert.equal(shown.at(-1).s.line.best, 'i9', 'the panel drew it');
  assert.equal(conn.onMessage({ t: 'moved' }), false);
  assert.equal(conn.onMessage({ t: 'error', code: 'not_your_turn', ref: 'move' }), false, 'another request\'s error is not the panel\'s');
  conn.stop();
  assert.deepEqual(sent.at(-1), { t: 'analyse_stop' });
  assert.equal(conn.state.status, 'stopped');
  conn.onMessage(line({ id: id2, best: 'j10' }));
  assert.equal(conn.state.line, null, 'nothing after stop');
  conn.stop('off');
  assert.equal(sent.filter((m) => m.t === 'analyse_stop').length, 1, 'nothing runs: nothing to stop');
  assert.equal(engineWords(conn.state).status, 'The engine is off.');
  // Ids are never used twice, even by another panel of the same page.
  const other = rig();
  assert.ok(Number(other.conn.analyse({ game: GAME, moves: [] })) > Number(id2));
});

test('a change of position drops the old lines at once and asks after a pause; a quick walk asks once', () => {
  const { sent, clock, conn } = rig();
  const id1 = conn.analyse({ game: GAME, moves: [] });
  conn.onMessage({ t: 'analysis_status', id: id1, status: 'running' });
  conn.onMessage(line({ id: id1 }));
  conn.want({ game: GAME, position: null, moves: ['h8'] });
  assert.equal(conn.state.line, null, 'the old position\'s line goes at once');
  assert.equal(conn.state.status, 'asked');
  assert.equal(clock.ms, 200);
  conn.onMessage(line({ id: id1, best: 'a1' }));
  assert.equal(conn.state.line, null, 'late lines of the old position are dropped');
  conn.want({ game: GAME, position: null, moves: ['h8', 'i9'] });
  conn.want({ game: GAME, position: null, moves: ['h8', 'i9', 'j10'] });
  assert.equal(sent.length, 1, 'nothing asked while the position keeps changing');
  clock.fire();
  assert.equal(sent.length, 2);
  assert.deepEqual(sent.at(-1).moves, ['h8', 'i9', 'j10']);
  assert.equal(conn.state.id, sent.at(-1).id);
  // Stopped during the pause: nothing is asked.
  conn.want({ game: GAME, moves: ['h8'] });
  conn.stop('off');
  assert.equal(clock.fn, null);
  assert.deepEqual(sent.at(-1), { t: 'analyse_stop' });
});

test('a refused request is the latest request\'s when it is the oldest unanswered; the analysis before it is stopped', () => {
  const { sent, conn } = rig();
  const id1 = conn.analyse({ game: GAME, moves: [] });
  const id2 = conn.analyse({ game: GAME, position: 'bad X', moves: [] });
  // id1's answer comes first, then the error, which is id2's.
  conn.onMessage({ t: 'analysis_status', id: id1, status: 'running' });
  assert.equal(conn.onMessage({ t: 'error', code: 'bad_game', message: 'the position: black has 2 stones and white 0', ref: 'analyse' }), true);
  assert.equal(conn.state.id, id2);
  assert.equal(conn.state.status, 'refused');
  assert.equal(engineWords(conn.state).status, 'The server refused this position: the position: black has 2 stones and white 0');
  assert.deepEqual(sent.at(-1), { t: 'analyse_stop' }, 'id1 was not replaced: it is stopped');
  // An error that belongs to an older request than the one on show changes nothing.
  const { conn: c2 } = rig();
  c2.analyse({ game: GAME, position: 'bad X', moves: [] });
  const good = c2.analyse({ game: GAME, moves: [] });
  c2.onMessage({ t: 'error', code: 'bad_game', message: 'bad', ref: 'analyse' });
  assert.equal(c2.state.status, 'asked');
  c2.onMessage({ t: 'analysis_status', id: good, status: 'failed', message: 'no analysis worker is connected: try later' });
  assert.equal(engineWords(c2.state).status, 'The analysis failed. no analysis worker is connected: try later');
});

test('offline: nothing is sent, and once welcomed the position wanted is asked for', () => {
  const { sent, net, clock, conn } = rig({ online: false });
  conn.want({ game: GAME, moves: ['h8'] });
  clock.fire();
  assert.equal(sent.length, 0);
  assert.equal(engineWords(conn.state).status, 'Not connected: the analysis is asked for once the connection is back.');
  net.up = true;
  conn.onReady();
  assert.deepEqual(sent.at(-1).moves, ['h8']);
  const id = sent.at(-1).id;
  conn.onMessage({ t: 'analysis_status', id, status: 'done' });
  conn.onReady();
  assert.equal(sent.length, 1, 'a finished analysis is not asked for again');
});

test('the live region hears the first line and the last of each analysis, and failures; not each depth', () => {
  const a1 = { ...engineState(), id: '1', status: 'asked' };
  const r1 = engineReduce(a1, { t: 'analysis_status', id: '1', status: 'running' });
  assert.equal(engineAnnouncement(a1, r1), null);
  const d1 = engineReduce(r1, line({ depth: 1, best: 'h8' }));
  assert.equal(engineAnnouncement(r1, d1), 'Engine, depth 1: +3.5: black is better; best move h8.');
  const d2 = engineReduce(d1, line({ depth: 2 }));
  assert.equal(engineAnnouncement(d1, d2), null);
  const won = engineReduce(d2, line({ depth: 9, eval: 1000, proven: true, win_in: 9, best: 'k8' }));
  assert.equal(engineAnnouncement(d2, won), null);
  const done = engineReduce(won, { t: 'analysis_status', id: '1', status: 'done' });
  assert.equal(engineAnnouncement(won, done), 'Engine finished, depth 9: Black wins: forced win in 9 plies; best move k8.');
  assert.equal(engineAnnouncement(done, done), null);
  const failed = engineReduce(a1, { t: 'analysis_status', id: '1', status: 'failed', message: 'no analysis worker is connected: try later' });
  assert.equal(engineAnnouncement(a1, failed), 'The analysis failed. no analysis worker is connected: try later');
  assert.equal(engineAnnouncement(engineState(), { ...engineState(), status: 'asked' }), null, 'nothing while waiting');
  // A new request's first line is heard again.
  const next = engineReduce({ ...engineState(), id: '2', status: 'asked' }, line({ id: '2' }));
  assert.match(engineAnnouncement(done, next), /^Engine, depth 9/);
});

test('the request of a position: the start or a set-up board, then the moves', () => {
  assert.deepEqual(engineRequest(GAME, null, ['h8', 'i9']), { game: GAME, position: null, moves: ['h8', 'i9'] });
  const cells = emptyBoard(GAME);
  cells[parseCell(GAME, 'h8')] = BLACK;
  const req = engineRequest(GAME, { cells, toMove: 'white' }, []);
  assert.equal(req.position.length, 225 + 2);
  assert.equal(req.position.split(' ')[1], 'O');
  assert.equal(req.position[7 * 15 + 7], 'X', 'row 8 from the top is the 8th row of 15');
  const c4 = { kind: 'connect4', cols: 7, rows: 6, blocked: [[4, 2]] };
  const c4req = engineRequest(c4, { cells: emptyBoard(c4), toMove: 'black' }, ['1']);
  assert.equal(c4req.position, `${'-'.repeat(31)}#${'-'.repeat(10)} X`);
});

test('the best move is marked where it would go: a Gomoku point, a Connect Four drop; none for a pass or a taken point', () => {
  const pos = startPos(GAME);
  assert.deepEqual(bestMark(GAME, pos, 'h8'), { idx: parseCell(GAME, 'h8'), kind: 'best', seat: 'black' });
  const after = tryMove(GAME, pos, 'h8').pos;
  assert.equal(bestMark(GAME, after, 'h8'), null);
  assert.equal(bestMark(GAME, after, null), null);
  const c4 = { kind: 'connect4', cols: 7, rows: 6, blocked: [] };
  const c4pos = tryMove(c4, startPos(c4), '4').pos;
  const m = bestMark(c4, c4pos, '4');
  assert.equal(m.seat, 'white');
  assert.equal(m.idx, 4 * 7 + 3, 'on the disc in column 4');
  assert.equal(bestMark({ kind: 'othello' }, startPos({ kind: 'othello' }), 'pass'), null);
});

test('the switch is on unless switched off, and kept', () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v) };
  assert.equal(engineOn(storage), true);
  rememberEngine(false, storage);
  assert.equal(store.get(ENGINE_KEY), 'off');
  assert.equal(engineOn(storage), false);
  rememberEngine(true, storage);
  assert.equal(engineOn(storage), true);
  assert.equal(engineOn({ getItem() { throw new Error('denied'); } }), true);
  assert.doesNotThrow(() => rememberEngine(false, { setItem() { throw new Error('denied'); } }));
});
