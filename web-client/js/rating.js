// Ratings as the page shows them: which games are rated (the five rating keys, and the same five for correspondence games), a rating rounded with `?` while provisional, a signed change (+12 / −12), and the server's rating outcome of a game in one shape; no DOM, so node can test it.

/** The rating keys, in the order the leaderboard's tabs show them. */
export const RATING_KEYS = ['gomoku-freestyle', 'gomoku-standard', 'gomoku-renju', 'othello', 'connect4'];

/** The same games played by correspondence (a clock of days per move), rated apart. */
export const CORR_KEYS = RATING_KEYS.map((k) => `${k}-corr`);

/** Every rating key a leaderboard or a player's page shows: the live ones, then the
 *  correspondence ones. */
export const LEADERBOARD_KEYS = [...RATING_KEYS, ...CORR_KEYS];

/** A rating key's game: `othello-corr` → `othello`. */
export const baseKey = (key) => String(key).replace(/-corr$/, '');

/** Whether a rating key is a correspondence one. */
export const isCorrKey = (key) => /-corr$/.test(String(key));

/** The rating key of `game` (a GameSpec), or null for a game that is not rated: Gomoku on
 *  15×15 (any of its three rules), Othello 8×8 and Connect Four 7×6 without blocked cells. */
export function ratingKey(game) {
  if (!game || typeof game !== 'object') return null;
  if (game.kind === 'gomoku') {
    const rule = game.rule || 'freestyle';
    if ((game.size ?? 15) !== 15 || !['freestyle', 'standard', 'renju'].includes(rule)) return null;
    return `gomoku-${rule}`;
  }
  if (game.kind === 'othello') return 'othello';
  if (game.kind === 'connect4') {
    const plain = (game.cols ?? 7) === 7 && (game.rows ?? 6) === 6 && !(game.blocked || []).length;
    return plain ? 'connect4' : null;
  }
  return null;
}

/** Whether a `create` of `game` with `openingStones` preset stones can be rated (the server has
 *  the last word: it refuses with `bad_rated`). */
export function canBeRated(game, openingStones = 0) {
  return ratingKey(game) != null && !openingStones;
}

/** "1662", or "1662?" while the rating is provisional; "" for no number. */
export function formatRating(rating, provisional = false) {
  const n = Number(rating);
  if (rating == null || !Number.isFinite(n)) return '';
  return `${Math.round(n)}${provisional ? '?' : ''}`;
}

/** The change from `before` to `after` as people read it: "+162", "−162" (a real minus sign)
 *  or "±0". Both are rounded first, so the change adds up with the ratings shown beside it. */
export function formatChange(before, after) {
  const d = Math.round(Number(after)) - Math.round(Number(before));
  if (!Number.isFinite(d)) return '';
  if (d > 0) return `+${d}`;
  if (d < 0) return `\u2212${-d}`;
  return '\u00b10';
}

/**
 * The server's rating outcome of a game in one shape, from a `rated` message, a RoomState's
 * `rating`, or the stored game's `rating`: { changes: [{ color, player, name, before, after,
 * rd, provisional }], unrated } with `unrated` null when the game was rated. Anything that is
 * not an outcome gives null.
 */
export function ratingOutcome(raw) {
  if (raw == null || typeof raw !== 'object') return null;
  const list = Array.isArray(raw) ? raw : Array.isArray(raw.changes) ? raw.changes : [];
  const changes = list
    .filter((c) => c && typeof c === 'object' && (c.color === 'black' || c.color === 'white'))
    .map((c) => ({
      color: c.color,
      player: c.player ?? null,
      name: c.name != null ? String(c.name) : '',
      before: Number(c.before),
      after: Number(c.after),
      rd: c.rd != null ? Number(c.rd) : null,
      provisional: !!c.provisional,
    }))
    .sort((a, b) => (a.color === b.color ? 0 : a.color === 'black' ? -1 : 1));
  const unrated = !Array.isArray(raw) && raw.unrated ? String(raw.unrated) : null;
  if (!changes.length && !unrated) return null;
  return { changes, unrated };
}

/** One side's change for display: { color, name, change: "+162", rating: "1662?", up }. */
export function changeWords(c) {
  const d = Math.round(c.after) - Math.round(c.before);
  return {
    color: c.color,
    name: c.name,
    change: formatChange(c.before, c.after),
    rating: formatRating(c.after, c.provisional),
    up: d > 0 ? 'up' : d < 0 ? 'down' : 'same',
  };
}
