// The opening explorer without the DOM: its address (`/?explorer=<key>&opening=<rule>&moves=…&rated=…&bots=…`), the API request (a Gomoku opening rule as `<key>@<rule>`), the explorer's answer as table rows, the position a line reaches on the board (legal points, the end of the game), and the line of a finished room to explore; node tests it.

import { RATING_KEYS, ratingKey } from './rating.js';
import { replay, applyMove, dims, othelloLegal, stoneOf, seatOf, EMPTY } from './rules.js';
import { forbiddenPoints, noPointLeft } from './renju.js';
import { stepStone, openingRules } from './opening.js';

/** The explorer's games: the rating keys, in the leaderboard's order. */
export const EXPLORER_KEYS = RATING_KEYS;

/** The values of the `rated` and `bots` filters; `any` is the default and stays out of addresses. */
export const FILTERS = ['any', 'yes', 'no'];

/** Moves of the index: the server's answer says it (`depth`); this stands in before one came. */
export const DEFAULT_DEPTH = 30;

/** Moves kept from an address: more than any game of the five boards has (a hand-made
 *  address must not make the page replay thousands). */
const MOVES_MAX = 240;

/** The game (a GameSpec as rules.js reads it) of an explorer key. */
export function specOf(key) {
  switch (key) {
    case 'gomoku-standard': return { kind: 'gomoku', size: 15, rule: 'standard' };
    case 'gomoku-renju': return { kind: 'gomoku', size: 15, rule: 'renju' };
    case 'othello': return { kind: 'othello' };
    case 'connect4': return { kind: 'connect4', cols: 7, rows: 6 };
    default: return { kind: 'gomoku', size: 15, rule: 'freestyle' };
  }
}

const filterOf = (v) => (FILTERS.includes(v) ? v : 'any');

/** The opening-rule filter's value for games played without a rule: the default, out of addresses. */
export const NO_OPENING = 'none';

/** The values of the opening-rule filter for the game of `key`: `none`, then the opening rules
 *  of its board (swap2 for freestyle and standard, soosorv8 and taraguchi10 for renju); just
 *  `none` for a game without them (Othello, Connect Four). */
export function openingsOf(key) {
  return [NO_OPENING, ...openingRules(specOf(key))];
}

/** `rule` when it belongs to the game of `key`, else `none` (another game's rule is dropped). */
export function openingOf(key, rule) {
  return rule !== NO_OPENING && openingsOf(key).includes(rule) ? rule : NO_OPENING;
}

/** A comma-separated line as moves: trimmed, lower case, empty ones dropped. */
export function parseMoves(text) {
  if (!text) return [];
  return String(text).split(',').map((m) => m.trim().toLowerCase()).filter(Boolean).slice(0, MOVES_MAX);
}

/** The explorer's route from an address's query (a URLSearchParams): an unknown key is the
 *  first, an unknown filter `any`, an opening rule not of the game `none`. The rule is
 *  `&opening=<rule>`; the server's `<key>@<rule>` is read too (`?explorer=gomoku-renju@soosorv8`). */
export function explorerRoute(q) {
  const [named, at] = String(q.get('explorer') ?? '').split('@');
  const key = EXPLORER_KEYS.includes(named) ? named : EXPLORER_KEYS[0];
  return {
    page: 'explorer',
    key,
    moves: parseMoves(q.get('moves')),
    rated: filterOf(q.get('rated')),
    bots: filterOf(q.get('bots')),
    opening: openingOf(key, q.get('opening') ?? at),
  };
}

/** The query of an explorer route (after `?`): the key, then what differs from the defaults.
 *  Moves keep their commas, readable in the address bar. */
export function explorerQuery(route) {
  const enc = encodeURIComponent;
  const key = EXPLORER_KEYS.includes(route?.key) ? route.key : EXPLORER_KEYS[0];
  let q = `explorer=${enc(key)}`;
  const opening = openingOf(key, route?.opening);
  if (opening !== NO_OPENING) q += `&opening=${opening}`;
  const moves = route?.moves || [];
  if (moves.length) q += `&moves=${moves.map(enc).join(',')}`;
  for (const f of ['rated', 'bots']) {
    const v = filterOf(route?.[f]);
    if (v !== 'any') q += `&${f}=${v}`;
  }
  return q;
}

/** The API path of a look-up (docs/protocol.md, "Opening explorer"): games played from an
 *  opening rule are the server's `<key>@<rule>`. */
export function explorerPath({ key, moves = [], rated = 'any', bots = 'any', opening = NO_OPENING }) {
  const enc = encodeURIComponent;
  const rule = openingOf(key, opening);
  return `/api/explorer/${enc(key)}${rule !== NO_OPENING ? `@${rule}` : ''}?moves=${moves.map(enc).join(',')}&rated=${filterOf(rated)}&bots=${filterOf(bots)}`;
}

/** Whole percentages of `parts` that add up to 100 (largest remainders), all 0 for no games. */
export function percentages(parts) {
  const total = parts.reduce((a, b) => a + b, 0);
  if (!total) return parts.map(() => 0);
  const exact = parts.map((p) => (p * 100) / total);
  const out = exact.map(Math.floor);
  let left = 100 - out.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (const [, i] of order) {
    if (left <= 0) break;
    out[i] += 1;
    left -= 1;
  }
  return out;
}

