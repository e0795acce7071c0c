// Tests js/api.js with a stand-in fetch: the JSON requests (Content-Type on every change, the token as a Bearer header), the tournaments' requests (the token in the body), the explorer's look-up, the server's error sentence on failure, Retry-After, and an unreachable server; and js/player.js's reading of how a listed game went.
import test from 'node:test';
import assert from 'node:assert/strict';
import { apiRequest, register, signIn, signOut, leaderboard, playerPage, tournaments, tournament, createTournament, tournamentAction, explorer } from '../js/api.js';
import { outcomeFor } from '../js/player.js';

/** A fetch that records its calls and answers `status` with `body` (a string) and `headers`. */
function fakeFetch(status, body, headers = {}) {
  const calls = [];
  const fn = async (url, init) => {
    calls.push({ url, init });
    return {
      ok: status >= 200 && status < 300,
      status,
      headers: { get: (k) => headers[k] ?? null },
      text: async () => body,
    };
  };
  fn.calls = calls;
  return fn;
}

test('sign-in posts JSON and gives the answer', async () => {
  const fetchFn = fakeFetch(200, '{"player":"p1","name":"Ada","token":"tok"}');
  const res = await signIn('ada', 'secret-pass', { fetchFn });
  assert.deepEqual(res, { ok: true, status: 200, data: { player: 'p1', name: 'Ada', token: 'tok' }, error: null, retryAfter: null });
  const [{ url, init }] = fetchFn.calls;
  assert.equal(url, '/api/session');
  assert.equal(init.method, 'POST');
  assert.equal(init.headers['Content-Type'], 'application/json');
  assert.equal(init.headers.Authorization, undefined);
  assert.deepEqual(JSON.parse(init.body), { name: 'ada', password: 'secret-pass' });
});

test('registering sends the guest token in the body, signing out as a Bearer header', async () => {
  const reg = fakeFetch(201, '{"player":"p1","name":"Ada"}');
  await register('guest-token', 'Ada', 'secret-pass', { fetchFn: reg });
  assert.equal(reg.calls[0].url, '/api/accounts');
  assert.deepEqual(JSON.parse(reg.calls[0].init.body), { token: 'guest-token', name: 'Ada', password: 'secret-pass' });
  const out = fakeFetch(204, '');
  const res = await signOut('tok', { fetchFn: out });
  assert.equal(res.ok, true);
  assert.equal(res.data, null);
  assert.equal(out.calls[0].init.method, 'DELETE');
  assert.equal(out.calls[0].init.headers.Authorization, 'Bearer tok');
  assert.equal(out.calls[0].init.headers['Content-Type'], 'application/json', 'the server wants it on every change');
  assert.ok(!out.calls[0].url.includes('tok'), 'the token is never in the address');
});

test('a refusal gives the server\'s sentence, and Retry-After when it says one', async () => {
  const wrong = await signIn('ada', 'nope-nope', { fetchFn: fakeFetch(401, '{"error":"wrong name or password"}') });
  assert.equal(wrong.ok, false);
  assert.equal(wrong.status, 401);
  assert.equal(wrong.error, 'wrong name or password');
  const slow = await signIn('ada', 'nope-nope', { fetchFn: fakeFetch(429, '{"error":"too many sign-in attempts; try again in 30 s"}', { 'Retry-After': '30' }) });
  assert.equal(slow.error, 'too many sign-in attempts; try again in 30 s');
  assert.equal(slow.retryAfter, 30);
  const bare = await apiRequest('GET', '/api/x', { fetchFn: fakeFetch(500, 'oops, not JSON') });
  assert.equal(bare.ok, false);
  assert.match(bare.error, /500/);
});

test('a server out of reach is an answer too, never a thrown error', async () => {
  const res = await playerPage('Ada', { fetchFn: async () => { throw new TypeError('Failed to fetch'); } });
  assert.equal(res.ok, false);
  assert.equal(res.status, 0);
  assert.match(res.error, /could not be reached/);
});

test('GETs carry no Content-Type; names and keys are escaped into the path', async () => {
  const fetchFn = fakeFetch(200, '{"key":"othello","bots":true,"players":[]}');
  await leaderboard('othello', true, { fetchFn });
  await playerPage('Ada/../x', { fetchFn });
  assert.equal(fetchFn.calls[0].url, '/api/leaderboard/othello?bots=true');
  assert.equal(fetchFn.calls[0].init.method, 'GET');
  assert.equal(fetchFn.calls[0].init.headers['Content-Type'], undefined);
  assert.equal(fetchFn.calls[1].url, '/api/players/Ada%2F..%2Fx');
});

