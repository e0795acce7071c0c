// Tournament page (`/?tournament=<id>`): its name, format, game, clock and status; join, leave and start (the creator's) and the players while it is open; then the standings (points with ½, games, wins, Buchholz, Sonneborn-Berger, each name a link to the player's page) and the rounds, each game with its result and a link to watch or replay it, and the byes; asked for again every 2 s until the tournament is over.

import { h, clear } from './dom.js';
import { t, gameLabel, clockLabel } from './i18n.js';
import {
  TOURNAMENT_KINDS, TOURNAMENT_STATUSES, nameOf, playerNames, standingsRows, roundRows, roundsOf, plannedRounds,
  creatorName, actionsFor, shouldPoll,
} from './tournament-data.js';
import * as api from './api.js';

/** How often a tournament that is not over is asked for again while its page is open. */
const POLL_MS = 2000;

const sameName = (a, b) => !!a && !!b && a.toLowerCase() === b.toLowerCase();

/** Mounts the page of tournament `id` in `root`. `app` gives net, show(route), viewLink(route,
 *  attrs, ...children), getName(), isAccount(). */
export function mountTournament(root, app, { id }) {
  let res = null; // the last answer of GET /api/tournaments/{id}
  let resText = '';
  let actionError = null;
  let busy = false;
  let gone = false;
  let timer = 0;
  let loads = 0; // requests sent: only the latest one's answer counts and schedules the next

  const page = h('div', { class: 'page tournament-page', 'data-testid': 'tournament-page', 'data-id': id });

  const playerLink = (name, attrs = {}) => app.viewLink({ page: 'player', name }, attrs, name);

  /** The visitor's buttons: join, leave, start (the creator's), or why a guest has none. */
  function actionsBox(d) {
    const me = app.getName();
    const can = actionsFor(d, me, app.isAccount());
    const box = h('div', { class: 'row tournament-actions' });
    const btn = (action, key, primary, disabled = false) => h('button', {
      type: 'button', class: primary ? 'primary' : null, 'data-testid': `btn-tournament-${action}`, disabled: busy || disabled,
      onclick: () => act(action),
    }, t(key));
    if (can.join) box.append(btn('join', 'tour.join', true));
    if (can.leave) box.append(btn('leave', 'tour.leave', false));
    if (can.start) {
      // Fewer than two players: the server would refuse; the note says why.
      const few = playerNames(d).length < 2;
      box.append(btn('start', 'tour.start', true, few));
      if (few) box.append(h('span', { class: 'note', 'data-testid': 'tournament-start-note' }, t('tour.startNote')));
    }
    if (can.signIn) {
      box.append(h('p', { class: 'note account-hint', 'data-testid': 'tournament-sign-in' },
        app.viewLink({ page: 'account', mode: 'register' }, {}, t('account.register')),
        ' / ',
        app.viewLink({ page: 'account', mode: 'signin' }, {}, t('account.signIn')),
        ' ', t('tour.signInWhy')));
    }
    if (d.status === 'running' && playerNames(d).some((n) => sameName(n, me))) {
      // A game of ours being played (we were away when it was made, or left it): back to it.
      const mine = roundRows(roundsOf(d)).flatMap((r) => r.games)
        .find((g) => g.state === 'playing' && g.room && (sameName(g.black, me) || sameName(g.white, me)));
      if (mine) box.append(app.viewLink({ page: 'room', room: mine.room }, { class: 'button primary', 'data-testid': 'tournament-my-game' }, t('tour.myGame')));
      box.append(h('p', { class: 'note', 'data-testid': 'tournament-you-play' }, t('tour.youPlay')));
    }
    const out = [box];
    if (actionError) out.push(h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'tournament-action-error' }, actionError));
    return out;
  }

  function playersList(d) {
    const list = Array.isArray(d.players) ? d.players : [];
    const names = playerNames(d);
    if (!names.length) return h('p', { class: 'note', 'data-testid': 'tournament-no-players' }, t('tour.noPlayers'));
    return h('ul', { class: 'entrants', 'data-testid': 'tournament-players' }, list.map((p) => {
      const name = nameOf(p);
      if (!name) return null;
      return h('li', { 'data-testid': `tournament-player-${name}`, class: sameName(name, app.getName()) ? 'mine' : null },
        playerLink(name), p?.bot ? h('span', { class: 'bot-badge' }, t('player.bot')) : null,
        p?.bot && p.level ? h('span', { class: 'note', 'data-testid': `tournament-player-level-${name}` }, t('tour.level', { n: p.level })) : null);
    }));
  }

  /** A bot's level beside its name ("level 3"), when it was entered at one. */
  function levelNote(level) {
    return level ? h('span', { class: 'note level-note' }, ` ${t('tour.level', { n: level })}`) : null;
  }

  function standingsTable(d) {
    const rows = standingsRows(d.standings);
    if (!rows.length) return h('p', { class: 'note', 'data-testid': 'standings-empty' }, t('tour.noStandings'));
    const me = app.getName();
    return h('div', { class: 'table-scroll' }, h('table', { class: 'rating-table standings-table', 'data-testid': 'standings-table' },
      h('caption', { class: 'sr-only' }, t('tour.standings')),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col', class: 'num rank' }, t('lb.rank')),
        h('th', { scope: 'col' }, t('lb.name')),
        h('th', { scope: 'col', class: 'num' }, t('tour.col.points')),
        h('th', { scope: 'col', class: 'num' }, t('lb.games')),
        h('th', { scope: 'col', class: 'num' }, t('tour.col.wins')),
        h('th', { scope: 'col', class: 'num', title: t('tour.col.buchholzLong') }, h('abbr', { title: t('tour.col.buchholzLong') }, t('tour.col.buchholz'))),
        h('th', { scope: 'col', class: 'num', title: t('tour.col.sbLong') }, h('abbr', { title: t('tour.col.sbLong') }, t('tour.col.sb'))))),
      h('tbody', {}, rows.map((r) => h('tr', {
        'data-testid': `standing-row-${r.rank}`, 'data-name': r.name, 'data-points': String(r.points),
        'data-tied': r.tied ? 'true' : null, class: sameName(r.name, me) ? 'mine' : null,
      },
      h('td', { class: `num rank${r.shared ? ' tied' : ''}`, title: r.shared ? t('tour.tied') : null }, r.rankText),
      h('td', {}, r.name ? playerLink(r.name, { 'data-testid': `standing-player-${r.rank}` }) : '?',
        r.bot ? h('span', { class: 'bot-badge' }, t('player.bot')) : null, levelNote(r.level)),
      h('td', { class: 'num points', 'data-testid': `standing-points-${r.rank}` }, r.pointsText),
      h('td', { class: 'num' }, String(r.games)),
      h('td', { class: 'num' }, String(r.wins)),
      h('td', { class: 'num' }, r.buchholzText),
      h('td', { class: 'num' }, r.sbText))))));
  }

  function roundsList(d) {
    const rounds = roundRows(roundsOf(d), d.byes);
    if (!rounds.length) return h('p', { class: 'note', 'data-testid': 'tournament-no-rounds' }, t('tour.noRounds'));
    return h('div', { class: 'rounds', 'data-testid': 'tournament-rounds' }, rounds.map((r) => h('section', { class: 'round', 'data-testid': `round-${r.number}` },
      h('h3', {}, t('tour.round', { n: r.number })),
      h('ul', { class: 'room-list' },
        r.games.map((g, i) => {
          const key = g.room || `${r.number}-${i}`;
          const stateText = g.state !== 'over' ? t(`tour.state.${g.state}`)
            : g.forfeit ? `${g.score} (${t('tour.forfeit')})` : g.score;
          return h('li', {
            class: `room-item tgame ${g.state}`, 'data-testid': `tgame-${key}`, 'data-state': g.state, 'data-result': g.winner || '',
            'data-forfeit': g.forfeit ? 'true' : null,
          },
            h('span', { class: 'room-who' },
              h('span', { class: 'stone-icon black', 'aria-hidden': 'true' }), g.black ? playerLink(g.black) : '?', levelNote(g.blackLevel),
              ' – ',
              h('span', { class: 'stone-icon white', 'aria-hidden': 'true' }), g.white ? playerLink(g.white) : '?', levelNote(g.whiteLevel)),
            h('span', { class: `tgame-result ${g.winner || g.state}`, 'data-testid': `tgame-result-${key}` }, stateText),
            g.waitsFor ? h('span', { class: 'note', 'data-testid': `tgame-waits-${key}` }, t('tour.waitsFor', { name: g.waitsFor })) : null,
            g.room ? app.viewLink({ page: 'room', room: g.room }, { class: 'button', 'data-testid': `tgame-watch-${key}` },
              t(g.state === 'playing' ? 'tour.watch' : 'tour.replay')) : null);
        }),
        r.byes.map((name) => h('li', { class: 'room-item bye', 'data-testid': `round-${r.number}-bye`, 'data-name': name }, t('tour.bye', { name })))))));
  }

  function render() {
    clear(page);
    const back = app.viewLink({ page: 'tournaments' }, { class: 'back-link', 'data-testid': 'btn-page-tournaments' }, t('tour.all'));
    if (!res || !res.ok) {
      page.append(h('section', { class: 'card' }, h('div', { class: 'page-head' }, h('h1', {}, id), back),
        !res ? h('p', { class: 'note', 'data-testid': 'tournament-loading' }, t('lb.loading'))
          : h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'tournament-error' }, res.error)));
      return;
    }
    const d = res.data || {};
    const status = TOURNAMENT_STATUSES.includes(d.status) ? d.status : '';
    page.dataset.status = status;
    const facts = [
      TOURNAMENT_KINDS.includes(d.kind) ? h('span', { 'data-testid': 'tournament-kind', 'data-kind': d.kind }, t(`tour.kind.${d.kind}`)) : null,
      d.game ? h('span', { 'data-testid': 'tournament-game' }, gameLabel(d.game)) : null,
      h('span', { 'data-testid': 'tournament-clock' }, clockLabel(d.clock ?? null)),
      plannedRounds(d) ? h('span', { 'data-testid': 'tournament-round-count' }, roundsOf(d).length
        ? t('tour.roundOf', { n: roundsOf(d).length, total: plannedRounds(d) })
        : t('tour.roundsPlanned', { total: plannedRounds(d) })) : null,
    ].filter(Boolean);
    const factLine = h('p', { class: 'tournament-facts' });
    facts.forEach((f, i) => factLine.append(...(i ? [' · ', f] : [f])));
    if (d.rated) factLine.append(' ', h('span', { class: 'rated-badge', 'data-testid': 'tournament-rated' }, t('rating.rated')));
    const creator = creatorName(d);
    page.append(...[
      h('section', { class: 'card' },
        h('div', { class: 'page-head' },
          h('h1', { 'data-testid': 'tournament-title' }, String(d.name ?? id),
            status ? h('span', { class: `status-badge ${status}`, 'data-testid': 'tournament-status', 'data-status': status }, t(`tour.status.${status}`)) : null),
          back),
        factLine,
        status ? h('p', { class: 'note' }, t(`tour.statusLine.${status}`)) : null,
        creator ? h('p', { class: 'note', 'data-testid': 'tournament-creator' }, t('tour.creator', { name: creator })) : null,
        ...actionsBox(d)),
      // Open: who has joined; once started the standings say it (and more).
      status === 'open'
        ? h('section', { class: 'card' },
          h('h2', {}, t('tour.entrants', { n: playerNames(d).length })),
          playersList(d))
        : h('section', { class: 'card' },
          h('h2', {}, t('tour.standings')),
          standingsTable(d)),
      status === 'open' ? null : h('section', { class: 'card' },
        h('h2', {}, t('tour.roundsTitle')),
        roundsList(d)),
    ].filter(Boolean));
  }

  /** Asks for the tournament, draws it when it changed, and asks again in 2 s unless it is
   *  over, gone (404) or the page is. */
  async function load() {
    clearTimeout(timer);
    timer = 0;
    const mine = ++loads;
    const answer = await api.tournament(id);
    if (gone || mine !== loads) return;
    const text = JSON.stringify([answer.ok, answer.data, answer.error]);
    if (text !== resText) {
      resText = text;
      res = answer;
      render();
    }
    const again = answer.ok ? shouldPoll(answer.data) : answer.status !== 404;
    timer = again ? setTimeout(load, POLL_MS) : 0;
  }

  async function act(action) {
    if (busy) return;
    busy = true;
    actionError = null;
    render();
    const answer = await api.tournamentAction(id, action, app.net.token);
    busy = false;
    if (gone) return;
    if (!answer.ok) actionError = answer.error;
    render();
    // The change shows at once, not at the next poll.
    load();
  }

  root.append(page);
  render();
  load();

  return {
    onReady() {
      // Whether we are an account (and who) decides the buttons.
      render();
    },
    onMessage: () => false,
    onLang: render,
    unmount() {
      gone = true;
      clearTimeout(timer);
    },
  };
}
