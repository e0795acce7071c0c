// Tests js/moderation-data.js (the actions a report and the player form offer and their lengths, the body of POST /api/moderation/actions, the sanctions in force and the audit log read into what the page draws, the notice a sanctioned player reads, the chat setting), js/api.js's moderators' requests (the Bearer token, never in the address), the `sanctioned` error in the server's words, and js/net.js stopping at a refused hello.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  ACTIONS, PLAYER_ACTIONS, SANCTION_KINDS, DURATIONS, reportActions, durationsFor, durationKey, durationValue, durationFromValue, actionBody,
  readSanctions, readLog, sanctionNotice, CHAT_FILTERS, readChatFilter, chatShown, REASON_MAX,
} from '../js/moderation-data.js';
import { moderationAction, moderationLog, moderationSanctions } from '../js/api.js';
import { t, setLang, errorText, STRINGS } from '../js/i18n.js';
import { Net } from '../js/net.js';

test('a report offers warn, mute, the bans, close and rename; a chat report hiding its line too; the player form lift', () => {
  assert.deepEqual(reportActions('player'), ['warn', 'mute', 'rated_ban', 'ban', 'close', 'rename']);
  assert.deepEqual(reportActions('chat'), ['warn', 'mute', 'rated_ban', 'ban', 'close', 'rename', 'hide_chat']);
  assert.ok(PLAYER_ACTIONS.includes('lift') && !PLAYER_ACTIONS.includes('hide_chat'));
  for (const a of [...PLAYER_ACTIONS, 'hide_chat']) assert.ok(ACTIONS.includes(a));
});

test('a mute lasts 10 minutes to for good, a ban from rated games or a ban a day, a week or for good', () => {
  assert.deepEqual(durationsFor('mute').map(durationKey), ['10m', '1h', '1d', '7d', 'forever']);
  assert.deepEqual(durationsFor('rated_ban').map(durationKey), ['1d', '7d', 'forever']);
  assert.deepEqual(durationsFor('ban').map(durationKey), ['1d', '7d', 'forever']);
  assert.deepEqual(durationsFor('warn'), []);
  assert.equal(DURATIONS.mute[1], 60);
  assert.equal(durationValue(null), 'forever');
  assert.equal(durationFromValue('forever'), null);
  assert.equal(durationFromValue(durationValue(1440)), 1440);
  // Every length and action has its words in both languages.
  for (const lang of ['en', 'zh']) {
    for (const list of Object.values(DURATIONS)) for (const m of list) assert.ok(STRINGS[lang][`modx.dur.${durationKey(m)}`], durationKey(m));
    for (const a of ACTIONS) assert.ok(STRINGS[lang][`modx.action.${a}`], a);
    for (const k of SANCTION_KINDS) assert.ok(STRINGS[lang][`modx.kind.${k}`] && STRINGS[lang][`modn.lift.${k}`], k);
  }
});

test('an action\'s body: the player, a trimmed reason, its length (none for good), the report it closes', () => {
  assert.deepEqual(actionBody({ action: 'mute', player: ' Bob ', reason: '  spam ', minutes: 60, report: 'r1' }), {
    body: { action: 'mute', player: 'Bob', reason: 'spam', minutes: 60, report: 'r1' },
  });
  assert.deepEqual(actionBody({ action: 'ban', player: 'Bob', reason: 'x', minutes: null, report: null }).body,
    { action: 'ban', player: 'Bob', reason: 'x' });
  // A warning takes no length, whatever the form held.
  assert.deepEqual(actionBody({ action: 'warn', player: 'Bob', reason: 'x', minutes: 60 }).body, { action: 'warn', player: 'Bob', reason: 'x' });
  assert.deepEqual(actionBody({ action: 'lift', player: 'p9', reason: 'served', kind: 'mute' }).body,
    { action: 'lift', player: 'p9', reason: 'served', kind: 'mute' });
  assert.deepEqual(actionBody({ action: 'rename', player: 'Bob', reason: 'offensive', name: ' Robert ' }).body,
    { action: 'rename', player: 'Bob', reason: 'offensive', name: 'Robert' });
  // The hidden line exactly as the server sent it.
  assert.deepEqual(actionBody({ action: 'hide_chat', player: 'p2', reason: 'abuse', room: 'room1', text: ' you <b>lose</b> ' }).body,
    { action: 'hide_chat', player: 'p2', reason: 'abuse', room: 'room1', text: ' you <b>lose</b> ' });
});

