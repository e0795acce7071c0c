// A puzzle without the DOM: its variants and themes, the server's puzzle object read into the page's shape (a puzzle made from a game of the hall names that game), moves between the server's notation and the board's, the position a line reaches (legal points, renju's forbidden points, Othello's pass), and the cells a hint names; node tests it.

import { dims, connect4Drop, parseCell } from '../rules.js';
import { t } from '../i18n.js';
import { positionAfter, canPlay } from '../explorer-data.js';

/** The puzzles' variants, in the pickers' order. */
export const VARIANTS = ['gomoku-freestyle', 'gomoku-renju', 'othello', 'connect4'];

/** The themes of each variant, used until the server's index says which it has. */
export const THEMES = {
  'gomoku-freestyle': ['vcf'],
  'gomoku-renju': ['vcf', 'renju-foul'],
  othello: ['endgame', 'corner', 'parity'],
  connect4: ['win', 'zugzwang'],
};

/** Every theme, in the order of THEMES. */
export const ALL_THEMES = [...new Set(Object.values(THEMES).flat())];

/** The game (a GameSpec as rules.js reads it) of a variant. */
export function variantGame(variant) {
  switch (variant) {
    case 'gomoku-renju': return { kind: 'gomoku', size: 15, rule: 'renju' };
    case 'othello': return { kind: 'othello' };
    case 'connect4': return { kind: 'connect4', cols: 7, rows: 6, blocked: [] };
    default: return { kind: 'gomoku', size: 15, rule: 'freestyle' };
  }
}

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** A move of the server as the board's rules write it: lower case, and a Connect Four column
 *  given as a letter ("d") as its number ("4"), the notation of a room's moves. */
export function toBoardMove(game, move) {
  const text = String(move ?? '').trim().toLowerCase();
  if (game?.kind === 'connect4' && /^[a-z]$/.test(text)) return String(LETTERS.indexOf(text) + 1);
  return text;
}

/** Whether the server writes this puzzle's Connect Four columns as letters: said by the moves
 *  it sent (a room's notation, numbers, otherwise). */
export function usesLetters(game, moves) {
  return game?.kind === 'connect4' && (moves || []).some((m) => /^[a-z]$/i.test(String(m).trim()));
}

/** A move of the board ("4", "h8", "pass") in the server's notation for this puzzle. */
export function toServerMove(game, move, letters) {
  const text = String(move);
  if (letters && game?.kind === 'connect4' && /^\d+$/.test(text)) return LETTERS[Number(text) - 1] ?? text;
  return text;
}

const num = (v, fallback = null) => (v != null && Number.isFinite(Number(v)) ? Number(v) : fallback);

/**
 * The server's puzzle object in the page's shape, or null when it is not a puzzle: { id,
 * variant, game, moves (the board's notation), letters (the server's Connect Four notation),
 * toMove, themes, length, goal (the server's English words), rating, rd, plays, alternatives,
 * date, source ({ room, ply } of a puzzle made from a game played in the hall, else null) }.
 */
export function readPuzzle(data) {
  if (!data || typeof data !== 'object' || typeof data.id !== 'string' || !data.id) return null;
  const variant = VARIANTS.includes(data.variant) ? data.variant : null;
  const game = data.game && typeof data.game === 'object' && ['gomoku', 'othello', 'connect4'].includes(data.game.kind)
    ? data.game : variant ? variantGame(variant) : null;
  if (!game) return null;
  const raw = Array.isArray(data.moves) ? data.moves.map(String) : [];
  const moves = raw.map((m) => toBoardMove(game, m));
  const toMove = data.to_move === 'black' ? 'black' : data.to_move === 'white' ? 'white' : null;
  // An Othello position whose side to move has to pass, written without the pass: the pass is
  // the board's, so that the player's side is to move.
  if (game.kind === 'othello' && toMove && positionAfter(game, moves).pos.toMove !== toMove) moves.push('pass');
  return {
    id: data.id,
    variant: variant || (game.kind === 'gomoku' ? (game.rule === 'renju' ? 'gomoku-renju' : 'gomoku-freestyle') : game.kind),
    game,
    moves,
    letters: usesLetters(game, raw),
    toMove,
    themes: Array.isArray(data.themes) ? data.themes.map(String) : [],
    length: Math.max(1, Math.round(num(data.length, 1))),
    goal: typeof data.goal === 'string' ? data.goal : '',
    rating: num(data.rating),
    rd: num(data.rd),
    plays: Math.max(0, Math.round(num(data.plays, 0))),
    alternatives: data.alternatives === true,
    date: typeof data.date === 'string' ? data.date : null,
    source: readSource(data.source),
  };
}

/** A hall puzzle's `source`: the room (an id of at most 64 characters) and `ply`, the index in
 *  the room's moves of the move that missed the win (null when absent or not a count). */
function readSource(source) {
  const room = typeof source?.room === 'string' ? source.room.trim() : '';
  if (!room || room.length > 64) return null;
  const ply = Number.isInteger(source.ply) && source.ply >= 0 ? source.ply : null;
  return { room, ply };
}

/**
 * The line of a puzzle made from a game played in the hall, or null for a shipped one: { route,
 * text, missed }, the room's route (its replay: a room's address names no move, so the line
 * says which), the link's words, and the move that missed the win in words, numbered as the
 * room's move list numbers it ("White missed this win at move 12."; '' when the server gave no
 * ply).
 */
export function sourceLine(puzzle) {
  const src = puzzle?.source;
  if (!src) return null;
  const missed = src.ply == null ? ''
    : t('puz.fromHallMissed', { seat: t(`seat.${src.ply % 2 === 0 ? 'black' : 'white'}`), n: Math.floor(src.ply / 2) + 1 });
  return { route: { page: 'room', room: src.room }, text: t('puz.fromHall'), missed };
}

/** The goal's string key and its values: "{seat} to play and win: VCF in {n}" for a VCF,
 *  else "{seat} to play and win in {n}" (a move counts the player's moves only). */
export function goalKey(puzzle, toMove) {
  const seat = toMove || puzzle.toMove || 'black';
  const vcf = puzzle.themes.includes('vcf');
  return { key: vcf ? 'puz.goalVcf' : 'puz.goal', seat, n: puzzle.length };
}

// The position a line reaches and whether a move may be played there are the explorer's:
// one display-only replay of the rules for both boards.
export { positionAfter, canPlay };

/** A move typed by a person in the board's notation ("H8" → "h8", "D" → "4" in Connect Four),
 *  or null when it names no cell or column of the board. */
export function typedMove(game, text) {
  const move = toBoardMove(game, text);
  if (move === 'pass') return move;
  if (game.kind === 'connect4') {
    const x = Number(move);
    return Number.isInteger(x) && x >= 1 && x <= dims(game).cols ? String(x) : null;
  }
  return parseCell(game, move) >= 0 ? move : null;
}

/** The cells a hint's area names (cell names, or Connect Four columns as letters or numbers)
 *  on the board at `pos`: for a column, the cell its next stone would take. */
export function hintCells(game, pos, area) {
  const out = [];
  for (const a of Array.isArray(area) ? area : []) {
    const move = toBoardMove(game, a);
    let idx = -1;
    if (game.kind === 'connect4') {
      const { cols, rows } = dims(game);
      const x = Number(move) - 1;
      if (Number.isInteger(x) && x >= 0 && x < cols) idx = connect4Drop(pos.cells, cols, rows, x);
    } else {
      idx = parseCell(game, move);
    }
    if (idx >= 0 && !out.some((c) => c.idx === idx)) out.push({ idx, move });
  }
  return out;
}
