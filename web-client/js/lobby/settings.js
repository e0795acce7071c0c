// The lobby's remembered choices: the new-game form's settings, "Play the computer"'s game and order, and the bot level they and quick pairing share; kept in this browser, and told to every part of the lobby that shows one when it changes.

const KEY = 'kibitz.newGame';

const DEFAULTS = {
  kind: 'gomoku', size: 15, rule: 'freestyle', cols: 7, rows: 6, blocked: [],
  clock: '5+3', seat: 'random', opp: 'person', level: 3, levelBlack: 3, levelWhite: 5,
  private: false, rated: false, openingRule: 'none',
  vsGame: 'gomoku', vsOrder: 'you',
};

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || 'null');
    if (saved && typeof saved === 'object') {
      // The set-up stones are the form's for one visit (opening-stones.js), never remembered.
      const { opening, ...rest } = saved;
      return { ...DEFAULTS, ...rest };
    }
  } catch {
    // ignore a damaged entry
  }
  return { ...DEFAULTS };
}

function save(values) {
  try {
    localStorage.setItem(KEY, JSON.stringify(values));
  } catch {
    // storage disabled
  }
}

/**
 * The choices as saved (or the defaults). Returns { get(key), set(patch), onChange(fn) }:
 * `set` remembers the patch and then calls every `onChange` listener with it; `onChange`
 * returns the function that stops listening.
 */
export function createSettings() {
  const values = load();
  const listeners = new Set();
  return {
    get: (key) => values[key],
    set(patch) {
      Object.assign(values, patch);
      save(values);
      for (const fn of listeners) fn(patch);
    },
    onChange(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
