// Tests js/room/announcer.js's words for a move in screen-reader mode: a Gomoku or Othello cell, a Connect Four column, a pass, an opening rule's choice, in English and Chinese; and that the mode is off until switched on.
import test from 'node:test';
import assert from 'node:assert/strict';
import { moveWords, screenReaderOn } from '../js/room/announcer.js';
import { setLang } from '../js/i18n.js';

const GOMOKU = { kind: 'gomoku', size: 15 };
const C4 = { kind: 'connect4', cols: 7, rows: 6 };

test('moves are said as people say them', () => {
  setLang('en');
  assert.equal(moveWords(GOMOKU, 'white', 'h9'), 'white h9');
  assert.equal(moveWords({ kind: 'othello' }, 'black', 'f5'), 'black f5');
  assert.equal(moveWords(C4, 'black', '4'), 'black column 4');
  assert.equal(moveWords({ kind: 'othello' }, 'white', 'pass'), 'white passes');
  assert.equal(moveWords(GOMOKU, 'white', 'swap'), 'white: swap');
});

test('in Chinese too', () => {
  setLang('zh');
  assert.equal(moveWords(C4, 'white', '5'), '白方 第 5 列');
  assert.equal(moveWords(GOMOKU, 'black', 'h8'), '黑方 h8');
  setLang('en');
});

test('the mode is off where nothing is stored', () => {
  assert.equal(screenReaderOn(), false);
});
