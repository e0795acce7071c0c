// Player page (`/?player=<name>[&vs=<other>]`): the player's name with a "Follow" toggle for an account looking (follows.js), a "Challenge" button, a "Report" one and, for an account looking, a "Block" / "Unblock" one (its own page lists those it blocks instead), their rating in each rated game (live and correspondence), the rating history drawn as an SVG plot (a line a rating key, no library), the recent games, each a link to its room for the replay, and the head-to-head card (the viewer against the player, or the player against `vs`).

import { h, s, clear } from './dom.js';
import { t, gameLabel, getLang } from './i18n.js';
import { LEADERBOARD_KEYS, formatRating } from './rating.js';
import { scaleHistory, polylinePoints } from './plot.js';
import * as api from './api.js';
import { createFollows } from './follows.js';

/** A seat of a listed game as a name: the API gives a name, or an object with one, or null. */
const seatName = (seat) => (seat == null ? null : typeof seat === 'string' ? seat : seat.name != null ? String(seat.name) : null);

/** A game's result as a word: the API gives 'black' | 'white' | 'draw' | 'aborted' | null,
 *  or an object holding one in `result`. */
const resultOf = (res) => (res == null ? null : typeof res === 'string' ? res : res.result ?? null);

/** How game `g` went for the player `name`: 'win', 'loss', 'draw', 'aborted', 'playing' (no
 *  result yet), 'closed' (the room closed before a game), or the winner's colour when the
 *  player sat in neither seat. */
export function outcomeFor(g, name, player = null) {
  const result = resultOf(g?.result);
  if (!result) return g?.status === 'over' ? 'closed' : 'playing';
  if (result === 'draw' || result === 'aborted') return result;
  const me = String(name).toLowerCase();
  // The seat by player id where the page gives it (a game played under a guest name before
  // the name was claimed has another name on its seat), else by name.
  const byId = player && (g.black_player === player ? 'black' : g.white_player === player ? 'white' : null);
  const seat = byId || (seatName(g.black)?.toLowerCase() === me ? 'black' : seatName(g.white)?.toLowerCase() === me ? 'white' : null);
  if (!seat) return result;
  return seat === result ? 'win' : 'loss';
}

function dateLabel(ms) {
  try {
    return new Date(ms).toLocaleDateString(getLang() === 'zh' ? 'zh-CN' : 'en', { year: 'numeric', month: 'short', day: 'numeric' });
  } catch {
    return new Date(ms).toISOString().slice(0, 10);
  }
}

function dateTimeLabel(ms) {
  try {
    return new Date(ms).toLocaleString(getLang() === 'zh' ? 'zh-CN' : 'en', { dateStyle: 'medium', timeStyle: 'short' });
  } catch {
    return new Date(ms).toISOString();
  }
}

/** The rating history as an SVG plot: one polyline (and its dots) a key, the ratings at the
 *  bottom and the top of the left axis, the first and the last date under the bottom one. */
