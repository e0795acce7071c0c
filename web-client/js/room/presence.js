// Presence the players can read: "Ben left — 55 s to come back", counted down for everyone in the room, and once half the grace period has gone the claim of the win or a draw for the one who stayed.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';

const SEATS = ['black', 'white'];

/** Whole seconds left until `at` (never below 0). */
const secondsTo = (at, now) => Math.max(0, Math.ceil((at - now) / 1000));

/**
 * Builds the presence line in `root`. `state` is the room's state (its `away`, seats, `you`,
 * status); `name(seat)` says a seat as people say it; `onClaim(result)` sends a claim.
 * Returns `render()`, to call whenever the room changes; the line counts down by itself.
 */
export function createPresence(root, { state: R, name, onClaim }) {
  let ticker = 0;

  function stopTicker() {
    clearInterval(ticker);
    ticker = 0;
  }

  function render() {
    const now = performance.now();
    const gone = R.playing ? SEATS.filter((seat) => R.away?.[seat] && R.seats[seat]) : [];
    clear(root);
    root.hidden = gone.length === 0;
    if (!gone.length) {
      stopTicker();
      return;
    }
    if (!ticker) ticker = setInterval(render, 1000);
    for (const seat of gone) {
      const { backAt, claimAt } = R.away[seat];
      const line = h('span', { class: 'presence-line', 'data-testid': `presence-${seat}` },
        t('presence.left', { name: name(seat), s: secondsTo(backAt, now) }));
      root.append(line);
      // The one who stayed: claim now, or when it can.
      if (R.seated && R.you !== seat) {
        const wait = secondsTo(claimAt, now);
        if (wait > 0) {
          root.append(h('span', { class: 'presence-claim-wait', 'data-testid': 'claim-wait' }, t('presence.claimIn', { s: wait })));
        } else {
          root.append(h('span', { class: 'presence-claims' },
            h('button', { type: 'button', class: 'primary', 'data-testid': 'btn-claim-win', onclick: () => onClaim('win') }, t('presence.claimWin')),
            h('button', { type: 'button', 'data-testid': 'btn-claim-draw', onclick: () => onClaim('draw') }, t('presence.claimDraw'))));
        }
      }
    }
  }

  return { render, stop: stopTicker };
}
