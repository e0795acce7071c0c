// Tests js/challenge-data.js: the challenge form made valid, the messages built from it (`challenge`, `challenge_reply`, `challenge_cancel`), a challenge in words in English and Chinese, who may be challenged, and the book of open challenges following the server's messages both ways.
import test from 'node:test';
import assert from 'node:assert/strict';
import { setLang } from '../js/i18n.js';
import {
  DEFAULT_CHALLENGE, DECLINE_REASONS, normalForm, challengeGame, challengeMessage, ratedBlocked, replyMessage, cancelMessage,
  canChallenge, describeChallenge, botLevel, BOT_LEVELS, DEFAULT_BOT_LEVEL, termsWords, declinedWords, goneWords, ChallengeBook,
} from '../js/challenge-data.js';

const RENJU_53 = { game: { kind: 'gomoku', size: 15, rule: 'renju' }, clock: { initial_ms: 300000, increment_ms: 3000 } };

test('a stored form is made whole and valid', () => {
  assert.deepEqual(normalForm(null), DEFAULT_CHALLENGE);
  const f = normalForm({ kind: 'chess', size: 13, rule: 'x', clock: '2+1', color: 'green', rated: 'yes', cols: 30 });
  assert.equal(f.kind, 'gomoku');
  assert.equal(f.size, 15);
  assert.equal(f.rule, 'freestyle');
  assert.equal(f.clock, '5+3');
  assert.equal(f.color, 'random');
  assert.equal(f.rated, false);
  assert.equal(f.cols, 7);
  // An opening rule the board does not take goes back to none.
  assert.equal(normalForm({ size: 15, rule: 'freestyle', openingRule: 'swap2' }).openingRule, 'swap2');
  assert.equal(normalForm({ size: 11, rule: 'freestyle', openingRule: 'swap2' }).openingRule, 'none');
  assert.equal(normalForm({ openingRule: 'nonsense' }).openingRule, 'none');
});

test('the game of the form, as create names it', () => {
  assert.deepEqual(challengeGame(normalForm({ kind: 'gomoku', size: 15, rule: 'renju' })), { kind: 'gomoku', size: 15, rule: 'renju' });
  assert.deepEqual(challengeGame(normalForm({ kind: 'gomoku', openingRule: 'swap2' })), { kind: 'gomoku', size: 15, rule: 'freestyle', opening_rule: 'swap2' });
  assert.deepEqual(challengeGame(normalForm({ kind: 'othello', size: 19 })), { kind: 'othello' });
  assert.deepEqual(challengeGame(normalForm({ kind: 'connect4', cols: 9, rows: 8 })), { kind: 'connect4', cols: 9, rows: 8, blocked: [] });
});

test('the challenge message: the game, the clock, the colour, rated only where it may be', () => {
  const form = normalForm({ kind: 'gomoku', rule: 'renju', clock: '5+3', color: 'black', rated: true });
  assert.deepEqual(challengeMessage('Bob', form, { meAccount: true }), {
    t: 'challenge', to: 'Bob', game: { kind: 'gomoku', size: 15, rule: 'renju' },
    clock: { initial_ms: 300000, increment_ms: 3000 }, color: 'black', rated: true,
  });
  // A guest, a person known to have no account, a game without a rating: casual.
  assert.equal(challengeMessage('Bob', form, { meAccount: false }).rated, false);
  assert.equal(challengeMessage('Bob', form, { meAccount: true, theirAccount: false }).rated, false);
  assert.equal(challengeMessage('Bob', { ...form, size: 19 }, { meAccount: true }).rated, false);
  // Not known whether they have one: asked for, the server has the last word.
  assert.equal(challengeMessage('Bob', form, { meAccount: true, theirAccount: null }).rated, true);
  assert.equal(challengeMessage('Bob', normalForm({ clock: 'none' })).clock, null);
  assert.deepEqual(challengeMessage('Bob', normalForm({ clock: '5s' })).clock, { move_ms: 5000 });
  assert.equal(ratedBlocked(form, { meAccount: false }), 'lobby.ratedSignIn');
  assert.equal(ratedBlocked(form, { meAccount: true, theirAccount: false }), 'ch.ratedTheirs');
  assert.equal(ratedBlocked({ ...form, kind: 'connect4', cols: 9 }, { meAccount: true }), 'lobby.ratedNotThisGame');
  assert.equal(ratedBlocked(form, { meAccount: true, theirAccount: true }), null);
});

