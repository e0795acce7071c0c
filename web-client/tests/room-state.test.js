// Unit tests of js/room/state.js: a room followed through `state`, `moved`, `undone`, `over`, `rated`, passes, seq gaps, chat lines and offers, as the server sends them.
import test from 'node:test';
import assert from 'node:assert/strict';
import { RoomState, ASK_TIMEOUT_MS } from '../js/room/state.js';

const gomoku = { kind: 'gomoku', size: 15, rule: 'freestyle' };
const seats = {
  black: { player: 'p1', name: 'Alice', bot: false, online: true },
  white: { player: 'p2', name: 'Bob', bot: false, online: true },
};

/** A room as the page sees it after the server's `state` of a game under way. */
function playingRoom({ game = gomoku, opening = [], moves = [], you = 'black', seq = 4, clock = null } = {}) {
  const room = new RoomState('r1');
  room.applyState({
    t: 'state', room: 'r1', seq, game, opening, moves, status: 'playing', result: null, seats,
    clock, spectators: 1, you,
  });
  return room;
}

test('a state replays the opening and the moves and says whose turn it is', () => {
  const room = playingRoom({ opening: ['h8'], moves: ['h9', 'i8'] });
  assert.equal(room.liveIndex, 3);
  assert.equal(room.shownIndex, 3);
  assert.equal(room.toMove, 'white');
  assert.equal(room.seq, 4);
  assert.equal(room.seated, true);
  assert.equal(room.playing, true);
  assert.equal(room.joinAs, 'player');
  assert.equal(room.hasState, true);
  assert.equal(room.control, null);
});

test('a spectator of a full room joins as a spectator next time', () => {
  const room = playingRoom({ you: null });
  assert.equal(room.seated, false);
  assert.equal(room.joinAs, 'spectator');
});

test('moved appends the move, takes the clock, ends the waiting and clears offers', () => {
  const room = new RoomState('r1');
  room.applyState({ t: 'state', seq: 0, game: gomoku, opening: [], moves: [], status: 'waiting', seats, you: 'black' });
  room.offered('draw', 'white');
  room.asked.undo = 1;
  const clock = { black_ms: 58000, white_ms: 60000, running: 'white' };
  assert.equal(room.takeSeq({ seq: 1 }), 'apply');
  assert.equal(room.applyMoved({ t: 'moved', seq: 1, ply: 1, move: 'h8', by: 'black', to_move: 'white', clock }), true);
  assert.deepEqual(room.moves, ['h8']);
  assert.equal(room.positions.length, 2);
  assert.equal(room.positions[1].lastMove, 'h8');
  assert.equal(room.toMove, 'white');
  assert.deepEqual(room.clock, clock);
  assert.equal(room.status, 'playing');
  assert.deepEqual(room.offers, { undo: null, draw: null });
  assert.equal(room.asked.undo, 0);
  assert.equal(room.seq, 1);
});

test('a moved whose ply does not follow changes nothing', () => {
  const room = playingRoom({ moves: ['h8'] });
  assert.equal(room.applyMoved({ t: 'moved', ply: 3, move: 'i9', by: 'black', to_move: 'white' }), false);
  assert.deepEqual(room.moves, ['h8']);
  assert.equal(room.positions.length, 2);
});

test('seq: the next event applies, an old one is dropped, a gap is reported', () => {
  const room = playingRoom({ seq: 7 });
  assert.equal(room.takeSeq({ seq: 7 }), 'old');
  assert.equal(room.takeSeq({ seq: 9 }), 'gap');
  assert.equal(room.seq, 7);
  assert.equal(room.takeSeq({ seq: 8 }), 'apply');
  assert.equal(room.seq, 8);
  assert.equal(room.takeSeq({}), 'apply');
  assert.equal(room.seq, 8);
});

