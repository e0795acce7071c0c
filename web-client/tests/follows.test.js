// Tests js/follows-data.js (the follows' answers read: the players in name order, their games in play newest first; a head-to-head answer, how a game went for one side, which two players a player page shows head to head, whom a page may offer to follow, the list as it changes, the requests with the token as a Bearer header) and the `?vs=` address of js/route.js.
import test from 'node:test';
import assert from 'node:assert/strict';
import {
  readFollowing, readFollows, readGame, readGames, readHeadToHead, outcomeFor, followedSeats, headToHeadPair, canFollow,
  FollowList, follows, follow, unfollow, headToHead, REFRESH_MS,
} from '../js/follows-data.js';
import { parseRoute, routeUrl } from '../js/route.js';
import { t, setLang } from '../js/i18n.js';

const line = (room, over = {}) => ({
  room, game: { kind: 'connect4', cols: 7, rows: 6, blocked: [] }, black: 'Bob', white: 'Cid',
  black_player: 'p-bob', white_player: 'p-cid', status: 'playing', result: null, rated: false, created_ms: 1000, ...over,
});

test('the followed players are read in name order, each once, malformed rows left out', () => {
  const rows = readFollowing({
    following: [
      { player: 'p3', name: 'cid' }, { player: 'p1', name: 'Bob' }, { player: 'p9', name: null },
      { player: 'p1', name: 'Bob' }, null, { name: 'Nobody' }, { player: 7 }, { player: 'p2', name: 'ann' },
    ],
  });
  assert.deepEqual(rows, [
    { player: 'p2', name: 'ann' }, { player: 'p1', name: 'Bob' }, { player: 'p3', name: 'cid' }, { player: 'p9', name: null },
  ]);
  assert.deepEqual(readFollowing(null), []);
  assert.deepEqual(readFollowing({ following: 'x' }), []);
});

test('a game line is read into one shape: a result object or word, seats by name or object', () => {
  const g = readGame(line('r1', { result: { result: 'black', reason: 'four' }, status: 'over', rated: true }));
  assert.equal(g.room, 'r1');
  assert.equal(g.result, 'black');
  assert.equal(g.rated, true);
  assert.equal(g.black, 'Bob');
  assert.equal(g.blackPlayer, 'p-bob');
  assert.equal(g.createdMs, 1000);
  assert.equal(readGame(line('r2', { result: 'draw', white: { name: 'Cy' } })).white, 'Cy');
  assert.equal(readGame(line('r3', { result: 'nonsense' })).result, null);
  assert.equal(readGame({ game: {} }), null, 'no room');
  assert.equal(readGame(line('r4', { created_ms: 'soon' })).createdMs, null);
});

test('the games in play are newest first, each room once, finished ones left out', () => {
  const { following, playing } = readFollows({
    following: [{ player: 'p-bob', name: 'Bob' }],
    playing: [
      line('old', { created_ms: 10 }), line('new', { created_ms: 30 }), line('new', { created_ms: 30 }),
      line('mid', { created_ms: 20 }), line('done', { status: 'over', result: { result: 'white' } }), { nope: 1 },
    ],
  });
  assert.deepEqual(following, [{ player: 'p-bob', name: 'Bob' }]);
  assert.deepEqual(playing.map((g) => g.room), ['new', 'mid', 'old']);
  assert.deepEqual(readFollows({}), { following: [], playing: [] });
  // Games of the same moment keep the server's order.
  assert.deepEqual(readGames([line('a'), line('b')]).map((g) => g.room), ['a', 'b']);
});

test('the followed seats of a game are marked', () => {
  const g = readGame(line('r'));
  assert.deepEqual(followedSeats(g, new Set(['p-bob'])), ['black']);
  assert.deepEqual(followedSeats(g, new Set(['p-bob', 'p-cid'])), ['black', 'white']);
  assert.deepEqual(followedSeats(g, new Set()), []);
});

