// A finished game's way to the opening explorer: "Explore this opening" under the move list, a link to the explorer at the position on show, for a game on one of the explorer's five boards (explorer-data.js says which).

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { roomExplorerRoute } from '../explorer-data.js';

/** The link (`app.viewLink`), hidden until `render(R)` finds room `R` over on an explorer's
 *  board. Returns { element, render(R) }; render again whenever the position on show changes. */
export function createExploreLink({ app }) {
  const element = h('p', { class: 'explore-link', hidden: true });

  function render(R) {
    // A game under way is not explored: its moves are still being made.
    const route = R.status === 'over' ? roomExplorerRoute(R) : null;
    clear(element);
    element.hidden = !route;
    if (route) element.append(app.viewLink(route, { 'data-testid': 'link-explore' }, t('explorer.explore')));
  }

  return { element, render };
}
