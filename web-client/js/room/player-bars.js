// The room's player bars, ours at the bottom: each seat's name (or that it is free), a bot's badge, whether the player is online, "you", an Othello game's discs, the "Challenge" button beside a person, which side is to move; the count of watchers; and the presence line of a player who left.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { countDiscs, other } from '../rules.js';
import { SEATS } from './layout.js';
import { createPresence } from './presence.js';
import { renderChallengeSlot } from './challenge-slot.js';
import { playerWord } from './words.js';

/** The info of the bar of `seat` taken by `info` (a `state` seat): badge, online dot, "you". */
function seatInfo(R, seat, info) {
  const parts = [];
  if (info.bot) parts.push(h('span', { class: 'bot-badge', 'data-testid': `bot-badge-${seat}` }, t('player.bot')));
  const online = R.online[seat] ?? info.online;
  parts.push(h('span', {
    class: `online-dot${online ? ' on' : ''}`,
    'data-testid': `online-${seat}`,
    'data-online': String(!!online),
    title: t(online ? 'player.online' : 'player.offline'),
    role: 'img',
    'aria-label': t(online ? 'player.online' : 'player.offline'),
  }));
  if (R.you === seat) parts.push(h('span', { class: 'you-tag' }, t('player.you')));
  return parts;
}

/**
 * The bars of room `R` in the page's elements `el` (layout.js: bars, topSlot, bottomSlot,
 * spectatorsEl, presenceEl); `app` gives the challenge buttons; `emit` (intents.js) asks for
 * `claim(result)` from the presence line. Returns { render(), stop() }.
 */
export function createPlayerBars({ state: R, app, el, emit }) {
  const presence = createPresence(el.presenceEl, { state: R, name: (seat) => playerWord(R, seat), onClaim: (result) => emit('claim', result) });

  function render() {
    const bottom = R.seated ? R.you : 'black';
    el.topSlot.append(el.bars[other(bottom)].root);
    el.bottomSlot.append(el.bars[bottom].root);
    const pos = R.positions[R.shownIndex];
    const discs = R.game && R.game.kind === 'othello' && pos ? countDiscs(pos.cells) : null;
    for (const seat of SEATS) {
      const b = el.bars[seat];
      const info = R.seats[seat];
      clear(b.info);
      b.name.textContent = info ? String(info.name ?? '?') : t('player.empty');
      b.name.classList.toggle('muted', !info);
      if (info) b.info.append(...seatInfo(R, seat, info));
      if (discs) b.info.append(h('span', { class: 'discs', 'data-testid': `discs-${seat}` }, t('player.discs', { n: discs[seat] })));
      renderChallengeSlot(b, info, app);
      b.root.classList.toggle('to-move', R.playing && R.toMove === seat);
    }
    el.spectatorsEl.textContent = String(R.spectators ?? 0);
    presence.render();
  }

  return { render, stop: () => presence.stop() };
}
