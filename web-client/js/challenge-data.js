// Challenges without the DOM: the challenge form's choices and the messages built from them (`challenge`, `challenge_reply`, `challenge_cancel`; a bot's with its `level`), a challenge said in words ("Ann challenges you: Gomoku 15×15 · renju, 5+3, Ann plays black, casual"), who may be challenged (people and bots), and the book of open challenges both ways kept from the server's messages; node tests it.

import { t, getLang, gameLabel, clockLabel, errorText } from './i18n.js';
import { clockFromKey } from './record.js';
import { openingRules } from './opening.js';
import { canBeRated } from './rating.js';
import { CORR_CLOCKS } from './corr-data.js';

/** The live clocks a challenge offers: the lobby's new-game clocks (docs/protocol.md, `create`). */
export const LIVE_CLOCKS = ['1+0', '3+2', '5+3', '10+5', '5s', '30s', 'none'];
/** Every clock a challenge offers: the live ones, then days per move (correspondence). */
export const CHALLENGE_CLOCKS = [...LIVE_CLOCKS, ...CORR_CLOCKS];
/** The challenger's colour; `random` is drawn by the server when the challenge is accepted. */
export const COLORS = ['random', 'black', 'white'];
/** The reasons to decline the server knows (docs/protocol.md, "Challenges"), the plain one first. */
export const DECLINE_REASONS = ['generic', 'later', 'too_fast', 'too_slow', 'time_control', 'rated', 'casual', 'variant'];
export const GAME_KINDS = ['gomoku', 'othello', 'connect4'];
export const GOMOKU_SIZES = [11, 15, 19];
export const GOMOKU_RULES = ['freestyle', 'standard', 'renju'];
/** Connect Four's columns and rows, as the lobby's form offers them. */
export const C4_SIZES = Array.from({ length: 9 }, (_, i) => i + 4);
/** A bot's levels (docs/protocol.md, "Challenges"): 5 when not asked, 10 in a rated game. */
export const BOT_LEVELS = Array.from({ length: 10 }, (_, i) => i + 1);
export const DEFAULT_BOT_LEVEL = 5;
export const RATED_BOT_LEVEL = 10;

export const DEFAULT_CHALLENGE = {
  kind: 'gomoku', size: 15, rule: 'freestyle', openingRule: 'none', cols: 7, rows: 6,
  clock: '5+3', color: 'random', rated: false, level: DEFAULT_BOT_LEVEL,
};

/** A stored or edited form made whole and valid: anything unknown falls back to the default, an
 *  opening rule the board does not take to none. */
export function normalForm(saved) {
  const f = { ...DEFAULT_CHALLENGE, ...(saved && typeof saved === 'object' ? saved : {}) };
  const pick = (value, allowed, fallback) => (allowed.includes(value) ? value : fallback);
  const form = {
    kind: pick(f.kind, GAME_KINDS, DEFAULT_CHALLENGE.kind),
    size: pick(Number(f.size), GOMOKU_SIZES, DEFAULT_CHALLENGE.size),
    rule: pick(f.rule, GOMOKU_RULES, DEFAULT_CHALLENGE.rule),
    openingRule: String(f.openingRule || 'none'),
    cols: pick(Number(f.cols), C4_SIZES, DEFAULT_CHALLENGE.cols),
    rows: pick(Number(f.rows), C4_SIZES, DEFAULT_CHALLENGE.rows),
    clock: pick(f.clock, CHALLENGE_CLOCKS, DEFAULT_CHALLENGE.clock),
    color: pick(f.color, COLORS, DEFAULT_CHALLENGE.color),
    rated: f.rated === true,
    level: pick(Number(f.level), BOT_LEVELS, DEFAULT_BOT_LEVEL),
  };
  if (!openingRules({ kind: 'gomoku', size: form.size, rule: form.rule }).includes(form.openingRule)) form.openingRule = 'none';
  return form;
}

/** The game of the form, as `create` and `challenge` name it. */
export function challengeGame(form) {
  if (form.kind === 'gomoku') {
    const game = { kind: 'gomoku', size: form.size, rule: form.rule };
    return form.openingRule && form.openingRule !== 'none' ? { ...game, opening_rule: form.openingRule } : game;
  }
  if (form.kind === 'othello') return { kind: 'othello' };
  return { kind: 'connect4', cols: form.cols, rows: form.rows, blocked: [] };
}

