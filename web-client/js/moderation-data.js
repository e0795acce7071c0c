// Moderators' actions without the DOM: the actions a page offers (on a report, or on a player named by hand) and their lengths, the body of POST /api/moderation/actions, the sanctions in force (GET /api/moderation/sanctions) and the audit log (GET /api/moderation/log) read into what a page draws, the notice a sanctioned player reads (`sanction`), and the chat setting "everyone / players only / nobody" (node-tested).

/** Every action the server takes. */
export const ACTIONS = ['warn', 'mute', 'rated_ban', 'ban', 'close', 'lift', 'rename', 'hide_chat'];
/** The sanctions an action leaves, which `lift` ends. */
export const SANCTION_KINDS = ['mute', 'rated_ban', 'ban', 'close'];
/** The longest reason the server takes, in characters. */
export const REASON_MAX = 500;

const HOUR_MIN = 60;
const DAY_MIN = 24 * HOUR_MIN;

/** The lengths a page offers for each action that lasts, in minutes (null: for good), the
 *  first one chosen at first. */
export const DURATIONS = {
  mute: [10, HOUR_MIN, DAY_MIN, 7 * DAY_MIN, null],
  rated_ban: [DAY_MIN, 7 * DAY_MIN, null],
  ban: [DAY_MIN, 7 * DAY_MIN, null],
};

/** The actions a report's "Act" area offers: a chat report's may hide its line. */
export function reportActions(kind) {
  const base = ['warn', 'mute', 'rated_ban', 'ban', 'close', 'rename'];
  return kind === 'chat' ? [...base, 'hide_chat'] : base;
}

/** The actions the form for a player named by hand offers (no line to hide there). */
export const PLAYER_ACTIONS = ['warn', 'mute', 'rated_ban', 'ban', 'close', 'rename', 'lift'];

/** The lengths offered for `action` (empty for one that does not last). */
export const durationsFor = (action) => DURATIONS[action] ?? [];

/** A length's key in the strings: `10m`, `1h`, `1d`, `7d`, `forever`. */
export function durationKey(minutes) {
  if (minutes == null) return 'forever';
  if (minutes % DAY_MIN === 0) return `${minutes / DAY_MIN}d`;
  if (minutes % HOUR_MIN === 0) return `${minutes / HOUR_MIN}h`;
  return `${minutes}m`;
}

/** A length as a form's `<select>` keeps it ('forever' for good) and back. */
export const durationValue = (minutes) => (minutes == null ? 'forever' : String(minutes));
export const durationFromValue = (value) => (value === 'forever' || value == null || value === '' ? null : Number(value));

const str = (v) => (typeof v === 'string' ? v : '');
const trimmed = (v) => str(v).trim();
/** Characters as the server counts them (not UTF-16 units). */
const chars = (s) => [...s].length;

/**
 * The body of POST /api/moderation/actions for a form ({ action, player, reason, minutes, kind,
 * name, room, text, report }): { body } or { error } (a strings key) — an unknown action, no
 * player, no reason or one over 500 characters, a length the action does not take, a lift
 * without its kind, a rename without the new name, a hidden line without its room and text.
 * `minutes` null (or absent) is for good; `report` closes that report.
 */
export function actionBody(form) {
  const action = str(form?.action);
  if (!ACTIONS.includes(action)) return { error: 'modx.err.action' };
  const player = trimmed(form?.player);
  if (!player) return { error: 'modx.err.player' };
  const reason = trimmed(form?.reason);
  if (!reason) return { error: 'modx.err.reason' };
  if (chars(reason) > REASON_MAX) return { error: 'modx.err.reasonLong' };
  const body = { action, player, reason };
  if (DURATIONS[action]) {
    const minutes = form?.minutes ?? null;
    if (minutes !== null && !(Number.isInteger(minutes) && minutes > 0)) return { error: 'modx.err.duration' };
    if (minutes !== null) body.minutes = minutes;
  }
  if (action === 'lift') {
    if (!SANCTION_KINDS.includes(form?.kind)) return { error: 'modx.err.kind' };
    body.kind = form.kind;
  }
  if (action === 'rename') {
    const name = trimmed(form?.name);
    if (!name) return { error: 'modx.err.name' };
    body.name = name;
  }
  if (action === 'hide_chat') {
    // The line exactly as the server stored it: it finds the line by its player and text.
    const room = trimmed(form?.room);
    const text = str(form?.text);
    if (!room || !text) return { error: 'modx.err.line' };
    body.room = room;
    body.text = text;
  }
  const report = trimmed(form?.report);
  if (report) body.report = report;
  return { body };
}

