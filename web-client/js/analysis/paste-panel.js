// The analysis board's paste box: a move string, SGF, PSQ, JSON record or a position pasted and loaded (setup.js reads it); what it read, or why not (and then nothing changes), said under it.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { parsePasted, pasteError, pasteSummary } from './setup.js';

/** An Othello start, as an example of a position. */
const EXAMPLE = '---------------------------OX------XO--------------------------- X';

/** The panel: `game()` is the board's game, `onRead(result)` takes what a paste set up.
 *  Returns { element, render() }. */
export function createPastePanel({ game, onRead }) {
  const input = h('textarea', { id: 'analysis-paste', 'data-testid': 'analysis-paste', rows: 3, spellcheck: 'false', autocomplete: 'off' });
  const label = h('label', { for: 'analysis-paste' });
  const hint = h('p', { class: 'note', id: 'analysis-paste-hint' });
  input.setAttribute('aria-describedby', 'analysis-paste-hint');
  const load = h('button', { type: 'button', 'data-testid': 'analysis-paste-load', onclick: () => go() });
  const msg = h('p', { class: 'an-msg', 'data-testid': 'analysis-paste-msg', 'aria-live': 'polite', hidden: true });
  const element = h('div', { class: 'an-paste' }, label, input, hint, h('div', { class: 'an-row' }, load), msg);

  function say(text, ok) {
    msg.hidden = false;
    msg.textContent = text;
    msg.dataset.state = ok ? 'ok' : 'error';
    msg.className = ok ? 'an-msg note' : 'an-msg error-msg';
  }

  function go() {
    const res = parsePasted(game(), input.value);
    if (!res.ok) {
      say(pasteError(res), false);
      return;
    }
    onRead(res);
    say(pasteSummary(res), true);
  }

  function render() {
    label.textContent = t('analysis.paste.label');
    hint.textContent = t('analysis.paste.hint', { example: EXAMPLE });
    load.textContent = t('analysis.paste.load');
  }

  render();
  return { element, render };
}
