// Tests js/blocks-data.js (the server's list read and kept in name order, whom a page may offer to block, the list as it changes) and js/api.js's blocks requests (the token as a Bearer header, never in the address; the player by id).
import test from 'node:test';
import assert from 'node:assert/strict';
import { readBlocked, canBlock, BlockList } from '../js/blocks-data.js';
import { blocks, block, unblock } from '../js/api.js';

test('the server\'s list is read in name order, guests after the accounts, each player once', () => {
  const rows = readBlocked({
    blocked: [
      { player: 'p3', name: 'bob' },
      { player: 'g2', name: null },
      { player: 'p1', name: 'Ann' },
      { player: 'g1', name: null },
      { player: 'p3', name: 'bob' },
      { player: 'p4', name: 'Bob' },
    ],
  });
  assert.deepEqual(rows, [
    { player: 'p1', name: 'Ann' },
    { player: 'p4', name: 'Bob' },
    { player: 'p3', name: 'bob' },
    { player: 'g1', name: null },
    { player: 'g2', name: null },
  ]);
});

test('a malformed answer gives an empty list or leaves the bad rows out', () => {
  assert.deepEqual(readBlocked(null), []);
  assert.deepEqual(readBlocked({}), []);
  assert.deepEqual(readBlocked({ blocked: 'no' }), []);
  assert.deepEqual(readBlocked({ blocked: [null, { name: 'Ann' }, { player: 7 }, { player: ' ', name: 'x' }, { player: 'p1', name: '  ' }] }),
    [{ player: 'p1', name: null }]);
});

test('only an account is offered to block, never itself, and the server needs an id', () => {
  const me = { account: true, player: 'me' };
  assert.equal(canBlock({ player: 'p2', name: 'Bob' }, me), true);
  assert.equal(canBlock({ player: 'b1', name: 'Robot', bot: true }, me), true, 'a bot: its chat hidden');
  assert.equal(canBlock({ player: 'me', name: 'Ann' }, me), false, 'oneself');
  assert.equal(canBlock({ player: null, name: 'Bob' }, me), false, 'no id');
  assert.equal(canBlock({ player: 'p2', name: 'Bob' }, { account: false, player: 'me' }), false, 'a guest keeps no blocks');
  assert.equal(canBlock({ player: 'p2', name: 'Bob' }, { account: null, player: null }), false, 'not known yet');
  assert.equal(canBlock(null, me), false);
});

test('the list is unknown until read, then follows each block and unblock', () => {
  const list = new BlockList();
  assert.equal(list.known(), false);
  assert.equal(list.has('p1'), false);
  assert.deepEqual(list.all(), []);
  list.set(readBlocked({ blocked: [{ player: 'p2', name: 'Cy' }] }));
  assert.equal(list.known(), true);
  list.add('p1', 'Bob');
  list.add('p1', 'Bob');
  list.add('g1', null);
  assert.deepEqual(list.all().map((r) => r.player), ['p1', 'p2', 'g1']);
  assert.equal(list.has('p1'), true);
  list.remove('p1');
  assert.equal(list.has('p1'), false);
  assert.deepEqual(list.all().map((r) => r.name), ['Cy', null]);
  list.reset();
  assert.equal(list.known(), false);
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

test('the blocks requests carry the token as a Bearer header and name the player by id', async () => {
  const list = fakeFetch(200, '{"blocked":[{"player":"p2","name":"Bob"}]}');
  const res = await blocks('tok', { fetchFn: list });
  assert.deepEqual(res.data, { blocked: [{ player: 'p2', name: 'Bob' }] });
  assert.equal(list.calls[0].url, '/api/blocks');
  assert.equal(list.calls[0].init.method, 'GET');
  assert.equal(list.calls[0].init.headers.Authorization, 'Bearer tok');

  const post = fakeFetch(201, '{"blocked":"p2"}');
  await block('tok', 'p2', { fetchFn: post });
  assert.equal(post.calls[0].url, '/api/blocks');
  assert.equal(post.calls[0].init.method, 'POST');
  assert.equal(post.calls[0].init.headers.Authorization, 'Bearer tok');
  assert.equal(post.calls[0].init.headers['Content-Type'], 'application/json');
  assert.deepEqual(JSON.parse(post.calls[0].init.body), { player: 'p2' });

  const del = fakeFetch(200, '{"unblocked":"a/b"}');
  await unblock('tok', 'a/b', { fetchFn: del });
  assert.equal(del.calls[0].url, '/api/blocks/a%2Fb');
  assert.equal(del.calls[0].init.method, 'DELETE');
  assert.equal(del.calls[0].init.headers.Authorization, 'Bearer tok');
  for (const f of [list, post, del]) assert.ok(!f.calls[0].url.includes('tok'), 'the token is never in the address');
});

test('a refused block gives the server\'s sentence', async () => {
  const res = await block('tok', 'me', { fetchFn: fakeFetch(400, '{"error":"you cannot block yourself"}') });
  assert.equal(res.ok, false);
  assert.equal(res.error, 'you cannot block yourself');
});
