// Tournaments as the page shows them, without the DOM (node-tested): the games, clocks and kinds a tournament may have, the create request's body, points with ½, the standings' lines, the rounds' games and byes, and which buttons (join, leave, start) a visitor gets.

import { clockFromKey } from './record.js';
import { RATING_KEYS } from './rating.js';

/** The kinds of tournament the server directs. */
export const TOURNAMENT_KINDS = ['round_robin', 'swiss'];

/** A tournament's life: open (players join), running (rounds played), over. */
export const TOURNAMENT_STATUSES = ['open', 'running', 'over'];

/** The games a tournament can be of: the lobby's common ones, which are the rated ones (one a
 *  rating key, so a rated tournament is always possible). Same specs as the lobby's presets. */
export const TOURNAMENT_GAMES = [
  { key: 'gomoku-freestyle', game: { kind: 'gomoku', size: 15, rule: 'freestyle' } },
  { key: 'gomoku-standard', game: { kind: 'gomoku', size: 15, rule: 'standard' } },
  { key: 'gomoku-renju', game: { kind: 'gomoku', size: 15, rule: 'renju' } },
  { key: 'othello', game: { kind: 'othello' } },
  { key: 'connect4', game: { kind: 'connect4', cols: 7, rows: 6, blocked: [] } },
];
// One game a rating key, in the leaderboard's order: a new rating key needs a game here.
if (TOURNAMENT_GAMES.map((g) => g.key).join() !== RATING_KEYS.join()) throw new Error('tournament games out of step with the rating keys');

/** Clock presets (keys of record.js's clockFromKey). Every tournament game has a clock: a
 *  round waits for its slowest game, so none may take for ever. */
export const TOURNAMENT_CLOCKS = ['1+0', '3+2', '5+3', '10+5', '5s', '30s'];

/** Swiss rounds the form offers (the server's range). */
export const SWISS_ROUNDS = { min: 1, max: 20, default: 3 };

/** Longest tournament name, in characters (the server's limit). */
export const NAME_MAX = 40;

/** The GameSpec of a key of TOURNAMENT_GAMES (the first for an unknown key), a fresh copy. */
export function gameForKey(key) {
  const found = TOURNAMENT_GAMES.find((g) => g.key === key) || TOURNAMENT_GAMES[0];
  return structuredClone(found.game);
}

/** A player as the API lists them (a name, or an object with one), as a name; '' for none. */
export function nameOf(p) {
  if (p == null) return '';
  if (typeof p === 'string') return p;
  if (typeof p === 'object' && p.name != null) return String(p.name);
  return '';
}

const sameName = (a, b) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/** The name of the fraction part of a score: ¼, ½, ¾ (Sonneborn-Berger counts quarters). */
const FRACTIONS = { 0.25: '¼', 0.5: '½', 0.75: '¾' };

/**
 * Points as a table writes them: 2.5 → "2½", 0.5 → "½", 3 → "3", 1.25 → "1¼"; any other
 * fraction as a decimal rounded to two places; '' for no number.
 */
export function formatPoints(value) {
  if (value == null || value === '') return '';
  const n = Number(value);
  if (!Number.isFinite(n)) return '';
  const sign = n < 0 ? '\u2212' : '';
  const abs = Math.abs(n);
  const whole = Math.floor(abs);
  // Rounded to quarters when that is what it is (floats from the server: 0.1 + 0.2 ...).
  const frac = Math.round((abs - whole) * 100) / 100;
  if (frac === 0) return `${sign}${whole}`;
  if (frac === 1) return `${sign}${whole + 1}`;
  const glyph = FRACTIONS[frac];
  if (glyph) return `${sign}${whole || ''}${glyph}`;
  return `${sign}${abs.toFixed(2).replace(/0$/, '')}`;
}

const num = (v) => (v == null || !Number.isFinite(Number(v)) ? null : Number(v));

