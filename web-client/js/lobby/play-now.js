// The lobby's quick pairing ("Play now"): a button per common game and clock, with how many wait for each; one seek at a time, shown with a spinner and a cancel button, and after a while without an opponent a bot offered instead at the level the lobby remembers.

import { h, clear } from '../dom.js';
import { t, gameLabel, clockLabel } from '../i18n.js';
import { clockFromKey, clockKey, sameGame } from '../record.js';
import { other } from '../rules.js';
import { select } from '../form-select.js';
import { PLAY_NOW, LEVEL_OPTIONS, randomSeat } from './presets.js';
import { card } from './card.js';

/** How long a seek waits before a bot is offered. Browser tests shorten it with the page
 *  address `?bot_offer_ms=N` (the page itself never sets it). */
const BOT_OFFER_MS = botOfferDelay();

function botOfferDelay() {
  const param = new URLSearchParams(globalThis.location?.search ?? '').get('bot_offer_ms');
  const ms = param == null ? NaN : Number(param);
  return Number.isFinite(ms) && ms >= 0 ? ms : 10000;
}

/** The preset's button, with the count of players waiting in it (`button.count`). */
function presetButton(preset, onclick) {
  const count = h('span', { class: 'waiting' });
  const button = h('button', { type: 'button', class: 'play-now', 'data-testid': `btn-play-now-${preset.key}`, onclick },
    h('span', { class: 'play-game', 'data-i18n': preset.name }, t(preset.name)),
    h('span', { class: 'play-clock' }, clockLabel(clockFromKey(preset.clock))),
    count);
  button.count = count;
  return button;
}

/**
 * The "Play now" card. `settings` (settings.js) holds the bot level; `request(msg, { as,
 * clock })` sends a seek or a room to create and says whether it went out. Returns { element,
 * showWaiting(seeks), resume(), created(), relabel(), destroy() }.
 */
export function createPlayNow({ app, settings, request }) {
  let seeking = null; // { preset, offerBot, timer }
  const buttons = new Map(PLAY_NOW.map((preset) => [preset.key, presetButton(preset, () => start(preset))]));
  const seekBox = h('div', { class: 'seek-box', 'data-testid': 'seek-status', hidden: true, role: 'status' });

  function render() {
    clear(seekBox);
    for (const [key, button] of buttons) button.setAttribute('aria-pressed', String(!!seeking && seeking.preset.key === key));
    seekBox.hidden = !seeking;
    if (!seeking) return;
    const { preset } = seeking;
    seekBox.append(
      h('span', { class: 'spinner', 'aria-hidden': 'true' }),
      h('span', {}, t('lobby.seeking', { game: gameLabel(preset.game), clock: clockLabel(clockFromKey(preset.clock)) })),
      h('button', { type: 'button', 'data-testid': 'btn-unseek', onclick: stop }, t('lobby.seekCancel')),
    );
    if (seeking.offerBot) {
      const level = select({ 'aria-label': t('lobby.botLevel'), 'data-testid': 'seek-bot-level' }, LEVEL_OPTIONS, settings.get('level'), (v) => settings.set({ level: Number(v) }));
      seekBox.append(h('span', { class: 'bot-offer' },
        h('button', { type: 'button', class: 'primary', 'data-testid': 'btn-play-bot', onclick: playBot }, t('lobby.playBot')),
        level));
    }
  }

  function start(preset) {
    if (seeking) app.net.send({ t: 'unseek' });
    const clock = clockFromKey(preset.clock);
    if (!request({ t: 'seek', game: preset.game, clock }, { as: 'player', clock })) return;
    if (seeking) clearTimeout(seeking.timer);
    seeking = { preset, offerBot: false };
    seeking.timer = setTimeout(() => {
      if (!seeking) return;
      seeking.offerBot = true;
      render();
    }, BOT_OFFER_MS);
    render();
  }

  function stop() {
    if (!seeking) return;
    app.net.send({ t: 'unseek' });
    clearTimeout(seeking.timer);
    seeking = null;
    render();
  }

  /** Nobody came: the same game against a bot, our colour drawn. */
  function playBot() {
    if (!seeking) return;
    const { preset } = seeking;
    stop();
    const seat = randomSeat();
    const clock = clockFromKey(preset.clock);
    request({ t: 'create', game: preset.game, seat, clock, bots: { [other(seat)]: settings.get('level') }, private: false }, { as: 'player', clock });
  }

  /** Ends the seek without telling the server (a game was made of it, or the page goes). */
  function forget() {
    if (seeking) clearTimeout(seeking.timer);
    seeking = null;
  }

  return {
    element: card('lobby.playNow',
      h('p', { class: 'note', 'data-i18n': 'lobby.playNowHint' }, t('lobby.playNowHint')),
      h('div', { class: 'play-grid' }, [...buttons.values()]),
      seekBox),
    /** The lobby's seeks (`seeks` of a `lobby` message): how many wait in each preset. */
    showWaiting(seeks) {
      for (const preset of PLAY_NOW) {
        const n = seeks.filter((sk) => sameGame(sk.game, preset.game) && clockKey(sk.clock) === preset.clock)
          .reduce((sum, sk) => sum + (Number(sk.waiting) || 0), 0);
        buttons.get(preset.key).count.textContent = n ? t('lobby.waiting', { n }) : '';
      }
    },
    /** After a reconnect: a dropped connection ended the seek on the server, so ask again. */
    resume() {
      if (seeking) app.net.send({ t: 'seek', game: seeking.preset.game, clock: clockFromKey(seeking.preset.clock) });
    },
    /** The server made a room of the seek: it is over. */
    created: forget,
    relabel() {
      render();
      for (const preset of PLAY_NOW) buttons.get(preset.key).querySelector('.play-clock').textContent = clockLabel(clockFromKey(preset.clock));
    },
    /** The lobby goes: a seek still waiting is withdrawn. */
    destroy() {
      if (seeking) app.net.send({ t: 'unseek' });
      forget();
    },
  };
}