test('how a listed game went for the player, names matched in any case', () => {
  const g = (result, black = 'Ada', white = 'Bob') => ({ room: 'r', black, white, result });
  assert.equal(outcomeFor(g('black'), 'ada'), 'win');
  assert.equal(outcomeFor(g('white'), 'Ada'), 'loss');
  assert.equal(outcomeFor(g({ result: 'white', reason: 'resign' }), 'BOB'), 'win');
  assert.equal(outcomeFor(g('draw'), 'Ada'), 'draw');
  assert.equal(outcomeFor(g('aborted'), 'Ada'), 'aborted');
  assert.equal(outcomeFor(g(null), 'Ada'), 'playing');
  assert.equal(outcomeFor({ ...g(null), status: 'over' }, 'Ada'), 'closed', 'a room closed before its game');
  assert.equal(outcomeFor(g('black', { name: 'Ada' }, { name: 'Bob' }), 'Bob'), 'loss');
  assert.equal(outcomeFor(g('black'), 'Cy'), 'black', 'a game the player did not sit in names the winner');
  // Played as a guest before the name was claimed: the seat is found by the player's id.
  const asGuest = { ...g('white', 'Guest1234', 'Bob'), black_player: 'p-ada', white_player: 'p-bob' };
  assert.equal(outcomeFor(asGuest, 'Ada', 'p-ada'), 'loss');
  assert.equal(outcomeFor(asGuest, 'Ada'), 'white', 'without the id the name alone cannot tell');
});

test('tournaments: GETs of the list and of one, POSTs of create, join, leave and start with the token in the body', async () => {
  const fetchFn = fakeFetch(200, '{"id":"T1"}');
  await tournaments({ fetchFn });
  await tournament('T 1', { fetchFn });
  await createTournament({ token: 'tok', name: 'Blitz', kind: 'swiss', rounds: 3 }, { fetchFn });
  for (const action of ['join', 'leave', 'start']) await tournamentAction('T1', action, 'tok', { fetchFn });
  const [list, one, create, join, leave, start] = fetchFn.calls;
  assert.equal(list.url, '/api/tournaments');
  assert.equal(list.init.method, 'GET');
  assert.equal(one.url, '/api/tournaments/T%201');
  assert.equal(create.url, '/api/tournaments');
  assert.equal(create.init.method, 'POST');
  assert.equal(create.init.headers['Content-Type'], 'application/json');
  assert.deepEqual(JSON.parse(create.init.body), { token: 'tok', name: 'Blitz', kind: 'swiss', rounds: 3 });
  assert.deepEqual([join.url, leave.url, start.url], ['/api/tournaments/T1/join', '/api/tournaments/T1/leave', '/api/tournaments/T1/start']);
  for (const c of [join, leave, start]) {
    assert.equal(c.init.method, 'POST');
    assert.equal(c.init.headers['Content-Type'], 'application/json');
    assert.deepEqual(JSON.parse(c.init.body), { token: 'tok' });
  }
  const refused = await tournamentAction('T1', 'start', 'tok', { fetchFn: fakeFetch(403, '{"error":"only the creator can start the tournament"}') });
  assert.equal(refused.ok, false);
  assert.equal(refused.error, 'only the creator can start the tournament');
});

test('an explorer look-up is a GET of the key, the moves and both filters; a refusal gives the sentence', async () => {
  const fetchFn = fakeFetch(200, '{"variant":"connect4","moves":["4"],"to_move":"white","games":2,"depth":30,"next":[]}');
  const res = await explorer({ key: 'connect4', moves: ['4'], rated: 'no', bots: 'any' }, { fetchFn });
  assert.equal(res.ok, true);
  assert.equal(res.data.to_move, 'white');
  assert.equal(fetchFn.calls[0].url, '/api/explorer/connect4?moves=4&rated=no&bots=any');
  assert.equal(fetchFn.calls[0].init.method, 'GET');
  const bad = await explorer({ key: 'connect4', moves: ['9'] }, { fetchFn: fakeFetch(400, '{"error":"move 1 (\\"9\\"): 9 is off the board"}') });
  assert.equal(bad.ok, false);
  assert.equal(bad.error, 'move 1 ("9"): 9 is off the board');
});
