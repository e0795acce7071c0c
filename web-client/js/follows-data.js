// Follows and head to head without the DOM: the HTTP requests (GET /api/follows, POST and DELETE /api/follows with an account's token; GET /api/players/<name>/vs/<other>, public), their answers read into what the pages draw (the players followed in name order, their games in play newest first, a head-to-head score and games), which pair of players a player page shows head to head, how a game went for one side, whom a page may offer to follow, and the list as this page knows it while it changes (node-tested).

import { apiRequest } from './api.js';
import { PlayerList } from './player-list.js';

/** How often the lobby's "Following" card asks again while the page is in view. */
export const REFRESH_MS = 30_000;

/** Players shown by name in the lobby's card; the rest counted ("… and 3 more"). */
export const NAMES_SHOWN = 30;

const enc = encodeURIComponent;

/** Whom the account of `token` follows and their public games in play: 200 { following:
 *  [{ player, name }], playing: [game lines] }; 401 for a guest's token. */
export const follows = (token, opts) => apiRequest('GET', '/api/follows', { ...opts, token });

/** Follows the account named `name`: 201 { player, name }. */
export const follow = (token, name, opts) => apiRequest('POST', '/api/follows', { ...opts, token, body: { name } });

/** Stops following the player of id `player`: 200 { unfollowed: <id> }. */
export const unfollow = (token, player, opts) => apiRequest('DELETE', `/api/follows/${enc(player)}`, { ...opts, token });

/** The public games between the accounts `name` and `other`, with `name`'s score: 200
 *  { player, other, wins, draws, losses, games }; 404 when either has no account. */
export const headToHead = (name, other, opts) => apiRequest('GET', `/api/players/${enc(name)}/vs/${enc(other)}`, opts);

const text = (v) => (typeof v === 'string' && v.trim() ? v.trim() : null);
const count = (v) => (Number.isFinite(Number(v)) && Number(v) > 0 ? Math.floor(Number(v)) : 0);
/** A seat's name: the server gives a string (or null); an object with a name is read too. */
const seat = (v) => (v && typeof v === 'object' ? text(v.name) : text(v));

