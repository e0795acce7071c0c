// Leave dialog: asked before a seated player leaves a game under way for the lobby — the game goes on without them, their clock runs and, not back in time, they lose it — with "Stay" first; it keeps the keyboard inside, closes on Escape (staying) and gives focus back.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { makeModal } from '../modal.js';

/**
 * Builds the dialog (closed) for room `roomId`; `onLeave` is what "Leave" does. Returns
 * { element, open(), isOpen() }.
 */
export function createLeaveDialog({ roomId, onLeave }) {
  const titleId = `leave-title-${roomId}`;
  const stayBtn = h('button', { type: 'button', class: 'primary', 'data-testid': 'btn-leave-stay', 'data-i18n': 'leave.stay', onclick: () => close() }, t('leave.stay'));
  const leaveBtn = h('button', { type: 'button', 'data-testid': 'btn-leave-confirm', 'data-i18n': 'leave.confirm', onclick: () => close(onLeave) }, t('leave.confirm'));
  const element = h('dialog', {
    class: 'over-dialog leave-dialog', 'data-testid': 'leave-dialog', role: 'alertdialog', 'aria-modal': 'true',
    'aria-labelledby': titleId, 'aria-describedby': `${titleId}-body`,
  },
  h('h2', { class: 'over-title', id: titleId, 'data-i18n': 'leave.title' }, t('leave.title')),
  h('p', { id: `${titleId}-body`, 'data-i18n': 'leave.body' }, t('leave.body')),
  h('div', { class: 'over-buttons' }, stayBtn, leaveBtn));

  const modal = makeModal(element);
  // Leaving: the room goes away, no focus to give back.
  const close = (then) => modal.close(then, !then);

  return {
    element,
    open() {
      if (!modal.isOpen()) modal.open(stayBtn);
    },
    isOpen: modal.isOpen,
  };
}
