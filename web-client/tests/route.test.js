// Tests js/route.js: the view an address shows (room, TV, account form, leaderboard, player page, tournaments, a tournament, lobby) and back again.
import test from 'node:test';
import assert from 'node:assert/strict';
import { parseRoute, routeUrl } from '../js/route.js';

test('addresses give their views', () => {
  assert.deepEqual(parseRoute('?room=abc', '/'), { page: 'room', room: 'abc' });
  assert.deepEqual(parseRoute('', '/tv'), { page: 'tv' });
  assert.deepEqual(parseRoute('?room=abc', '/tv'), { page: 'room', room: 'abc' }, 'a room named wins over the TV');
  assert.deepEqual(parseRoute('?account=signin', '/'), { page: 'account', mode: 'signin' });
  assert.deepEqual(parseRoute('?account=register', '/'), { page: 'account', mode: 'register' });
  assert.deepEqual(parseRoute('?account=steal', '/'), { page: 'lobby' });
  assert.deepEqual(parseRoute('?leaderboard=othello', '/'), { page: 'leaderboard', key: 'othello', bots: false });
  assert.deepEqual(parseRoute('?leaderboard=connect4&bots=true', '/'), { page: 'leaderboard', key: 'connect4', bots: true });
  assert.deepEqual(parseRoute('?leaderboard=chess', '/'), { page: 'leaderboard', key: 'gomoku-freestyle', bots: false });
  assert.deepEqual(parseRoute('?leaderboard', '/'), { page: 'leaderboard', key: 'gomoku-freestyle', bots: false });
  assert.deepEqual(parseRoute('?player=%20Ada%20', '/'), { page: 'player', name: 'Ada' });
  assert.deepEqual(parseRoute('?player=', '/'), { page: 'lobby' });
  assert.deepEqual(parseRoute('?tournaments', '/'), { page: 'tournaments' });
  assert.deepEqual(parseRoute('?tournament=t%2F1', '/'), { page: 'tournament', id: 't/1' });
  assert.deepEqual(parseRoute('?tournament=', '/'), { page: 'lobby' });
  assert.deepEqual(parseRoute('', '/'), { page: 'lobby' });
});

test('views give their addresses, which read back the same', () => {
  const routes = [
    { page: 'room', room: 'a b' },
    { page: 'tv' },
    { page: 'account', mode: 'register' },
    { page: 'leaderboard', key: 'gomoku-renju', bots: true },
    { page: 'leaderboard', key: 'othello', bots: false },
    { page: 'player', name: 'Ada&Co' },
    { page: 'tournaments' },
    { page: 'tournament', id: 'x y' },
    { page: 'lobby' },
  ];
  for (const route of routes) {
    const url = new URL(routeUrl(route, '/'), 'http://x');
    assert.deepEqual(parseRoute(url.search, url.pathname), route, JSON.stringify(route));
  }
  assert.equal(routeUrl({ page: 'player', name: 'Ada' }, '/hall/'), '/hall/?player=Ada');
  assert.equal(routeUrl({ page: 'leaderboard', key: 'othello', bots: true }), '/?leaderboard=othello&bots=true');
  assert.equal(routeUrl({ page: 'tournaments' }, '/hall/'), '/hall/?tournaments');
  assert.equal(routeUrl({ page: 'tournament', id: 'T7' }), '/?tournament=T7');
});
