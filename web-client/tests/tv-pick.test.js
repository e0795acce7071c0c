// Tests the TV's choice of the best live game: most watched, then bots, then most moves, then the room id; skipped rooms never come back.
import test from 'node:test';
import assert from 'node:assert/strict';
import { pickBest } from '../js/tv-pick.js';

const bot = { name: 'Kibot', bot: true };
const person = { name: 'Ann', bot: false };
const game = (room, spectators, ply, black = person, white = person) => ({ room, spectators, ply, seats: { black, white } });

test('the most watched game wins', () => {
  const live = [game('a', 1, 50, bot, bot), game('b', 3, 2), game('c', 2, 90)];
  assert.equal(pickBest(live).room, 'b');
});

test('among equally watched games, bots count, then moves, then the room id', () => {
  assert.equal(pickBest([game('a', 0, 80), game('b', 0, 5, bot, person), game('c', 0, 4, bot, bot)]).room, 'c');
  assert.equal(pickBest([game('a', 0, 8), game('b', 0, 30)]).room, 'b');
  assert.equal(pickBest([game('b', 0, 8), game('a', 0, 8)]).room, 'a');
});

test('skipped rooms are left out, and nothing is chosen from nothing', () => {
  assert.equal(pickBest([game('a', 5, 1), game('b', 0, 1)], new Set(['a'])).room, 'b');
  assert.equal(pickBest([game('a', 5, 1)], new Set(['a'])), null);
  assert.equal(pickBest([]), null);
  assert.equal(pickBest(undefined), null);
});