const num = (v) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const who = (id, name) => ({ id: trimmed(id) || null, name: trimmed(name) || null });

/** The sanctions in force (the answer of GET /api/moderation/sanctions): [{ player: { id, name },
 *  kind, until (ms, null for good), reason, by: { id, name }, at }], newest first, anything
 *  malformed left out. */
export function readSanctions(data) {
  const rows = Array.isArray(data?.sanctions) ? data.sanctions : [];
  return rows
    .filter((r) => r && typeof r === 'object' && trimmed(r.player) && SANCTION_KINDS.includes(r.kind))
    .map((r) => ({
      player: who(r.player, r.name),
      kind: r.kind,
      until: num(r.until_ms),
      reason: str(r.reason),
      by: who(r.moderator, r.moderator_name),
      at: num(r.at_ms),
    }))
    .sort((a, b) => (b.at ?? -Infinity) - (a.at ?? -Infinity));
}

/** The audit log (the answer of GET /api/moderation/log): [{ id, at, action, by, player, room,
 *  reason, detail, until, report }] as the server lists it (newest first), each entry once. */
export function readLog(data) {
  const rows = Array.isArray(data?.actions) ? data.actions : [];
  const seen = new Set();
  const out = [];
  for (const r of rows) {
    if (!r || typeof r !== 'object' || !trimmed(r.id) || seen.has(r.id) || !trimmed(r.action)) continue;
    seen.add(r.id);
    out.push({
      id: r.id,
      at: num(r.at_ms),
      action: r.action,
      by: who(r.moderator, r.moderator_name),
      player: who(r.player, r.name),
      room: trimmed(r.room) || null,
      reason: str(r.reason),
      detail: str(r.detail),
      until: num(r.until_ms),
      report: trimmed(r.report) || null,
    });
  }
  return out;
}

/**
 * What a `sanction` message tells its player, as a strings key and its parameters: { key,
 * until (ms or null), reason, kind } — `modn.mute` and `modn.muteUntil`, `modn.ratedBan…`,
 * `modn.ban…`, `modn.warn`, `modn.close`, `modn.rename`, `modn.lift.<kind>` (the kind the
 * message names, else `liftKind`: the one sanction this page was told of) or `modn.lift`, and
 * `modn.other` for an action this page does not know.
 */
export function sanctionNotice(msg, liftKind = null) {
  const action = str(msg?.action);
  const until = num(msg?.until_ms);
  const reason = str(msg?.reason);
  const timed = (base) => (until != null ? `${base}Until` : base);
  switch (action) {
    case 'warn': return { key: 'modn.warn', until: null, reason, kind: null };
    case 'mute': return { key: timed('modn.mute'), until, reason, kind: 'mute' };
    case 'rated_ban': return { key: timed('modn.ratedBan'), until, reason, kind: 'rated_ban' };
    case 'ban': return { key: timed('modn.ban'), until, reason, kind: 'ban' };
    case 'close': return { key: 'modn.close', until: null, reason, kind: 'close' };
    case 'rename': return { key: 'modn.rename', until: null, reason, kind: null };
    case 'lift': {
      const kind = SANCTION_KINDS.includes(msg?.kind) ? msg.kind : SANCTION_KINDS.includes(liftKind) ? liftKind : null;
      return { key: kind ? `modn.lift.${kind}` : 'modn.lift', until: null, reason, kind, lifted: true };
    }
    default: return { key: 'modn.other', until, reason, kind: null };
  }
}

// ---------- the chat setting ----------

/** "Chat in my games": everyone's lines, the players' only (no spectators'), or nobody's. */
export const CHAT_FILTERS = ['everyone', 'players', 'nobody'];

/** A stored setting as one of CHAT_FILTERS ('everyone' for anything else). */
export const readChatFilter = (value) => (CHAT_FILTERS.includes(value) ? value : 'everyone');

/** Whether a chat line ({ from, seat }) shows under `filter` on the page of `me` (our player
 *  id): our own lines always; `players` hides the spectators' (no seat); `nobody` everyone
 *  else's. */
export function chatShown(filter, line, me) {
  if (line?.from && line.from === me) return true;
  if (filter === 'nobody') return false;
  if (filter === 'players') return !!line?.seat;
  return true;
}
