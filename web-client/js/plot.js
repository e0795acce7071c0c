// The rating-history plot's geometry: the player's history points scaled into a box, one series per rating key, and the axes' ends; no DOM, so node can test it (player.js draws it as SVG).

/** The plot's box in SVG units: the drawing area is inside the margins, the labels outside. */
export const PLOT_BOX = { width: 640, height: 260, left: 56, right: 16, top: 16, bottom: 34 };

/** When every rating is the same number the line sits in the middle of a band this wide. */
const FLAT_SPAN = 50;

const round1 = (v) => Math.round(v * 10) / 10;

/**
 * Scales `history` ([{ key, at_ms, rating }], any order) into `box`. Returns null when there is
 * no usable point, else { series: [{ key, points: [{ x, y, at, rating }] }] in first-seen key
 * order, oldest point first, xMin, xMax (times, ms), yMin, yMax (ratings: the lowest and the
 * highest of the history), yLo, yHi (the ratings at the bottom and the top of the drawing
 * area, the axis labels: yMin and yMax, or a band around a flat history), box }. Time runs left to right; a higher rating
 * is higher up. A single moment is drawn in the middle, a flat history in the middle height.
 */
export function scaleHistory(history, box = PLOT_BOX) {
  const points = (Array.isArray(history) ? history : [])
    // Number(null) is 0: a missing value must not become a point at zero.
    .filter((p) => p && p.at_ms != null && p.rating != null)
    .map((p) => ({ key: String(p?.key ?? ''), at: Number(p?.at_ms), rating: Number(p?.rating) }))
    .filter((p) => p.key && Number.isFinite(p.at) && Number.isFinite(p.rating));
  if (!points.length) return null;
  const ats = points.map((p) => p.at);
  const ratings = points.map((p) => p.rating);
  const xMin = Math.min(...ats);
  const xMax = Math.max(...ats);
  const yMin = Math.min(...ratings);
  const yMax = Math.max(...ratings);
  const x0 = box.left;
  const x1 = box.width - box.right;
  const y0 = box.height - box.bottom; // the bottom of the drawing area (low ratings)
  const y1 = box.top;
  const lo = yMin === yMax ? yMin - FLAT_SPAN / 2 : yMin;
  const hi = yMin === yMax ? yMax + FLAT_SPAN / 2 : yMax;
  const sx = (at) => (xMin === xMax ? (x0 + x1) / 2 : x0 + ((at - xMin) / (xMax - xMin)) * (x1 - x0));
  const sy = (r) => y0 - ((r - lo) / (hi - lo)) * (y0 - y1);
  const byKey = new Map();
  for (const p of points) {
    if (!byKey.has(p.key)) byKey.set(p.key, []);
    byKey.get(p.key).push(p);
  }
  const series = [...byKey].map(([key, list]) => ({
    key,
    points: list
      .map((p, i) => ({ ...p, i }))
      // Oldest first; points of the same moment keep their order.
      .sort((a, b) => a.at - b.at || a.i - b.i)
      .map((p) => ({ x: round1(sx(p.at)), y: round1(sy(p.rating)), at: p.at, rating: p.rating })),
  }));
  return { series, xMin, xMax, yMin, yMax, yLo: lo, yHi: hi, box };
}

/** The `points` attribute of an SVG polyline through `points`. */
export function polylinePoints(points) {
  return points.map((p) => `${p.x},${p.y}`).join(' ');
}
