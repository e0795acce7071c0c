// A correspondence room's line: "Correspondence · 3 days per move · 7 vacation days", that its players may leave and come back, and for a seated player the "Notify me when it's my turn" control.

import { h } from '../dom.js';
import { t, clockLabel } from '../i18n.js';
import { isCorrespondence } from '../corr-data.js';

/** Builds the line (hidden). `app.turns` gives the notify control. Returns { element,
 *  render(control, seated) }: shown for a correspondence `control` only. */
export function createCorrNote({ app }) {
  const clockLine = h('span', { class: 'corr-clock', 'data-testid': 'corr-room-clock' });
  const comeBack = h('span', { class: 'note', 'data-testid': 'corr-come-back' });
  const element = h('div', { class: 'corr-note', 'data-testid': 'corr-note', hidden: true }, clockLine, comeBack);
  let notify = null;

  return {
    element,
    render(control, seated) {
      const on = isCorrespondence(control);
      element.hidden = !on;
      if (!on) return;
      const n = Number(control.vacation_days) || 0;
      clockLine.textContent = t(n ? 'corr.room' : 'corr.roomNoVacation', { clock: clockLabel(control), n });
      comeBack.textContent = t('corr.comeBack');
      // Who sits here may be told of their turn; a watcher has none.
      if (seated && !notify && app.turns) {
        notify = app.turns.notifyControl('btn-corr-notify-room');
        element.append(notify);
      }
      if (notify) notify.hidden = !seated || typeof globalThis.Notification !== 'function';
    },
  };
}
