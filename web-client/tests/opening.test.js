// Checks the page's view of opening rules: which rules a game takes, the stones of a record with choices, whose step it is, its explanation and what a board click means.
import test from 'node:test';
import assert from 'node:assert/strict';
import { openingRules, stepStone, openingStep, openingClick, fifthsChoice, actorSeat } from '../js/opening.js';
import { replay, BLACK, WHITE, parseCell } from '../js/rules.js';

const swap2 = { kind: 'gomoku', size: 15, rule: 'freestyle', opening_rule: 'swap2' };

test('each board takes the rules the server supports', () => {
  assert.deepEqual(openingRules({ kind: 'gomoku', size: 15, rule: 'freestyle' }), ['swap2']);
  assert.deepEqual(openingRules({ kind: 'gomoku', size: 19, rule: 'standard' }), ['swap2']);
  assert.deepEqual(openingRules({ kind: 'gomoku', size: 11, rule: 'freestyle' }), []);
  assert.deepEqual(openingRules({ kind: 'gomoku', size: 15, rule: 'renju' }), ['soosorv8', 'taraguchi10']);
  assert.deepEqual(openingRules({ kind: 'gomoku', size: 19, rule: 'renju' }), []);
  assert.deepEqual(openingRules({ kind: 'othello' }), []);
});

test('only cells and chosen 5th moves are stones', () => {
  assert.equal(stepStone('h8'), 'h8');
  assert.equal(stepStone('choose j10'), 'j10');
  for (const choice of ['swap', 'stay', 'black', 'white', 'declare 3', 'fifths h9,j10']) assert.equal(stepStone(choice), null, choice);
});

test('a record with choices replays to its stones, colours alternating', () => {
  const game = { ...swap2, opening_rule: 'soosorv8', rule: 'renju' };
  const steps = ['h8', 'i9', 'j10', 'swap', 'g7', 'declare 2', 'stay', 'fifths k5,e12', 'choose e12', 'a1'];
  const positions = replay(game, steps);
  const last = positions[positions.length - 1];
  const at = (c) => last.cells[parseCell(game, c)];
  assert.deepEqual(['h8', 'i9', 'j10', 'g7', 'e12', 'a1'].map(at), [BLACK, WHITE, BLACK, WHITE, BLACK, WHITE]);
  assert.equal(at('k5'), 0, 'an offered 5th move that was not chosen is not on the board');
  assert.equal(positions[4].toMove, 'white', 'a swap does not change the next stone');
  assert.equal(last.toMove, 'black');
  // The last-move mark stays on the last stone through the choices that place none.
  assert.equal(positions[4].last, parseCell(game, 'j10'), 'after a swap');
  assert.equal(positions[7].last, parseCell(game, 'g7'), 'after a declaration and a stay');
  assert.equal(positions[8].last, parseCell(game, 'g7'), 'after offered 5th moves');
  assert.equal(positions[9].last, parseCell(game, 'e12'), 'after the choice of a 5th move');
  assert.ok(positions.slice(1).every((p) => p.last >= 0), 'every step keeps a mark');
});

test('the swap2 decision of the second player', () => {
  const os = {
    rule: 'swap2', phase: 'swap2', to_act: 'second', black: 'first',
    legal: [{ kind: 'stay' }, { kind: 'swap' }, { kind: 'place', color: 'white', count: 2, area: 'board' }],
  };
  assert.equal(actorSeat(os), 'white');
  const mine = openingStep(os, 'white');
  assert.equal(mine.key, 'opening.step.swap2');
  assert.deepEqual(mine.buttons, ['stay', 'swap']);
  assert.equal(mine.mine, true);
  assert.deepEqual(openingClick(mine, 'k10'), { send: 'k10' });
  const theirs = openingStep(os, 'black');
  assert.equal(theirs.mine, false);
  assert.equal(openingClick(theirs, 'k10'), null);
  assert.equal(openingStep({ ...os, phase: 'over', to_act: null, legal: [] }, 'white'), null);
});

test('a swap names the colour the actor would take', () => {
  const os = { rule: 'taraguchi10', phase: 'swap', to_act: 'first', black: 'second', legal: [{ kind: 'swap' }, { kind: 'stay' }] };
  const step = openingStep(os, 'white');
  assert.deepEqual([step.key, step.params.seat, step.params.other], ['opening.step.swap', 'white', 'black']);
  assert.deepEqual(step.buttons, ['stay', 'swap']);
});

test('offered 5th moves are picked on the board, then offered together', () => {
  const os = { rule: 'soosorv8', phase: 'fifth', to_act: 'first', black: 'first', declared: 2, legal: [{ kind: 'propose_fifths', n: 2, area: 'board' }] };
  const step = openingStep(os, 'black');
  assert.equal(step.key, 'opening.step.propose');
  let picked = openingClick(step, 'k5', []).picked;
  assert.equal(fifthsChoice(step, picked), null);
  picked = openingClick(step, 'e12', picked).picked;
  assert.equal(openingClick(step, 'a1', picked), null, 'no more than declared');
  assert.equal(fifthsChoice(step, picked), 'fifths k5,e12');
  assert.deepEqual(openingClick(step, 'k5', picked), { picked: ['e12'] });
  // Taraguchi-10's 5th move: a click places it, unless the player is offering ten.
  const tara = openingStep({ rule: 'taraguchi10', phase: 'fifth', to_act: 'second', black: 'second', legal: [{ kind: 'place', color: 'black', count: 1, area: { central: 9 } }, { kind: 'propose_fifths', n: 10, area: 'board' }] }, 'black');
  assert.equal(tara.key, 'opening.step.fifthEither');
  assert.deepEqual(openingClick(tara, 'h10', []), { send: 'h10' });
  assert.deepEqual(openingClick(tara, 'h10', [], true), { picked: ['h10'] });
  // White chooses one of the offered moves by clicking it.
  const choose = openingStep({ rule: 'soosorv8', phase: 'choose', to_act: 'second', black: 'first', legal: [{ kind: 'choose_fifth' }], proposals: ['k5', 'e12'] }, 'white');
  assert.equal(choose.params.n, 2);
  assert.deepEqual(openingClick(choose, 'e12'), { send: 'choose e12' });
});