test('replies and withdrawals', () => {
  assert.deepEqual(replyMessage('c1', true), { t: 'challenge_reply', challenge: 'c1', accept: true });
  assert.deepEqual(replyMessage('c1', false, 'too_fast'), { t: 'challenge_reply', challenge: 'c1', accept: false, reason: 'too_fast' });
  assert.deepEqual(replyMessage('c1', false, 'rude'), { t: 'challenge_reply', challenge: 'c1', accept: false, reason: 'generic' });
  assert.deepEqual(replyMessage('c1', false), { t: 'challenge_reply', challenge: 'c1', accept: false, reason: 'generic' });
  assert.deepEqual(cancelMessage('c1'), { t: 'challenge_cancel', challenge: 'c1' });
  assert.deepEqual(DECLINE_REASONS, ['generic', 'later', 'too_fast', 'too_slow', 'time_control', 'rated', 'casual', 'variant']);
});

test('who may be challenged: a person or a bot, not ourselves (by id or by name in any case)', () => {
  const me = { player: 'p1', name: 'Ann' };
  assert.equal(canChallenge({ name: 'Bob', player: 'p2' }, me), true);
  assert.equal(canChallenge({ name: 'Bob' }, me), true);
  assert.equal(canChallenge({ name: 'Kibot', bot: true }, me), true);
  assert.equal(canChallenge({ name: 'Kibot', player: 'b1', bot: true }, me), true);
  assert.equal(canChallenge({ name: 'ann' }, me), false);
  assert.equal(canChallenge({ name: 'Annie', player: 'p1' }, me), false);
  assert.equal(canChallenge({ name: '' }, me), false);
  assert.equal(canChallenge(null, me), false);
  assert.equal(canChallenge({ name: 'Bob' }, { player: null, name: null }), true);
});

test('a challenge in words, from either side, in English and Chinese', () => {
  setLang('en');
  const ch = { from: { player: 'p1', name: 'Ann' }, ...RENJU_53, color: 'black', rated: false };
  assert.equal(describeChallenge(ch), 'Ann challenges you: Gomoku 15×15 · renju, 5+3, Ann plays black, casual');
  assert.equal(describeChallenge({ ...ch, color: 'random', rated: true, clock: null }),
    'Ann challenges you: Gomoku 15×15 · renju, untimed, colours drawn at random, rated');
  assert.equal(termsWords({ game: { kind: 'othello' }, clock: { move_ms: 30000 }, color: 'white', rated: true }, { mine: true }),
    'Othello, 30 s per move, you play white, rated');
  setLang('zh');
  try {
    assert.equal(describeChallenge(ch), 'Ann 向你发起挑战：五子棋 15×15 · 连珠规则，5+3，Ann 执黑方，不计分');
  } finally {
    setLang('en');
  }
});

test('a refusal says the server\'s sentence in English and the reason\'s words otherwise; a closed challenge says why', () => {
  setLang('en');
  const msg = { by: 'Bob', reason: 'too_fast', message: 'Bob declined: this time control is too fast for them' };
  assert.equal(declinedWords(msg), 'Bob declined: this time control is too fast for them');
  assert.equal(declinedWords({ by: 'Bob', reason: 'later' }), 'Bob declined: not now; ask again later');
  assert.equal(declinedWords({ by: 'Bob', reason: 'odd' }), 'Bob declined: they are not taking this challenge');
  assert.equal(goneWords('cancelled', 'Ann'), 'Ann withdrew the challenge.');
  assert.equal(goneWords('expired', 'Ann'), 'The challenge from Ann expired.');
  assert.equal(goneWords('left', 'Ann'), 'Ann left: the challenge is off.');
  assert.equal(goneWords('whatever', 'Ann'), 'The challenge from Ann is no longer open.');
  setLang('zh');
  try {
    assert.equal(declinedWords(msg), 'Bob 拒绝了：这个计时对对方来说太快');
  } finally {
    setLang('en');
  }
});

