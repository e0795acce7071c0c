// Correspondence games without the DOM: the days-per-move clocks the forms offer, a correspondence clock's time in days ("2 d 23 h") and its move's own time apart from the vacation ("2 d 23 h left (+7 d vacation)"), the player's games as GET /api/correspondence lists them (their turn first), which of them newly became their turn (for a notification), the page title that counts them and the favicon with the count as a badge; node tests it.

import { t } from './i18n.js';

export const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Days per move the forms offer, and the vacation days that go with each (for the whole game). */
export const CORR_DAYS = [1, 2, 3, 5, 7, 14];
export const VACATION_DAYS = 7;
/** The forms' clock keys of them (record.js's clockKey): `3d/7`. */
export const CORR_CLOCKS = CORR_DAYS.map((d) => `${d}d/${VACATION_DAYS}`);

/** Whether a clock spec (a room's `control`, a form's clock) is a correspondence one. */
export const isCorrespondence = (control) => Number(control?.days) > 0;

/**
 * A correspondence clock's time: "2 d 23 h" from a day on, "5 h 12 m" under a day, "12:05"
 * (minutes and seconds) under an hour. Days, hours and minutes are whole ones (rounded down:
 * never more time than there is); seconds are rounded up, so the clock reaches 0:00 as it falls.
 */
export function formatDays(ms) {
  const v = Math.max(0, Number(ms) || 0);
  if (v >= DAY_MS) return t('corr.dh', { d: Math.floor(v / DAY_MS), h: Math.floor((v % DAY_MS) / HOUR_MS) });
  if (v >= HOUR_MS) return t('corr.hm', { h: Math.floor(v / HOUR_MS), m: Math.floor((v % HOUR_MS) / 60000) });
  const total = Math.ceil(v / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** A vacation's time: whole days as "7 d", else as formatDays says ("6 d 23 h", "5 h 12 m"). */
export function formatVacation(ms) {
  const v = Math.max(0, Number(ms) || 0);
  if (v >= DAY_MS && v % DAY_MS < 60_000) return t('corr.d', { d: Math.floor(v / DAY_MS) });
  return formatDays(v);
}

/**
 * A side's correspondence time `ms` (its days per move plus the vacation left) split as a page
 * shows it: { own, vacation } — the move's own time (`ms` less `vacationMs`, the side's
 * vacation as its turn began, while that is positive), then the vacation counting down.
 */
export function corrSplit(ms, vacationMs) {
  const left = Math.max(0, Number(ms) || 0);
  const vacation = Math.max(0, Number(vacationMs) || 0);
  return { own: Math.max(0, left - vacation), vacation: Math.min(vacation, left) };
}

/**
 * The list's words for a game's time left (a `corrGames` entry): "2 d 23 h left (+7 d
 * vacation)", "… left for Bob (…)" when it is the opponent's move, without the vacation when
 * none is left; a first move's time before an abort as it is.
 */
export function corrLeftWords(g) {
  const { own, vacation } = g.firstMove ? { own: g.leftMs, vacation: 0 } : corrSplit(g.leftMs, g.vacationMs);
  const p = { time: formatDays(own), vac: formatVacation(vacation), name: g.opponent?.name || '?' };
  if (vacation > 0) return t(g.yourTurn ? 'corr.leftVac' : 'corr.theirLeftVac', p);
  return t(g.yourTurn ? 'corr.left' : 'corr.theirLeft', p);
}

/** The low mark of a correspondence clock: a quarter of its days per move, at most a day. */
export const corrLowBelowMs = (control) => Math.min(DAY_MS, (Number(control.days) * DAY_MS) / 4);

/**
 * The answer of GET /api/correspondence as the page shows it: { yours, waiting }, each a list of
 * { room, game, control, you, yourTurn, opponent: { name, bot }, moves, leftMs, vacationMs,
 * firstMove, rated } in the server's order (least time first). Anything that is not a game is left out.
 */
export function corrGames(data) {
  const list = Array.isArray(data?.games) ? data.games : [];
  const games = list
    .filter((g) => g && typeof g === 'object' && typeof g.room === 'string' && g.room)
    .map((g) => ({
      room: g.room,
      game: g.game ?? null,
      control: g.control ?? null,
      you: g.you === 'white' ? 'white' : 'black',
      yourTurn: g.your_turn === true,
      opponent: g.opponent && typeof g.opponent === 'object'
        ? { name: String(g.opponent.name ?? ''), bot: !!g.opponent.bot } : null,
      moves: Number.isFinite(Number(g.moves)) ? Number(g.moves) : 0,
      leftMs: Math.max(0, Number(g.left_ms) || 0),
      vacationMs: Math.max(0, Number(g.vacation_ms) || 0),
      // The side to move's first move (neither side has moved twice): `left_ms` is the time
      // before an abort then, the vacation aside.
      firstMove: g.first_move === true || (Number(g.moves) || 0) < 2,
      rated: !!g.rated,
    }));
  return { yours: games.filter((g) => g.yourTurn), waiting: games.filter((g) => !g.yourTurn) };
}

/** One turn of one game, as a notification is told once for it: `<room>#<moves>`. */
export const turnKey = (room, moves) => `${room}#${moves}`;

/** The games of `yours` that were not our turn in the list before (`before`: the turn keys of
 *  that list, or null when there was none: the first list notifies nothing). */
export function newTurns(before, yours) {
  if (!before) return [];
  return yours.filter((g) => !before.has(turnKey(g.room, g.moves)));
}

/** The page title with the number of games where it is our turn: "(2) Your turn · Kibitz". */
export function turnTitle(base, n) {
  return n > 0 ? `(${n}) ${t('corr.yourTurn')} · ${base}` : base;
}

/** The favicon (favicon.svg's two stones) with a red badge counting `n` games: an SVG data
 *  address (9+ above nine). */
export function badgeIcon(n) {
  const text = n > 9 ? '9+' : String(n);
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">'
    + '<rect width="32" height="32" rx="6" fill="#d9a65a"/><path d="M0 16h32M16 0v32" stroke="#5a3d14" stroke-width="1.5"/>'
    + '<circle cx="11" cy="16" r="7" fill="#1d1d1f"/><circle cx="21" cy="16" r="7" fill="#fafafa" stroke="#555"/>'
    + '<circle cx="23" cy="9" r="9" fill="#d42020" stroke="#fff" stroke-width="1.5"/>'
    + `<text x="23" y="13" font-family="Arial,sans-serif" font-size="${text.length > 1 ? 9 : 12}" font-weight="bold" fill="#fff" text-anchor="middle">${text}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
