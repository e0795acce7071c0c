// The HTTP side of accounts, ratings, tournaments and the opening explorer: JSON requests to the server's /api/ (accounts, sign-in and sign-out, an account's blocks, reports and the moderators' list of them, their actions, audit log and sanctions in force, a player's correspondence games, leaderboards, player pages, tournaments, explorer look-ups), each answered with the data or the server's own error sentence; node tests it with a stand-in fetch.

import { t } from './i18n.js';
import { explorerPath } from './explorer-data.js';

/**
 * Sends `method` `path` and reads the JSON answer. `body` (an object) goes as JSON; `token`
 * as `Authorization: Bearer` (never in the address or a cookie). Every request that changes
 * something carries `Content-Type: application/json`, which the server requires of them (a
 * form on another site cannot send it). Resolves, never rejects, with { ok, status, data,
 * error, retryAfter }: `error` is the server's sentence for people, or a sentence of our own
 * when the answer has none (status 0: the server was not reached).
 */
export async function apiRequest(method, path, { body, token, fetchFn = globalThis.fetch } = {}) {
  const headers = { Accept: 'application/json' };
  if (method !== 'GET') headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let res;
  try {
    res = await fetchFn(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    return { ok: false, status: 0, data: null, error: t('api.unreachable'), retryAfter: null };
  }
  let data = null;
  try {
    const text = await res.text();
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  const retry = Number(res.headers?.get?.('Retry-After'));
  const retryAfter = Number.isFinite(retry) && retry > 0 ? retry : null;
  if (res.ok) return { ok: true, status: res.status, data, error: null, retryAfter };
  const said = data && typeof data.error === 'string' && data.error.trim() ? data.error.trim().slice(0, 300) : null;
  return { ok: false, status: res.status, data, error: said || t('api.failed', { status: res.status }), retryAfter };
}

const enc = encodeURIComponent;

/** Claims `name` for the player behind the guest `token`: 201 { player, name }. */
export const register = (token, name, password, opts) => apiRequest('POST', '/api/accounts', { ...opts, body: { token, name, password } });

/** Signs in: 200 { player, name, token }. */
export const signIn = (name, password, opts) => apiRequest('POST', '/api/session', { ...opts, body: { name, password } });

/** Signs this browser out: 204 (the token is forgotten by the server). */
export const signOut = (token, opts) => apiRequest('DELETE', '/api/session', { ...opts, token });

/** The players the account of `token` blocks: 200 { blocked: [{ player, name }] } (`name`
 *  null for a guest); 401 for a guest's token (guests keep no blocks). */
export const blocks = (token, opts) => apiRequest('GET', '/api/blocks', { ...opts, token });

/** Blocks the player of id `player`: 201 { blocked: <id> }. */
export const block = (token, player, opts) => apiRequest('POST', '/api/blocks', { ...opts, token, body: { player } });

/** Unblocks the player of id `player`: 200 { unblocked: <id> }. */
export const unblock = (token, player, opts) => apiRequest('DELETE', `/api/blocks/${enc(player)}`, { ...opts, token });

/** Reports a player, a game or a chat line (`body` from report-data.js's reportBody) as the
 *  player of `token` (a guest's too): 201 { report: <id> }. */
export const report = (token, body, opts) => apiRequest('POST', '/api/reports', { ...opts, token, body });

/** The open reports, for a moderator's `token`: 200 { reports: [...] }; 403 for others. */
export const moderationReports = (token, opts) => apiRequest('GET', '/api/moderation/reports?status=open', { ...opts, token });

/** A moderator's action (`body` from moderation-data.js's actionBody): 201 { id, action, … };
 *  403 for others, the server's sentence for bad input. */
export const moderationAction = (token, body, opts) => apiRequest('POST', '/api/moderation/actions', { ...opts, token, body });

/** The moderators' audit log, newest first: 200 { actions: [...] }; 403 for others. */
export const moderationLog = (token, opts) => apiRequest('GET', '/api/moderation/log', { ...opts, token });

/** The sanctions in force: 200 { sanctions: [...] }; 403 for others (a page's probe of whether
 *  its account is a moderator). */
export const moderationSanctions = (token, opts) => apiRequest('GET', '/api/moderation/sanctions', { ...opts, token });

/** The unfinished correspondence games of the player of `token` (a guest's too), theirs to
 *  move first: 200 { now_ms, games: [{ room, game, control, status, you, to_move, your_turn,
 *  opponent: { name, bot }, moves, left_ms, vacation_ms, deadline_ms, rated }] }. */
export const correspondence = (token, opts) => apiRequest('GET', '/api/correspondence', { ...opts, token });

/** A leaderboard: { key, bots, players: [{ name, rating, rd, games, provisional }] }. */
export const leaderboard = (key, bots, opts) => apiRequest('GET', `/api/leaderboard/${enc(key)}${bots ? '?bots=true' : ''}`, opts);

/** A player's page: { name, bot, ratings, history, games }. */
export const playerPage = (name, opts) => apiRequest('GET', `/api/players/${enc(name)}`, opts);

/** The tournaments, newest first: [{ id, name, kind, status, players, game }]. */
export const tournaments = (opts) => apiRequest('GET', '/api/tournaments', opts);

/** One tournament: its settings, players, rounds with their games, and `standings`. */
export const tournament = (id, opts) => apiRequest('GET', `/api/tournaments/${enc(id)}`, opts);

/** Creates a tournament (`body` from tournament-data.js's createBody, the token in it): 201 { id }. */
export const createTournament = (body, opts) => apiRequest('POST', '/api/tournaments', { ...opts, body });

/** Joins, leaves or starts (the creator) tournament `id` as the player of `token`. */
export const tournamentAction = (id, action, token, opts) => apiRequest('POST', `/api/tournaments/${enc(id)}/${action}`, { ...opts, body: { token } });

/** The opening explorer at a position: { variant, moves, to_move, games, depth, next }
 *  (`look` is { key, moves, rated, bots }, the filters 'any' | 'yes' | 'no'). */
export const explorer = (look, opts) => apiRequest('GET', explorerPath(look), opts);
