// Pasted games and positions for the analysis board: an SGF file (its variations and set-up stones too), a PSQ record, a JSON record (the board's own export, a room's /api/games record), a position as text (cells row by row and the side to move, Othello's `---…OX…--- X`), or a move string (`h8i9`, `f5d6`, `4453`); every move checked, a bad one refused with its number and why. No DOM, so node tests it.

import { t } from '../i18n.js';
import { dims, emptyBoard, cellName, EMPTY, BLACK, WHITE, BLOCKED } from '../rules.js';
import { stepStone } from '../opening.js';
import { plainGame, GOMOKU_SIZE, CONNECT4_SIZE } from './variant.js';
import { startPos, info, tryMove, isStartSetup, sideFromCounts, floatingDisc } from './position.js';
import { createTree, addMove, size as treeSize } from './tree.js';
import { parseSgf, prop, sgfPointIdx, sgfPointList } from './sgf.js';

/** Moves read from one paste at most, all variations together. */
export const PASTE_MOVES_MAX = 3000;

const fail = (error, params = {}) => ({ ok: false, error: `analysis.paste.${error}`, params });

/** A board's `setup` as the page keeps it: null for the game's own start. */
function setupOf(game, cells, toMove) {
  const setup = { cells: Int8Array.from(cells), toMove };
  return isStartSetup(game, setup) ? null : setup;
}

/**
 * Adds `move` after tree node `at` (position `p`), made by `seat` when the record names it (an
 * Othello record may leave out a forced pass: it is put in). Returns { at, p } (the new node and
 * its position), or the failure of move number `n`.
 */
function step(game, at, p, move, seat, n, budget) {
  let node = at;
  let pos = p;
  let known = info(game, pos);
  if (seat && seat !== pos.toMove && known.mustPass && move !== 'pass') {
    node = addMove(node, 'pass').node;
    pos = tryMove(game, pos, 'pass', known).pos;
    known = info(game, pos);
  }
  if (seat && seat !== pos.toMove) return fail('colour', { n, move, seat });
  const res = tryMove(game, pos, move, known);
  if (!res.ok) return fail('move', { n, move, why: res.why });
  if (--budget.left < 0) return fail('tooMany', { n: PASTE_MOVES_MAX });
  return { at: addMove(node, res.move).node, p: res.pos };
}

/** Adds `moves` one after another from the tree's root at `pos`: null, or the first failure. */
function grow(game, tree, pos, moves) {
  const budget = { left: PASTE_MOVES_MAX };
  let cur = { at: tree.root, p: pos };
  for (const [k, move] of moves.entries()) {
    cur = step(game, cur.at, cur.p, move, null, k + 1, budget);
    if (cur.ok === false) return cur;
  }
  return null;
}

/** The result of a paste: the game, its start and its tree, with `kind` naming what was read. */
const read = (kind, game, setup, tree) => ({ ok: true, kind, game, setup, tree });

// ---------- position text ----------

const SIDE = { x: 'black', b: 'black', black: 'black', o: 'white', w: 'white', white: 'white' };

/** The game a board of `rowsText` (rows as pasted, maybe one) is on: `game` when it fits. */
function boardGame(game, rowsText, cells) {
  const n = cells.length;
  const { cols, rows } = dims(game);
  if (n === cols * rows) return game;
  if (game.kind === 'connect4' && rowsText.length > 1) {
    const c = rowsText[0].length;
    const r = rowsText.length;
    const fits = (v) => v >= CONNECT4_SIZE.min && v <= CONNECT4_SIZE.max;
    if (rowsText.every((row) => row.length === c) && fits(c) && fits(r)) return { ...game, cols: c, rows: r, blocked: [] };
  }
  if (n === 64) return { kind: 'othello' };
  const size = Math.round(Math.sqrt(n));
  if (size * size === n && size >= GOMOKU_SIZE.min && size <= GOMOKU_SIZE.max) {
    return { kind: 'gomoku', size, rule: game.kind === 'gomoku' ? game.rule : 'freestyle' };
  }
  return null;
}