test('how a game went for one side: by id, else by name in any case', () => {
  const won = readGame(line('r', { result: { result: 'black' }, status: 'over' }));
  assert.equal(outcomeFor(won, 'p-bob'), 'win');
  assert.equal(outcomeFor(won, 'p-cid'), 'loss');
  assert.equal(outcomeFor(won, null, 'bob'), 'win', 'by name');
  assert.equal(outcomeFor(won, 'p-zed', 'Zed'), 'black', 'in neither seat: the winner\'s colour');
  assert.equal(outcomeFor(readGame(line('r', { result: 'draw' })), 'p-bob'), 'draw');
  assert.equal(outcomeFor(readGame(line('r', { result: 'aborted' })), 'p-bob'), 'aborted');
  assert.equal(outcomeFor(readGame(line('r')), 'p-bob'), 'playing');
  assert.equal(outcomeFor(readGame(line('r', { status: 'over' })), 'p-bob'), 'closed');
});

test('a head-to-head answer: the score as whole numbers, the games newest first', () => {
  const d = readHeadToHead({
    player: { player: 'p-ann', name: 'Ann' }, other: { player: 'p-bob', name: 'Bob' },
    wins: 3, draws: '1', losses: -2,
    games: [line('a', { created_ms: 5 }), line('b', { created_ms: 9 })],
  });
  assert.deepEqual(d.player, { player: 'p-ann', name: 'Ann' });
  assert.deepEqual([d.wins, d.draws, d.losses], [3, 1, 0]);
  assert.deepEqual(d.games.map((g) => g.room), ['b', 'a']);
  const empty = readHeadToHead(null);
  assert.deepEqual([empty.wins, empty.draws, empty.losses, empty.games], [0, 0, 0, []]);
  assert.deepEqual(empty.other, { player: null, name: null });
});

test('which two players a page shows head to head', () => {
  const ann = { account: true, name: 'Ann', player: 'p-ann' };
  const bobPage = { name: 'Bob', player: 'p-bob' };
  // An account on another's page: itself against them.
  assert.deepEqual(headToHeadPair({ page: bobPage, me: ann }), { left: 'Ann', right: 'Bob', mine: true });
  // Its own page: none; a guest or a page not yet welcomed: none.
  assert.equal(headToHeadPair({ page: { name: 'Ann', player: 'p-ann' }, me: ann }), null);
  assert.equal(headToHeadPair({ page: { name: 'ann', player: null }, me: ann }), null, 'by name without an id');
  assert.equal(headToHeadPair({ page: bobPage, me: { account: false, name: 'Guest1', player: 'g' } }), null);
  assert.equal(headToHeadPair({ page: bobPage }), null);
  // `?vs=`: the page's player against that one, for anyone, "You" when that is us.
  assert.deepEqual(headToHeadPair({ page: bobPage, vs: ' Cid ', me: {} }), { left: 'Bob', right: 'Cid', mine: false });
  assert.deepEqual(headToHeadPair({ page: bobPage, vs: 'Cid', me: ann }), { left: 'Bob', right: 'Cid', mine: false });
  assert.deepEqual(headToHeadPair({ page: { name: 'Ann', player: 'p-ann' }, vs: 'Bob', me: ann }), { left: 'Ann', right: 'Bob', mine: true });
  assert.equal(headToHeadPair({ page: bobPage, vs: 'BOB', me: ann }), null, 'a player against themself');
  assert.equal(headToHeadPair({ page: { name: ' ' }, vs: 'Bob' }), null);
});

test('only an account is offered to follow, another account, never itself', () => {
  const me = { account: true, player: 'me' };
  assert.equal(canFollow({ player: 'p2', name: 'Bob' }, me), true);
  assert.equal(canFollow({ player: 'b1', name: 'Robot', bot: true }, me), true, 'a bot is an account');
  assert.equal(canFollow({ player: 'me', name: 'Ann' }, me), false, 'oneself');
  assert.equal(canFollow({ player: 'g1', name: 'Guest1', account: false }, me), false, 'a guest cannot be followed');
  assert.equal(canFollow({ player: null, name: 'Bob' }, me), false, 'no id');
  assert.equal(canFollow({ player: 'p2', name: 'Bob' }, { account: false, player: 'me' }), false, 'a guest follows nobody');
  assert.equal(canFollow(null, me), false);
});

