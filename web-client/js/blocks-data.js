// Blocks without the DOM: the server's list (GET /api/blocks) read into players in name order, whom a page may offer to block (an account may block anyone else, a bot too), and the list as this page knows it while it changes (node-tested).

import { PlayerList } from './player-list.js';

/** The answer of GET /api/blocks as [{ player, name }]: each player once, accounts by name
 *  (any case, then as written), guests (`name` null) after them by id; anything malformed left
 *  out rather than shown as "undefined". */
export function readBlocked(data) {
  const rows = Array.isArray(data?.blocked) ? data.blocked : [];
  const seen = new Map();
  for (const row of rows) {
    const player = typeof row?.player === 'string' ? row.player.trim() : '';
    if (!player || seen.has(player)) continue;
    const name = typeof row.name === 'string' && row.name.trim() ? row.name.trim() : null;
    seen.set(player, { player, name });
  }
  return [...seen.values()].sort(byName);
}

function byName(a, b) {
  if (a.name == null || b.name == null) {
    if (a.name != null) return -1;
    if (b.name != null) return 1;
    return a.player < b.player ? -1 : a.player > b.player ? 1 : 0;
  }
  const folded = a.name.toLowerCase().localeCompare(b.name.toLowerCase());
  return folded || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/** Whether a page may offer "Block" for `person` ({ player }) to `me` ({ account, player }):
 *  only an account keeps blocks (a guest's request is 401), the server needs the player's id,
 *  and oneself cannot be blocked. A bot can: that hides its chat. */
export function canBlock(person, me) {
  if (!me?.account) return false;
  const player = typeof person?.player === 'string' ? person.player : '';
  if (!player) return false;
  return player !== me.player;
}

/** The players this page knows to be blocked (`readBlocked` keeps the order). */
export class BlockList extends PlayerList {
  constructor() {
    super((rows) => readBlocked({ blocked: rows }));
  }
}