function historyPlot(history) {
  const plot = scaleHistory(history);
  if (!plot) return h('p', { class: 'note', 'data-testid': 'rating-plot-empty' }, t('player.noHistory'));
  const { box } = plot;
  const x0 = box.left;
  const x1 = box.width - box.right;
  const y0 = box.height - box.bottom;
  const y1 = box.top;
  const svg = s('svg', {
    class: 'rating-plot', 'data-testid': 'rating-plot', viewBox: `0 0 ${box.width} ${box.height}`,
    role: 'img', 'aria-label': t('player.plotAria'),
  },
  s('line', { class: 'plot-axis', x1: x0, y1: y0, x2: x1, y2: y0 }),
  s('line', { class: 'plot-axis', x1: x0, y1: y0, x2: x0, y2: y1 }),
  s('text', { class: 'plot-label', x: x0 - 6, y: y1, 'text-anchor': 'end', 'dominant-baseline': 'hanging', 'data-testid': 'plot-y-max' }, String(Math.round(plot.yHi))),
  s('text', { class: 'plot-label', x: x0 - 6, y: y0, 'text-anchor': 'end', 'data-testid': 'plot-y-min' }, String(Math.round(plot.yLo))),
  s('text', { class: 'plot-label', x: x0, y: box.height - 8, 'text-anchor': 'start', 'data-testid': 'plot-x-min' }, dateLabel(plot.xMin)),
  plot.xMax !== plot.xMin ? s('text', { class: 'plot-label', x: x1, y: box.height - 8, 'text-anchor': 'end', 'data-testid': 'plot-x-max' }, dateLabel(plot.xMax)) : null);
  for (const series of plot.series) {
    const g = s('g', { class: `plot-series k-${series.key}`, 'data-key': series.key });
    g.append(s('polyline', { class: 'plot-line', points: polylinePoints(series.points), 'data-testid': `plot-line-${series.key}`, 'data-points': series.points.length }));
    for (const p of series.points) {
      g.append(s('circle', { class: 'plot-dot', cx: p.x, cy: p.y, r: 3.5 },
        s('title', {}, `${t(`ratingKey.${series.key}`)} · ${dateTimeLabel(p.at)} · ${Math.round(p.rating)}`)));
    }
    svg.append(g);
  }
  const legend = h('ul', { class: 'plot-legend' }, plot.series.map((series) => h('li', { class: `k-${series.key}` },
    h('span', { class: 'swatch', 'aria-hidden': 'true' }), t(`ratingKey.${series.key}`))));
  return h('figure', { class: 'plot-figure' }, svg, legend);
}

/** Mounts the page of player `name` in `root`. `app` gives go(room), show(route) and
 *  viewLink(route, attrs, ...children). */
