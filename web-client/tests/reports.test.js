// Tests js/report-data.js (whom a page offers to report, the body of a player's, a game's and a chat line's report, the moderators' list read newest first into what the page draws: names, the reported line among the others, a game's players, status and move count), js/api.js's report requests (the Bearer token, never in the address) and the `?moderation` address.
import test from 'node:test';
import assert from 'node:assert/strict';
import { canReport, reportBody, reportModel, readReports, noteLength, NOTE_MAX, REPORT_REASONS } from '../js/report-data.js';
import { report, moderationReports } from '../js/api.js';
import { parseRoute, routeUrl } from '../js/route.js';

test('a page offers to report another person, a guest too, never itself, a bot or someone without an id', () => {
  const me = { player: 'me' };
  assert.equal(canReport({ player: 'p2' }, me), true);
  assert.equal(canReport({ player: 'p2' }, { player: 'g1' }), true, 'a guest reports too');
  assert.equal(canReport({ player: 'me' }, me), false, 'oneself');
  assert.equal(canReport({ player: 'b1', bot: true }, me), false, 'a bot');
  assert.equal(canReport({ player: '' }, me), false, 'no id');
  assert.equal(canReport({ player: 'p2' }, { player: null }), false, 'not known yet who we are');
  assert.equal(canReport(null, me), false);
});

test('a chat report carries its room, the line\'s player and text exactly, the reason and a trimmed note', () => {
  const line = { kind: 'chat', room: 'r1', player: 'p2', name: 'Bob', text: '  you <b>lose</b> ' };
  assert.deepEqual(reportBody(line, { reason: 'abuse', note: '  said it twice ' }), {
    body: { kind: 'chat', player: 'p2', room: 'r1', text: '  you <b>lose</b> ', reason: 'abuse', note: 'said it twice' },
  });
  // No note: none sent.
  assert.deepEqual(reportBody(line, { reason: 'spam', note: '   ' }).body,
    { kind: 'chat', player: 'p2', room: 'r1', text: '  you <b>lose</b> ', reason: 'spam' });
  assert.deepEqual(reportBody({ ...line, text: '' }, { reason: 'abuse' }), { error: 'rep.noLine' });
  assert.deepEqual(reportBody({ ...line, room: ' ' }, { reason: 'abuse' }), { error: 'rep.noRoom' });
});

test('a game report names the room and the opponent; a player report no room', () => {
  assert.deepEqual(reportBody({ kind: 'game', room: 'r1', player: 'p2', name: 'Bob' }, { reason: 'cheating' }).body,
    { kind: 'game', player: 'p2', room: 'r1', reason: 'cheating' });
  assert.deepEqual(reportBody({ kind: 'player', player: 'p2', room: 'r1', text: 'x' }, { reason: 'offensive_name', note: 'n' }).body,
    { kind: 'player', player: 'p2', reason: 'offensive_name', note: 'n' });
});

test('a report is not sent without a known reason, a kind, a player, or with a note over 500 characters', () => {
  const who = { kind: 'player', player: 'p2' };
  assert.deepEqual(reportBody(who, { reason: '' }), { error: 'rep.pickReason' });
  assert.deepEqual(reportBody(who, { reason: 'rude' }), { error: 'rep.pickReason' });
  assert.deepEqual(reportBody({ kind: 'room', player: 'p2' }, { reason: 'spam' }), { error: 'rep.badKind' });
  assert.deepEqual(reportBody({ kind: 'player' }, { reason: 'spam' }), { error: 'rep.noPlayer' });
  assert.deepEqual(reportBody(who, { reason: 'other', note: 'x'.repeat(NOTE_MAX) }).body.note.length, NOTE_MAX);
  assert.deepEqual(reportBody(who, { reason: 'other', note: 'x'.repeat(NOTE_MAX + 1) }), { error: 'rep.noteTooLong' });
  // Counted as the server counts: characters, an emoji one.
  assert.equal(noteLength('😀😀'), 2);
  assert.deepEqual(REPORT_REASONS, ['abuse', 'cheating', 'spam', 'offensive_name', 'other']);
});

const CHAT_REPORT = {
  id: 'rep1', at_ms: 1_700_000_000_000, reporter: 'pa', kind: 'chat', player: 'pb', room: 'r1', reason: 'abuse',
  note: 'said it twice', status: 'open',
  context: {
    game: { kind: 'gomoku', size: 15, rule: 'freestyle' }, moves: ['h8', 'h9', 'i9'], black: 'Ann', white: 'Bob', status: 'playing',
    chat: [
      { player: 'pa', name: 'Ann', text: 'hi', at_ms: 1 },
      { player: 'pb', name: 'Bob', text: 'you lose', at_ms: 2 },
      { player: 'pa', name: 'Ann', text: 'why?', at_ms: 3 },
    ],
    line: 1,
  },
};