/** A position as text: rows of X, O, `-` or `.` (and `#` for a blocked Connect Four cell),
 *  together or split by `/` or lines, then the side to move (X/O, B/W, black/white), which may
 *  be left out. Null when `text` is not written so. */
function parsePosition(game, text) {
  const m = /^([XOxo.#\-/\s]+?)(?:\s+(x|o|b|w|black|white))?\s*$/i.exec(text);
  if (!m || !/[XOxo.\-]{4}/.test(m[1])) return null;
  const rowsText = m[1].split(/[/\s]+/).filter(Boolean);
  const chars = rowsText.join('');
  const on = boardGame(game, rowsText, chars);
  if (!on) return fail('boardSize', { n: chars.length });
  const cells = new Int8Array(chars.length);
  const blocked = [];
  const { cols, rows } = dims(on);
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i].toLowerCase();
    if (c === '#') {
      if (on.kind !== 'connect4') return fail('blockedHere');
      cells[i] = BLOCKED;
      blocked.push([(i % cols) + 1, rows - Math.floor(i / cols)]);
    } else cells[i] = c === 'x' ? BLACK : c === 'o' ? WHITE : EMPTY;
  }
  const g = on.kind === 'connect4' ? plainGame({ ...on, blocked }) : on;
  const floating = floatingDisc(g, cells);
  if (floating) return fail('floating', { cell: floating });
  const toMove = m[2] ? SIDE[m[2].toLowerCase()] : sideFromCounts(g, cells);
  return read('position', g, setupOf(g, cells, toMove), createTree());
}

// ---------- move strings ----------

/** The moves of a move string of `game`, or null when `text` is not one: Gomoku and Othello
 *  squares written together or apart (`h8i9`, `h8 i9`, `1. h8 i9 2. h10`, `pass`), Connect Four
 *  columns one digit each (`4453`) or apart (`10,3,4`). */
function moveTokens(game, text) {
  if (game.kind === 'connect4') {
    if (!/^[\d\s,;]+$/.test(text)) return null;
    return /[\s,;]/.test(text) ? text.split(/[\s,;]+/).filter(Boolean) : [...text];
  }
  const body = text.replace(/\b\d+\s*(?:\.+|…)/g, ' ').replace(/…/g, ' ');
  const tokens = [];
  const re = /\s*(pass|[a-z]\d{1,2})\s*[,;.]?/giy;
  let m;
  let end = 0;
  while ((m = re.exec(body))) {
    tokens.push(m[1].toLowerCase());
    end = re.lastIndex;
  }
  return tokens.length && body.slice(end).trim() === '' ? tokens : null;
}

function parseMoveString(game, text) {
  const moves = moveTokens(game, text);
  if (!moves) return null;
  const tree = createTree();
  return grow(game, tree, startPos(game), moves) || read('moves', game, null, tree);
}

// ---------- PSQ ----------

function parsePsq(game, text) {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const m = /^piskvorky\s+(\d+)\s*x\s*(\d+)/i.exec(lines[0]);
  if (!m) return fail('psq', { line: 1 });
  const size = Number(m[1]);
  if (size !== Number(m[2]) || size < GOMOKU_SIZE.min || size > GOMOKU_SIZE.max) return fail('psqSize', { size: `${m[1]}×${m[2]}` });
  const g = { kind: 'gomoku', size, rule: game.kind === 'gomoku' ? game.rule : 'freestyle' };
  const moves = [];
  for (const [i, line] of lines.slice(1).entries()) {
    const mv = /^(-?\d+)\s*,\s*(-?\d+)(?:\s*,\s*-?\d+)?$/.exec(line);
    if (!mv) break;
    const [x, y] = [Number(mv[1]), Number(mv[2])];
    if (x < 1 || y < 1 || x > size || y > size) return fail('psq', { line: i + 2 });
    moves.push(cellName(g, (y - 1) * size + (x - 1)));
  }
  const tree = createTree();
  return grow(g, tree, startPos(g), moves) || read('psq', g, null, tree);
}