/**
 * The standings as table lines, best first: { rank, name, bot, points (the number), pointsText
 * ("2½"), games, wins, buchholz, buchholzText, sb, sbText, tied (only the seed puts it below
 * the line above), rankText ("3", or "=1" for each line of a tie: they share the place),
 * shared (the line is in a tie) }. The server's rank is kept (it
 * breaks ties itself); lines without one follow in the order given.
 */
export function standingsRows(standings) {
  const list = Array.isArray(standings) ? standings.filter((s) => s && typeof s === 'object') : [];
  const rows = list.map((s, i) => {
    const points = num(s.points) ?? 0;
    const buchholz = num(s.buchholz);
    const sb = num(s.sonneborn_berger ?? s.sb);
    return {
      rank: num(s.rank) ?? i + 1,
      name: nameOf(s.name ?? s.player),
      bot: !!(s.bot ?? s.player?.bot),
      // One bot may be entered at several levels: the level tells them apart.
      ...(num(s.level) != null ? { level: num(s.level) } : {}),
      points,
      pointsText: formatPoints(points),
      games: num(s.games) ?? 0,
      wins: num(s.wins) ?? 0,
      buchholz,
      buchholzText: formatPoints(buchholz),
      sb,
      sbText: formatPoints(sb),
      tied: !!s.tied,
      order: i,
    };
  });
  rows.sort((a, b) => a.rank - b.rank || a.order - b.order);
  // Tied lines share the place of the first of them, each shown "=1": a line is in a tie with
  // the one above it when it is `tied`, and with the one below when that one is.
  return rows.map(({ order, ...row }, i) => {
    let first = i;
    while (first > 0 && rows[first].tied) first -= 1;
    const shared = row.tied || rows[i + 1]?.tied;
    return { ...row, rankText: shared ? `=${rows[first].rank}` : String(row.rank), shared: !!shared };
  });
}

/**
 * A game's result as the rounds show it: { state, winner, score, forfeit } with `state` 'over'
 * | 'playing' | 'aborted' (over, nobody scored) | 'pending' (not started yet), `winner` 'black'
 * | 'white' | 'draw' | null and `score` "1–0", "0–1", "½–½" or ''. What each side scored
 * (`black_points`, `white_points`: the players the pairing seated black and white, whatever an
 * opening rule did to the colours) decides it when given; else the result ('black' | 'white' |
 * 'draw' | 'aborted', "1-0" / "0-1" / "1/2-1/2", or inside an object as `result` or `winner`).
 * An aborted game that scored is a forfeit (docs/protocol.md, Tournaments: the side that
 * never moved loses). A game with a room and no result is being played.
 */
export function gameResult(g) {
  let r = g?.result;
  if (r && typeof r === 'object') r = r.result ?? r.winner ?? null;
  if (typeof r === 'string') r = r.trim().toLowerCase();
  const bp = num(g?.black_points);
  const wp = num(g?.white_points);
  if (bp != null && wp != null) {
    const winner = bp > wp ? 'black' : wp > bp ? 'white' : 'draw';
    return { state: 'over', winner, score: `${formatPoints(bp)}–${formatPoints(wp)}`, forfeit: r === 'aborted' };
  }
  const winner = r === 'black' || r === '1-0' || r === '1–0' ? 'black'
    : r === 'white' || r === '0-1' || r === '0–1' ? 'white'
      : r === 'draw' || r === '1/2-1/2' || r === '½-½' || r === '½–½' ? 'draw'
        : null;
  if (winner) {
    const score = { black: '1–0', white: '0–1', draw: '½–½' }[winner];
    return { state: 'over', winner, score, forfeit: false };
  }
  const none = { winner: null, score: '', forfeit: false };
  if (r === 'aborted') return { state: 'aborted', ...none };
  const status = typeof g?.status === 'string' ? g.status : null;
  if (status === 'over') return { state: 'aborted', ...none };
  if (status === 'pending' || !g?.room) return { state: 'pending', ...none };
  return { state: 'playing', ...none };
}