/** Why the form cannot ask for a rated game (a string key), or null when it can. `meAccount`:
 *  whether we are an account; `theirAccount`: whether they are (null: not known, the server
 *  decides). */
export function ratedBlocked(form, { meAccount, theirAccount = null }) {
  if (!meAccount) return 'lobby.ratedSignIn';
  if (theirAccount === false) return 'ch.ratedTheirs';
  if (!canBeRated(challengeGame(form))) return 'lobby.ratedNotThisGame';
  return null;
}

/** The level a bot is asked to play at: the form's, but 10 in a rated game. */
export const botLevel = (form, rated) => (rated ? RATED_BOT_LEVEL : (BOT_LEVELS.includes(Number(form.level)) ? Number(form.level) : DEFAULT_BOT_LEVEL));

/** The `challenge` message to `to` (a player's id, or an account's name) from the form; rated
 *  only where it may be. To a bot (`bot`), with the level it is to play at. */
export function challengeMessage(to, form, accounts = { meAccount: false }, { bot = false } = {}) {
  const rated = !!form.rated && !ratedBlocked(form, accounts);
  const msg = {
    t: 'challenge',
    to: String(to),
    game: challengeGame(form),
    clock: clockFromKey(form.clock),
    color: COLORS.includes(form.color) ? form.color : 'random',
    rated,
  };
  if (bot) msg.level = botLevel(form, rated);
  return msg;
}

/** The answer to challenge `id`: accepted, or declined for `reason` (an unknown one is generic). */
export function replyMessage(id, accept, reason = 'generic') {
  if (accept) return { t: 'challenge_reply', challenge: id, accept: true };
  return { t: 'challenge_reply', challenge: id, accept: false, reason: DECLINE_REASONS.includes(reason) ? reason : 'generic' };
}

export const cancelMessage = (id) => ({ t: 'challenge_cancel', challenge: id });

/** Names compared as the server compares them: in any case. */
export const sameName = (a, b) => a != null && b != null && String(a).toLowerCase() === String(b).toLowerCase();

/** Whether `person` ({ name, player, bot }) may be challenged by us (`me`: { player, name }):
 *  a person or a bot with a name, not ourselves (a room's seats offer no challenge to the bot
 *  playing there: room/challenge-slot.js). */
export function canChallenge(person, me) {
  if (!person || person.name == null || String(person.name) === '') return false;
  if (me?.player && person.player && person.player === me.player) return false;
  return !sameName(person.name, me?.name);
}

/** Who plays which colour, from the challenged side (`name` is the challenger) or ours. */
function colorWords(color, name, mine) {
  if (color !== 'black' && color !== 'white') return t('ch.colorRandom');
  const c = t(`ch.${color}`);
  return mine ? t('ch.youPlay', { color: c }) : t('ch.theyPlay', { name, color: c });
}

/** A challenge's terms in one line: "Gomoku 15×15 · renju, 5+3, Ann plays black, casual";
 *  `mine`: our own challenge ("you play black"); a bot's level after them (", level 7"). */
export function termsWords(ch, { name = '', mine = false } = {}) {
  const terms = t('ch.terms', {
    game: gameLabel(ch.game),
    clock: clockLabel(ch.clock ?? null),
    colors: colorWords(ch.color, name, mine),
    rated: t(ch.rated ? 'ch.rated' : 'ch.casual'),
  });
  return ch.level != null ? t('ch.termsLevel', { terms, level: ch.level }) : terms;
}

/** The name of whoever sent a `challenged`: `from` is { player, name } (or a bare name). */
export const fromName = (from) => String((from && typeof from === 'object' ? from.name : from) ?? '?');

/** The prompt's line: "Ann challenges you: Gomoku 15×15 · renju, 5+3, Ann plays black, casual". */
export function describeChallenge(ch) {
  const name = fromName(ch.from);
  return t('ch.incoming', { name, terms: termsWords(ch, { name }) });
}

/** What a `challenge_declined` says: the server's English sentence in English, else our words
 *  for its reason. */
export function declinedWords(msg) {
  const name = String(msg.by ?? '?');
  if (getLang() === 'en' && msg.message) return String(msg.message).slice(0, 200);
  const reason = DECLINE_REASONS.includes(msg.reason) ? msg.reason : 'generic';
  return t('ch.declinedWhy', { name, reason: t(`ch.why.${reason}`) });
}

/** How long after a refusal its error may still come (from the challenger's node, in a cluster). */
const REPLY_ANSWER_MS = 3000;

