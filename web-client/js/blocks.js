// Blocks: the "Block" / "Unblock" button on another player's page (and a room chat line's "Block", asking the same) — blocking asked first in a short dialog that says in one sentence what it does — and the "Blocked players" card on one's own page, an Unblock button a player; each change said to screen readers. The list is read once per account (GET /api/blocks with its token) and kept here as it changes.

import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { makeModal } from './modal.js';
import * as api from './api.js';
import { BlockList, canBlock, readBlocked } from './blocks-data.js';

/**
 * Builds the confirm dialog and the live region (in the body, closed and empty). `app` gives
 * net (its token and player), isAccount() and viewLink(route, attrs, ...children). Returns
 * { button(person), listCard(person), onLang() }: the views ask for their parts on each
 * render and get the same elements back, so the focus stays where it was.
 */
export function createBlocks(app) {
  const list = new BlockList();
  // The token the list is of: another token (signed in or out) is another list, read again.
  let listToken = null;
  let loadError = null;
  // A button's parts by the player's id, kept while the list is this account's.
  const controls = new Map();
  let card = null;

  const live = h('div', { class: 'sr-only', role: 'status', 'aria-live': 'polite', 'data-testid': 'blocks-live' });
  let announceTimer = 0;
  /** Says `text` in the live region (emptied first, so that the same line is heard again). */
  function announce(text) {
    live.textContent = '';
    clearTimeout(announceTimer);
    announceTimer = setTimeout(() => { live.textContent = text; }, 60);
  }

  const me = () => ({ account: app.isAccount(), player: app.net.player });

  function load() {
    const token = app.net.token;
    if (!token || !app.isAccount() || listToken === token) return;
    listToken = token;
    loadError = null;
    list.reset();
    controls.clear();
    card = null;
    api.blocks(token).then((res) => {
      if (listToken !== token) return;
      if (res.ok) list.set(readBlocked(res.data));
      else {
        loadError = res.error;
        // Asked again when a page next draws its parts (not at once: the server said no).
        listToken = null;
      }
      redraw();
    });
  }

  // ---------- the confirm dialog ----------
  let pending = null;
  // Told once a block asked from elsewhere (a chat line) went through: done(true).
  let pendingDone = null;
  let busy = false;
  const title = h('h2', { class: 'over-title', id: 'block-title', 'data-testid': 'block-title' });
  const body = h('p', { class: 'block-body', id: 'block-body', 'data-testid': 'block-body' });
  const dialogError = h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'block-error', hidden: true });
  const confirmBtn = h('button', { type: 'button', class: 'danger', 'data-testid': 'btn-block-confirm', onclick: confirmBlock });
  const cancelBtn = h('button', { type: 'button', 'data-testid': 'btn-block-cancel', onclick: () => modal.close() });
  // An alert dialog: it asks before something the player may not have meant.
  const element = h('dialog', {
    class: 'over-dialog block-dialog', 'data-testid': 'block-dialog', role: 'alertdialog', 'aria-modal': 'true',
    'aria-labelledby': 'block-title', 'aria-describedby': 'block-body',
  }, title, body, dialogError, h('div', { class: 'over-buttons' }, confirmBtn, cancelBtn));
  const modal = makeModal(element);
  document.body.append(element, live);

  function drawDialog() {
    if (!pending) return;
    const name = pending.name;
    title.textContent = t('blocks.confirmTitle', { name });
    // A bot only talks: blocking it hides its chat, the rest does not apply.
    body.textContent = t(pending.bot ? 'blocks.confirmBodyBot' : 'blocks.confirmBody', { name });
    confirmBtn.textContent = t('blocks.confirm');
    cancelBtn.textContent = t('blocks.cancel');
  }

  function openDialog(person, done = null) {
    pending = person;
    pendingDone = done;
    dialogError.hidden = true;
    drawDialog();
    // Cancel first in the focus: Enter at once keeps things as they are.
    modal.open(cancelBtn);
  }

  async function confirmBlock() {
    if (busy || !pending) return;
    const person = pending;
    busy = true;
    confirmBtn.disabled = true;
    element.setAttribute('aria-busy', 'true');
    const res = await api.block(app.net.token, person.player);
    busy = false;
    confirmBtn.disabled = false;
    element.removeAttribute('aria-busy');
    if (!res.ok) {
      dialogError.textContent = res.error;
      dialogError.hidden = false;
      cancelBtn.focus();
      return;
    }
    list.add(person.player, person.account === false ? null : person.name);
    redraw();
    // The focus goes back to the button, which says "Unblock" now.
    modal.close();
    announce(t('blocks.done', { name: person.name }));
    const done = pendingDone;
    pendingDone = null;
    done?.(true);
  }

  /** Unblocks `person` (no question: it only undoes a block); `showError(text)` says a refusal
   *  where the button was. Resolves with whether it went. */
  async function unblock(person, showError) {
    const res = await api.unblock(app.net.token, person.player);
    if (!res.ok) {
      showError(res.error);
      return false;
    }
    list.remove(person.player);
    redraw();
    announce(t('blocks.undone', { name: person.name ?? t('blocks.guest') }));
    return true;
  }

  // ---------- the button beside a name ----------
  function makeControl(person) {
    const error = h('span', { class: 'error-msg block-error', role: 'alert', 'data-testid': 'block-control-error', hidden: true });
    const c = { person, error, slot: null, button: null };
    c.button = h('button', {
      type: 'button', class: 'block-btn',
      onclick: async () => {
        error.hidden = true;
        if (!list.has(c.person.player)) {
          openDialog(c.person);
          return;
        }
        c.button.disabled = true;
        await unblock(c.person, (text) => { error.textContent = text; error.hidden = false; });
        c.button.disabled = false;
        c.button.focus();
      },
    });
    c.slot = h('span', { class: 'block-control', 'data-testid': 'block-control' }, c.button, error);
    return c;
  }

  function drawControl(c) {
    const blocked = list.has(c.person.player);
    const name = c.person.name;
    // Nothing to press until the list says which it is.
    c.button.hidden = !list.known();
    c.button.textContent = t(blocked ? 'blocks.unblock' : 'blocks.block');
    c.button.setAttribute('aria-label', t(blocked ? 'blocks.unblockAria' : 'blocks.blockAria', { name }));
    c.button.dataset.testid = blocked ? 'btn-unblock' : 'btn-block';
    c.button.dataset.blocked = String(blocked);
    if (loadError && !list.known()) {
      c.error.textContent = loadError;
      c.error.hidden = false;
    }
  }

  // ---------- the list on one's own page ----------
  function makeCard() {
    const heading = h('h2', { id: 'blocked-title', tabindex: '-1' });
    const intro = h('p', { class: 'note' });
    const error = h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'blocked-error', hidden: true });
    const items = h('ul', { class: 'blocked-list', 'data-testid': 'blocked-list' });
    const section = h('section', { class: 'card blocked-card', 'data-testid': 'blocked-players', 'aria-labelledby': 'blocked-title' },
      heading, intro, error, items);
    return { section, heading, intro, error, items };
  }

  function drawCard() {
    if (!card) return;
    card.heading.textContent = t('blocks.title');
    card.intro.textContent = t('blocks.intro');
    clear(card.items);
    if (!list.known()) {
      card.error.textContent = loadError || '';
      card.error.hidden = !loadError;
      if (!loadError) card.items.append(h('li', { class: 'empty' }, t('lb.loading')));
      return;
    }
    const rows = list.all();
    if (!rows.length) {
      card.items.append(h('li', { class: 'empty', 'data-testid': 'blocked-none' }, t('blocks.none')));
      return;
    }
    for (const row of rows) {
      const shown = row.name ?? t('blocks.guest');
      const person = { player: row.player, name: shown };
      const button = h('button', {
        type: 'button', 'data-testid': 'btn-blocked-unblock', 'aria-label': t('blocks.unblockAria', { name: shown }),
        onclick: async () => {
          card.error.hidden = true;
          button.disabled = true;
          const went = await unblock(person, (text) => { card.error.textContent = text; card.error.hidden = false; });
          if (!went) {
            button.disabled = false;
            button.focus();
            return;
          }
          // The line is gone: on to the next one's button, else the heading, never the body.
          const next = card.items.querySelector('button');
          (next || card.heading).focus();
        },
      }, t('blocks.unblock'));
      card.items.append(h('li', { class: 'blocked-item', 'data-testid': 'blocked-player', 'data-player': row.player },
        row.name
          ? app.viewLink({ page: 'player', name: row.name }, { class: 'blocked-name' }, row.name)
          : h('span', { class: 'blocked-name muted' }, shown),
        button));
    }
  }

  function redraw() {
    for (const c of controls.values()) drawControl(c);
    drawCard();
  }

  return {
    /** The Block / Unblock button for `person` ({ name, player, bot }), or null where there is
     *  none to offer (not an account, ourselves, no id). */
    button(person) {
      if (!canBlock(person, me())) return null;
      load();
      let c = controls.get(person.player);
      if (!c) {
        c = makeControl(person);
        controls.set(person.player, c);
      }
      c.person = { ...person, name: String(person.name ?? '') };
      drawControl(c);
      return c.slot;
    },
    /** The "Blocked players" card for the page of `person` ({ player }) when it is ours and we
     *  are an account; else null. */
    listCard(person) {
      const self = me();
      if (!self.account || !self.player || person?.player !== self.player) return null;
      load();
      if (!card) card = makeCard();
      drawCard();
      return card.section;
    },
    /** Whether a room's chat line (a `chat` message) offers "Block" for its player: we are an
     *  account, it is another person's (a bot's too) and not blocked already. */
    canBlockLine(msg) {
      if (!msg?.from || !canBlock({ player: msg.from }, me())) return false;
      load();
      return !list.has(msg.from);
    },
    /** Asks whether to block `person` ({ player, name, bot }) — the same question as on a
     *  player's page — and calls `done(true)` once the block went through. */
    ask(person, done) {
      openDialog({ ...person, name: String(person.name ?? '') }, done);
    },
    /** Redraws in the page's language (the views redraw their own parts). */
    onLang() {
      drawDialog();
      redraw();
    },
  };
}
