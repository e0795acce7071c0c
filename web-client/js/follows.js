// Follows and head to head on the page: the "Follow" toggle beside another account's name on its player page (aria-pressed, "Follow" / "Following", each change said to screen readers), the player page's "Head to head" card (the viewer against the page's player, or the page's player against `?vs=<other>` for anyone: the score "You 3 – 1 – 2 Bob" and the games, each a link to its room), and the lobby's "Following" card (the games in play of the players followed, each a link that watches it, then the players, each a link to their page; asked again every 30 s while the page is in view, hidden while nobody is followed). The data side is follows-data.js.

import { h, clear } from './dom.js';
import { t, gameLabel, getLang, onLangChange } from './i18n.js';
import { routeUrl } from './route.js';
import {
  follows as fetchFollows, follow, unfollow, headToHead as fetchHeadToHead,
  readFollows, readHeadToHead, headToHeadPair, canFollow, outcomeFor, followedSeats, FollowList,
  REFRESH_MS, NAMES_SHOWN,
} from './follows-data.js';

function dateLabel(ms) {
  if (!ms) return '';
  try {
    return new Date(ms).toLocaleDateString(getLang() === 'zh' ? 'zh-CN' : 'en', { year: 'numeric', month: 'short', day: 'numeric' });
  } catch {
    return new Date(ms).toISOString().slice(0, 10);
  }
}

/** Who we are, for the data helpers. */
const meOf = (app) => ({ account: app.isAccount(), name: app.getName(), player: app.net.player });

/** A link to room `room` that opens it as `as` ('spectator' watches), a real address too. */
function roomLink(app, room, as, attrs, ...children) {
  return h('a', {
    ...attrs,
    href: routeUrl({ page: 'room', room }, location.pathname.replace(/tv$/, '')),
    onclick: (ev) => {
      if (ev.button !== 0 || ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.altKey) return;
      ev.preventDefault();
      app.go(room, { as });
    },
  }, ...children);
}

/** A game's two seats as "● Ann – ○ Bob" (the names of `strong` colours in bold). */
function seats(g, strong = []) {
  const name = (c) => {
    const n = g[c] ?? t('lobby.emptySeat');
    return strong.includes(c) ? h('strong', {}, n) : n;
  };
  return h('span', { class: 'room-who' },
    h('span', { class: 'stone-icon black', 'aria-hidden': 'true' }), name('black'), ' – ',
    h('span', { class: 'stone-icon white', 'aria-hidden': 'true' }), name('white'));
}

/**
 * The follows' parts of one player page. `app` gives net (token, player), isAccount(), getName(),
 * go(room, opts) and viewLink(route, attrs, ...children); `vs` is the page's `?vs=` name. Returns
 * { button(person), headToHead(page) }: the page asks for them on each render and gets the same
 * elements back (the focus stays where it was), or null where there is nothing to show.
 */