const GONE = ['cancelled', 'expired', 'left', 'accepted', 'declined'];

/** Why a challenge to us closed: "Ann withdrew the challenge", "… expired", "Ann left", or
 *  answered from another of our connections. */
export const goneWords = (why, name) => t(`ch.gone.${GONE.includes(why) ? why : 'other'}`, { name });

/** Why our own challenge closed without an answer. */
export const outGoneWords = (why, name) => t(why === 'expired' ? 'ch.outGone.expired' : 'ch.outGone.other', { name });

/**
 * The open challenges of this page, both ways, kept from what it sends and what the server says.
 * `outgoing`: [{ key, id, to, name, game, clock, color, rated, level, bot, status, note }] (`to`
 * as sent: an id or a name; `name` as shown; `bot` with its `level` for a bot's, whose room the
 * server makes at once), status `sending` (not
 * yet acknowledged), `waiting`, `declined`, `failed` or `gone` (the last three with a `note`).
 * `incoming`: [{ key, id, from, game, clock, color, rated, status, note }], status `open`,
 * `accepting`, `failed` or `gone`. `onMessage` answers { handled, changed, announce, go }:
 * `handled` when the message is the book's alone, `announce` a line for screen readers, `go` a
 * room to open (our accepted challenge's, or the room made for our challenge to a bot).
 */
export class ChallengeBook {
  constructor() {
    this.outgoing = [];
    this.incoming = [];
    this.nextKey = 1;
    // Rooms the server made for us while we waited on a challenge, until their first `state`.
    this.freshRooms = new Set();
  }

  /** Notes a `challenge` just sent to the person called `name`; the answer (`challenge_sent` or
   *  an error; `created` for a bot's, the message with a `level`) comes in order. */
  sent(msg, name = msg.to) {
    const bot = msg.level != null;
    const item = {
      key: this.nextKey++, id: null, to: msg.to, name: String(name), game: msg.game, clock: msg.clock, color: msg.color, rated: msg.rated,
      level: bot ? msg.level : null, bot, status: 'sending', note: '',
    };
    this.outgoing.push(item);
    return item;
  }

  /** Withdraws our challenge `key`: the `challenge_cancel` to send (null while the server has not
   *  named it yet, or when it is no longer open); the item goes either way. */
  withdraw(key) {
    const item = this.outgoing.find((o) => o.key === key);
    this.dismiss(key);
    return item && item.id != null && item.status === 'waiting' ? cancelMessage(item.id) : null;
  }

  /** Our answer to the challenge `key` to us: the `challenge_reply` to send (null when unknown).
   *  A refusal takes it off the list; an acceptance waits for the room. */
  reply(key, accept, reason, now = Date.now()) {
    const item = this.incoming.find((c) => c.key === key);
    if (!item || item.status !== 'open') return null;
    if (accept) {
      for (const c of this.incoming) if (c.status === 'accepting') c.status = 'open';
      item.status = 'accepting';
    } else {
      this.dismiss(key);
    }
    this.lastReply = item;
    this.lastReplyAt = now;
    return replyMessage(item.id, accept, reason);
  }

  /** Takes an item off either list. */
  dismiss(key) {
    this.outgoing = this.outgoing.filter((o) => o.key !== key);
    this.incoming = this.incoming.filter((c) => c.key !== key);
  }

  /** The connection dropped: the server closed our challenges with it. */
  connectionLost() {
    let changed = false;
    for (const o of this.outgoing) {
      if (o.status !== 'sending' && o.status !== 'waiting') continue;
      o.status = 'gone';
      o.note = t('ch.lost', { name: o.name });
      changed = true;
    }
    return changed;
  }