test('our move stays pending until its moved, and a fresh state keeps it only while unplayed', () => {
  const room = playingRoom({ moves: ['h8'], you: 'white' });
  const msg = { t: 'move', room: 'r1', move: 'h9', id: 'm1' };
  room.sent('m1', msg);
  assert.deepEqual(room.pending, { id: 'm1', msg, plies: 1 });
  // A reconnect's state without the move: still ours to send again.
  room.applyState({ t: 'state', seq: 5, game: gomoku, opening: [], moves: ['h8'], status: 'playing', seats, you: 'white' });
  assert.equal(room.pending?.id, 'm1');
  // The state that has it: answered.
  room.applyState({ t: 'state', seq: 6, game: gomoku, opening: [], moves: ['h8', 'h9', 'i8'], status: 'playing', seats, you: 'white' });
  assert.equal(room.pending, null);
  room.sent('m2', { ...msg, move: 'j9', id: 'm2' });
  room.applyMoved({ t: 'moved', ply: 4, move: 'j9', by: 'white', id: 'm2' });
  assert.equal(room.pending, null);
  assert.equal(room.toMove, 'black');
});

test('undone takes the position back and the side to move keeps the displayed clock running', () => {
  const room = playingRoom({ moves: ['h8', 'h9', 'i8', 'i9', 'j8'], you: 'white' });
  room.view = 5;
  room.offered('undo', 'black');
  const shown = { black_ms: 50000, white_ms: 40000, running: 'white' };
  assert.equal(room.applyUndone({ t: 'undone', seq: 5, ply: 3 }, shown), true);
  assert.deepEqual(room.moves, ['h8', 'h9', 'i8']);
  assert.equal(room.positions.length, 4);
  assert.equal(room.toMove, 'white');
  assert.deepEqual(room.clock, { black_ms: 50000, white_ms: 40000, running: 'white' });
  assert.equal(room.view, null, 'a shown position past the new end follows the game again');
  assert.equal(room.offers.undo, null);
  assert.equal(room.applyUndone({ t: 'undone', ply: 4 }, shown), false);
  assert.deepEqual(room.moves, ['h8', 'h9', 'i8']);
});

test('over ends the game, clears what was waiting and keeps the result', () => {
  const room = playingRoom({ moves: ['h8'] });
  room.sent('m1', { t: 'move' });
  room.asked.draw = 5;
  room.applyOver({ t: 'over', seq: 5, result: 'black', reason: 'five', line: ['h8', 'i8', 'j8', 'k8', 'l8'] });
  assert.equal(room.status, 'over');
  assert.equal(room.playing, false);
  assert.deepEqual(room.result, { result: 'black', reason: 'five', line: ['h8', 'i8', 'j8', 'k8', 'l8'], score: undefined });
  assert.equal(room.pending, null);
  assert.deepEqual(room.asked, { undo: 0, draw: 0, rematch: 0 });
});

const changes = [
  { color: 'white', player: 'p2', name: 'Bob', before: 1500, after: 1662.3, rd: 290.3, provisional: true },
  { color: 'black', player: 'p1', name: 'Alice', before: 1500, after: 1337.7, rd: 290.3, provisional: true },
];

test('a rated room: the rating is pending after the end until the `rated` message says it', () => {
  const room = new RoomState('r1');
  room.applyState({ t: 'state', room: 'r1', seq: 4, game: gomoku, opening: [], moves: ['h8', 'i9'], status: 'playing', result: null, seats, you: 'black', rated: true });
  assert.equal(room.rated, true);
  assert.equal(room.ratingPending, false, 'nothing is pending while the game runs');
  room.applyOver({ t: 'over', seq: 5, result: 'white', reason: 'resign' });
  assert.equal(room.ratingPending, true);
  assert.equal(room.applyRated({ t: 'rated', room: 'r1', changes }), true);
  assert.equal(room.ratingPending, false);
  assert.deepEqual(room.rating.changes.map((c) => [c.color, c.name, c.after]), [['black', 'Alice', 1337.7], ['white', 'Bob', 1662.3]]);
  assert.equal(room.rating.unrated, null);
  // A state after it without the outcome (it was sent before the store had it) keeps it.
  room.applyState({ t: 'state', room: 'r1', seq: 6, game: gomoku, opening: [], moves: ['h8', 'i9'], status: 'over', result: { result: 'white', reason: 'resign' }, seats, you: 'black', rated: true });
  assert.equal(room.rating.changes.length, 2);
});