test('an action is not sent without what it needs', () => {
  const base = { action: 'mute', player: 'Bob', reason: 'spam', minutes: 60 };
  assert.deepEqual(actionBody({ ...base, action: 'smite' }), { error: 'modx.err.action' });
  assert.deepEqual(actionBody({ ...base, player: '  ' }), { error: 'modx.err.player' });
  assert.deepEqual(actionBody({ ...base, reason: ' ' }), { error: 'modx.err.reason' });
  assert.deepEqual(actionBody({ ...base, reason: 'x'.repeat(REASON_MAX + 1) }), { error: 'modx.err.reasonLong' });
  assert.ok(actionBody({ ...base, reason: '字'.repeat(REASON_MAX) }).body, '500 characters, not UTF-16 units');
  assert.deepEqual(actionBody({ ...base, minutes: 0 }), { error: 'modx.err.duration' });
  assert.deepEqual(actionBody({ ...base, minutes: 1.5 }), { error: 'modx.err.duration' });
  assert.deepEqual(actionBody({ ...base, action: 'lift', kind: 'smite' }), { error: 'modx.err.kind' });
  assert.deepEqual(actionBody({ ...base, action: 'rename', name: ' ' }), { error: 'modx.err.name' });
  assert.deepEqual(actionBody({ ...base, action: 'hide_chat', room: 'r', text: '' }), { error: 'modx.err.line' });
  assert.deepEqual(actionBody(null), { error: 'modx.err.action' });
});

test('the sanctions in force, newest first, anything malformed left out', () => {
  const rows = readSanctions({
    sanctions: [
      { player: 'p1', name: 'Bob', kind: 'mute', until_ms: 2000, reason: 'spam', moderator: 'm1', moderator_name: 'Mod', at_ms: 100 },
      { player: 'g7', name: null, kind: 'ban', until_ms: null, reason: 'evasion', moderator: 'm1', moderator_name: null, at_ms: 300 },
      { player: '', kind: 'mute' },
      { player: 'p3', kind: 'smite' },
      null,
    ],
  });
  assert.deepEqual(rows, [
    { player: { id: 'g7', name: null }, kind: 'ban', until: null, reason: 'evasion', by: { id: 'm1', name: null }, at: 300 },
    { player: { id: 'p1', name: 'Bob' }, kind: 'mute', until: 2000, reason: 'spam', by: { id: 'm1', name: 'Mod' }, at: 100 },
  ]);
  assert.deepEqual(readSanctions(null), []);
});

test('the audit log as the server lists it, each entry once', () => {
  const rows = readLog({
    actions: [
      { id: 'a2', at_ms: 200, action: 'lift', moderator: 'm1', moderator_name: 'Mod', player: 'p1', name: 'Bob', room: '', reason: 'served', detail: 'mute', until_ms: null, report: '' },
      { id: 'a1', at_ms: 100, action: 'mute', moderator: 'm1', moderator_name: 'Mod', player: 'p1', name: 'Bob', room: '', reason: 'spam', detail: '', until_ms: 3700100, report: 'r1' },
      { id: 'a1', action: 'mute' },
      { id: '', action: 'warn' },
    ],
  });
  assert.deepEqual(rows.map((r) => r.id), ['a2', 'a1']);
  assert.deepEqual(rows[1], {
    id: 'a1', at: 100, action: 'mute', by: { id: 'm1', name: 'Mod' }, player: { id: 'p1', name: 'Bob' }, room: null,
    reason: 'spam', detail: '', until: 3700100, report: 'r1',
  });
  assert.deepEqual(readLog({ actions: 'no' }), []);
});

test('a sanctioned player reads what was done, until when and why', () => {
  const until = Date.UTC(2026, 11, 6, 5, 0);
  const said = (msg, kind) => {
    const n = sanctionNotice(msg, kind);
    return t(n.key, { until: n.until == null ? '' : 'WHEN', reason: n.reason });
  };
  assert.equal(said({ t: 'sanction', action: 'mute', until_ms: until, reason: 'spam' }), 'A moderator muted you until WHEN: spam');
  assert.equal(said({ action: 'mute', reason: 'spam' }), 'A moderator muted you for good: spam');
  assert.equal(said({ action: 'warn', reason: 'be nice' }), 'A moderator warned you: be nice');
  assert.equal(said({ action: 'rated_ban', until_ms: until, reason: 'sandbagging' }), 'You are banned from rated games until WHEN: sandbagging');
  assert.equal(said({ action: 'ban', until_ms: until, reason: 'x' }), 'A moderator banned you from this hall until WHEN: x');
  assert.equal(said({ action: 'close', reason: 'x' }), 'A moderator closed your account: x');
  assert.equal(said({ action: 'rename', reason: 'offensive' }), 'A moderator renamed your account: offensive');
  // A lift names its sanction when the message does, or when the page was told of one.
  assert.equal(said({ action: 'lift', reason: 'served' }), 'A moderator lifted a sanction on you: served');
  assert.equal(said({ action: 'lift', reason: 'served' }, 'mute'), 'A moderator lifted your mute: served');
  assert.equal(said({ action: 'lift', kind: 'rated_ban', reason: 'ok' }, 'mute'), 'A moderator lifted your ban from rated games: ok');
  assert.deepEqual(sanctionNotice({ action: 'lift', reason: '' }, 'ban'), { key: 'modn.lift.ban', until: null, reason: '', kind: 'ban', lifted: true });
  assert.equal(sanctionNotice({ action: 'smite', reason: 'x' }).key, 'modn.other');
  setLang('zh');
  try {
    assert.equal(said({ action: 'mute', until_ms: until, reason: 'spam' }), '管理员禁言了你，到 WHEN 为止：spam');
  } finally {
    setLang('en');
  }
});