  onMessage(msg, now = Date.now()) {
    const none = { handled: false, changed: false };
    switch (msg.t) {
      case 'challenge_sent': {
        const item = this.outgoing.find((o) => o.status === 'sending' && !o.bot && sameName(o.to, msg.to))
          || this.outgoing.find((o) => o.status === 'sending' && !o.bot);
        if (!item) return { handled: true, changed: false };
        item.id = msg.challenge;
        item.status = 'waiting';
        return { handled: true, changed: true, announce: t('ch.out.waiting', { name: item.name }) };
      }
      case 'challenged': {
        const known = this.incoming.find((c) => c.id === msg.challenge);
        const fields = { id: msg.challenge, from: msg.from, game: msg.game, clock: msg.clock ?? null, color: msg.color, rated: !!msg.rated };
        if (known) Object.assign(known, fields);
        else this.incoming.push({ key: this.nextKey++, ...fields, status: 'open', note: '' });
        return { handled: true, changed: true, announce: describeChallenge(fields) };
      }
      case 'challenge_declined': {
        const item = this.outgoing.find((o) => o.id != null && o.id === msg.challenge);
        if (!item) return { handled: true, changed: false };
        item.status = 'declined';
        item.note = declinedWords({ ...msg, by: msg.by ?? item.name });
        return { handled: true, changed: true, announce: item.note };
      }
      case 'challenge_gone': {
        const mine = this.incoming.find((c) => c.id === msg.challenge);
        // Our own acceptance's room is on its way: that is no news.
        if (mine?.status === 'accepting' && msg.why === 'accepted') return { handled: true, changed: false };
        if (mine) {
          mine.status = 'gone';
          mine.note = goneWords(msg.why, fromName(mine.from));
          return { handled: true, changed: true, announce: mine.note };
        }
        const ours = this.outgoing.find((o) => o.id != null && o.id === msg.challenge);
        if (!ours || (ours.status !== 'waiting' && ours.status !== 'sending')) return { handled: true, changed: false };
        ours.status = 'gone';
        ours.note = outGoneWords(msg.why, ours.name);
        return { handled: true, changed: true, announce: ours.note };
      }
      case 'error':
        return this.onError(msg, now) ?? none;
      case 'created': {
        // Ours when it names one of our challenges, or when we have just accepted one.
        const byId = msg.challenge != null
          ? [...this.incoming, ...this.outgoing].find((c) => c.id === msg.challenge) : null;
        // A bot's room is made at once: the first `created` after our challenge to it.
        const item = byId || this.incoming.find((c) => c.status === 'accepting')
          || this.outgoing.find((o) => o.bot && o.status === 'sending');
        if (!msg.room) return none;
        if (!item) {
          if (this.outgoing.some((o) => o.status === 'waiting')) this.freshRooms.add(String(msg.room));
          return none;
        }
        this.dismiss(item.key);
        return { handled: true, changed: true, go: { room: String(msg.room), clock: item.clock ?? null } };
      }
      case 'state':
        return { handled: false, changed: this.seated(msg) };
      default:
        return none;
    }
  }

  /** The first `state` of a room just made for us, whose seats hold us and someone we are
   *  waiting on: that challenge became this room (a `created` that did not name it went to the
   *  page). A room we were in already says nothing of it. */
  seated(msg) {
    if (!this.freshRooms.delete(String(msg.room))) return false;
    const seats = [msg.seats?.black, msg.seats?.white].filter((seat) => seat && typeof seat === 'object');
    if (!msg.you || !seats.length) return false;
    const isThem = (o) => seats.some((seat) => (seat.player != null && seat.player === o.to) || sameName(seat.name, o.name));
    const before = this.outgoing.length;
    this.outgoing = this.outgoing.filter((o) => !(o.status === 'waiting' && isThem(o)));
    return this.outgoing.length !== before;
  }

  /** A refusal of a challenge message (`ref` is its `t`): said on the item it was about. A reply
   *  is refused by the challenger's side, without a `ref`: an error that names no request or
   *  room while our acceptance waits for its room, or just after a reply, is the reply's. */
  onError(msg, now) {
    if (msg.ref === 'challenge') {
      const item = this.outgoing.find((o) => o.status === 'sending');
      if (!item) return { handled: true, changed: false };
      item.status = 'failed';
      item.note = errorText(msg);
      return { handled: true, changed: true, announce: item.note };
    }
    const replyRecent = this.lastReply && (this.lastReply.status === 'accepting' || now - this.lastReplyAt < REPLY_ANSWER_MS);
    if (msg.ref === 'challenge_reply' || (msg.ref == null && msg.room == null && replyRecent)) {
      const item = this.lastReply;
      this.lastReply = null;
      if (!item) return { handled: true, changed: false };
      item.status = 'failed';
      item.note = errorText(msg);
      // A refusal's item had gone from the list: back with the reason it failed.
      if (!this.incoming.includes(item)) this.incoming.push(item);
      return { handled: true, changed: true, announce: item.note };
    }
    if (msg.ref === 'challenge_cancel') return { handled: true, changed: false };
    return null;
  }
}
