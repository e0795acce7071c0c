// Which live game the TV page shows: the best of the lobby's live list, by a fixed order so that every viewer sees the same game; no DOM (node-tested).

/**
 * The best live game of `live` (the lobby's list), leaving out the rooms in `skip` (a Set of
 * room ids: games just shown, which may still be listed for a moment after they end); null
 * when there is none. Best is, in order:
 *   1. the most watched (people gather where the game is good; the server's own clients are
 *      not counted, so the showcase starts even with the others),
 *   2. bot against bot, then bot against person, then two people: without ratings, the
 *      server's bots are the only strength the lobby tells of, and a game with them keeps a
 *      steady pace,
 *   3. the most moves played (a game well under way, not one that may end in a few moves),
 *   4. the room id, so that the choice never depends on the list's order.
 */
export function pickBest(live, skip = new Set()) {
  const games = (Array.isArray(live) ? live : []).filter((g) => g && typeof g.room === 'string' && !skip.has(g.room));
  if (!games.length) return null;
  const bots = (g) => (g.seats?.black?.bot ? 1 : 0) + (g.seats?.white?.bot ? 1 : 0);
  const num = (v) => (Number.isFinite(Number(v)) ? Number(v) : 0);
  games.sort((a, b) => num(b.spectators) - num(a.spectators)
    || bots(b) - bots(a)
    || num(b.ply) - num(a.ply)
    || (a.room < b.room ? -1 : a.room > b.room ? 1 : 0));
  return games[0];
}
