// Replays game-core's answers (tests/fixtures/game-core-rules.json) through the page's own rules: renju's forbidden points, Gomoku/Othello/Connect Four positions on the analysis board, the room's replay, the explorer's positions, and the opening steps.
//
// Why a fixture: the page checks moves itself for instant feedback — forbidden points marked on
// the board, Othello's legal squares and flips, where a Connect Four stone lands, the end of a
// game on the analysis board, which stone an opening step places — while the server, with
// game-core, stays the referee. The page's rules are a second implementation; this shared set of
// cases keeps the two from drifting. The fixture is game-core's: a disagreement here is a bug in
// the page, never in the file. When game-core's rules change, regenerate it with
//   KIBITZ_BLESS_FIXTURES=1 cargo test -p game-core --test page_fixture
// (game-core/tests/page_fixture/), then make this test pass again.
import test from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { forbiddenPoints, forbiddenKind } from '../js/renju.js';
import { replay, othelloFlips, connect4Drop, countDiscs, lineThrough, cellName, dims, stoneOf, EMPTY, BLACK, WHITE, BLOCKED } from '../js/rules.js';
import { startPos, info, tryMove, positionText } from '../js/analysis/position.js';
import { positionAfter, canPlay } from '../js/explorer-data.js';
import { openingRules, stepStone, actorSeat, openingStep, openingClick, fifthsChoice } from '../js/opening.js';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/game-core-rules.json', import.meta.url), 'utf8'));

const CELL = { X: BLACK, O: WHITE, '-': EMPTY, '#': BLOCKED };

/** A position text (the analysis board's: cells from the top, a space, X or O) as a set-up. */
function readPosition(text) {
  const [cells, side] = text.split(' ');
  return { cells: Int8Array.from(cells, (c) => CELL[c]), toMove: side === 'O' ? 'white' : 'black' };
}

const sorted = (list) => [...list].sort();
const names = (game, indices) => sorted(indices.map((i) => cellName(game, i)));
/** A line of cells (or null) in notation, in its order. */
const inOrder = (game, line) => (line || []).map((i) => cellName(game, i));
/** `[cell, kind]` pairs as sorted `cell kind` words, whatever order they were found in. */
const foulWords = (pairs) => sorted(pairs.map(([cell, kind]) => `${cell} ${kind}`));
const pageFouls = (game, list) => foulWords(list.map((f) => [cellName(game, f.idx), f.kind]));

/** The analysis board's position after a case's moves, each checked legal by the page. */
function playOnAnalysisBoard(c) {
  let pos = startPos(c.game, c.setup ? readPosition(c.setup) : null);
  for (const move of c.moves) {
    const res = tryMove(c.game, pos, move);
    assert.ok(res.ok, `${c.name}: the page refuses ${move} (${res.why})`);
    pos = res.pos;
  }
  assert.equal(positionText(pos.cells, pos.toMove), c.position, `${c.name}: the board`);
  return pos;
}

/** The checks every game shares: the board after the moves on the analysis board and in the
 *  room's replay, the end of the game and its winner, and the explorer's view of the end. */
function checkCommon(c) {
  const pos = playOnAnalysisBoard(c);
  const at = info(c.game, pos);
  assert.equal(at.over, c.over, `${c.name}: over`);
  assert.equal(at.winner, c.winner, `${c.name}: winner`);
  if (!c.setup) {
    const last = replay(c.game, c.moves).at(-1);
    assert.equal(positionText(last.cells, last.toMove), c.position, `${c.name}: the room's replay`);
    const line = positionAfter(c.game, c.moves);
    assert.equal(line.over, c.over, `${c.name}: the explorer's end`);
  }
  return { pos, at };
}

test('the fixture holds cases of every kind', () => {
  for (const key of ['renju_fouls', 'gomoku', 'othello', 'connect4', 'openings', 'opening_rules', 'step_stones']) {
    assert.ok(fixture[key]?.length > 0, key);
  }
});