test('an aborted rated game is never pending, and an unrated room has no rating', () => {
  const room = playingRoom({ moves: ['h8'] });
  assert.equal(room.rated, false);
  room.applyOver({ t: 'over', seq: 5, result: 'white', reason: 'resign' });
  assert.equal(room.ratingPending, false);
  const rated = new RoomState('r2');
  rated.applyState({ t: 'state', room: 'r2', seq: 1, game: gomoku, opening: [], moves: [], status: 'playing', result: null, seats, you: 'black', rated: true });
  rated.applyOver({ t: 'over', seq: 2, result: 'aborted', reason: 'aborted' });
  assert.equal(rated.ratingPending, false);
  assert.equal(rated.applyRated({ t: 'rated', room: 'r2', changes: [] }), false, 'an empty outcome says nothing');
  assert.equal(rated.rating, null);
});

test('a finished rated room loaded afresh carries its outcome in the state, repeat games included', () => {
  const room = new RoomState('r1');
  room.applyState({ t: 'state', room: 'r1', seq: 9, game: gomoku, opening: [], moves: ['h8'], status: 'over', result: { result: 'black', reason: 'resign' }, seats, you: null, rated: true, rating: { changes } });
  assert.equal(room.rating.changes[0].color, 'black');
  const repeat = new RoomState('r3');
  repeat.applyState({ t: 'state', room: 'r3', seq: 9, game: gomoku, opening: [], moves: ['h8'], status: 'over', result: { result: 'black', reason: 'resign' }, seats, you: 'black', rated: true, rating: { changes: [], unrated: 'repeat' } });
  assert.deepEqual(repeat.rating, { changes: [], unrated: 'repeat' });
  assert.equal(repeat.ratingPending, false);
});

test('an Othello pass turns the move over and is never a move to take back', () => {
  const othello = { kind: 'othello' };
  const room = playingRoom({ game: othello, moves: ['f5'], you: 'white' });
  assert.equal(room.hasOwnMove, false);
  room.applyMoved({ t: 'moved', ply: 2, move: 'pass', by: 'white' });
  assert.equal(room.toMove, 'black');
  assert.deepEqual(room.positions[2].cells, room.positions[1].cells);
  assert.equal(room.hasOwnMove, false, "white's only move is a pass");
  room.applyMoved({ t: 'moved', ply: 3, move: 'd6', by: 'black', to_move: 'white' });
  room.applyMoved({ t: 'moved', ply: 4, move: 'c3', by: 'white', to_move: 'black' });
  assert.equal(room.hasOwnMove, true);
});

test('history navigation clamps to the game and follows it past the end', () => {
  const room = new RoomState('r1');
  assert.equal(room.showPosition(0), null);
  room.applyState({ t: 'state', seq: 0, game: gomoku, opening: [], moves: ['h8', 'h9', 'i8'], status: 'playing', seats, you: 'black' });
  assert.equal(room.showPosition(-5), -3);
  assert.equal(room.view, 0);
  assert.equal(room.showPosition(1), 1);
  assert.equal(room.shownIndex, 1);
  assert.equal(room.showPosition(Infinity), 2);
  assert.equal(room.view, null);
});