test('the list is unknown until read, then follows each follow and unfollow', () => {
  const list = new FollowList();
  assert.equal(list.known(), false);
  assert.equal(list.has('p1'), false);
  list.set(readFollowing({ following: [{ player: 'p2', name: 'Cy' }] }));
  assert.equal(list.known(), true);
  list.add('p1', 'Bob');
  list.add('p1', 'Bob');
  assert.deepEqual(list.all().map((r) => r.name), ['Bob', 'Cy']);
  assert.deepEqual([...list.ids()].sort(), ['p1', 'p2']);
  list.remove('p1');
  assert.equal(list.has('p1'), false);
  list.reset();
  assert.equal(list.known(), false);
  assert.equal(REFRESH_MS, 30_000);
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

test('the requests: the token as a Bearer header, a name to follow, an id to unfollow, head to head public', async () => {
  const list = fakeFetch(200, '{"following":[],"playing":[]}');
  const res = await follows('tok', { fetchFn: list });
  assert.equal(res.ok, true);
  assert.equal(list.calls[0].url, '/api/follows');
  assert.equal(list.calls[0].init.method, 'GET');
  assert.equal(list.calls[0].init.headers.Authorization, 'Bearer tok');

  const add = fakeFetch(201, '{"player":"p2","name":"Bob"}');
  await follow('tok', 'Bob', { fetchFn: add });
  assert.equal(add.calls[0].init.method, 'POST');
  assert.equal(add.calls[0].init.headers['Content-Type'], 'application/json');
  assert.deepEqual(JSON.parse(add.calls[0].init.body), { name: 'Bob' });

  const drop = fakeFetch(200, '{"unfollowed":"p/2"}');
  await unfollow('tok', 'p/2', { fetchFn: drop });
  assert.equal(drop.calls[0].url, '/api/follows/p%2F2');
  assert.equal(drop.calls[0].init.method, 'DELETE');

  const vs = fakeFetch(200, '{"wins":1}');
  await headToHead('Ann Lee', '棋手', { fetchFn: vs });
  assert.equal(vs.calls[0].url, `/api/players/Ann%20Lee/vs/${encodeURIComponent('棋手')}`);
  assert.equal(vs.calls[0].init.headers.Authorization, undefined, 'public: no token');

  const refused = fakeFetch(404, '{"error":"no such player"}');
  const no = await headToHead('Ann', 'Nobody', { fetchFn: refused });
  assert.deepEqual([no.ok, no.status, no.error], [false, 404, 'no such player']);
});

test('the address ?player=A&vs=B shows A against B, and back', () => {
  assert.deepEqual(parseRoute('?player=Bob&vs=Cid', '/'), { page: 'player', name: 'Bob', vs: 'Cid' });
  assert.deepEqual(parseRoute('?player=Bob&vs=%20', '/'), { page: 'player', name: 'Bob' });
  assert.equal(routeUrl({ page: 'player', name: 'Bob', vs: 'Cid Lee' }, '/'), '/?player=Bob&vs=Cid%20Lee');
  assert.equal(routeUrl({ page: 'player', name: 'Bob' }, '/'), '/?player=Bob');
});

test('the score line in both languages', () => {
  const p = { left: 'x', right: 'Bob', wins: 3, draws: 1, losses: 2 };
  setLang('en');
  assert.equal(t('follow.score', { ...p, left: t('follow.you') }), 'You 3 – 1 – 2 Bob');
  setLang('zh');
  assert.equal(t('follow.score', { ...p, left: t('follow.you') }), '你 3 – 1 – 2 Bob');
  setLang('en');
});