test('the book: our challenge sent, acknowledged, declined; another refused by the server; one withdrawn', () => {
  setLang('en');
  const book = new ChallengeBook();
  const msg = challengeMessage('Bob', normalForm({ clock: '1+0' }));
  const item = book.sent(msg);
  assert.equal(item.status, 'sending');
  let r = book.onMessage({ t: 'challenge_sent', challenge: 'c7', to: 'Bob' });
  assert.deepEqual([r.handled, r.changed, r.announce], [true, true, 'Challenge sent to Bob — waiting']);
  assert.equal(item.id, 'c7');
  assert.equal(item.status, 'waiting');
  r = book.onMessage({ t: 'challenge_declined', challenge: 'c7', by: 'Bob', reason: 'too_fast', message: 'Bob declined: this time control is too fast for them' });
  assert.equal(r.handled, true);
  assert.equal(item.status, 'declined');
  assert.equal(item.note, 'Bob declined: this time control is too fast for them');
  assert.equal(r.announce, item.note);

  // Refused by the server: said on the challenge not yet acknowledged.
  const bad = book.sent(challengeMessage('Nobody', normalForm(null)));
  r = book.onMessage({ t: 'error', code: 'bad_request', message: 'Nobody is not online', ref: 'challenge' });
  assert.equal(r.handled, true);
  assert.equal(bad.status, 'failed');
  assert.equal(bad.note, 'Nobody is not online');
  // Errors of other requests are the view's.
  assert.equal(book.onMessage({ t: 'error', code: 'illegal_move', ref: 'move', room: 'r1' }).handled, false);

  // Withdrawn: the cancel names it; one not yet acknowledged sends nothing.
  const third = book.sent(challengeMessage('Cy', normalForm(null)));
  assert.equal(book.withdraw(third.key), null);
  const fourth = book.sent(challengeMessage('Cy', normalForm(null)));
  book.onMessage({ t: 'challenge_sent', challenge: 'c9', to: 'cy' });
  assert.deepEqual(book.withdraw(fourth.key), { t: 'challenge_cancel', challenge: 'c9' });
  assert.deepEqual(book.outgoing.map((o) => o.status), ['declined', 'failed']);
  book.dismiss(item.key);
  book.dismiss(bad.key);
  assert.equal(book.outgoing.length, 0);
});

test('the book: challenges to us listed, one declined, one gone, one accepted and its room opened', () => {
  setLang('en');
  const book = new ChallengeBook();
  const base = { t: 'challenged', ...RENJU_53, color: 'black', rated: false };
  let r = book.onMessage({ ...base, challenge: 'a1', from: { player: 'p1', name: 'Ann' } });
  assert.equal(r.announce, 'Ann challenges you: Gomoku 15×15 · renju, 5+3, Ann plays black, casual');
  book.onMessage({ ...base, challenge: 'b1', from: { player: 'p2', name: 'Ben' } });
  book.onMessage({ ...base, challenge: 'c1', from: { player: 'p3', name: 'Cy' } });
  // The same challenge again (a second connection of ours) is not listed twice.
  book.onMessage({ ...base, challenge: 'c1', from: { player: 'p3', name: 'Cy' } });
  assert.deepEqual(book.incoming.map((c) => c.id), ['a1', 'b1', 'c1']);
  const [ann, ben, cy] = book.incoming;

  assert.deepEqual(book.reply(ann.key, false, 'too_fast'), { t: 'challenge_reply', challenge: 'a1', accept: false, reason: 'too_fast' });
  assert.deepEqual(book.incoming.map((c) => c.id), ['b1', 'c1']);

  r = book.onMessage({ t: 'challenge_gone', challenge: 'b1', why: 'cancelled' });
  assert.equal(ben.status, 'gone');
  assert.equal(r.announce, 'Ben withdrew the challenge.');
  assert.equal(book.reply(ben.key, true), null, 'a closed challenge takes no answer');

  assert.deepEqual(book.reply(cy.key, true), { t: 'challenge_reply', challenge: 'c1', accept: true });
  assert.equal(cy.status, 'accepting');
  r = book.onMessage({ t: 'created', room: 'R1' });
  assert.deepEqual(r, { handled: true, changed: true, go: { room: 'R1', clock: RENJU_53.clock } });
  assert.deepEqual(book.incoming.map((c) => c.id), ['b1']);
  // A room nobody accepted is the page's.
  assert.equal(book.onMessage({ t: 'created', room: 'R2' }).handled, false);
});

test('the book: an accept refused comes back with the reason; a decline refused too', () => {
  const book = new ChallengeBook();
  book.onMessage({ t: 'challenged', challenge: 'x', from: { name: 'Ann' }, game: { kind: 'othello' }, clock: null, color: 'white', rated: false });
  const [c] = book.incoming;
  book.reply(c.key, false, 'later');
  assert.equal(book.incoming.length, 0);
  const r = book.onMessage({ t: 'error', code: 'bad_request', message: 'that challenge is no longer open', ref: 'challenge_reply' });
  assert.equal(r.handled, true);
  assert.equal(book.incoming[0].status, 'failed');
  assert.equal(book.incoming[0].note, 'that challenge is no longer open');
  assert.equal(book.onMessage({ t: 'error', code: 'bad_request', ref: 'challenge_cancel' }).handled, true);
});

