// Room page entry point: wires one room's state, view, user controls and server messages together and gives main.js the hooks it routes to.

import { RoomState } from './room/state.js';
import { createIntents } from './room/intents.js';
import { createRoomView } from './room/view.js';
import { createControls } from './room/controls.js';
import { createProtocol } from './room/protocol.js';
import { createAnnouncer } from './room/announcer.js';

/** Mounts the room `room` in `root`. opts.fresh: we just created it (its state is on the way);
 *  opts.as: 'player' (take a free seat, else watch) or 'spectator'; opts.clockSpec: the lobby's
 *  copy of its time control; opts.quiet: no game-over dialog (the TV page says the result its
 *  own way and moves on). */
export function mountRoom(root, app, { room, fresh = false, as = 'player', clockSpec, quiet = false }) {
  const state = new RoomState(room, as);
  // The view's buttons say what the player asked for and the controls carry it out: the view
  // only emits intents, the controls only handle them, and neither holds the other.
  const intents = createIntents();
  const view = createRoomView(root, { state, app, clockSpec, emit: intents.emit, quiet });
  const controls = createControls({ state, view, app, on: intents.on });
  const protocol = createProtocol({ state, view, app });
  const announcer = createAnnouncer({ state, el: view.el });

  document.addEventListener('keydown', controls.onKey);
  view.renderAll(false);
  if (app.net.ready && !fresh) protocol.join();

  return {
    onReady: protocol.onReady,
    onMessage(msg) {
      const ours = protocol.onMessage(msg);
      // Our turn in a correspondence game, while the page is in the background: a notification.
      if (ours && msg.t === 'moved') app.turns?.roomMoved(state);
      // Screen-reader mode says what the message changed, once it is drawn.
      if (ours) announcer.update();
      return ours;
    },
    onStatus() {
      view.renderBoard(false);
    },
    onLang() {
      view.renderAll(false);
      view.chat.onLang();
    },
    unmount() {
      document.removeEventListener('keydown', controls.onKey);
      controls.leave();
      view.dispose();
    },
  };
}