test('chat: spectator lines take no number, room lines do, and a seen line is not shown again', () => {
  const room = playingRoom({ seq: 4 });
  assert.deepEqual(room.chatLine({ t: 'chat', seq: 4, from: 'p9', name: 'Carol', text: 'hi', seat: null }), { show: true, gap: false });
  assert.equal(room.seq, 4);
  assert.deepEqual(room.chatLine({ t: 'chat', seq: 5, from: '', name: 'kibitz', text: 'Bob declines the draw', seat: null }), { show: true, gap: false });
  assert.equal(room.seq, 5);
  assert.deepEqual(room.chatLine({ t: 'chat', seq: 5, from: 'p1', name: 'Alice', text: 'again', seat: 'black' }), { show: false, gap: false });
  assert.deepEqual(room.chatLine({ t: 'chat', seq: 8, from: 'p1', name: 'Alice', text: 'later', seat: 'black' }), { show: true, gap: true });
  assert.deepEqual(room.chatLine({ t: 'chat', seq: 9, from: 'p9', name: 'Carol', text: 'x', seat: null }), { show: true, gap: true });
});

test('offers: only the opponent\'s need an answer; our own request waits a bounded time', () => {
  const room = playingRoom({ you: 'black' });
  room.offered('undo', 'black');
  assert.equal(room.offers.undo, null);
  room.offered('draw', 'white');
  assert.equal(room.offers.draw, 'white');
  room.asked.undo = 1000;
  assert.equal(room.asking('undo', 1000 + ASK_TIMEOUT_MS - 1), true);
  assert.equal(room.asking('undo', 1000 + ASK_TIMEOUT_MS), false);
  assert.deepEqual(room.refused({ t: 'error', code: 'bad_request', ref: 'undo' }), { move: false, ask: true });
  assert.equal(room.asking('undo', 1001), false);
});

test('a rematch line is an offer only after the game, and not when we asked first', () => {
  const room = playingRoom();
  assert.equal(room.rematchAnnounced(), false);
  room.applyOver({ t: 'over', result: 'draw', reason: 'agreement' });
  room.asked.rematch = 1;
  assert.equal(room.rematchAnnounced(), false);
  room.asked.rematch = 0;
  assert.equal(room.rematchAnnounced(), true);
  assert.equal(room.rematchOffered, true);
});

test('crowd updates the audience and presence', () => {
  const room = playingRoom();
  room.applyCrowd({ t: 'crowd', spectators: 3, online: { black: true, white: false } });
  assert.equal(room.spectators, 3);
  assert.deepEqual(room.online, { black: true, white: false });
  room.applyCrowd({ t: 'crowd', online: null });
  assert.equal(room.spectators, 3);
});

test('a game can be aborted until both sides have moved, and a take-back before a first move leaves that clock stopped', () => {
  const room = playingRoom({ moves: [], clock: { black_ms: 60000, white_ms: 60000, running: null } });
  assert.equal(room.abortable, true);
  assert.equal(room.hasMoved('black'), false);
  assert.ok(room.applyMoved({ t: 'moved', room: 'r1', seq: 5, ply: 1, move: 'h8', by: 'black', to_move: 'white', clock: { black_ms: 60000, white_ms: 60000, running: null } }));
  assert.equal(room.hasMoved('black'), true);
  assert.equal(room.abortable, true);
  assert.equal(room.clock.running, null);
  assert.ok(room.applyMoved({ t: 'moved', room: 'r1', seq: 6, ply: 2, move: 'a1', by: 'white', to_move: 'black', clock: { black_ms: 60000, white_ms: 60000, running: 'black' } }));
  assert.equal(room.abortable, false);
  assert.ok(room.applyMoved({ t: 'moved', room: 'r1', seq: 7, ply: 3, move: 'h9', by: 'black', to_move: 'white', clock: { black_ms: 59000, white_ms: 60000, running: 'white' } }));
  // White takes back its first move and black's reply: white's clock waits again.
  assert.ok(room.applyUndone({ t: 'undone', room: 'r1', seq: 8, ply: 1 }, { black_ms: 59000, white_ms: 58000, running: 'white' }));
  assert.equal(room.toMove, 'white');
  assert.equal(room.clock.running, null);
  assert.equal(room.abortable, true);
  room.applyOver({ t: 'over', room: 'r1', seq: 9, result: 'aborted', reason: 'aborted' });
  assert.equal(room.abortable, false);
  assert.equal(room.result.result, 'aborted');
});
