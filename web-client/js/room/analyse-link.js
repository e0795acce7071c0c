// A finished game's way to the analysis board: "Analyse from here" under the move list, a link to the analysis board with the game's moves as the main line at the position on show (a review's variation, when one is played, as a variation of it).

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { roomAnalysisRoute } from '../analysis/share.js';

/** The link (`app.viewLink`), hidden until `render(R)` finds room `R` over. Returns
 *  { element, render(R) }; render again whenever the position on show changes. */
export function createAnalyseLink({ app }) {
  const element = h('p', { class: 'explore-link analyse-link', hidden: true });

  function render(R) {
    // A game under way is not analysed on the side: its players are still thinking.
    const route = R.status === 'over' ? roomAnalysisRoute(R) : null;
    clear(element);
    element.hidden = !route;
    if (route) element.append(app.viewLink(route, { 'data-testid': 'link-analyse' }, t('analysis.fromHere')));
  }

  return { element, render };
}