test('the book: our challenge accepted — the new room\'s state with them in it clears it; a dropped connection withdraws the rest', () => {
  setLang('en');
  const book = new ChallengeBook();
  const a = book.sent(challengeMessage('Bob', normalForm(null)));
  const b = book.sent(challengeMessage('Cy', normalForm(null)));
  book.onMessage({ t: 'challenge_sent', challenge: 'k1', to: 'Bob' });
  book.onMessage({ t: 'challenge_sent', challenge: 'k2', to: 'Cy' });
  assert.equal(a.id, 'k1');
  assert.equal(b.id, 'k2');
  // A room we were in already (where we challenged from) settles nothing.
  assert.equal(book.onMessage({ t: 'state', room: 'R0', you: 'black', seats: { black: { name: 'Ann' }, white: { name: 'Bob' } } }).changed, false);
  // The room a `created` without a challenge named goes to the page; its state settles it.
  assert.equal(book.onMessage({ t: 'created', room: 'R9' }).handled, false);
  const r = book.onMessage({ t: 'state', room: 'R9', you: 'white', seats: { black: { name: 'bob' }, white: { name: 'Ann' } } });
  assert.deepEqual(r, { handled: false, changed: true });
  assert.deepEqual(book.outgoing.map((o) => o.to), ['Cy']);
  // A new room we only watch settles nothing.
  book.onMessage({ t: 'created', room: 'R8' });
  assert.equal(book.onMessage({ t: 'state', room: 'R8', you: null, seats: { black: { name: 'Cy' }, white: null } }).changed, false);
  // A `created` naming a challenge is ours to open.
  assert.deepEqual(book.onMessage({ t: 'created', room: 'R7', challenge: 'k2' }).go, { room: 'R7', clock: b.clock });
  const c = book.sent(challengeMessage('Dee', normalForm(null)));
  assert.equal(book.connectionLost(), true);
  assert.equal(c.status, 'gone');
  assert.equal(c.note, 'The connection dropped: your challenge to Dee was withdrawn.');
  assert.equal(book.connectionLost(), false);
  // Our challenge expired.
  const d = book.sent(challengeMessage('Eve', normalForm(null)));
  book.onMessage({ t: 'challenge_sent', challenge: 'k4', to: 'Eve' });
  book.onMessage({ t: 'challenge_gone', challenge: 'k4', why: 'expired' });
  assert.equal(d.status, 'gone');
  assert.equal(d.note, 'Your challenge to Eve expired.');
});

test('the book: a person challenged by id is shown by name, and found in the new room by id', () => {
  setLang('en');
  const book = new ChallengeBook();
  const item = book.sent(challengeMessage('p-ann', normalForm(null)), 'Ann');
  assert.equal(item.to, 'p-ann');
  const r = book.onMessage({ t: 'challenge_sent', challenge: 'k1', to: 'p-ann' });
  assert.equal(r.announce, 'Challenge sent to Ann — waiting');
  book.onMessage({ t: 'created', room: 'R1' });
  assert.equal(book.onMessage({ t: 'state', room: 'R1', you: 'black', seats: { black: { player: 'p-me', name: 'Bob' }, white: { player: 'p-ann', name: 'Ann2' } } }).changed, true);
  assert.equal(book.outgoing.length, 0);
});

test('the book: answers from another of our connections; a reply refused without a ref', () => {
  setLang('en');
  const book = new ChallengeBook();
  const base = { t: 'challenged', game: { kind: 'othello' }, clock: null, color: 'random', rated: false };
  book.onMessage({ ...base, challenge: 'a', from: { name: 'Ann' } });
  book.onMessage({ ...base, challenge: 'b', from: { name: 'Ben' } });
  book.onMessage({ ...base, challenge: 'c', from: { name: 'Cy' } });
  const [ann, ben, cy] = book.incoming;
  book.onMessage({ t: 'challenge_gone', challenge: 'a', why: 'accepted' });
  assert.equal(ann.note, 'You accepted the challenge from Ann on another device.');
  book.onMessage({ t: 'challenge_gone', challenge: 'b', why: 'declined' });
  assert.equal(ben.note, 'You declined the challenge from Ben on another device.');
  // Our own acceptance: its room is on the way, and the challenger's side may refuse it
  // with an error that names no request.
  book.reply(cy.key, true, undefined, 1000);
  assert.equal(book.onMessage({ t: 'challenge_gone', challenge: 'c', why: 'accepted' }).changed, false);
  assert.equal(cy.status, 'accepting');
  const r = book.onMessage({ t: 'error', code: 'bad_request', message: 'that challenge is no longer open' }, 60_000);
  assert.equal(r.handled, true);
  assert.equal(cy.status, 'failed');
  assert.equal(cy.note, 'that challenge is no longer open');
  // Long after a refusal, such an error is someone else's.
  book.onMessage({ ...base, challenge: 'd', from: { name: 'Dee' } });
  book.reply(book.incoming.at(-1).key, false, 'later', 1000);
  assert.equal(book.onMessage({ t: 'error', code: 'bad_request', message: 'x' }, 9000).handled, false);
  assert.equal(book.onMessage({ t: 'error', code: 'bad_request', message: 'x' }, 1500).handled, true);
});

