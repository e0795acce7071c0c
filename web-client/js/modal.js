// A modal dialog's keyboard and focus: Tab and Shift+Tab go round the dialog's own controls and never leave it, Escape closes it, and on closing the focus goes back where it was (or to a fallback).

const FOCUSABLE = 'button:not([disabled]):not([hidden]), [href], input:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Makes the `<dialog>` `element` modal. `fallbackFocus()` is where the focus goes on closing
 * when nothing had it before the dialog opened. Returns { open(focus), close(then, restore),
 * isOpen() }: `open` shows it with `focus` focused; `close` hides it, gives the focus back
 * (unless `restore` is false) and then calls `then`. Escape is a plain `close()`.
 */
export function makeModal(element, { fallbackFocus } = {}) {
  let returnTo = null;

  const focusables = () => [...element.querySelectorAll(FOCUSABLE)].filter((el) => el.offsetParent !== null || el === document.activeElement);

  element.addEventListener('keydown', (ev) => {
    if (ev.key !== 'Tab') return;
    const items = focusables();
    if (!items.length) return;
    const first = items[0];
    const last = items[items.length - 1];
    if (ev.shiftKey && (document.activeElement === first || !element.contains(document.activeElement))) {
      ev.preventDefault();
      last.focus();
    } else if (!ev.shiftKey && (document.activeElement === last || !element.contains(document.activeElement))) {
      ev.preventDefault();
      first.focus();
    }
  });
  // Escape: the browser's own `cancel`, closed here so the focus goes back where it was.
  element.addEventListener('cancel', (ev) => {
    ev.preventDefault();
    close();
  });

  function close(then, restore = true) {
    if (element.open) element.close();
    const back = returnTo;
    returnTo = null;
    if (restore && back && back.isConnected && typeof back.focus === 'function') back.focus();
    then?.();
  }

  return {
    open(focus) {
      if (!element.open) {
        const active = document.activeElement;
        returnTo = active && active !== document.body ? active : fallbackFocus?.() ?? null;
        element.showModal();
      }
      focus?.focus();
    },
    close,
    isOpen: () => element.open,
  };
}