export function mountPlayer(root, app, { name, vs = null }) {
  let res = null;
  // The Follow toggle and the head-to-head card (follows.js); `vs` from `?vs=<other>`.
  const follows = createFollows(app, { vs });
  let gone = false;
  const page = h('div', { class: 'page player-page', 'data-testid': 'player-page', 'data-name': name });

  function ratingsTable(ratings) {
    const byKey = new Map(ratings.filter((r) => r && r.key).map((r) => [r.key, r]));
    const keys = [...LEADERBOARD_KEYS.filter((k) => byKey.has(k)), ...[...byKey.keys()].filter((k) => !LEADERBOARD_KEYS.includes(k))];
    if (!keys.length) return h('p', { class: 'note', 'data-testid': 'player-no-ratings' }, t('player.noRatings'));
    return h('table', { class: 'rating-table', 'data-testid': 'player-ratings' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, t('lb.game')),
        h('th', { scope: 'col', class: 'num' }, t('lb.rating')),
        h('th', { scope: 'col', class: 'num' }, t('lb.games')))),
      h('tbody', {}, keys.map((k) => {
        const r = byKey.get(k);
        return h('tr', { 'data-testid': `player-rating-${k}`, 'data-provisional': String(!!r.provisional) },
          h('td', {}, app.viewLink({ page: 'leaderboard', key: k, bots: false }, {}, t(`ratingKey.${k}`))),
          h('td', { class: 'num', title: r.provisional ? t('rating.provisional') : null }, formatRating(r.rating, !!r.provisional)),
          h('td', { class: 'num' }, String(r.games ?? 0)));
      })));
  }

  function gamesList(games, who, player) {
    if (!games.length) return h('p', { class: 'note', 'data-testid': 'player-no-games' }, t('player.noGames'));
    return h('ul', { class: 'room-list', 'data-testid': 'player-games' }, games.filter((g) => g && g.room).map((g) => {
      const outcome = outcomeFor(g, who, player);
      const black = seatName(g.black) ?? t('lobby.emptySeat');
      const white = seatName(g.white) ?? t('lobby.emptySeat');
      const outcomeKey = ['win', 'loss', 'draw', 'aborted', 'playing', 'closed'].includes(outcome) ? `player.outcome.${outcome}` : null;
      return h('li', { class: 'room-item', 'data-testid': `player-game-${g.room}`, 'data-result': outcome, 'data-rated': String(!!g.rated) },
        app.viewLink({ page: 'room', room: String(g.room) }, { class: 'room-game', 'data-testid': `player-game-link-${g.room}`, title: t('player.replay') }, gameLabel(g.game)),
        h('span', { class: 'room-who' }, h('span', { class: 'stone-icon black', 'aria-hidden': 'true' }), black, ' – ',
          h('span', { class: 'stone-icon white', 'aria-hidden': 'true' }), white),
        h('span', { class: `outcome ${outcome}` }, outcomeKey ? t(outcomeKey) : t('over.win', { name: outcome === 'black' ? black : white, seat: t(`seat.${outcome}`) })),
        g.rated ? h('span', { class: 'rated-badge', 'data-testid': `player-game-rated-${g.room}` }, t('rating.rated')) : null,
        Number.isFinite(Number(g.created_ms)) ? h('span', { class: 'room-meta' }, dateTimeLabel(Number(g.created_ms))) : null);
    }));
  }

  function render() {
    clear(page);
    const back = app.viewLink({ page: 'lobby' }, { class: 'back-link', 'data-testid': 'btn-page-lobby' }, t('room.back'));
    if (!res) {
      page.append(h('section', { class: 'card' }, h('div', { class: 'page-head' }, h('h1', {}, name), back),
        h('p', { class: 'note' }, t('lb.loading'))));
      return;
    }
    if (!res.ok) {
      page.append(h('section', { class: 'card' }, h('div', { class: 'page-head' }, h('h1', {}, name), back),
        h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'player-error' }, res.error)));
      return;
    }
    const d = res.data || {};
    const shown = String(d.name ?? name);
    const id = typeof d.player === 'string' ? d.player : null;
    page.dataset.name = shown;
    page.append(
      h('section', { class: 'card' },
        h('div', { class: 'page-head' },
          h('h1', { 'data-testid': 'player-title' }, shown, d.bot ? h('span', { class: 'bot-badge', 'data-testid': 'player-bot' }, t('player.bot')) : null),
          follows.button({ name: shown, player: id, bot: !!d.bot, account: true }),
          // Only accounts have a page: a person here can play rated.
          app.challengeButton?.({ name: shown, player: id, bot: !!d.bot, account: true }),
          // A bot too: blocking it hides its chat.
          app.blocks?.button({ name: shown, player: id, bot: !!d.bot, account: true }),
          // Anyone, a guest too, may report another person (never a bot).
          app.reports?.button({ name: shown, player: id, bot: !!d.bot }),
          back),
        h('h2', {}, t('player.ratings')),
        ratingsTable(Array.isArray(d.ratings) ? d.ratings : []),
        h('p', { class: 'note' }, t('rating.provisionalNote'))),
      h('section', { class: 'card' },
        h('h2', {}, t('player.history')),
        historyPlot(Array.isArray(d.history) ? d.history : [])),
      h('section', { class: 'card' },
        h('h2', {}, t('player.games')),
        gamesList(Array.isArray(d.games) ? d.games : [], shown, id)));
    // Head to head: us against them, or them against `?vs=`, under the ratings.
    const h2h = follows.headToHead({ name: shown, player: id });
    if (h2h) page.firstElementChild.after(h2h);
    // Our own page, signed in: whom we block, each with an Unblock button.
    const blocked = app.blocks?.listCard({ player: id });
    if (blocked) page.append(blocked);
  }

  root.append(page);
  render();
  api.playerPage(name).then((answer) => {
    if (gone) return;
    res = answer;
    render();
  });

  return {
    // The welcome says who we are: no "Challenge", "Block" or "Report" on our own page, and
    // whether we are an account (only accounts block).
    onReady: render,
    onMessage: () => false,
    onLang: render,
    unmount() {
      gone = true;
    },
  };
}