const count = (v) => (Number.isFinite(Number(v)) && Number(v) > 0 ? Math.round(Number(v)) : 0);

/**
 * The explorer's answer (the JSON of a 200) in the page's shape: { moves, toMove, games, depth,
 * rows }, each row { move, games, black, draws, white, rating (null when no player was rated),
 * pct: { black, draws, white } }. Anything missing or malformed reads as nothing.
 */
export function explorerAnswer(data) {
  const next = Array.isArray(data?.next) ? data.next : [];
  const rows = next
    .filter((n) => n && typeof n.move === 'string' && n.move)
    .map((n) => {
      const [black, draws, white] = [count(n.black), count(n.draws), count(n.white)];
      const [pb, pd, pw] = percentages([black, draws, white]);
      const rating = n.rating == null || !Number.isFinite(Number(n.rating)) ? null : Math.round(Number(n.rating));
      return { move: n.move, games: count(n.games) || black + draws + white, black, draws, white, rating, pct: { black: pb, draws: pd, white: pw } };
    });
  const depth = Number.isInteger(data?.depth) && data.depth > 0 ? data.depth : DEFAULT_DEPTH;
  return {
    moves: Array.isArray(data?.moves) ? data.moves.map(String) : null,
    toMove: data?.to_move === 'white' ? 'white' : 'black',
    games: count(data?.games) || rows.reduce((a, r) => a + r.games, 0),
    depth,
    rows,
  };
}

const DIRS = [[1, 0], [0, 1], [1, 1], [1, -1]];

/** Whether the stone at `idx` ends a Gomoku game under `rule` (standard, and black in renju:
 *  exactly five; else five or more) or a Connect Four game (four or more), in any direction. */
function winsAt(game, cells, idx) {
  const { cols, rows } = dims(game);
  const stone = cells[idx];
  const x0 = idx % cols;
  const y0 = Math.floor(idx / cols);
  return DIRS.some(([dx, dy]) => {
    let len = 1;
    for (const sgn of [1, -1]) {
      let x = x0 + dx * sgn;
      let y = y0 + dy * sgn;
      while (x >= 0 && x < cols && y >= 0 && y < rows && cells[y * cols + x] === stone) {
        len += 1;
        x += dx * sgn;
        y += dy * sgn;
      }
    }
    if (game.kind === 'connect4') return len >= 4;
    const exact = game.rule === 'standard' || (game.rule === 'renju' && seatOf(stone) === 'black');
    return exact ? len === 5 : len >= 5;
  });
}

/**
 * The position `moves` reach in the game of `key`, for the board: { game, pos, over, legal
 * (Othello's legal squares), forbidden (renju's forbidden points for black), mustPass (Othello:
 * the side to move has none but the other has) }. Display only: the server is the referee.
 */
export function linePosition(key, moves) {
  return positionAfter(specOf(key), moves);
}

/** The same for a game given by its spec (the puzzles' boards use it too). */
export function positionAfter(game, moves) {
  const positions = replay(game, moves);
  const pos = positions[positions.length - 1];
  let over = false;
  let legal = [];
  let forbidden = [];
  let mustPass = false;
  if (game.kind === 'othello') {
    legal = othelloLegal(pos.cells, stoneOf(pos.toMove));
    if (!legal.length) {
      const other = othelloLegal(pos.cells, stoneOf(pos.toMove === 'black' ? 'white' : 'black'));
      mustPass = other.length > 0;
      over = !mustPass;
    }
  } else {
    over = (pos.last >= 0 && winsAt(game, pos.cells, pos.last)) || !pos.cells.includes(EMPTY);
    if (!over && game.rule === 'renju' && pos.toMove === 'black') forbidden = forbiddenPoints(pos.cells, dims(game).cols);
    if (noPointLeft(pos.cells, forbidden)) [over, forbidden] = [true, []];
  }
  return { game, pos, over, legal, forbidden, mustPass };
}

/** Whether `move` may be played from `line` (a linePosition): the board's own checks (an empty
 *  point, a column with room, a legal square) plus renju's forbidden points; a pass only when
 *  it must be. */
export function canPlay(line, move) {
  if (line.over) return false;
  if (move === 'pass') return line.mustPass;
  const next = applyMove(line.game, line.pos, move);
  if (next.last < 0) return false;
  if (line.game.kind === 'othello') return line.legal.includes(next.last);
  return !line.forbidden.some((f) => f.idx === next.last);
}

/**
 * The explorer's route for room `R` (a RoomState) at its shown position, or null when its game
 * is not one of the explorer's (a board without a rating, preset opening stones). A game played
 * from an opening rule is explored among that rule's games: its choices (swap, a colour, …)
 * place no stone and are left out of the line, as the server leaves them out.
 */
export function roomExplorerRoute(R) {
  if (!R?.game || (R.opening || []).length) return null;
  const key = ratingKey(R.game);
  if (!key) return null;
  const played = (R.moves || []).slice(0, Math.max(0, R.shownIndex ?? R.moves.length));
  const moves = R.game.opening_rule ? played.map(stepStone).filter((m) => m != null) : played;
  return { page: 'explorer', key, moves, rated: 'any', bots: 'any', opening: openingOf(key, R.game.opening_rule) };
}