test('a challenge to a bot: its level (5 by default, 1 to 10, 10 in a rated game), said after the terms', () => {
  setLang('en');
  assert.equal(DEFAULT_CHALLENGE.level, DEFAULT_BOT_LEVEL);
  assert.deepEqual(BOT_LEVELS, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.equal(normalForm({ level: '7' }).level, 7);
  assert.equal(normalForm({ level: 0 }).level, 5);
  assert.equal(normalForm({ level: 11 }).level, 5);
  assert.equal(normalForm({ level: 'x' }).level, 5);
  assert.equal(botLevel(normalForm({ level: 3 }), false), 3);
  assert.equal(botLevel(normalForm({ level: 3 }), true), 10);

  const form = normalForm({ kind: 'connect4', clock: '1d/7', color: 'white', level: 3 });
  assert.deepEqual(challengeMessage('b1', form, { meAccount: false }, { bot: true }), {
    t: 'challenge', to: 'b1', game: { kind: 'connect4', cols: 7, rows: 6, blocked: [] },
    clock: { days: 1, vacation_days: 7 }, color: 'white', rated: false, level: 3,
  });
  // A person's challenge has no level.
  assert.equal('level' in challengeMessage('Bob', form, { meAccount: true }), false);
  // Rated (an account, a rated game): level 10 whatever was picked; a guest's stays casual at its level.
  const rated = normalForm({ kind: 'gomoku', rule: 'renju', rated: true, level: 2 });
  assert.deepEqual(pick(challengeMessage('Kibot', rated, { meAccount: true, theirAccount: true }, { bot: true })), { rated: true, level: 10 });
  assert.deepEqual(pick(challengeMessage('Kibot', rated, { meAccount: false }, { bot: true })), { rated: false, level: 2 });

  assert.equal(termsWords({ ...RENJU_53, color: 'black', rated: false, level: 7 }, { mine: true }),
    'Gomoku 15×15 · renju, 5+3, you play black, casual, level 7');
  setLang('zh');
  assert.match(termsWords({ ...RENJU_53, color: 'black', rated: false, level: 7 }, { mine: true }), /，等级 7$/);
  setLang('en');
});

test('the book: a challenge to a bot opens the room the server makes at once; a refusal is said on it', () => {
  setLang('en');
  const book = new ChallengeBook();
  // A person's challenge waits meanwhile: the bot's `created` is not taken for it.
  const person = book.sent(challengeMessage('Bob', normalForm(null)));
  book.onMessage({ t: 'challenge_sent', challenge: 'c1', to: 'Bob' });
  const msg = challengeMessage('b1', normalForm({ clock: '3+2', level: 4 }), { meAccount: false }, { bot: true });
  const item = book.sent(msg, 'Kibot');
  assert.deepEqual([item.bot, item.level, item.status, item.name], [true, 4, 'sending', 'Kibot']);
  // An acknowledgement of a person's challenge is never the bot's.
  const r0 = book.onMessage({ t: 'challenge_sent', challenge: 'c2', to: 'Cy' });
  assert.equal(r0.changed, false);
  assert.equal(item.status, 'sending');
  const r = book.onMessage({ t: 'created', room: 'r9' });
  assert.deepEqual(r.go, { room: 'r9', clock: { initial_ms: 180000, increment_ms: 2000 } });
  assert.equal(r.handled, true);
  assert.deepEqual(book.outgoing, [person]);
  // Another `created` is the page's (the lobby's own create).
  assert.equal(book.onMessage({ t: 'created', room: 'r10' }).handled, false);

  // Refused (no bot free, say): the server's sentence on it, to dismiss.
  const again = book.sent(challengeMessage('Kibot', normalForm(null), { meAccount: false }, { bot: true }));
  const e = book.onMessage({ t: 'error', code: 'bad_request', message: 'no bot can play this game now', ref: 'challenge' });
  assert.equal(e.handled, true);
  assert.deepEqual([again.status, again.note], ['failed', 'no bot can play this game now']);
});

function pick(msg) {
  return { rated: msg.rated, level: msg.level };
}