test('renju: the page marks exactly the forbidden points game-core finds, each with its kind', () => {
  for (const c of fixture.renju_fouls) {
    const game = { kind: 'gomoku', size: c.size, rule: 'renju' };
    const { cells } = readPosition(c.position);
    assert.deepEqual(pageFouls(game, forbiddenPoints(cells, c.size)), foulWords(c.forbidden), c.name);
    const kinds = new Map(c.forbidden);
    cells.forEach((stone, idx) => {
      if (stone !== EMPTY) return;
      const name = cellName(game, idx);
      assert.equal(forbiddenKind(cells, c.size, idx), kinds.get(name) ?? null, `${c.name}: ${name}`);
    });
  }
});

test('gomoku: fives by rule, the winning line, forbidden points for black only', () => {
  for (const c of fixture.gomoku) {
    const { pos, at } = checkCommon(c);
    const { game } = c;
    assert.deepEqual(inOrder(game, at.winLine), c.line, `${c.name}: the analysis board's line`);
    assert.deepEqual(pageFouls(game, at.forbidden), foulWords(c.forbidden), `${c.name}: forbidden points`);
    if (pos.last >= 0) {
      assert.deepEqual(inOrder(game, lineThrough(game, pos.cells, pos.last, 5)), c.line, `${c.name}: lineThrough`);
    }
    // Every empty point: refused as forbidden with game-core's kind, else taken (unless over).
    const kinds = new Map(c.forbidden);
    pos.cells.forEach((stone, idx) => {
      if (stone !== EMPTY) return;
      const name = cellName(game, idx);
      const res = tryMove(game, pos, name, at);
      const want = c.over ? { ok: false, why: 'over' } : kinds.has(name) ? { ok: false, why: 'forbidden', kind: kinds.get(name) } : { ok: true };
      assert.deepEqual(res.ok ? { ok: true } : res, want, `${c.name}: ${name}`);
    });
    if (!c.setup) {
      const line = positionAfter(game, c.moves);
      assert.deepEqual(pageFouls(game, line.forbidden), foulWords(c.forbidden), `${c.name}: the explorer's forbidden points`);
      for (const [name] of c.forbidden) assert.equal(canPlay(line, name), false, `${c.name}: the explorer plays ${name}`);
    }
  }
});

test('othello: legal squares, the discs each one flips, forced passes and the count at the end', () => {
  for (const c of fixture.othello) {
    const { pos, at } = checkCommon(c);
    const { game } = c;
    const stone = stoneOf(pos.toMove);
    assert.deepEqual(countDiscs(pos.cells), c.discs, `${c.name}: discs`);
    assert.equal(at.mustPass, c.must_pass, `${c.name}: must pass`);
    const legal = c.must_pass ? [] : c.legal;
    assert.deepEqual(at.legal.map((i) => cellName(game, i)), legal, `${c.name}: legal squares`);
    const flips = new Map(c.flips);
    pos.cells.forEach((cell, idx) => {
      if (cell !== EMPTY) return;
      const name = cellName(game, idx);
      assert.deepEqual(names(game, othelloFlips(pos.cells, idx, stone)), sorted(flips.get(name) ?? []), `${c.name}: ${name} flips`);
    });
    assert.equal(tryMove(game, pos, 'pass', at).ok, c.must_pass, `${c.name}: a pass`);
    if (!c.setup) {
      const line = positionAfter(game, c.moves);
      assert.deepEqual(line.legal.map((i) => cellName(game, i)), legal, `${c.name}: the explorer's squares`);
      assert.equal(line.mustPass, c.must_pass, `${c.name}: the explorer's pass`);
      assert.equal(canPlay(line, 'pass'), c.must_pass, `${c.name}: the explorer passes`);
    }
  }
});