/** Byes of a round: `bye` (a name, a player or null) and/or `byes` (a list of them). */
function byesOf(round) {
  const all = [];
  if (round?.bye != null) all.push(round.bye);
  if (Array.isArray(round?.byes)) all.push(...round.byes);
  return all.map(nameOf).filter(Boolean);
}

/**
 * The rounds as the page lists them: [{ number, games: [{ room, black, white, state, winner,
 * score }], byes: [name] }]. A round is an object with `games` (or `pairings`), or a bare list
 * of games; its number is its `round`/`number`, else its place. A tournament-wide `byes` (a
 * list of { round, name } or [round, name]) is spread over its rounds.
 */
export function roundRows(rounds, allByes = []) {
  const list = Array.isArray(rounds) ? rounds : [];
  const rows = list.map((round, i) => {
    const games = Array.isArray(round) ? round : Array.isArray(round?.games) ? round.games : Array.isArray(round?.pairings) ? round.pairings : [];
    return {
      number: num(round?.round ?? round?.number) ?? i + 1,
      games: games.filter((g) => g && typeof g === 'object').map((g) => ({
        room: g.room != null ? String(g.room) : null,
        black: nameOf(g.black),
        white: nameOf(g.white),
        ...gameResult(g),
        // A bot whose every place is taken: the game's room waits for a free one.
        ...(g.waits_for != null ? { waitsFor: nameOf(g.waits_for) } : {}),
        ...(num(g.black_level) != null ? { blackLevel: num(g.black_level) } : {}),
        ...(num(g.white_level) != null ? { whiteLevel: num(g.white_level) } : {}),
      })),
      byes: Array.isArray(round) ? [] : byesOf(round),
    };
  });
  for (const b of Array.isArray(allByes) ? allByes : []) {
    const [n, who] = Array.isArray(b) ? b : [b?.round, b?.name ?? b?.player];
    const row = rows.find((r) => r.number === Number(n));
    const name = nameOf(who);
    if (row && name && !row.byes.some((x) => sameName(x, name))) row.byes.push(name);
  }
  return rows;
}

/** The creator's name: `creator_name` (the API's `creator` is a player id), else `creator`. */
export const creatorName = (tournament) => nameOf(tournament?.creator_name ?? tournament?.creator);

/** The rounds of a tournament as the API gives them: `pairings` (a list of rounds; `rounds`
 *  is then their planned number), or `rounds` when that is the list. */
export function roundsOf(tournament) {
  if (Array.isArray(tournament?.pairings)) return tournament.pairings;
  return Array.isArray(tournament?.rounds) ? tournament.rounds : [];
}

/** How many rounds the tournament has (settled at the start; a Swiss may name it before),
 *  or null when not known yet. */
export function plannedRounds(tournament) {
  const n = Number(tournament?.rounds);
  return typeof tournament?.rounds === 'number' && Number.isInteger(n) && n > 0 ? n : null;
}

/** The players of a tournament, as names, in the order given. */
export function playerNames(tournament) {
  const list = Array.isArray(tournament?.players) ? tournament.players : [];
  return list.map(nameOf).filter(Boolean);
}

/**
 * Which buttons a visitor of `tournament` gets: { join, leave, start, signIn }. `me` is the
 * visitor's name and `account` whether it is an account (only accounts play). While open: join
 * for an account not in it, leave for a player in it, start for the creator once two players
 * are in (the server has the last word); signIn for a guest. Nothing once it runs.
 */
export function actionsFor(tournament, me, account) {
  const none = { join: false, leave: false, start: false, signIn: false };
  if (!tournament || tournament.status !== 'open') return none;
  if (!account) return { ...none, signIn: true };
  const names = playerNames(tournament);
  const inIt = names.some((n) => sameName(n, me));
  const creator = sameName(creatorName(tournament), me);
  return { join: !inIt, leave: inIt, start: creator, signIn: false };
}

/** Whether the page keeps asking for the tournament (it changes until it is over). */
export const shouldPoll = (tournament) => !tournament || tournament.status !== 'over';

