// Streak mode without the DOM: puzzles of rising rating until the first failure, the count, and the best streak remembered in this browser (localStorage, one a variant and one for all); node tests it.

/** The first puzzle's rating, and how much each solved puzzle adds to the next one's. */
export const STREAK_START = 1000;
export const STREAK_STEP = 75;

const KEY = 'kibitz.puzzleStreakBest';

const storageOf = (storage) => storage ?? globalThis.localStorage;

function readAll(storage) {
  try {
    const saved = JSON.parse(storageOf(storage)?.getItem(KEY) || 'null');
    return saved && typeof saved === 'object' && !Array.isArray(saved) ? saved : {};
  } catch {
    return {};
  }
}

/** The best streak remembered for `variant` (null: all the variants together). */
export function loadBest(variant, storage) {
  const n = Number(readAll(storage)[variant || 'all']);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** Remembers `n` as the best streak for `variant` when it beats the one remembered. */
export function saveBest(variant, n, storage) {
  const all = readAll(storage);
  const key = variant || 'all';
  if (!(n > (Number(all[key]) || 0))) return false;
  all[key] = n;
  try {
    storageOf(storage)?.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage refused: the best streak holds for this page.
  }
  return true;
}

/** A new streak in `variant` (null: any), with the best one remembered. */
export function createStreak(variant = null, storage) {
  return { variant, count: 0, best: loadBest(variant, storage), over: false, newBest: false, last: null };
}

/** The rating of the streak's next puzzle: rising with each one solved. */
export const streakTarget = (s) => STREAK_START + STREAK_STEP * s.count;

/** A puzzle (`id`) solved: the count goes up, and the best with it. */
export function streakSolved(s, id, storage) {
  if (s.over) return s;
  s.count += 1;
  s.last = id;
  if (s.count > s.best) {
    s.best = s.count;
    s.newBest = true;
    saveBest(s.variant, s.count, storage);
  }
  return s;
}

/** The first failure ends the streak. */
export function streakFailed(s, id) {
  s.over = true;
  s.last = id;
  return s;
}
