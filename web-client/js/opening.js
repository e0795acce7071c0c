// Opening rules (swap2, Soosõrv-8, Taraguchi-10) as the page shows them: which rules a game may take, which steps place stones, whose choice it is, the one-line explanation of the step and what a click on the board means; no DOM, so node can test it. The server is the referee.

/** The opening rules a Gomoku game may name, by its board and rule (docs/protocol.md). */
export function openingRules(game) {
  if (!game || game.kind !== 'gomoku') return [];
  const size = game.size || 15;
  if (game.rule === 'renju') return size === 15 ? ['soosorv8', 'taraguchi10'] : [];
  return size >= 15 ? ['swap2'] : [];
}

const CHOICE_WORDS = new Set(['swap', 'stay', 'black', 'white', 'declare', 'fifths', 'choose']);

/** The stone a step of a game puts on the board, as a cell text: the step itself for a move,
 *  the chosen cell of `choose c`, null for a choice that places nothing (swap, stay, a colour,
 *  a declaration, offered 5th moves). */
export function stepStone(step) {
  const text = String(step).trim().toLowerCase();
  const [word, rest] = text.split(/\s+(.*)/s);
  if (word === 'choose') return rest ? rest.trim() : null;
  return CHOICE_WORDS.has(word) ? null : text;
}

/** How many steps the first player makes before the second player's first decision. */
export const firstPlayerSteps = (rule) => (rule === 'taraguchi10' ? 1 : 3);

/** Whether the opening still runs: its choices are being made. */
export const openingRuns = (os) => !!os && os.phase !== 'over' && !!os.to_act;

/** The colour whose player acts in the opening: the holder of black is `os.black`. */
export function actorSeat(os) {
  if (!openingRuns(os)) return null;
  return os.to_act === os.black ? 'black' : 'white';
}

const legalOf = (os, kind) => (os.legal || []).find((c) => c.kind === kind) || null;

/** Where the stones of a `place` or `propose_fifths` choice may go, for the explanation:
 *  `{ key, side }`: anywhere, the centre, or a central square of `side` cells. */
export function areaWords(area) {
  if (area === 'board' || !area) return { key: 'opening.area.board' };
  if (area.central === 1) return { key: 'opening.area.centre' };
  return { key: 'opening.area.central', side: area.central };
}

/**
 * What the page shows for opening state `os` to the player on `you` (null for a spectator):
 * `{ key, params, mine, buttons, place, propose, choose }`. `key`/`params` is the one-line
 * explanation (i18n), `mine` whether it is our choice, `buttons` the choices made by a button
 * (`swap`, `stay`, `black`, `white`, `declare`), `place` the stones due (`{ color, count, area }`),
 * `propose` the 5th moves to offer (`{ n, area }`), `choose` whether one of `os.proposals` is
 * to be picked. Null when the opening does not run.
 */
export function openingStep(os, you) {
  if (!openingRuns(os)) return null;
  const seat = actorSeat(os);
  const mine = !!you && you === seat;
  const place = legalOf(os, 'place');
  const propose = legalOf(os, 'propose_fifths');
  const declare = legalOf(os, 'declare');
  const buttons = [];
  if (legalOf(os, 'stay')) buttons.push('stay');
  if (legalOf(os, 'swap')) buttons.push('swap');
  if (legalOf(os, 'choose_color')) buttons.push('black', 'white');
  if (declare) buttons.push('declare');
  const params = { seat };
  let key;
  switch (os.phase) {
    case 'swap2':
      key = 'opening.step.swap2';
      break;
    case 'swap':
      key = 'opening.step.swap';
      params.other = seat === 'black' ? 'white' : 'black';
      break;
    case 'color':
      key = 'opening.step.color';
      break;
    case 'declare':
      key = 'opening.step.declare';
      params.max = declare ? declare.max : 8;
      break;
    case 'choose':
      key = 'opening.step.choose';
      params.n = (os.proposals || []).length;
      break;
    case 'fifth':
      key = propose && place ? 'opening.step.fifthEither' : propose ? 'opening.step.propose' : 'opening.step.place';
      break;
    default:
      key = 'opening.step.place';
  }
  if (place) {
    params.count = place.count;
    params.color = place.color;
    params.area = areaWords(place.area);
  }
  if (propose) {
    params.n = propose.n;
    params.proposeArea = areaWords(propose.area);
  }
  return {
    key, params, mine, buttons,
    place: place ? { color: place.color, count: place.count, area: place.area } : null,
    propose: propose ? { n: propose.n, area: propose.area } : null,
    choose: !!legalOf(os, 'choose_fifth'),
  };
}

/**
 * What a click on `cell` means in the opening step `step` (see openingStep), with the 5th
 * moves picked so far `picked`: `{ send: text }` to send a choice, `{ picked: [...] }` for the
 * new selection of 5th moves to offer (a picked cell is dropped again), or null for nothing.
 * Where a stone and an offer are both possible (Taraguchi-10's 5th move), a click places the
 * stone unless the player chose to offer 5th moves (`offering`).
 */
export function openingClick(step, cell, picked = [], offering = false) {
  if (!step || !step.mine) return null;
  if (step.choose) return { send: `choose ${cell}` };
  if (step.propose && (!step.place || offering)) {
    if (picked.includes(cell)) return { picked: picked.filter((c) => c !== cell) };
    if (picked.length >= step.propose.n) return null;
    return { picked: [...picked, cell] };
  }
  if (step.place) return { send: cell };
  return null;
}

/** The `fifths` choice of the picked cells, once there are as many as due; else null. */
export function fifthsChoice(step, picked) {
  if (!step || !step.propose || picked.length !== step.propose.n) return null;
  return `fifths ${picked.join(',')}`;
}