test('a refusal by a sanction is said in the server\'s sentence in any language', () => {
  const err = { t: 'error', code: 'sanctioned', message: 'you are muted until Sun, 06 Dec 2026 04:00:00 GMT (spam)', ref: 'chat' };
  assert.equal(errorText(err), err.message);
  setLang('zh');
  try {
    assert.equal(errorText(err), err.message);
    assert.equal(errorText({ code: 'sanctioned' }), STRINGS.zh['err.sanctioned']);
  } finally {
    setLang('en');
  }
});

test('a chat line with a word of the hall\'s list: the server\'s words, in Chinese its own, never renju\'s point', () => {
  const err = { t: 'error', code: 'forbidden', message: 'that line holds a word this hall does not allow', ref: 'chat', room: 'r1' };
  assert.equal(errorText(err), err.message);
  assert.equal(errorText({ code: 'forbidden', message: 'h8 is forbidden for black', ref: 'move' }), 'h8 is forbidden for black');
  setLang('zh');
  try {
    assert.equal(errorText(err), STRINGS.zh['err.forbiddenChat']);
    assert.equal(errorText({ code: 'forbidden', ref: 'move' }), STRINGS.zh['err.forbidden']);
  } finally {
    setLang('en');
  }
});

test('the chat setting: everyone, the players only, or nobody — our own lines always shown', () => {
  assert.deepEqual(CHAT_FILTERS, ['everyone', 'players', 'nobody']);
  assert.equal(readChatFilter('nobody'), 'nobody');
  assert.equal(readChatFilter('all'), 'everyone');
  assert.equal(readChatFilter(null), 'everyone');
  const player = { from: 'p2', seat: 'white' };
  const spectator = { from: 's1', seat: null };
  const mine = { from: 'me', seat: null };
  assert.deepEqual([player, spectator, mine].map((l) => chatShown('everyone', l, 'me')), [true, true, true]);
  assert.deepEqual([player, spectator, mine].map((l) => chatShown('players', l, 'me')), [true, false, true]);
  assert.deepEqual([player, spectator, mine].map((l) => chatShown('nobody', l, 'me')), [false, false, true]);
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

test('the moderators\' requests carry the token as a Bearer header, an action as JSON', async () => {
  const post = fakeFetch(201, '{"id":"a1","action":"mute"}');
  const res = await moderationAction('tok', { action: 'mute', player: 'Bob', reason: 'spam', minutes: 60 }, { fetchFn: post });
  assert.equal(res.ok, true);
  assert.equal(post.calls[0].url, '/api/moderation/actions');
  assert.equal(post.calls[0].init.method, 'POST');
  assert.equal(post.calls[0].init.headers.Authorization, 'Bearer tok');
  assert.equal(post.calls[0].init.headers['Content-Type'], 'application/json');
  assert.deepEqual(JSON.parse(post.calls[0].init.body), { action: 'mute', player: 'Bob', reason: 'spam', minutes: 60 });
  const get = fakeFetch(200, '{"actions":[]}');
  await moderationLog('tok', { fetchFn: get });
  await moderationSanctions('tok', { fetchFn: get });
  assert.deepEqual(get.calls.map((c) => [c.url, c.init.method, c.init.headers.Authorization]),
    [['/api/moderation/log', 'GET', 'Bearer tok'], ['/api/moderation/sanctions', 'GET', 'Bearer tok']]);
  // Not a moderator: an answer, never a throw.
  const refused = await moderationSanctions('tok', { fetchFn: fakeFetch(403, '{"error":"only moderators act on players"}') });
  assert.deepEqual([refused.ok, refused.status, refused.error], [false, 403, 'only moderators act on players']);
});

test('a hello refused by a ban stops the reconnecting until the player asks again', () => {
  const net = new Net({ url: null, getName: () => 'Bob' });
  const sent = [];
  let closed = 0;
  net.ws = { readyState: 1, send: (m) => sent.push(m), close: () => { closed++; } };
  const statuses = [];
  net.onStatus((s, info) => statuses.push([s, info.refusal?.message ?? null]));
  const heard = [];
  net.onMessage((m) => heard.push(m));
  net.handle({ t: 'error', code: 'sanctioned', message: 'you are banned from this hall (spam)', ref: 'hello' });
  assert.equal(net.status, 'refused');
  assert.deepEqual(statuses, [['refused', 'you are banned from this hall (spam)']]);
  assert.equal(closed, 1);
  assert.equal(net.ws, null);
  assert.equal(net.timer, null, 'no retry scheduled');
  assert.deepEqual(sent, [], 'no hello again');
  assert.deepEqual(heard, []);
  // The browser coming back online, a name change: nothing tried.
  net.reconnectNow();
  assert.equal(net.status, 'refused');
  // The player's "Try again": one attempt (no server here: it waits to retry).
  net.reconnectNow({ force: true });
  assert.notEqual(net.status, 'refused');
  assert.equal(net.refusal, null);
  clearTimeout(net.timer);
});
