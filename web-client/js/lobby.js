// Lobby page: puts its cards together (the way back to our game, the "Your turn" card of correspondence games, who we are, quick pairing, "Play the computer", the new-game form; the "Following" card, the daily puzzle, open rooms, live games and bots) and routes the server's lobby messages to them. Each card is its own component under lobby/.

import { h, clear } from './dom.js';
import { t, errorText } from './i18n.js';
import { backToGameCard } from './my-game.js';
import { dailyPuzzleCard } from './puzzles/daily.js';
import { mountFollowing } from './follows.js';
import { createSettings } from './lobby/settings.js';
import { createWhoBox } from './lobby/who-box.js';
import { createPlayNow } from './lobby/play-now.js';
import { createVsComputer } from './lobby/vs-computer.js';
import { createNewGameForm } from './lobby/new-game.js';
import { createOpenRooms } from './lobby/open-rooms.js';
import { createLiveGames } from './lobby/live-games.js';
import { createBotsList } from './lobby/bots-list.js';
import { listOf } from './lobby/list-items.js';

/** The lobby's error line: shown for a while, then hidden again. Returns { element, show(text),
 *  destroy() }. */
function createErrorLine() {
  const element = h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'error-msg', hidden: true });
  let timer = 0;
  return {
    element,
    show(text) {
      element.textContent = text;
      element.hidden = false;
      clearTimeout(timer);
      timer = setTimeout(() => { element.hidden = true; }, 8000);
    },
    destroy: () => clearTimeout(timer),
  };
}

/** The page: the cards to play (`main`) and, beside them on a wide screen, the lists. */
function lobbyPage({ main, lists }) {
  return h('div', { class: 'lobby' }, h('div', { class: 'lobby-main' }, main), h('div', { class: 'lobby-lists' }, lists));
}

/** Mounts the lobby in `root`. `app` gives net, go(room, opts), goTv(), show(route),
 *  viewLink(route, attrs, ...children), getName(), setName(name), isAccount(), and turns (the
 *  correspondence games, when there are any). */
export function mountLobby(root, app) {
  const settings = createSettings();
  const errorLine = createErrorLine();
  // The room asked for last (a seek, a game against a bot, the new-game form): how to enter it
  // once the server says it is made.
  let creating = { as: 'player', clock: undefined };

  /** Sends `msg` (a seek or a room to create) and remembers how to enter the room it makes:
   *  `as` 'player' or 'spectator', `clock` the lobby's copy of its time control. */
  function request(msg, { as, clock }) {
    if (!app.net.send(msg)) {
      errorLine.show(t('net.notSent'));
      return false;
    }
    creating = { as, clock };
    return true;
  }

  const who = createWhoBox(app);
  const playNow = createPlayNow({ app, settings, request });
  const vsComputer = createVsComputer({ settings, request });
  const newGame = createNewGameForm({ app, settings, request });
  // Our game under way, if we have one: first on the page, the way back to it.
  const backBox = backToGameCard((room) => app.go(room, { as: 'player' }));
  // The games of the players we follow, and them (follows.js): first of the lists.
  const following = mountFollowing(app);
  const openRooms = createOpenRooms({ app });
  const liveGames = createLiveGames({ app, backBox });
  const botsList = createBotsList();

  clear(root);
  root.append(lobbyPage({
    // Our games by correspondence, theirs to move first: first on the page (when any).
    main: [backBox, app.turns?.lobbyCard(), who.element, errorLine.element, playNow.element, vsComputer.element, newGame.element],
    lists: [following.card, dailyPuzzleCard(app), openRooms.element, liveGames.element, botsList.element],
  }));

  // The lists as the last `lobby` message gave them (none yet: empty).
  let lists = {};
  function renderLists(msg) {
    lists = msg;
    openRooms.render(msg);
    liveGames.render(msg);
    botsList.render(msg);
    playNow.showWaiting(listOf(msg.seeks));
  }
  renderLists({});

  const subscribe = () => app.net.send({ t: 'lobby' });
  if (app.net.ready) subscribe();

  return {
    onReady() {
      // The welcome says whether we are an account: the name box and the Rated box follow;
      // and how long a name the server takes.
      who.render();
      newGame.renderRated();
      subscribe();
      following.refresh();
      playNow.resume();
    },
    onMessage(msg) {
      switch (msg.t) {
        case 'lobby':
          renderLists(msg);
          return true;
        case 'seeking':
          return true;
        case 'created':
          playNow.created();
          app.go(msg.room, { fresh: true, as: creating.as, clockSpec: creating.clock });
          return true;
        case 'error':
          if (msg.room) return false;
          errorLine.show(errorText(msg));
          return true;
        default:
          return false;
      }
    },
    onLang() {
      playNow.relabel();
      renderLists(lists);
      newGame.relabel();
      who.render();
    },
    unmount() {
      playNow.destroy();
      errorLine.destroy();
      vsComputer.destroy();
      newGame.destroy();
      liveGames.destroy();
      following.unmount();
      app.net.send({ t: 'unlobby' });
    },
  };
}