test('a chat report becomes its lines with the reported one marked, names from the chat, the game summed up', () => {
  const m = reportModel(CHAT_REPORT);
  assert.equal(m.id, 'rep1');
  assert.equal(m.at, 1_700_000_000_000);
  assert.deepEqual(m.player, { id: 'pb', name: 'Bob' });
  assert.deepEqual(m.reporter, { id: 'pa', name: 'Ann' });
  assert.equal(m.room, 'r1');
  assert.equal(m.note, 'said it twice');
  assert.equal(m.reportedLine, 1);
  assert.deepEqual(m.chat.map((l) => [l.name, l.text, l.reported]), [['Ann', 'hi', false], ['Bob', 'you lose', true], ['Ann', 'why?', false]]);
  assert.deepEqual(m.game, { game: { kind: 'gomoku', size: 15, rule: 'freestyle' }, black: 'Ann', white: 'Bob', status: 'playing', moves: 3 });
});

test('a game report has no reported line; a player report its name and no room or game; odd contexts are survived', () => {
  const game = reportModel({ ...CHAT_REPORT, id: 'g', kind: 'game', context: { ...CHAT_REPORT.context, line: null, white: null } });
  assert.equal(game.reportedLine, -1);
  assert.equal(game.game.white, null);
  assert.equal(game.player.name, 'Bob', 'named by a line of theirs');
  const player = reportModel({ id: 'p', at_ms: 5, reporter: 'pa', kind: 'player', player: 'pb', room: '', reason: 'offensive_name', note: '', context: { name: 'B0b' } });
  assert.deepEqual(player.player, { id: 'pb', name: 'B0b' });
  assert.equal(player.room, null);
  assert.equal(player.game, null);
  assert.deepEqual(player.chat, []);
  const bare = reportModel({ id: 'x', kind: 'chat', player: 'pb', room: 'r', context: 'oops' });
  assert.equal(bare.player.name, null);
  assert.equal(bare.reportedLine, -1);
  assert.equal(bare.game.moves, null);
  assert.equal(bare.at, null);
  assert.equal(reportModel(null), null);
  assert.equal(reportModel({ kind: 'chat' }), null, 'no id');
});

test('the moderators\' list is read newest first, each report once, the malformed left out', () => {
  const list = readReports({
    reports: [
      { ...CHAT_REPORT, id: 'old', at_ms: 10 },
      { ...CHAT_REPORT, id: 'new', at_ms: 30 },
      null,
      { ...CHAT_REPORT, id: 'mid', at_ms: 20 },
      { ...CHAT_REPORT, id: 'new', at_ms: 30 },
      { at_ms: 40 },
    ],
  });
  assert.deepEqual(list.map((r) => r.id), ['new', 'mid', 'old']);
  assert.deepEqual(readReports(null), []);
  assert.deepEqual(readReports({ reports: 'no' }), []);
});

/** A fetch that records its calls and answers `status` with `body`. */
function fakeFetch(status, body) {
  const calls = [];
  const fn = async (url, init) => {
    calls.push({ url, init });
    return { ok: status >= 200 && status < 300, status, headers: { get: () => null }, text: async () => body };
  };
  fn.calls = calls;
  return fn;
}

test('a report is posted as JSON with the token as a Bearer header; the moderators\' list asked the same way', async () => {
  const post = fakeFetch(201, '{"report":"rep1"}');
  const body = { kind: 'player', player: 'p2', reason: 'spam' };
  const res = await report('tok', body, { fetchFn: post });
  assert.equal(res.ok, true);
  assert.deepEqual(res.data, { report: 'rep1' });
  const [call] = post.calls;
  assert.equal(call.url, '/api/reports');
  assert.equal(call.init.method, 'POST');
  assert.equal(call.init.headers.Authorization, 'Bearer tok');
  assert.equal(call.init.headers['Content-Type'], 'application/json');
  assert.deepEqual(JSON.parse(call.init.body), body);

  const refused = await report('tok', body, { fetchFn: fakeFetch(429, '{"error":"at most 10 reports an hour"}') });
  assert.equal(refused.ok, false);
  assert.equal(refused.status, 429);
  assert.equal(refused.error, 'at most 10 reports an hour');

  const list = fakeFetch(403, '{"error":"only moderators see reports"}');
  const denied = await moderationReports('tok', { fetchFn: list });
  assert.equal(denied.status, 403);
  assert.equal(list.calls[0].url, '/api/moderation/reports?status=open');
  assert.equal(list.calls[0].init.method, 'GET');
  assert.equal(list.calls[0].init.headers.Authorization, 'Bearer tok');
  assert.ok(!list.calls[0].url.includes('tok'), 'the token never in the address');
});

test('`?moderation` is the moderators\' page and back', () => {
  assert.deepEqual(parseRoute('?moderation'), { page: 'moderation' });
  assert.equal(routeUrl({ page: 'moderation' }, '/'), '/?moderation');
  assert.deepEqual(parseRoute(routeUrl({ page: 'moderation' }, '/').slice(1)), { page: 'moderation' });
});
