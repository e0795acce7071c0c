// Finds the shortest Othello opening after which the side to move has a move that leaves the other side without one (a forced pass): the opening of the bot pass test. Run: node othello-pass.mjs
import { replay, applyMove, othelloLegal, stoneOf, cellName, other } from '../../web-client/js/rules.js';

const GAME = { kind: 'othello' };
const MAX_OPENING = 9;

const legal = (pos) => othelloLegal(pos.cells, stoneOf(pos.toMove)).map((i) => cellName(GAME, i));

/** A move of the side to move after which the opponent must pass and the mover can go on. */
function passingMove(pos) {
  for (const move of legal(pos)) {
    const next = applyMove(GAME, pos, move);
    if (legal(next).length === 0 && legal({ ...next, toMove: other(next.toMove) }).length > 0) return move;
  }
  return null;
}

/** Depth-first over openings of exactly `length` moves (no passes inside). */
function search(pos, opening, length) {
  if (opening.length === length) {
    const move = passingMove(pos);
    return move ? { opening, mover: pos.toMove, move } : null;
  }
  for (const move of legal(pos)) {
    const found = search(applyMove(GAME, pos, move), [...opening, move], length);
    if (found) return found;
  }
  return null;
}

const start = replay(GAME, [])[0];
for (let length = 0; length <= MAX_OPENING; length++) {
  const found = search(start, [], length);
  if (found) {
    console.log(JSON.stringify(found));
    process.exit(0);
  }
}
console.log(`no forced pass within ${MAX_OPENING} opening moves`);
