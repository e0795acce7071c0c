// A guest's puzzle ratings kept in this browser (localStorage, one Glicko-2 rating a variant: rating, rd, volatility, from 1500/350/0.06), sent with each result and replaced by the server's answer; node tests it.

/** Where a guest starts in every variant. */
export const GUEST_START = Object.freeze({ rating: 1500, rd: 350, volatility: 0.06, plays: 0 });

const KEY = 'kibitz.puzzleRatings';

const storageOf = (storage) => storage ?? globalThis.localStorage;

/** A stored rating as a rating, or null when it is not one (a damaged or hand-made entry). */
function valid(r) {
  if (!r || typeof r !== 'object') return null;
  const rating = Number(r.rating);
  const rd = Number(r.rd);
  const volatility = Number(r.volatility);
  if (!(rating > 0 && rating < 5000 && rd > 0 && rd <= 500 && volatility > 0 && volatility < 1)) return null;
  const plays = Number(r.plays);
  return { rating, rd, volatility, plays: Number.isInteger(plays) && plays > 0 ? plays : 0 };
}

function readAll(storage) {
  try {
    const saved = JSON.parse(storageOf(storage)?.getItem(KEY) || 'null');
    return saved && typeof saved === 'object' && !Array.isArray(saved) ? saved : {};
  } catch {
    return {};
  }
}

/** The guest's rating in `variant`: the one kept, else the start. */
export function guestRating(variant, storage) {
  return valid(readAll(storage)[variant]) || { ...GUEST_START };
}

/** Every variant's rating the guest has played, by variant. */
export function guestRatings(storage) {
  const out = {};
  for (const [k, v] of Object.entries(readAll(storage))) {
    const r = valid(v);
    if (r) out[k] = r;
  }
  return out;
}

/** Keeps the server's answer (`player` of a result: { rating, rd, volatility }) as the guest's
 *  rating in `variant`, one more play counted; returns what was kept, or null when the answer
 *  is not a rating. */
export function saveGuestRating(variant, player, storage) {
  const before = guestRating(variant, storage);
  const next = valid({ ...player, plays: before.plays + 1 });
  if (!next) return null;
  const all = readAll(storage);
  all[variant] = next;
  try {
    storageOf(storage)?.setItem(KEY, JSON.stringify(all));
  } catch {
    // Storage refused: the rating holds for this page.
  }
  return next;
}
