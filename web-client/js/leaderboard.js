// Leaderboard page (`/?leaderboard=<key>[&bots=true]`): one rating key's table of people (or of bots), best first — rank, name (a link to the player's page, with a "Challenge" button beside a person or a bot), rating (`?` while provisional), games — with a tab for each game, and live or correspondence (the `-corr` keys).

import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { RATING_KEYS, baseKey, isCorrKey, formatRating } from './rating.js';
import * as api from './api.js';

/** Mounts the leaderboard of `key` (people, or bots when `bots`) in `root`. `app` gives
 *  show(route) and viewLink(route, attrs, ...children). */
export function mountLeaderboard(root, app, { key, bots }) {
  let data = null; // the answer once here: { ok, data, error }
  let gone = false;

  const tabs = h('nav', { class: 'tabs', 'aria-label': t('lb.keys'), 'data-i18n-aria': 'lb.keys' });
  const who = h('div', { class: 'segmented', role: 'group', 'aria-label': t('lb.who'), 'data-i18n-aria': 'lb.who' });
  const pace = h('div', { class: 'segmented', role: 'group', 'aria-label': t('lb.pace'), 'data-i18n-aria': 'lb.pace' });
  const corr = isCorrKey(key);
  const body = h('div', { class: 'lb-body', 'aria-live': 'polite' });
  const title = h('h1', {});

  function renderNav() {
    clear(tabs);
    // A tab a game, of the same pace (live or correspondence) as the table shown.
    for (const game of RATING_KEYS) {
      const k = corr ? `${game}-corr` : game;
      tabs.append(app.viewLink({ page: 'leaderboard', key: k, bots }, {
        class: `tab${k === key ? ' active' : ''}`, 'data-testid': `leaderboard-tab-${k}`, 'aria-current': k === key ? 'page' : null,
      }, t(`ratingKey.${game}`)));
    }
    clear(pace);
    for (const [value, label] of [[false, 'lb.live'], [true, 'lb.corr']]) {
      const k = value ? `${baseKey(key)}-corr` : baseKey(key);
      pace.append(app.viewLink({ page: 'leaderboard', key: k, bots }, {
        class: `tab${value === corr ? ' active' : ''}`, 'data-testid': `leaderboard-${value ? 'corr' : 'live'}`,
        'aria-current': value === corr ? 'page' : null,
      }, t(label)));
    }
    clear(who);
    for (const [value, label] of [[false, 'lb.people'], [true, 'lb.bots']]) {
      who.append(app.viewLink({ page: 'leaderboard', key, bots: value }, {
        class: `tab${value === bots ? ' active' : ''}`, 'data-testid': `leaderboard-${value ? 'bots' : 'people'}`,
        'aria-current': value === bots ? 'page' : null,
      }, t(label)));
    }
    title.textContent = t(bots ? 'lb.titleBots' : 'lb.title', { game: t(`ratingKey.${key}`) });
  }

  function renderBody() {
    clear(body);
    if (!data) {
      body.append(h('p', { class: 'note', 'data-testid': 'leaderboard-loading' }, t('lb.loading')));
      return;
    }
    if (!data.ok) {
      body.append(h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'leaderboard-error' }, data.error));
      return;
    }
    const players = Array.isArray(data.data?.players) ? data.data.players : [];
    if (!players.length) {
      body.append(h('p', { class: 'note', 'data-testid': 'leaderboard-empty' }, t(bots ? 'lb.emptyBots' : 'lb.empty')));
      return;
    }
    const rows = players.map((p, i) => {
      const name = String(p?.name ?? '?');
      return h('tr', { 'data-testid': `leaderboard-row-${i + 1}`, 'data-name': name, 'data-provisional': String(!!p?.provisional) },
        h('td', { class: 'num rank' }, String(i + 1)),
        h('td', {}, app.viewLink({ page: 'player', name }, { 'data-testid': `leaderboard-player-${i + 1}` }, name),
          // People on a leaderboard have accounts (they may play rated); a bot is challenged too,
          // its room made at once.
          app.challengeButton?.({ name, bot: bots, account: true })),
        h('td', { class: 'num', title: p?.provisional ? t('rating.provisional') : null }, formatRating(p?.rating, !!p?.provisional)),
        h('td', { class: 'num' }, String(p?.games ?? 0)));
    });
    body.append(h('table', { class: 'rating-table', 'data-testid': 'leaderboard-table' },
      h('caption', { class: 'sr-only' }, title.textContent),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', class: 'num rank' }, t('lb.rank')),
        h('th', { scope: 'col' }, t('lb.name')),
        h('th', { scope: 'col', class: 'num' }, t('lb.rating')),
        h('th', { scope: 'col', class: 'num' }, t('lb.games')))),
      h('tbody', {}, rows)),
    h('p', { class: 'note' }, t('rating.provisionalNote')));
  }

  function render() {
    renderNav();
    renderBody();
  }

  root.append(h('div', { class: 'page leaderboard', 'data-testid': 'leaderboard', 'data-key': key, 'data-bots': String(bots) },
    h('section', { class: 'card' },
      h('div', { class: 'page-head' }, title,
        app.viewLink({ page: 'lobby' }, { class: 'back-link', 'data-testid': 'btn-page-lobby', 'data-i18n': 'room.back' }, t('room.back'))),
      tabs, h('div', { class: 'lb-switches' }, pace, who), body)));
  render();

  api.leaderboard(key, bots).then((res) => {
    if (gone) return;
    data = res;
    renderBody();
  });

  return {
    // The welcome says who we are: no "Challenge" on our own row.
    onReady: renderBody,
    onMessage: () => false,
    onLang: render,
    unmount() {
      gone = true;
    },
  };
}
