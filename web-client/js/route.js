// The page's addresses: which view an address shows (lobby, room, TV, account form, leaderboard, player page, tournaments, a tournament, the opening explorer, the puzzles, the analysis board, the moderators' reports) and the address of a view; no DOM, so node can test it.

import { RATING_KEYS, LEADERBOARD_KEYS } from './rating.js';
import { explorerRoute, explorerQuery } from './explorer-data.js';
import { analysisRoute, analysisQuery } from './analysis/share.js';
import { puzzlesRoute, puzzleRoute, puzzlesQuery } from './puzzles/address.js';

const ACCOUNT_MODES = ['signin', 'register'];

const trimmed = (v) => (v && v.trim() ? v.trim() : null);

/**
 * The view that the address with query `search` and path `pathname` shows:
 * { page: 'room', room } for `?room=<id>`, { page: 'tv' } for `/tv`, { page: 'account', mode }
 * for `?account=signin|register`, { page: 'leaderboard', key, bots } for
 * `?leaderboard=<key>[&bots=true]` (an unknown key is the first), { page: 'player', name[, vs] } for
 * `?player=<name>[&vs=<other>]`, { page: 'tournaments' } for `?tournaments`, { page: 'tournament', id } for
 * `?tournament=<id>`, { page: 'explorer', key, moves, rated, bots, opening } for
 * `?explorer=<key>[&opening=<rule>][&moves=a,b][&rated=yes|no][&bots=yes|no]` (explorer-data.js),
 * { page: 'analysis', variant, setup, tree, at } for `?analysis=<variant>[&setup=…][&tree=…][&at=n]`
 * (analysis/share.js), else
 * { page: 'puzzles', variant, theme, mode } for `?puzzles[&variant=][&theme=][&mode=streak]`,
 * { page: 'puzzle', id } for `?puzzle=<id>` (puzzles/address.js), { page: 'moderation' } for
 * `?moderation`, else { page: 'lobby' }.
 */
export function parseRoute(search = '', pathname = '/') {
  const q = new URLSearchParams(search);
  const room = trimmed(q.get('room'));
  if (room) return { page: 'room', room };
  if (/\/tv$/.test(pathname)) return { page: 'tv' };
  const mode = q.get('account');
  if (ACCOUNT_MODES.includes(mode)) return { page: 'account', mode };
  if (q.has('leaderboard')) {
    const key = q.get('leaderboard');
    return { page: 'leaderboard', key: LEADERBOARD_KEYS.includes(key) ? key : RATING_KEYS[0], bots: q.get('bots') === 'true' };
  }
  const player = trimmed(q.get('player'));
  // `&vs=<other>`: the page shows the two players' games head to head too.
  const vs = trimmed(q.get('vs'));
  if (player) return vs ? { page: 'player', name: player, vs } : { page: 'player', name: player };
  const tournament = trimmed(q.get('tournament'));
  if (tournament) return { page: 'tournament', id: tournament };
  if (q.has('tournaments')) return { page: 'tournaments' };
  if (q.has('explorer')) return explorerRoute(q);
  if (q.has('analysis')) return analysisRoute(q);
  const puzzle = puzzleRoute(q);
  if (puzzle) return puzzle;
  if (q.has('puzzles')) return puzzlesRoute(q);
  if (q.has('moderation')) return { page: 'moderation' };
  return { page: 'lobby' };
}

/** The address of `route` under `base`, the page's folder (ends with `/`). */
export function routeUrl(route, base = '/') {
  const enc = encodeURIComponent;
  switch (route?.page) {
    case 'room': return `${base}?room=${enc(route.room)}`;
    case 'tv': return `${base}tv`;
    case 'account': return `${base}?account=${enc(route.mode)}`;
    case 'leaderboard': return `${base}?leaderboard=${enc(route.key || RATING_KEYS[0])}${route.bots ? '&bots=true' : ''}`;
    case 'player': return `${base}?player=${enc(route.name)}${route.vs ? `&vs=${enc(route.vs)}` : ''}`;
    case 'tournaments': return `${base}?tournaments`;
    case 'tournament': return `${base}?tournament=${enc(route.id)}`;
    case 'explorer': return `${base}?${explorerQuery(route)}`;
    case 'analysis': return `${base}?${analysisQuery(route)}`;
    case 'puzzles':
    case 'puzzle': return `${base}?${puzzlesQuery(route)}`;
    case 'moderation': return `${base}?moderation`;
    default: return base;
  }
}
