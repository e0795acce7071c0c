// The lobby's fixed choices: the games of quick pairing and of "Play the computer", the clocks of the new-game form, the bots' levels, and a seat drawn at random.

const GOMOKU15 = { kind: 'gomoku', size: 15, rule: 'freestyle' };
const RENJU15 = { kind: 'gomoku', size: 15, rule: 'renju' };
const OTHELLO = { kind: 'othello' };
const C4 = { kind: 'connect4', cols: 7, rows: 6, blocked: [] };

/** Quick-pairing presets: the common games with the common clocks. */
export const PLAY_NOW = [
  { key: 'gomoku-3-2', name: 'game.gomoku', game: GOMOKU15, clock: '3+2' },
  { key: 'gomoku-10-5', name: 'game.gomoku', game: GOMOKU15, clock: '10+5' },
  { key: 'renju-5-3', name: 'game.renju', game: RENJU15, clock: '5+3' },
  { key: 'othello-3-2', name: 'game.othello', game: OTHELLO, clock: '3+2' },
  { key: 'othello-10-5', name: 'game.othello', game: OTHELLO, clock: '10+5' },
  { key: 'connect4-1-0', name: 'game.connect4', game: C4, clock: '1+0' },
  { key: 'connect4-3-2', name: 'game.connect4', game: C4, clock: '3+2' },
];

/** The games of "Play the computer", untimed: the common variant of each. */
export const VS_COMPUTER = [
  { key: 'gomoku', name: 'game.gomoku', game: GOMOKU15 },
  { key: 'renju', name: 'game.renju', game: RENJU15 },
  { key: 'othello', name: 'game.othello', game: OTHELLO },
  { key: 'connect4', name: 'game.connect4', game: C4 },
];

/** The new-game form's live clocks (form-select.js adds the correspondence ones). */
export const CLOCKS = ['1+0', '3+2', '5+3', '10+5', '5s', '30s', 'none'];

/** A bot's levels, as select options: 1 (weakest) to 10. */
export const LEVEL_OPTIONS = Array.from({ length: 10 }, (_, i) => [i + 1, String(i + 1)]);

export const randInt = (lo, hi) => lo + Math.floor(Math.random() * (hi - lo + 1));
export const randomSeat = () => (Math.random() < 0.5 ? 'black' : 'white');
