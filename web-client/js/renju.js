// Renju forbidden points for black (overline, double-four, double-three under the RIF definition, checked recursively), so the page can mark them.

// Cells: 0 empty, 1 black, 2 white (as in rules.js); index y * size + x.
const EMPTY = 0;
const BLACK = 1;
const DIRS = [[1, 0], [0, 1], [1, 1], [1, -1]];
// A three whose straight four needs a move that is itself a double three, whose threes need... —
// real positions never nest deeply; the cap keeps a pathological board from stalling the page.
const MAX_DEPTH = 6;

/** Length of the unbroken black run through (x, y) along (dx, dy); (x, y) must be black. */
function runLength(b, n, x, y, dx, dy) {
  let len = 1;
  for (const s of [1, -1]) {
    let i = x + dx * s;
    let j = y + dy * s;
    while (i >= 0 && i < n && j >= 0 && j < n && b[j * n + i] === BLACK) {
      len++;
      i += dx * s;
      j += dy * s;
    }
  }
  return len;
}

/**
 * Offsets k (along the line) of the empty cells that, filled with black, make an exactly-five
 * run that contains (x, y). (x, y) must be black. These are the ways the line's four completes.
 */
function fiveCompletions(b, n, x, y, dx, dy) {
  const out = [];
  for (let k = -4; k <= 4; k++) {
    if (k === 0) continue;
    const i = x + dx * k;
    const j = y + dy * k;
    if (i < 0 || i >= n || j < 0 || j >= n) continue;
    const at = j * n + i;
    if (b[at] !== EMPTY) continue;
    b[at] = BLACK;
    // The filled cell joins the run through (x, y) only if every cell between them is black;
    // runLength counts through it in that case.
    let joined = true;
    for (let s = Math.sign(k), m = s; m !== k; m += s) {
      if (b[(y + dy * m) * n + (x + dx * m)] !== BLACK) {
        joined = false;
        break;
      }
    }
    if (joined && runLength(b, n, x, y, dx, dy) === 5) out.push(k);
    b[at] = EMPTY;
  }
  return out;
}

/** How many fours the black stone at (x, y) is part of along one line. An open (straight)
 *  four counts once: its two completions lie five apart with the four stones between them. */
function foursInLine(b, n, x, y, dx, dy) {
  const c = fiveCompletions(b, n, x, y, dx, dy);
  if (c.length === 2 && Math.abs(c[1] - c[0]) === 5) return 1;
  return c.length;
}

function isStraightFour(b, n, x, y, dx, dy) {
  const c = fiveCompletions(b, n, x, y, dx, dy);
  return c.length === 2 && Math.abs(c[1] - c[0]) === 5;
}

/** Whether the black stone at (x, y) forms a real three along the line: one more black stone,
 *  on a point that is not itself forbidden, makes a straight four through (x, y). */
function isThree(b, n, x, y, dx, dy, depth) {
  for (let k = -4; k <= 4; k++) {
    if (k === 0) continue;
    const i = x + dx * k;
    const j = y + dy * k;
    if (i < 0 || i >= n || j < 0 || j >= n) continue;
    const at = j * n + i;
    if (b[at] !== EMPTY) continue;
    b[at] = BLACK;
    const straight = isStraightFour(b, n, x, y, dx, dy);
    b[at] = EMPTY;
    if (straight && !kindAt(b, n, i, j, depth + 1)) return true;
  }
  return false;
}

function kindAt(b, n, x, y, depth) {
  const at = y * n + x;
  if (b[at] !== EMPTY) return null;
  b[at] = BLACK;
  try {
    let five = false;
    let over = false;
    for (const [dx, dy] of DIRS) {
      const len = runLength(b, n, x, y, dx, dy);
      if (len === 5) five = true;
      else if (len > 5) over = true;
    }
    // A five wins even when it comes with a forbidden shape.
    if (five) return null;
    if (over) return 'overline';
    let fours = 0;
    const fourLine = [];
    for (const [dx, dy] of DIRS) {
      const f = foursInLine(b, n, x, y, dx, dy);
      fours += f;
      fourLine.push(f > 0);
    }
    if (fours >= 2) return 'double-four';
    if (depth > MAX_DEPTH) return null;
    let threes = 0;
    for (let d = 0; d < 4; d++) {
      if (fourLine[d]) continue;
      const [dx, dy] = DIRS[d];
      if (isThree(b, n, x, y, dx, dy, depth)) {
        threes++;
        if (threes >= 2) return 'double-three';
      }
    }
    return null;
  } finally {
    b[at] = EMPTY;
  }
}

/**
 * Why black may not play the empty cell idx under renju: 'overline', 'double-four',
 * 'double-three', or null when the move is allowed (or the cell is taken).
 */
export function forbiddenKind(cells, size, idx) {
  const b = Int8Array.from(cells);
  return kindAt(b, size, idx % size, Math.floor(idx / size), 0);
}

/** Whether any black stone lies within four cells of (x, y) on each of at least two lines, or
 *  two on one — the least a forbidden point needs; skips the empty far side of the board. */
function worthChecking(b, n, x, y) {
  let seen = 0;
  for (const [dx, dy] of DIRS) {
    for (const s of [1, -1]) {
      for (let k = 1; k <= 5; k++) {
        const i = x + dx * k * s;
        const j = y + dy * k * s;
        if (i < 0 || i >= n || j < 0 || j >= n) break;
        if (b[j * n + i] === BLACK) seen++;
      }
    }
  }
  return seen >= 2;
}

/** Every forbidden point for black: [{ idx, kind }], in board order. */
export function forbiddenPoints(cells, size) {
  const b = Int8Array.from(cells);
  const out = [];
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const at = y * size + x;
      if (b[at] !== EMPTY || !worthChecking(b, size, x, y)) continue;
      const kind = kindAt(b, size, x, y, 0);
      if (kind) out.push({ idx: at, kind });
    }
  }
  return out;
}

/** Whether black has no point left to play: every empty cell is one of `forbidden` (the answer
 *  of forbiddenPoints). The referee then ends the game, drawn. */
export function noPointLeft(cells, forbidden) {
  let empty = 0;
  for (const c of cells) if (c === EMPTY) empty++;
  return empty > 0 && forbidden.length === empty;
}
