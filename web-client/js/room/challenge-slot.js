// A seat's "Challenge" button in the room's player bar: beside a person who is not us (never beside a bot: it is playing in this room; bots are challenged from their page or the bots' leaderboard), drawn again only when the seat's person (or the language) changes, so that a bar redrawn on every message keeps the button and its focus.

import { h, clear } from '../dom.js';
import { getLang } from '../i18n.js';

/** Puts the button for the seat's person `info` (a `state` seat, or null) in `bar`, after its
 *  info; `app.challengeButton` says whether there is one. */
export function renderChallengeSlot(bar, info, app) {
  if (!bar.challengeSlot) {
    bar.challengeSlot = h('span', { class: 'challenge-slot' });
    bar.info.after(bar.challengeSlot);
  }
  const key = info && !info.bot ? [info.player, info.name, app.net.player, getLang()].join('|') : '';
  if (bar.challengeSlot.dataset.key === key) return;
  bar.challengeSlot.dataset.key = key;
  clear(bar.challengeSlot);
  const button = key ? app.challengeButton?.({ name: info.name, player: info.player ?? null, bot: false }) : null;
  if (button) bar.challengeSlot.append(button);
}