export function createFollows(app, { vs = null } = {}) {
  const list = new FollowList();
  let listToken = null;
  let loadError = null;
  let control = null;

  function load() {
    const token = app.net.token;
    if (!token || !app.isAccount() || listToken === token) return;
    listToken = token;
    loadError = null;
    list.reset();
    fetchFollows(token).then((res) => {
      if (listToken !== token) return;
      if (res.ok) list.set(readFollows(res.data).following);
      else {
        loadError = res.error;
        listToken = null;
      }
      if (control) drawControl();
    });
  }

  // ---------- the Follow toggle ----------
  function makeControl() {
    const word = h('span', { class: 'follow-word' });
    const who = h('span', { class: 'sr-only' });
    const mark = h('span', { class: 'follow-mark', 'aria-hidden': 'true' });
    const c = { person: null, word, who, mark, busy: false };
    c.button = h('button', {
      type: 'button', class: 'follow-btn', 'data-testid': 'btn-follow', 'aria-pressed': 'false', onclick: toggle,
    }, mark, word, who);
    c.error = h('span', { class: 'error-msg', role: 'alert', 'data-testid': 'follow-error', hidden: true });
    c.live = h('span', { class: 'sr-only', role: 'status', 'aria-live': 'polite', 'data-testid': 'follow-live' });
    c.slot = h('span', { class: 'follow-control', 'data-testid': 'follow-control' }, c.button, c.error, c.live);
    return c;
  }

  function drawControl() {
    const c = control;
    const on = list.has(c.person.player);
    // Nothing to press until the list says which it is.
    c.button.hidden = !list.known();
    c.button.setAttribute('aria-pressed', String(on));
    c.button.dataset.following = String(on);
    c.word.textContent = t(on ? 'follow.following' : 'follow.follow');
    c.mark.textContent = on ? '✓' : '+';
    // The name for screen readers: "Follow Bob", pressed or not.
    c.who.textContent = ` ${c.person.name}`;
    if (on) c.button.title = t('follow.unfollowTitle', { name: c.person.name });
    else c.button.removeAttribute('title');
    if (loadError && !list.known()) {
      c.error.textContent = loadError;
      c.error.hidden = false;
    }
  }

  function say(text) {
    control.live.textContent = '';
    setTimeout(() => { control.live.textContent = text; }, 60);
  }

  async function toggle() {
    const c = control;
    if (!c || c.busy || !list.known()) return;
    const person = c.person;
    const on = list.has(person.player);
    c.busy = true;
    c.error.hidden = true;
    // aria-disabled rather than disabled: the focus stays on the button.
    c.button.setAttribute('aria-disabled', 'true');
    const res = on ? await unfollow(app.net.token, person.player) : await follow(app.net.token, person.name);
    c.busy = false;
    c.button.removeAttribute('aria-disabled');
    if (!res.ok) {
      c.error.textContent = res.error;
      c.error.hidden = false;
      return;
    }
    if (on) list.remove(person.player);
    else list.add(String(res.data?.player ?? person.player), String(res.data?.name ?? person.name));
    drawControl();
    say(t(on ? 'follow.undone' : 'follow.done', { name: person.name }));
  }

  // ---------- head to head ----------
  let pairKey = null;
  let pair = null;
  let res = null;
  let card = null;

  function makeCard() {
    const title = h('h2', { id: 'h2h-title', 'data-testid': 'h2h-title' });
    const score = h('p', { class: 'h2h-score', 'data-testid': 'h2h-score', 'aria-describedby': 'h2h-note' });
    const note = h('p', { class: 'note', id: 'h2h-note', 'data-testid': 'h2h-note' });
    const body = h('div', { class: 'h2h-body' });
    const section = h('section', { class: 'card h2h-card', 'data-testid': 'h2h', 'aria-labelledby': 'h2h-title' }, title, score, note, body);
    return { section, title, score, note, body };
  }

  function drawCard() {
    if (!card || !pair) return;
    card.title.textContent = t('follow.h2h');
    clear(card.body);
    card.section.dataset.left = pair.left;
    card.section.dataset.right = pair.right;
    if (!res) {
      card.score.hidden = true;
      card.note.hidden = true;
      card.body.append(h('p', { class: 'note' }, t('lb.loading')));
      return;
    }
    if (!res.ok) {
      card.score.hidden = true;
      card.note.hidden = true;
      card.body.append(h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'h2h-error' }, res.error));
      return;
    }
    const d = readHeadToHead(res.data);
    const leftName = d.player.name ?? pair.left;
    const rightName = d.other.name ?? pair.right;
    card.score.hidden = false;
    card.note.hidden = false;
    card.score.textContent = t('follow.score', {
      left: pair.mine ? t('follow.you') : leftName, right: rightName, wins: d.wins, draws: d.draws, losses: d.losses,
    });
    Object.assign(card.score.dataset, { wins: d.wins, draws: d.draws, losses: d.losses });
    card.note.textContent = pair.mine ? t('follow.scoreNoteMine') : t('follow.scoreNote', { name: leftName });
    if (!d.games.length) {
      card.body.append(h('p', { class: 'note', 'data-testid': 'h2h-none' },
        pair.mine ? t('follow.h2hNoneMine', { name: rightName }) : t('follow.h2hNone', { left: leftName, right: rightName })));
      return;
    }
    card.body.append(h('ul', {
      class: 'room-list h2h-games', 'data-testid': 'h2h-games', 'aria-label': t('follow.h2hGames', { left: leftName, right: rightName }),
    }, d.games.map((g) => {
      const outcome = outcomeFor(g, d.player.player, leftName);
      let said;
      if (outcome === 'win' || outcome === 'loss' || outcome === 'black' || outcome === 'white') {
        said = t('follow.won', { name: g[g.result] ?? t(`seat.${g.result}`) });
      } else said = t(`player.outcome.${outcome}`);
      return h('li', { class: 'room-item', 'data-testid': `h2h-game-${g.room}`, 'data-result': outcome, 'data-rated': String(g.rated) },
        app.viewLink({ page: 'room', room: g.room }, { class: 'room-game', 'data-testid': `h2h-game-link-${g.room}`, title: t('player.replay') },
          g.game ? gameLabel(g.game) : g.room),
        seats(g),
        h('span', { class: `outcome ${outcome}`, 'data-testid': `h2h-result-${g.room}` }, said),
        g.rated ? h('span', { class: 'rated-badge' }, t('rating.rated')) : null,
        g.createdMs ? h('span', { class: 'room-meta' }, dateLabel(g.createdMs)) : null);
    })));
  }

  return {
    /** The Follow toggle for `person` ({ name, player, bot }, an account: only accounts have a
     *  page), or null where there is none to offer (not signed in, ourselves). */
    button(person) {
      if (!canFollow(person, meOf(app))) return null;
      load();
      if (!control) control = makeControl();
      control.person = { ...person, name: String(person.name ?? '') };
      drawControl();
      return control.slot;
    },
    /** The "Head to head" card for the page of `page` ({ name, player }), or null. */
    headToHead(page) {
      pair = headToHeadPair({ page, vs, me: meOf(app) });
      if (!pair) return null;
      const key = `${pair.left}\n${pair.right}`.toLowerCase();
      if (key !== pairKey) {
        pairKey = key;
        res = null;
        fetchHeadToHead(pair.left, pair.right).then((answer) => {
          if (pairKey !== key) return;
          res = answer;
          drawCard();
        });
      }
      if (!card) card = makeCard();
      drawCard();
      return card.section;
    },
  };
}