test('connect four: where stones land past blocked cells, full columns, fours in every direction', () => {
  for (const c of fixture.connect4) {
    const { pos, at } = checkCommon(c);
    const { game } = c;
    const { cols, rows } = dims(game);
    assert.deepEqual(inOrder(game, at.winLine), c.line, `${c.name}: the analysis board's line`);
    if (pos.last >= 0) assert.deepEqual(inOrder(game, lineThrough(game, pos.cells, pos.last, 4)), c.line, `${c.name}: lineThrough`);
    for (let x = 0; x < cols; x++) {
      const land = connect4Drop(pos.cells, cols, rows, x);
      assert.equal(land < 0 ? null : cellName(game, land), c.drops[x], `${c.name}: column ${x + 1} lands`);
      const res = tryMove(game, pos, String(x + 1), at);
      assert.equal(res.ok, c.legal.includes(String(x + 1)), `${c.name}: column ${x + 1} (${res.why})`);
    }
  }
});

/** What the page does with the next choice of an opening line, checked against game-core's
 *  notation of it: a board click sends the stone or the chosen 5th move, picks of 5th moves
 *  make the `fifths` choice, the other choices are buttons. */
function checkNextChoice(c, step) {
  const [word, arg] = c.next.split(' ');
  if (/^[a-z]\d+$/.test(word)) {
    assert.ok(step.place, `${c.name}: a stone is due`);
    assert.deepEqual(openingClick(step, word), { send: c.next }, `${c.name}: click ${word}`);
  } else if (word === 'choose') {
    assert.deepEqual(openingClick(step, arg), { send: c.next }, `${c.name}: click ${arg}`);
  } else if (word === 'fifths') {
    let picked = [];
    for (const cell of arg.split(',')) {
      const res = openingClick(step, cell, picked, true);
      assert.ok(res?.picked, `${c.name}: pick ${cell}`);
      picked = res.picked;
    }
    assert.equal(fifthsChoice(step, picked), c.next, `${c.name}: the offer`);
  } else {
    assert.ok(step.buttons.includes(word), `${c.name}: a ${word} button`);
    if (word === 'declare') assert.ok(Number(arg) <= step.params.max, `${c.name}: declare ${arg}`);
  }
}

test('openings: the stones of the steps, whose choice it is, what the page offers and sends', () => {
  for (const c of fixture.openings) {
    const last = replay(c.game, c.steps).at(-1);
    assert.equal(positionText(last.cells, last.toMove), c.position, `${c.name}: the board`);
    assert.equal(actorSeat(c.view), c.actor, `${c.name}: the actor`);
    const step = openingStep(c.view, c.actor);
    if (!c.actor) {
      assert.equal(step, null, `${c.name}: over`);
      continue;
    }
    assert.ok(step.mine, c.name);
    if (!['place', 'fifth', 'over'].includes(c.view.phase)) assert.equal(step.key, `opening.step.${c.view.phase}`, c.name);
    // Every kind of choice game-core offers has its control on the page, and no other does.
    const buttons = [];
    for (const legal of c.view.legal) {
      const { kind, ...rest } = legal;
      if (kind === 'place') assert.deepEqual(step.place, rest, `${c.name}: place`);
      else if (kind === 'propose_fifths') assert.deepEqual(step.propose, rest, `${c.name}: offer`);
      else if (kind === 'choose_fifth') assert.ok(step.choose, `${c.name}: choose`);
      else if (kind === 'choose_color') buttons.push('black', 'white');
      else buttons.push(kind);
    }
    assert.deepEqual(sorted(step.buttons), sorted(buttons), `${c.name}: buttons`);
    if (c.next) checkNextChoice(c, step);
  }
});

test('openings: the rules each board takes, and the stone each spelling of a step places', () => {
  for (const c of fixture.opening_rules) assert.deepEqual(openingRules(c.game), c.rules, JSON.stringify(c.game));
  for (const c of fixture.step_stones) assert.equal(stepStone(c.step), c.stone, JSON.stringify(c.step));
});
