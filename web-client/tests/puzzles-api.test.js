// Tests js/puzzles/api.js with a stand-in fetch: each route's method and address (the next puzzle's query, a hint's line), JSON bodies with Content-Type on the posts, the account's token as a Bearer header only when given, and the server's error sentence.
import test from 'node:test';
import assert from 'node:assert/strict';
import * as api from '../js/puzzles/api.js';

/** A fetch that records its calls and answers `status` with `body` (an object, as JSON). */
function fakeFetch(status, body) {
  const calls = [];
  const fn = async (url, init) => {
    calls.push({ url, init });
    return { ok: status >= 200 && status < 300, status, headers: { get: () => null }, text: async () => JSON.stringify(body) };
  };
  fn.calls = calls;
  return fn;
}

test('the next puzzle\'s address carries what is chosen, the rating rounded; the token only when given', async () => {
  assert.equal(api.nextPath(), '/api/puzzles/next');
  assert.equal(api.nextPath({ variant: 'connect4', theme: 'win', rating: 1512.6, after: 'c4-0042' }), '/api/puzzles/next?variant=connect4&theme=win&rating=1513&after=c4-0042');
  assert.equal(api.nextPath({ variant: null, theme: '', rating: null, after: 'a b' }), '/api/puzzles/next?after=a%20b');
  const fetchFn = fakeFetch(200, { id: 'x' });
  const res = await api.next({ variant: 'othello', rating: 1500 }, 'tok', { fetchFn });
  assert.equal(res.ok, true);
  assert.deepEqual(res.data, { id: 'x' });
  assert.equal(fetchFn.calls[0].url, '/api/puzzles/next?variant=othello&rating=1500');
  assert.equal(fetchFn.calls[0].init.method, 'GET');
  assert.equal(fetchFn.calls[0].init.headers.Authorization, 'Bearer tok');
  await api.next({}, null, { fetchFn });
  assert.equal(fetchFn.calls[1].init.headers.Authorization, undefined, 'a guest sends no token');
});

test('the read-only routes', async () => {
  const fetchFn = fakeFetch(200, {});
  await api.index({ fetchFn });
  await api.daily({ fetchFn });
  await api.puzzle('c4/1', { fetchFn });
  await api.solution('g-7', { fetchFn });
  await api.hint('g-7', ['h8', 'i9'], 1, { fetchFn });
  await api.hint('g-7', [], 2, { fetchFn });
  await api.mine('tok', { fetchFn });
  assert.deepEqual(fetchFn.calls.map((c) => `${c.init.method} ${c.url}`), [
    'GET /api/puzzles',
    'GET /api/puzzles/daily',
    'GET /api/puzzles/c4%2F1',
    'GET /api/puzzles/g-7/solution',
    'GET /api/puzzles/g-7/hint?line=h8,i9&level=1',
    'GET /api/puzzles/g-7/hint?line=&level=2',
    'GET /api/puzzles/me',
  ]);
  assert.equal(fetchFn.calls[6].init.headers.Authorization, 'Bearer tok');
});

test('a move and a result are posted as JSON; the result with the account\'s token or the guest\'s rating', async () => {
  const fetchFn = fakeFetch(200, { correct: true, reply: 'f5', solved: false });
  const res = await api.move('g-7', ['e4', 'f3', 'g5'], { fetchFn });
  assert.deepEqual(res.data, { correct: true, reply: 'f5', solved: false });
  const [move] = fetchFn.calls;
  assert.equal(move.url, '/api/puzzles/g-7/move');
  assert.equal(move.init.method, 'POST');
  assert.equal(move.init.headers['Content-Type'], 'application/json');
  assert.deepEqual(JSON.parse(move.init.body), { line: ['e4', 'f3', 'g5'] });
  assert.equal(move.init.headers.Authorization, undefined);

  const body = { line: ['e4'], solved: true, hinted: false };
  await api.result('g-7', body, 'tok', { fetchFn });
  const guest = { ...body, guest: { rating: 1500, rd: 350, volatility: 0.06 } };
  await api.result('g-7', guest, null, { fetchFn });
  const [, acct, anon] = fetchFn.calls;
  assert.equal(acct.url, '/api/puzzles/g-7/result');
  assert.equal(acct.init.method, 'POST');
  assert.equal(acct.init.headers.Authorization, 'Bearer tok');
  assert.deepEqual(JSON.parse(acct.init.body), body);
  assert.equal(anon.init.headers.Authorization, undefined);
  assert.deepEqual(JSON.parse(anon.init.body), guest);
});

test('a refusal gives the server\'s sentence', async () => {
  const res = await api.move('g-7', ['z99'], { fetchFn: fakeFetch(400, { error: 'move 1 ("z99") is off the board' }) });
  assert.equal(res.ok, false);
  assert.equal(res.status, 400);
  assert.equal(res.error, 'move 1 ("z99") is off the board');
  const gone = await api.puzzle('nope', { fetchFn: fakeFetch(404, { error: 'no such puzzle' }) });
  assert.equal(gone.error, 'no such puzzle');
});