// ---------- SGF ----------

/** The game an SGF root names: GM[4] Gomoku (SZ, RU; no RU keeps the page's rule), GM[2] Othello. */
function sgfGame(game, root) {
  const gm = (prop(root, 'GM') ?? (game.kind === 'othello' ? '2' : '4')).trim();
  const sz = prop(root, 'SZ');
  if (gm === '2') return sz && sz.trim() !== '8' ? fail('sgfSize', { size: sz }) : { kind: 'othello' };
  if (gm !== '4') return fail('sgfGame', { gm });
  const size = sz == null ? 15 : Number(sz.trim());
  if (!Number.isInteger(size) || size < GOMOKU_SIZE.min || size > GOMOKU_SIZE.max) return fail('sgfSize', { size: sz });
  const ru = (prop(root, 'RU') || '').trim().toLowerCase();
  const rule = ['freestyle', 'standard', 'renju'].includes(ru) ? ru : game.kind === 'gomoku' ? game.rule : 'freestyle';
  return { kind: 'gomoku', size, rule };
}

/** The set-up stones of an SGF root (AB, AW, PL), or null when it has none. */
function sgfSetup(g, root) {
  if (!root.props.has('AB') && !root.props.has('AW')) return { setup: null };
  const cells = g.kind === 'othello' ? new Int8Array(64) : emptyBoard(g);
  for (const [tag, stone] of [['AB', BLACK], ['AW', WHITE]]) {
    const points = sgfPointList(g, root.props.get(tag));
    if (!points) return { error: fail('sgfPoint', { point: (root.props.get(tag) || []).join(',') }) };
    for (const idx of points) cells[idx] = stone;
  }
  const pl = (prop(root, 'PL') || '').trim().toUpperCase();
  const toMove = pl === 'W' ? 'white' : pl === 'B' ? 'black' : sideFromCounts(g, cells);
  return { setup: setupOf(g, cells, toMove) };
}

/** The move of an SGF node: { move, seat }, null for a node without one, or a failure. Set-up
 *  stones are read at the root only. */
function sgfMove(g, node, n, root = false) {
  const b = node.props.get('B');
  const w = node.props.get('W');
  if (!root && ['AB', 'AW', 'AE'].some((p) => node.props.has(p))) return fail('sgfSetupLater', { n });
  if (b && w) return fail('sgfBoth', { n });
  if (!b && !w) return null;
  const seat = b ? 'black' : 'white';
  const point = (b || w)[0].trim();
  const size = dims(g).cols;
  if (point === '' || (point === 'tt' && size <= 19)) return { move: 'pass', seat };
  const idx = sgfPointIdx(g, point);
  if (idx < 0) return fail('sgfPoint', { point });
  return { move: cellName(g, idx), seat };
}

/** Adds the move of SGF node `sgf` (if it has one) after `at` (at `p`): { at, p } or a failure. */
function sgfStep(g, sgf, at, p, budget, root = false) {
  const mv = sgfMove(g, sgf, at.ply + 1, root);
  if (!mv) return { at, p };
  if (mv.ok === false) return mv;
  return step(g, at, p, mv.move, mv.seat, at.ply + 1, budget);
}

/** Reads every variation below SGF node `sgf` (read already into `at`, at `p`): null or a failure. */
function sgfGrow(g, sgf, at, p, budget) {
  let node = sgf;
  let cur = { at, p };
  // A straight run of nodes is read in a loop: only variations recurse.
  while (node.children.length === 1) {
    node = node.children[0];
    cur = sgfStep(g, node, cur.at, cur.p, budget);
    if (cur.ok === false) return cur;
  }
  for (const child of node.children) {
    const next = sgfStep(g, child, cur.at, cur.p, budget);
    if (next.ok === false) return next;
    const err = sgfGrow(g, child, next.at, next.p, budget);
    if (err) return err;
  }
  return null;
}

