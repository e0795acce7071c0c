// Reports without the DOM: whom a page may offer to report, the body of POST /api/reports for a player, a game or a chat line, and the moderators' list (GET /api/moderation/reports) read into a model a page draws — newest first, the reported name where the report knows it, a chat report's lines with the reported one marked, a game's players, status and move count (node-tested).

export const REPORT_KINDS = ['player', 'game', 'chat'];
export const REPORT_REASONS = ['abuse', 'cheating', 'spam', 'offensive_name', 'other'];
/** The longest note the server takes, in characters. */
export const NOTE_MAX = 500;

const str = (v) => (typeof v === 'string' ? v : '');
const trimmed = (v) => str(v).trim();

/** A note's length as the server counts it (characters, not UTF-16 units). */
export const noteLength = (note) => [...str(note)].length;

/** Whether a page may offer "Report" for `person` ({ player, bot }) to `me` ({ player }): a
 *  guest may report too, but the page must know who it is (never itself) and the person's id;
 *  a bot only says the hall's own lines. */
export function canReport(person, me) {
  const player = trimmed(person?.player);
  if (!player || person?.bot) return false;
  const self = trimmed(me?.player);
  return !!self && player !== self;
}

/**
 * The body of POST /api/reports for `target` ({ kind, player, room, text }) and the dialog's
 * `form` ({ reason, note }): { body } or { error } (an i18n key) when it cannot be sent — an
 * unknown kind or reason, no player, a game or chat report without its room, a chat report
 * without its line, a note over 500 characters. The note goes trimmed, and only when there is
 * one.
 */
export function reportBody(target, form) {
  const kind = str(target?.kind);
  if (!REPORT_KINDS.includes(kind)) return { error: 'rep.badKind' };
  const reason = str(form?.reason);
  if (!REPORT_REASONS.includes(reason)) return { error: 'rep.pickReason' };
  const player = trimmed(target?.player);
  if (!player) return { error: 'rep.noPlayer' };
  const body = { kind, player };
  if (kind !== 'player') {
    const room = trimmed(target?.room);
    if (!room) return { error: 'rep.noRoom' };
    body.room = room;
  }
  if (kind === 'chat') {
    // The line exactly as the server sent it: the server finds it by its player and text.
    const text = str(target?.text);
    if (!text) return { error: 'rep.noLine' };
    body.text = text;
  }
  body.reason = reason;
  const note = trimmed(form?.note);
  if (noteLength(note) > NOTE_MAX) return { error: 'rep.noteTooLong' };
  if (note) body.note = note;
  return { body };
}

const num = (v) => (Number.isFinite(Number(v)) && v !== null && v !== '' ? Number(v) : null);

/** The chat lines of a report's context: [{ player, name, text, at, reported }], the line at
 *  index `line` marked (when it is one of them). */
function chatLines(context) {
  const rows = Array.isArray(context?.chat) ? context.chat : [];
  const line = Number.isInteger(context?.line) ? context.line : null;
  return rows.map((c, i) => ({ c, i })).filter(({ c }) => c && typeof c === 'object').map(({ c, i }) => ({
    player: str(c.player),
    name: trimmed(c.name) || null,
    text: str(c.text),
    at: num(c.at_ms),
    reported: i === line,
  }));
}

/** A seat's name in a report's context: a name, or an object with one, or null. */
const seatName = (seat) => (typeof seat === 'string' ? seat.trim() || null : typeof seat?.name === 'string' ? seat.name.trim() || null : null);

/** The name of player `id` as the report's context knows it: a player report's `name`, a chat
 *  line of theirs, else null. */
function nameOf(id, kind, context, lines) {
  if (!id) return null;
  if (kind === 'player' && trimmed(context?.name)) return trimmed(context.name);
  return lines.find((l) => l.player === id && l.name)?.name ?? null;
}

/**
 * One report of the moderators' list as a page draws it, or null when it is not one:
 * { id, at, reporter: { id, name }, kind, reason, note, player: { id, name }, room, chat,
 * reportedLine, game } — `chat` the context's lines (a chat report's around its line, a game
 * report's last ones), `reportedLine` the index of the reported one or -1, `game` (for a
 * report in a room) { game, black, white, status, moves } where `moves` counts the moves.
 */
export function reportModel(report) {
  if (!report || typeof report !== 'object') return null;
  const id = trimmed(report.id);
  if (!id) return null;
  const kind = str(report.kind);
  const context = report.context && typeof report.context === 'object' ? report.context : {};
  const chat = chatLines(context);
  const playerId = trimmed(report.player) || null;
  const reporterId = trimmed(report.reporter) || null;
  const room = trimmed(report.room) || null;
  const inRoom = kind !== 'player' && !!room;
  const moves = Array.isArray(context.moves) ? context.moves.length : null;
  return {
    id,
    at: num(report.at_ms),
    kind,
    reason: str(report.reason),
    note: trimmed(report.note),
    status: str(report.status) || 'open',
    reporter: { id: reporterId, name: nameOf(reporterId, 'chat', context, chat) },
    player: { id: playerId, name: nameOf(playerId, kind, context, chat) },
    room,
    chat,
    reportedLine: chat.findIndex((l) => l.reported),
    game: inRoom ? {
      game: context.game && typeof context.game === 'object' ? context.game : null,
      black: seatName(context.black),
      white: seatName(context.white),
      status: str(context.status) || null,
      moves,
    } : null,
  };
}

/** The moderators' list (the answer of GET /api/moderation/reports) as models, newest first
 *  (the same time: by id), each report once, anything malformed left out. */
export function readReports(data) {
  const rows = Array.isArray(data?.reports) ? data.reports : [];
  const seen = new Set();
  const out = [];
  for (const row of rows) {
    const m = reportModel(row);
    if (!m || seen.has(m.id)) continue;
    seen.add(m.id);
    out.push(m);
  }
  return out.sort((a, b) => (b.at ?? -Infinity) - (a.at ?? -Infinity) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
