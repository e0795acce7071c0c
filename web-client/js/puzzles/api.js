// The puzzles' HTTP routes (docs/protocol.md, "Puzzles"): the index, the next puzzle near a rating, the daily puzzle, one puzzle, a move checked, a hint, the solution, a result posted, an account's ratings; each answered as js/api.js's apiRequest answers (node-tested with a stand-in fetch).

import { apiRequest } from '../api.js';

const enc = encodeURIComponent;

/** The address of `path` with the query's set values (null, undefined and '' left out). */
function withQuery(path, query) {
  const parts = Object.entries(query)
    .filter(([, v]) => v != null && v !== '')
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.map(enc).join(',') : enc(v)}`);
  return parts.length ? `${path}?${parts.join('&')}` : path;
}

/** The path of the next puzzle: the variant, theme, rating (rounded) and the puzzle just played. */
export function nextPath({ variant, theme, rating, after } = {}) {
  const r = rating != null && Number.isFinite(Number(rating)) ? Math.round(Number(rating)) : null;
  return withQuery('/api/puzzles/next', { variant, theme, rating: r, after });
}

/** The path of puzzle `id`, or of one of its routes (`move`, `hint`, `solution`, `result`). */
export const puzzlePath = (id, route = '') => `/api/puzzles/${enc(id)}${route ? `/${route}` : ''}`;

/** The path of a hint at `level` (1: the area, 2: the move) after `line`. */
export const hintPath = (id, line, level) => `${puzzlePath(id, 'hint')}?line=${line.map(enc).join(',')}&level=${level}`;

/** { variants: { <variant>: { count, themes: { <theme>: n } } } }. */
export const index = (opts) => apiRequest('GET', '/api/puzzles', opts);

/** A puzzle near `look.rating` ({ variant, theme, rating, after }); with an account's `token`
 *  the server prefers one the account has not tried. */
export const next = (look, token, opts) => apiRequest('GET', nextPath(look), { ...opts, token });

/** Today's puzzle (a puzzle object with its `date`). */
export const daily = (opts) => apiRequest('GET', '/api/puzzles/daily', opts);

/** One puzzle by its id (404 for an unknown one). */
export const puzzle = (id, opts) => apiRequest('GET', puzzlePath(id), opts);

/** Checks the player's new move, the last of `line` (every move from the puzzle's position):
 *  { correct, reply, solved } or { correct: false, message }. */
export const move = (id, line, opts) => apiRequest('POST', puzzlePath(id, 'move'), { ...opts, body: { line } });

/** A hint after `line`: level 1 { area: [...] }, level 2 { move }. */
export const hint = (id, line, level, opts) => apiRequest('GET', hintPath(id, line, level), opts);

/** The main line from the puzzle's position: { line: [...] }. */
export const solution = (id, opts) => apiRequest('GET', puzzlePath(id, 'solution'), opts);

/**
 * Posts an attempt's result (session.js's resultBody): with an account's `token` the server
 * rates the account, else the body's `guest` rating. Answers { solved, rated, player: { rating,
 * rd, volatility, change }, puzzle: { rating, rd } }.
 */
export const result = (id, body, token, opts) => apiRequest('POST', puzzlePath(id, 'result'), { ...opts, body, token });

/** An account's puzzle ratings: { ratings: { <variant>: { rating, rd, volatility, plays } } }. */
export const mine = (token, opts) => apiRequest('GET', '/api/puzzles/me', { ...opts, token });
