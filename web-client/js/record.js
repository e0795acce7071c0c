// Game records on the page: the move string export, the numbered move list, clock labels and the server's export links.

import { stepStone } from './opening.js';

/**
 * The move string of a game from the empty board (opening first): Gomoku and Othello moves
 * written together (`h8i9h10`, `f5d6c3` — Othello passes are left out, as in transcripts),
 * Connect Four columns as digits (`4453`), separated by spaces once a column number has two digits.
 */
export function moveString(game, opening, moves) {
  // An opening rule's record: the stones on the board, as the server's exports write them.
  const all = [...(opening || []), ...(moves || [])]
    .map((m) => (game.opening_rule ? stepStone(m) : m))
    .filter((m) => m != null);
  if (game.kind === 'othello') return all.filter((m) => m !== 'pass').join('');
  if (game.kind === 'connect4') return all.join((game.cols || 7) > 9 ? ' ' : '');
  return all.join('');
}

/**
 * Rows of the move list: [{ number, black: {ply, move}|null, white: {ply, move}|null }]. `first`
 * is the ply (1-based) of moves[0]; an odd number of earlier moves puts white first in its row.
 */
export function moveRows(moves, first = 1) {
  const rows = [];
  moves.forEach((move, i) => {
    const ply = first + i;
    const number = Math.ceil(ply / 2);
    const seat = ply % 2 === 1 ? 'black' : 'white';
    let row = rows[rows.length - 1];
    if (!row || row.number !== number) {
      row = { number, black: null, white: null };
      rows.push(row);
    }
    row[seat] = { ply, move };
  });
  return rows;
}

/** A clock spec as a short key and label: `3+2`, `5s` (per move), `3d/7` (correspondence: days
 *  per move / vacation days; `3d` without vacation), `none`. */
export function clockKey(clock) {
  if (!clock) return 'none';
  if (clock.move_ms != null) return `${Math.round(clock.move_ms / 1000)}s`;
  if (clock.days != null) return `${Number(clock.days)}d${Number(clock.vacation_days) ? `/${Number(clock.vacation_days)}` : ''}`;
  const min = clock.initial_ms / 60000;
  const inc = Math.round((clock.increment_ms || 0) / 1000);
  return `${Number.isInteger(min) ? min : min.toFixed(1)}+${inc}`;
}

/** The clock spec of a key made by clockKey. */
export function clockFromKey(key) {
  if (!key || key === 'none') return null;
  let m = /^(\d+)s$/.exec(key);
  if (m) return { move_ms: Number(m[1]) * 1000 };
  m = /^(\d+)d(?:\/(\d+))?$/.exec(key);
  if (m) return { days: Number(m[1]), vacation_days: Number(m[2] || 0) };
  m = /^(\d+(?:\.\d+)?)\+(\d+)$/.exec(key);
  if (m) return { initial_ms: Math.round(Number(m[1]) * 60000), increment_ms: Number(m[2]) * 1000 };
  return null;
}

/** Same game spec? (For matching quick-pairing buttons with the lobby's seek counts.) */
export function sameGame(a, b) {
  if (!a || !b || a.kind !== b.kind) return false;
  if (a.kind === 'gomoku') {
    return (a.size || 15) === (b.size || 15) && (a.rule || 'freestyle') === (b.rule || 'freestyle')
      && (a.opening_rule || null) === (b.opening_rule || null);
  }
  if (a.kind === 'connect4') {
    const key = (g) => JSON.stringify([g.cols || 7, g.rows || 6, (g.blocked || []).map(String).sort()]);
    return key(a) === key(b);
  }
  return true;
}

/** The server's export addresses for a room (record as JSON, SGF, and PSQ for Gomoku). */
export function exportLinks(room, game) {
  const base = `/api/games/${encodeURIComponent(room)}`;
  const links = [
    { key: 'json', href: base, file: `${room}.json` },
    { key: 'sgf', href: `${base}/sgf`, file: `${room}.sgf` },
  ];
  if (game && game.kind === 'gomoku') links.push({ key: 'psq', href: `${base}/psq`, file: `${room}.psq` });
  return links;
}