function byName(a, b) {
  if (a.name == null || b.name == null) {
    if (a.name != null) return -1;
    if (b.name != null) return 1;
    return a.player < b.player ? -1 : a.player > b.player ? 1 : 0;
  }
  const folded = a.name.toLowerCase().localeCompare(b.name.toLowerCase());
  return folded || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** The followed players of GET /api/follows as [{ player, name }]: each once, in name order (any
 *  case); `name` null where the server knows none (listed last); anything malformed left out. */
export function readFollowing(data) {
  const rows = Array.isArray(data?.following) ? data.following : [];
  const seen = new Map();
  for (const row of rows) {
    const player = text(row?.player);
    if (!player || seen.has(player)) continue;
    seen.set(player, { player, name: text(row.name) });
  }
  return [...seen.values()].sort(byName);
}

/** A game line of the server (a player page's, head to head's, the followed games') read into
 *  { room, game, black, white, blackPlayer, whitePlayer, status, result, rated, createdMs };
 *  null without a room. `result` is the winner's colour, 'draw' or 'aborted', or null. */
export function readGame(g) {
  const room = text(g?.room);
  if (!room) return null;
  const result = typeof g.result === 'string' ? g.result : text(g.result?.result);
  const created = Number(g.created_ms);
  return {
    room,
    game: g.game && typeof g.game === 'object' ? g.game : null,
    black: seat(g.black),
    white: seat(g.white),
    blackPlayer: text(g.black_player),
    whitePlayer: text(g.white_player),
    status: text(g.status) || 'over',
    result: ['black', 'white', 'draw', 'aborted'].includes(result) ? result : null,
    rated: g.rated === true,
    createdMs: Number.isFinite(created) && created > 0 ? created : null,
  };
}

/** Game lines read (`readGame`), each room once, newest first (the server's order kept among
 *  games of the same moment). */
export function readGames(rows) {
  const seen = new Map();
  for (const row of Array.isArray(rows) ? rows : []) {
    const g = readGame(row);
    if (g && !seen.has(g.room)) seen.set(g.room, g);
  }
  return [...seen.values()]
    .map((g, i) => ({ g, i }))
    .sort((a, b) => (b.g.createdMs ?? 0) - (a.g.createdMs ?? 0) || a.i - b.i)
    .map(({ g }) => g);
}

/** GET /api/follows read: { following, playing } (`playing`: the games still in play only). */
export function readFollows(data) {
  return {
    following: readFollowing(data),
    playing: readGames(data?.playing).filter((g) => g.status === 'playing' && !g.result),
  };
}

/** Which seats of game `g` (read) hold a player of the set of ids `ids`: ['black'], ['black',
 *  'white'] or []. */
export function followedSeats(g, ids) {
  return ['black', 'white'].filter((c) => {
    const id = c === 'black' ? g?.blackPlayer : g?.whitePlayer;
    return !!id && ids.has(id);
  });
}

/** How game `g` (read) went for the player of id `player` (named `name`, for a seat without an
 *  id): 'win', 'loss', 'draw', 'aborted', 'playing' (no result yet) or 'closed' (ended without
 *  a game); the winner's colour when the player sat in neither seat. */
export function outcomeFor(g, player, name = null) {
  if (!g?.result) return g?.status === 'playing' ? 'playing' : 'closed';
  if (g.result === 'draw' || g.result === 'aborted') return g.result;
  const me = name ? name.toLowerCase() : null;
  let side = null;
  if (player && g.blackPlayer === player) side = 'black';
  else if (player && g.whitePlayer === player) side = 'white';
  else if (me && g.black?.toLowerCase() === me) side = 'black';
  else if (me && g.white?.toLowerCase() === me) side = 'white';
  if (!side) return g.result;
  return side === g.result ? 'win' : 'loss';
}

/** GET /api/players/<name>/vs/<other> read: { player: { player, name }, other: { … }, wins,
 *  draws, losses, games } (the score as whole numbers, never below 0; the games read). */
export function readHeadToHead(data) {
  const who = (v) => ({ player: text(v?.player), name: text(v?.name) });
  return {
    player: who(data?.player),
    other: who(data?.other),
    wins: count(data?.wins),
    draws: count(data?.draws),
    losses: count(data?.losses),
    games: readGames(data?.games),
  };
}

/**
 * Which two players the page of `page` ({ name, player }) shows head to head, or null: with
 * `?vs=<other>` (`vs`), the page's player against that one, whoever looks; else, for `me`
 * ({ account, name, player }) signed in to an account and looking at another's page, me against
 * them. Returns { left, right, mine }: `left` and `right` are names (the score is left's),
 * `mine` whether left is the one looking.
 */
export function headToHeadPair({ page, vs = null, me = {} }) {
  const pageName = text(page?.name);
  if (!pageName) return null;
  const same = (a, b) => !!a && !!b && a.toLowerCase() === b.toLowerCase();
  const other = text(vs);
  const myName = me?.account ? text(me.name) : null;
  if (other) {
    if (same(other, pageName)) return null;
    return { left: pageName, right: other, mine: same(myName, pageName) };
  }
  if (!myName) return null;
  const pagePlayer = text(page?.player);
  if (pagePlayer && me.player ? pagePlayer === me.player : same(myName, pageName)) return null;
  return { left: myName, right: pageName, mine: true };
}

/** Whether a page may offer "Follow" for `person` ({ player, account }) to `me` ({ account,
 *  player }): only an account follows, only accounts are followed (by name), never oneself. */
export function canFollow(person, me) {
  if (!me?.account || person?.account === false) return false;
  const player = text(person?.player);
  return !!player && player !== me.player;
}

/** The players this page knows to be followed (`readFollowing` keeps the order). */
export class FollowList extends PlayerList {
  constructor() {
    super((rows) => readFollowing({ following: rows }));
  }
}