/** A number of rounds for a Swiss, clamped to what the form offers. */
export function clampRounds(value) {
  const n = Math.round(Number(value));
  if (!Number.isFinite(n)) return SWISS_ROUNDS.default;
  return Math.min(SWISS_ROUNDS.max, Math.max(SWISS_ROUNDS.min, n));
}

/** The levels a bot may be entered at; at the top one it plays at its best. */
export const BOT_LEVEL_MIN = 1;
export const BOT_LEVEL_MAX = 10;

/**
 * The body of POST /api/tournaments from the create form's values: { name, kind, gameKey,
 * clock (a clock key), rounds, rated, bots (names), botLevels ({ name: level }), moreLevels
 * ({ name: [level] }: more entrants of the same bot) } and the
 * browser's `token`. `rounds` goes only with a Swiss, and only when given; `bots` only when some
 * are picked, each as its name, or { name, level } below the top level in an unrated one.
 */
export function createBody(form, token) {
  const body = {
    token,
    name: String(form.name ?? '').trim().slice(0, NAME_MAX),
    kind: TOURNAMENT_KINDS.includes(form.kind) ? form.kind : TOURNAMENT_KINDS[0],
    game: gameForKey(form.gameKey),
    clock: clockFromKey(form.clock),
    rated: !!form.rated,
  };
  // A Swiss left without a number of rounds gets the server's: ceil(log2 n) for n players.
  const auto = form.rounds == null || String(form.rounds).trim() === '';
  if (body.kind === 'swiss' && !auto) body.rounds = clampRounds(form.rounds);
  // A bot plays at its best (10, the rated level) unless given another level.
  const levels = form.botLevels || {};
  const bots = [...new Set((form.bots || []).map(String).filter(Boolean))].map((name) => {
    const level = Math.round(Number(levels[name]));
    return !body.rated && level >= BOT_LEVEL_MIN && level < BOT_LEVEL_MAX ? { name, level } : name;
  });
  // More levels of a picked bot: entrants of their own (never in a rated tournament).
  if (!body.rated) {
    for (const name of bots.map((b) => b.name ?? b)) {
      for (const level of form.moreLevels?.[name] ?? []) {
        const l = Math.round(Number(level));
        if (l >= BOT_LEVEL_MIN && l <= BOT_LEVEL_MAX) bots.push({ name, level: l });
      }
    }
  }
  if (bots.length) body.bots = bots;
  return body;
}

/** The bots of a `lobby` message that play `game`: [{ name, busy, capacity }], by name. */
export function botsFor(lobbyBots, game) {
  const list = Array.isArray(lobbyBots) ? lobbyBots : [];
  return list
    .filter((b) => b && b.name != null)
    .filter((b) => !Array.isArray(b.games) || !game || b.games.includes(game.kind))
    .map((b) => ({ name: String(b.name), busy: Number(b.busy) || 0, capacity: b.capacity ?? null }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The list of GET /api/tournaments as lines: [{ id, name, kind, status, players, game, rated,
 *  round (paired so far), rounds (planned, or null) }];
 *  the answer may be a list or { tournaments: [...] }. Open first, then running, then over,
 *  each in the order given (the server's newest first). */
export function listRows(data) {
  const list = Array.isArray(data) ? data : Array.isArray(data?.tournaments) ? data.tournaments : [];
  const order = (s) => { const i = TOURNAMENT_STATUSES.indexOf(s); return i < 0 ? TOURNAMENT_STATUSES.length : i; };
  return list
    .filter((x) => x && x.id != null)
    .map((x, i) => ({
      id: String(x.id),
      name: String(x.name ?? x.id),
      kind: x.kind,
      status: String(x.status ?? ''),
      players: num(x.players_count ?? x.player_count ?? (Array.isArray(x.players) ? x.players.length : x.players)) ?? 0,
      game: x.game ?? null,
      rated: !!x.rated,
      round: num(x.round) ?? 0,
      rounds: num(x.rounds),
      i,
    }))
    .sort((a, b) => order(a.status) - order(b.status) || a.i - b.i)
    .map(({ i, ...row }) => row);
}