/**
 * The lobby's "Following" card. `app` as above. Returns { card, refresh(), unmount() }: the card
 * (hidden until the account is known to follow someone), asked again now, and every 30 s while
 * the page is in view; unmount stops that.
 */
export function mountFollowing(app) {
  let data = null; // { following, playing }, read
  let busy = false;
  let again = false; // asked while a request was under way (a new welcome): ask once more after it
  let gone = false;
  const title = h('h2', { id: 'following-title' });
  const playingHead = h('h3', { id: 'following-playing-title', class: 'follow-subhead' });
  const playing = h('div', { class: 'following-playing' });
  const playersHead = h('h3', { id: 'following-players-title', class: 'follow-subhead' });
  const players = h('ul', { class: 'follow-names', 'data-testid': 'following-list', 'aria-labelledby': 'following-players-title' });
  const card = h('section', { class: 'card card-following', 'data-testid': 'following-card', 'aria-labelledby': 'following-title', hidden: true },
    title, playingHead, playing, playersHead, players);

  function draw() {
    const shown = !!data && app.isAccount() && data.following.length > 0;
    card.hidden = !shown;
    if (!shown) return;
    title.textContent = t('follow.title');
    playingHead.textContent = t('follow.playingNow');
    playersHead.textContent = t('follow.players');
    clear(playing);
    clear(players);
    const ids = new Set(data.following.map((r) => r.player));
    if (!data.playing.length) playing.append(h('p', { class: 'note', 'data-testid': 'following-none-playing' }, t('follow.nonePlaying')));
    else {
      playing.append(h('ul', { class: 'room-list', 'data-testid': 'following-playing', 'aria-labelledby': 'following-playing-title' },
        data.playing.map((g) => {
          const mine = !!app.net.player && (g.blackPlayer === app.net.player || g.whitePlayer === app.net.player);
          return h('li', { class: 'room-item following-game', 'data-testid': `following-game-${g.room}`, 'data-room': g.room },
            roomLink(app, g.room, mine ? 'player' : 'spectator', { class: 'following-watch', 'data-testid': `following-watch-${g.room}`, title: t('follow.watchTitle') },
              seats(g, followedSeats(g, ids)), ' · ',
              h('span', { class: 'room-meta' }, g.game ? gameLabel(g.game) : '')),
            g.rated ? h('span', { class: 'rated-badge' }, t('rating.rated')) : null);
        })));
    }
    const named = data.following.filter((r) => r.name);
    for (const r of named.slice(0, NAMES_SHOWN)) {
      players.append(h('li', { 'data-player': r.player },
        app.viewLink({ page: 'player', name: r.name }, { 'data-testid': 'following-player' }, r.name)));
    }
    if (named.length > NAMES_SHOWN) players.append(h('li', { class: 'muted' }, t('follow.more', { n: named.length - NAMES_SHOWN })));
  }

  function refresh() {
    const token = app.net.token;
    if (busy) {
      again = true;
      return;
    }
    if (gone || !token || !app.net.ready || !app.isAccount()) {
      draw();
      return;
    }
    busy = true;
    fetchFollows(token).then((res) => {
      busy = false;
      if (gone) return;
      // A refusal keeps what was shown (the next round asks again); another token's list is not ours.
      if (res.ok && token === app.net.token) data = readFollows(res.data);
      draw();
      if (again) {
        again = false;
        refresh();
      }
    });
  }

  const timer = setInterval(() => {
    if (document.visibilityState !== 'hidden') refresh();
  }, REFRESH_MS);
  const onVisible = () => {
    if (document.visibilityState !== 'hidden') refresh();
  };
  document.addEventListener('visibilitychange', onVisible);
  const offLang = onLangChange(draw);
  refresh();

  return {
    card,
    refresh,
    unmount() {
      gone = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      offLang();
    },
  };
}