function parseSgfText(game, text) {
  const parsed = parseSgf(text);
  if (!parsed.ok) return fail('sgf', { reason: parsed.error });
  const g = sgfGame(game, parsed.root);
  if (g.ok === false) return g;
  const { setup, error } = sgfSetup(g, parsed.root);
  if (error) return error;
  const tree = createTree();
  const budget = { left: PASTE_MOVES_MAX };
  // The root is a node like any other: it may hold a move.
  const first = sgfStep(g, parsed.root, tree.root, startPos(g, setup), budget, true);
  if (first.ok === false) return first;
  return sgfGrow(g, parsed.root, first.at, first.p, budget) || read('sgf', g, setup, tree);
}

// ---------- JSON ----------

/** The moves of a JSON tree ([{ move, children }]) into `at` (at `p`): null or a failure. */
function jsonGrow(g, list, at, p, budget) {
  for (const item of Array.isArray(list) ? list : []) {
    if (!item || typeof item.move !== 'string') return fail('json');
    const next = step(g, at, p, item.move, null, at.ply + 1, budget);
    if (next.ok === false) return next;
    const err = jsonGrow(g, item.children, next.at, next.p, budget);
    if (err) return err;
  }
  return null;
}

function parseJson(game, text) {
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    return fail('json');
  }
  const g = plainGame(data?.game);
  if (!g) return fail('json');
  let setup = null;
  if (data.setup?.position) {
    const pos = parsePosition(g, String(data.setup.position));
    if (!pos?.ok) return pos || fail('json');
    setup = pos.setup;
  }
  const tree = createTree();
  const start = startPos(g, setup);
  if (Array.isArray(data.tree)) return jsonGrow(g, data.tree, tree.root, start, { left: PASTE_MOVES_MAX }) || read('json', g, setup, tree);
  if (!Array.isArray(data.moves)) return fail('json');
  // A room's record keeps an opening rule's choices among its moves: only stones count.
  const all = [...(Array.isArray(data.opening) ? data.opening : []), ...data.moves].map(String);
  const moves = data.game.opening_rule ? all.map(stepStone).filter((m) => m != null) : all;
  return grow(g, tree, start, moves) || read('json', g, setup, tree);
}

/**
 * What pasted `text` sets up, read for the page's `game`: { ok: true, kind (sgf | psq | json |
 * position | moves), game (the text's own: an SGF or a board of another size changes it), setup
 * (null for the game's start), tree } or { ok: false, error (an i18n key), params }.
 */
export function parsePasted(game, text) {
  const src = String(text ?? '').trim();
  if (!src) return fail('empty');
  if (src.length > 200_000) return fail('tooLong');
  if (src.startsWith('{')) return parseJson(game, src);
  if (/^\(\s*;/.test(src)) return parseSgfText(game, src);
  if (/^piskvork/i.test(src)) return parsePsq(game, src);
  return parsePosition(game, src) || parseMoveString(game, src) || fail('unknown', { game: game.kind });
}

/** A failed paste in words: the key's sentence with its codes (a move's reason, a seat, a game,
 *  an SGF fault) said in the page's language. */
export function pasteError(res) {
  const p = { ...res.params };
  if (p.why) p.why = t(`analysis.why.${p.why}`);
  if (p.reason) p.reason = t(`analysis.sgf.${p.reason}`);
  if (p.seat) p.seat = t(`seat.${p.seat}`);
  if (p.game) p.game = t(`game.${p.game}`);
  return t(res.error, p);
}

/** What a paste read, in words: "Read an SGF file: 23 moves." */
export function pasteSummary(res) {
  return t(`analysis.read.${res.kind}`, { n: treeSize(res.tree) });
}
