// The moderators' page (`/?moderation`): four tabs — the open reports, each with its "Act" form (mod-reports.js); "Act on a player" without a report (mod-act.js); "Muted and banned", the sanctions in force with "Lift"; and the "Audit log" (mod-lists.js) — as ARIA tabs (arrow keys, Home, End), each panel under its own heading; an action's result said in the page's status line; "Only moderators see this page." for anyone else (403).

import { h, clear } from './dom.js';
import { t } from './i18n.js';
import { createReportsPanel } from './mod-reports.js';
import { createActForm, actionWords } from './mod-act.js';
import { createSanctionsPanel, createLogPanel } from './mod-lists.js';

const TABS = ['reports', 'act', 'sanctions', 'log'];

/** Mounts the moderators' page in `root`. `app` gives net (its token), show(route, opts) and
 *  viewLink(route, attrs, ...children). */
export function mountModeration(root, app) {
  let selected = 'reports';
  // null until the reports' answer says whether we may see the page; then that answer's status.
  let forbidden = null;
  const page = h('div', { class: 'page moderation-page', 'data-testid': 'moderation-page' });
  const title = h('h1', { 'data-testid': 'moderation-title' });
  const back = app.viewLink({ page: 'lobby' }, { class: 'back-link', 'data-testid': 'btn-page-lobby' }, t('room.back'));
  const refused = h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'moderation-error', hidden: true });
  // What an action did: visible, and said to screen readers (a live region there from the start).
  const status = h('p', { class: 'mod-status', role: 'status', 'data-testid': 'moderation-status', tabindex: '-1' });
  const tabList = h('div', { class: 'tabs mod-tabs', role: 'tablist', 'data-testid': 'moderation-tabs' });
  const head = h('section', { class: 'card' }, h('div', { class: 'page-head' }, title, back), refused, tabList, status);

  let statusTimer = 0;
  /** Says `text` in the status line (emptied first, so that the same words are heard again);
   *  `focus`: the focus goes there (what had it left the page). */
  function announce(text, focus = false) {
    status.textContent = '';
    clearTimeout(statusTimer);
    statusTimer = setTimeout(() => {
      status.textContent = text;
      if (focus) {
        status.focus({ preventScroll: true });
        status.scrollIntoView({ block: 'nearest' });
      }
    }, 60);
  }

  const sanctions = createSanctionsPanel({ app, announce, onLifted: () => log.stale() });
  const log = createLogPanel({ app });
  const reports = createReportsPanel({
    app, announce,
    onActed: () => {
      sanctions.stale();
      log.stale();
    },
    onAnswer(res) {
      forbidden = res.status === 403;
      drawRefusal();
    },
  });

  // "Act on a player": a form of its own, under its heading.
  const actHeading = h('h2', { id: 'mod-act-title', tabindex: '-1' });
  const actIntro = h('p', { class: 'note' });
  const actForm = createActForm({
    app, id: 'player',
    onDone: ({ body, data }) => {
      announce(t('modx.done', { action: actionWords(body.action, body.minutes), name: data?.name ?? body.player }));
      sanctions.stale();
      log.stale();
    },
  });
  const act = {
    element: h('section', { class: 'card mod-panel', 'data-testid': 'mod-act', 'aria-labelledby': 'mod-act-title' }, actHeading, actIntro, actForm.element),
    render() {
      actHeading.textContent = t('modx.tab.act');
      actIntro.textContent = t('modx.actIntro');
      actForm.draw();
    },
  };

  const panels = { reports, act, sanctions, log };
  const tabs = {};
  const boxes = {};
  for (const key of TABS) {
    tabs[key] = h('button', {
      type: 'button', role: 'tab', class: 'tab', id: `mod-tab-${key}`, 'data-testid': `mod-tab-${key}`,
      'aria-controls': `mod-panel-${key}`, onclick: () => select(key), onkeydown: (ev) => onTabKey(ev, key),
    });
    boxes[key] = h('div', { id: `mod-panel-${key}`, role: 'tabpanel', 'aria-labelledby': `mod-tab-${key}`, 'data-testid': `mod-panel-${key}` }, panels[key].element);
    tabList.append(tabs[key]);
  }

  /** Arrow keys move along the tabs (and show each), Home and End to the ends. */
  function onTabKey(ev, key) {
    const i = TABS.indexOf(key);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[ev.key];
    if (to === undefined) return;
    ev.preventDefault();
    const next = TABS[(to + TABS.length) % TABS.length];
    select(next);
    tabs[next].focus();
  }

  function select(key) {
    selected = key;
    for (const k of TABS) {
      const on = k === key;
      tabs[k].setAttribute('aria-selected', String(on));
      tabs[k].tabIndex = on ? 0 : -1;
      tabs[k].classList.toggle('active', on);
      boxes[k].hidden = !on;
    }
    panels[key].show?.();
  }

  function drawRefusal() {
    // Not a moderator: the page says so, in its own words, and shows none of its parts.
    refused.textContent = forbidden ? t('mod.forbidden') : '';
    refused.hidden = !forbidden;
    refused.dataset.status = forbidden ? '403' : '';
    tabList.hidden = !!forbidden;
    for (const k of TABS) boxes[k].hidden = !!forbidden || k !== selected;
  }

  function render() {
    title.textContent = t('modx.page');
    back.textContent = t('room.back');
    tabList.setAttribute('aria-label', t('modx.tabs'));
    for (const k of TABS) tabs[k].textContent = t(`modx.tab.${k}`);
    for (const k of TABS) panels[k].render();
    drawRefusal();
  }

  clear(page);
  page.append(head, ...TABS.map((k) => boxes[k]));
  root.append(page);
  select('reports');
  render();
  // The token the lists were asked with (a fresh guest has none until the welcome).
  let token = app.net.token;
  reports.load();

  return {
    // The welcome brings a fresh guest's token, or a signed-in account's new one: asked again.
    onReady() {
      if (app.net.token === token) return;
      token = app.net.token;
      reports.load(true);
      sanctions.stale();
      log.stale();
    },
    onMessage: () => false,
    onLang: render,
    unmount() {
      clearTimeout(statusTimer);
    },
  };
}
