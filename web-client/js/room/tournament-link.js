// A tournament's game says so: the room's line names the tournament and the round, linked to the tournament's page (the game-over dialog's "Back to the tournament" goes there too).

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { tournament as fetchTournament } from '../api.js';

/** The round of `doc` (a tournament as /api/tournaments/{id} shows it) whose games hold `room`. */
export function roundOf(doc, room) {
  const round = (doc?.pairings ?? []).find((r) => (r.games ?? []).some((g) => g.room === room));
  return round ? round.round : null;
}

/**
 * The link of room `roomId` to its tournament (`app.viewLink`), hidden until `show(id)` names
 * one. Returns { element, show(id), open() }.
 */
export function createTournamentLink({ app, roomId }) {
  let shown = null;
  const element = h('span', { hidden: true });

  function open() {
    if (shown) app.show({ page: 'tournament', id: shown });
  }

  async function show(id) {
    if (!id || id === shown) return;
    shown = id;
    const link = app.viewLink({ page: 'tournament', id }, { 'data-testid': 'room-tournament' }, t('room.tournamentGame'));
    clear(element);
    element.append(link);
    element.hidden = false;
    const res = await fetchTournament(id);
    if (!res.ok || shown !== id) return;
    const round = roundOf(res.data, roomId);
    const name = String(res.data?.name ?? id);
    link.textContent = round ? t('room.tournamentRound', { name, round }) : t('room.tournamentName', { name });
  }

  return { element, show, open };
}
