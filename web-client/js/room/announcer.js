// Screen-reader mode of the room: a switch remembered in this browser; while it is on, a live region reads each move as people say it ("white h9", "black column 4", "white passes"), a take-back and the game's end, and the clocks on demand (a button, or C on the board).

import { h } from '../dom.js';
import { t } from '../i18n.js';

const KEY = 'kibitz.screenReader';
/** The lines the region keeps: the latest is the one just said. */
const KEEP = 6;

/** Whether screen-reader mode is on in this browser. */
export function screenReaderOn() {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false;
  }
}

function remember(on) {
  try {
    if (on) localStorage.setItem(KEY, '1');
    else localStorage.removeItem(KEY);
  } catch {
    // Storage refused: the mode holds for this page.
  }
}

/** Move `move` of `game` by `seat`, in words: a cell, a column, a pass or an opening choice. */
export function moveWords(game, seat, move) {
  const who = t(`sr.${seat}`);
  const text = String(move);
  if (text === 'pass') return t('sr.pass', { seat: who });
  if (game?.kind === 'connect4' && /^\d+$/.test(text)) return t('sr.column', { seat: who, n: text });
  if (/^[a-z]+\d+$/.test(text)) return t('sr.move', { seat: who, move: text });
  return t('sr.other', { seat: who, move: text });
}

/**
 * The room's announcer for state `R`, drawn in `el` (layout.js): puts its switch and the clocks
 * button with the room's actions and its live region under the status line. `update()` after
 * every message for the room says what changed since the last call.
 */
export function createAnnouncer({ state: R, el }) {
  let on = screenReaderOn();
  let seen = null; // { plies, status } at the last update; null until the first state

  const region = h('div', { class: 'sr-only', role: 'log', 'aria-live': 'polite', 'data-testid': 'sr-announce' });
  const toggle = h('button', { type: 'button', 'data-testid': 'btn-screen-reader', 'data-i18n': 'sr.mode', onclick: () => setOn(!on) }, t('sr.mode'));
  const clocksBtn = h('button', { type: 'button', 'data-testid': 'btn-hear-clocks', 'data-i18n': 'sr.clocks', 'aria-keyshortcuts': 'C', onclick: () => sayClocks() }, t('sr.clocks'));
  el.buttons.copy.after(toggle, clocksBtn);
  el.statusEl.after(region);
  el.board.element.addEventListener('keydown', (ev) => {
    if (!on || ev.ctrlKey || ev.metaKey || ev.altKey || ev.key.toLowerCase() !== 'c') return;
    ev.preventDefault();
    sayClocks();
  });

  function say(text) {
    if (!text) return;
    region.append(h('p', {}, text));
    while (region.childElementCount > KEEP) region.firstElementChild.remove();
  }

  function setOn(next) {
    on = next;
    remember(on);
    draw();
    say(t(on ? 'sr.on' : 'sr.off'));
  }

  function draw() {
    toggle.setAttribute('aria-pressed', String(on));
    clocksBtn.hidden = !on;
  }

  /** Both clocks as they stand on screen, or that the game has none. */
  function sayClocks() {
    if (!R.clock) {
      say(t('sr.untimed'));
      return;
    }
    say(['black', 'white'].map((seat) => t('sr.clock', { seat: t(`sr.${seat}`), time: el.bars[seat].clock.textContent })).join(', '));
  }

  draw();
  return {
    say,
    /** Says the moves, take-backs and the end since the last call (nothing for the first state:
     *  the game so far is on the board and in the move list). */
    update() {
      if (!R.game) return;
      const plies = R.moves.length;
      const before = seen;
      seen = { plies, status: R.status };
      if (!before || !on) return;
      if (plies > before.plies) {
        // After a gap only the latest few are worth hearing.
        for (let i = Math.max(before.plies, plies - 3); i < plies; i++) {
          const pos = R.positions[R.opening.length + i];
          say(moveWords(R.game, pos ? pos.toMove : '', R.moves[i]));
        }
      } else if (plies < before.plies) {
        say(t('sr.undone', { seat: t(`sr.${R.toMove}`) }));
      }
      if (R.status === 'over' && before.status !== 'over') say(t('sr.over', { text: el.overEl.textContent.trim() }));
    },
  };
}
