// A room's words for what it shows: a seat ("Black"), a seat's player as people say it (the name, else the colour), a move (a pass in words), a ply as the move list numbers it, and a result.

import { t } from '../i18n.js';

export const seatWord = (seat) => t(`seat.${seat}`);
export const moveLabel = (move) => (move === 'pass' ? t('room.pass') : move);

/** A seat of room `R` as people say it: the player's name, else the colour. */
export function playerWord(R, seat) {
  const name = R.seats[seat]?.name;
  return name ? String(name) : seatWord(seat);
}

/** Ply `k` of room `R` as the move list numbers it ("7. m1" for black, "7… m2" for white), or
 *  the start. */
export function plyWords(R, k) {
  if (!k) return t('room.viewingStart');
  const move = [...R.opening, ...R.moves][k - 1];
  return `${Math.ceil(k / 2)}${k % 2 ? '.' : '…'} ${moveLabel(move ?? '')}`;
}

/** Room `R`'s result `res` in words: { head, reason, score } (the last two may be empty). */
export function resultWords(R, res) {
  let head;
  if (res.result === 'aborted') head = t('over.aborted');
  else if (res.result === 'draw') head = t('over.draw');
  else if (R.seated) head = res.result === R.you ? t('over.youWin') : t('over.youLose');
  else head = t('over.win', { name: playerWord(R, res.result), seat: seatWord(res.result) });
  const reason = res.reason ? t(`reason.${res.reason}`) : '';
  const score = res.score ? t('room.score', { black: res.score.black, white: res.score.white }) : '';
  return { head, reason, score };
}
