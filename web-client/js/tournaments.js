// Tournaments page (`/?tournaments`): the tournaments, open ones first, each a link to its page, and for a signed-in player the form that creates one (name, round-robin or Swiss, game, clock, Swiss rounds, rated, connected bots to add, each at a level).

import { h, clear } from './dom.js';
import { t, gameLabel, clockLabel } from './i18n.js';
import { clockFromKey } from './record.js';
import {
  TOURNAMENT_KINDS, TOURNAMENT_STATUSES, TOURNAMENT_GAMES, TOURNAMENT_CLOCKS, SWISS_ROUNDS, NAME_MAX,
  BOT_LEVEL_MIN, BOT_LEVEL_MAX, gameForKey, createBody, botsFor, listRows,
} from './tournament-data.js';
import * as api from './api.js';

const FORM_KEY = 'kibitz.newTournament';
/** How often the list is asked for again while on screen: others create and start them. */
const LIST_REFRESH_MS = 5000;

const DEFAULT_FORM = { name: '', kind: 'round_robin', gameKey: TOURNAMENT_GAMES[0].key, clock: '3+2', rounds: SWISS_ROUNDS.default, rated: false };

/** The form's last settings (not its name or bots: a new tournament gets its own). */
function loadForm() {
  try {
    const saved = JSON.parse(localStorage.getItem(FORM_KEY) || 'null');
    if (saved && typeof saved === 'object') {
      const form = { ...DEFAULT_FORM, ...saved, name: '', bots: [], botLevels: {}, moreLevels: {} };
      // A preset since removed falls back to the default.
      if (!TOURNAMENT_CLOCKS.includes(form.clock)) form.clock = DEFAULT_FORM.clock;
      if (!TOURNAMENT_GAMES.some((g) => g.key === form.gameKey)) form.gameKey = DEFAULT_FORM.gameKey;
      if (!TOURNAMENT_KINDS.includes(form.kind)) form.kind = DEFAULT_FORM.kind;
      return form;
    }
  } catch {
    // ignore a damaged entry
  }
  return { ...DEFAULT_FORM, bots: [], botLevels: {}, moreLevels: {} };
}

function saveForm(form) {
  try {
    const { name, bots, botLevels, moreLevels, ...rest } = form;
    localStorage.setItem(FORM_KEY, JSON.stringify(rest));
  } catch {
    // storage disabled
  }
}

/** A labelled select of `options` ([value, label, i18nKey]). */
function select(id, testid, options, value, onchange) {
  const el = h('select', { id, 'data-testid': testid, onchange: (ev) => onchange(ev.target.value) });
  for (const [v, label, key] of options) {
    const opt = h('option', { value: v, 'data-i18n': key || null }, label);
    if (String(v) === String(value)) opt.selected = true;
    el.append(opt);
  }
  return el;
}

const field = (labelKey, control) => h('div', { class: 'field' }, h('label', { for: control.id, 'data-i18n': labelKey }, t(labelKey)), control);

/** Mounts the tournaments page in `root`. `app` gives net, show(route), viewLink(route, attrs,
 *  ...children), isAccount(). */
export function mountTournaments(root, app) {
  const form = loadForm();
  let list = null; // the last answer of GET /api/tournaments
  let listText = '';
  let lobbyBots = [];
  let shownBots = null; // the names the bot boxes were drawn for
  let busy = false;
  let gone = false;
  let timer = 0;

  // ---- the list ----
  const listBox = h('div', { class: 'tournament-list-box', 'aria-live': 'polite' });

  function renderList() {
    clear(listBox);
    if (!list) {
      listBox.append(h('p', { class: 'note' }, t('lb.loading')));
      return;
    }
    if (!list.ok) {
      listBox.append(h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'tournaments-error' }, list.error));
      return;
    }
    const rows = listRows(list.data);
    if (!rows.length) {
      listBox.append(h('p', { class: 'note', 'data-testid': 'tournaments-empty' }, t('tour.listEmpty')));
      return;
    }
    listBox.append(h('ul', { class: 'room-list', 'data-testid': 'tournaments-list' }, rows.map((r) => h('li', {
      class: 'room-item tournament-item', 'data-testid': `tournament-item-${r.id}`, 'data-status': r.status,
    },
    app.viewLink({ page: 'tournament', id: r.id }, { class: 'tournament-name', 'data-testid': `tournament-link-${r.id}` }, r.name),
    h('span', { class: `status-badge ${r.status}` }, TOURNAMENT_STATUSES.includes(r.status) ? t(`tour.status.${r.status}`) : r.status),
    TOURNAMENT_KINDS.includes(r.kind) ? h('span', { class: 'room-meta' }, t(`tour.kind.${r.kind}`)) : null,
    r.game ? h('span', { class: 'room-game' }, gameLabel(r.game)) : null,
    r.rated ? h('span', { class: 'rated-badge' }, t('rating.rated')) : null,
    h('span', { class: 'room-meta' }, t('tour.playersCount', { n: r.players })),
    r.status === 'running' && r.round && r.rounds ? h('span', { class: 'room-meta' }, t('tour.roundOf', { n: r.round, total: r.rounds })) : null))));
  }

  async function loadList() {
    clearTimeout(timer);
    const answer = await api.tournaments();
    if (gone) return;
    // Drawn again only when it changed: a link being clicked is not replaced under the pointer.
    const text = JSON.stringify([answer.ok, answer.data, answer.error]);
    if (text !== listText) {
      listText = text;
      list = answer;
      renderList();
    }
    timer = setTimeout(loadList, LIST_REFRESH_MS);
  }

  // ---- the create form ----
  const errorBox = h('p', { class: 'error-msg', role: 'alert', 'data-testid': 'tournament-form-error', hidden: true });
  const nameInput = h('input', {
    type: 'text', id: 'tournament-name', maxlength: NAME_MAX, required: true, autocomplete: 'off',
    'data-testid': 'tournament-name', placeholder: t('tour.namePh'), 'data-i18n-placeholder': 'tour.namePh',
    oninput: (ev) => { form.name = ev.target.value; },
  });
  const kindNote = h('span', { class: 'note' });
  const kindSelect = select('tournament-kind', 'tournament-kind', TOURNAMENT_KINDS.map((k) => [k, t(`tour.kind.${k}`), `tour.kind.${k}`]), form.kind, (v) => {
    form.kind = v;
    renderForm();
  });
  const gameSelect = select('tournament-game', 'tournament-game', TOURNAMENT_GAMES.map((g) => [g.key, gameLabel(g.game)]), form.gameKey, (v) => {
    form.gameKey = v;
    renderForm();
  });
  const clockSelect = select('tournament-clock', 'tournament-clock', TOURNAMENT_CLOCKS.map((k) => [k, clockLabel(clockFromKey(k))]), form.clock, (v) => {
    form.clock = v;
    saveForm(form);
  });
  const roundsInput = h('input', {
    type: 'number', id: 'tournament-rounds', min: SWISS_ROUNDS.min, max: SWISS_ROUNDS.max, step: 1, value: String(form.rounds ?? ''),
    placeholder: t('tour.roundsAuto'), 'data-i18n-placeholder': 'tour.roundsAuto',
    'data-testid': 'tournament-rounds', onchange: (ev) => { form.rounds = ev.target.value; saveForm(form); },
  });
  const roundsField = field('tour.rounds', roundsInput);
  const ratedBox = h('input', {
    type: 'checkbox', id: 'tournament-rated', 'data-testid': 'tournament-rated', 'aria-describedby': 'tournament-rated-why', checked: form.rated,
    // Rated: the bots play at the top level only, so their level boxes are fixed there.
    onchange: (ev) => { form.rated = ev.target.checked; saveForm(form); renderBots(true); },
  });
  const botsBox = h('div', { class: 'bot-choices', 'data-testid': 'tournament-bots' });
  const submit = h('button', { type: 'submit', class: 'primary', 'data-testid': 'btn-create-tournament', 'data-i18n': 'tour.create' }, t('tour.create'));
  const createForm = h('form', { class: 'new-game tournament-form', 'data-testid': 'tournament-form', novalidate: true },
    field('tour.name', nameInput),
    h('div', { class: 'row' }, field('tour.kind', kindSelect), field('tour.game', gameSelect)),
    kindNote,
    h('div', { class: 'row' }, field('tour.clock', clockSelect), roundsField),
    h('div', { class: 'rated-field' },
      h('label', { class: 'check', for: 'tournament-rated' }, ratedBox, h('span', { 'data-i18n': 'tour.rated' }, t('tour.rated'))),
      h('span', { class: 'note', id: 'tournament-rated-why', 'data-i18n': 'tour.ratedNote' }, t('tour.ratedNote'))),
    h('fieldset', { class: 'opp-group bots-group' }, h('legend', { 'data-i18n': 'tour.bots' }, t('tour.bots')), botsBox),
    errorBox,
    h('div', { class: 'row form-end' }, submit));
  createForm.addEventListener('submit', (ev) => {
    ev.preventDefault();
    create();
  });

  function showError(text) {
    errorBox.textContent = text;
    errorBox.hidden = false;
  }

  /** The bot boxes: the connected bots that play the chosen game, ticked ones kept. Drawn
   *  again only when that list of names changes (the lobby's updates come often). */
  function renderBots(force = false) {
    const bots = botsFor(lobbyBots, gameForKey(form.gameKey));
    const names = bots.map((b) => b.name).join('\n');
    if (!force && names === shownBots) return;
    shownBots = names;
    form.bots = form.bots.filter((n) => bots.some((b) => b.name === n));
    clear(botsBox);
    if (!bots.length) {
      botsBox.append(h('p', { class: 'note', 'data-testid': 'tournament-bots-empty' }, t('tour.botsEmpty')));
      return;
    }
    for (const b of bots) {
      const id = `tournament-bot-${b.name}`;
      const row = h('div', { class: 'bot-choice' });
      botsBox.append(row);
      row.append(h('label', { class: 'check', for: id },
        h('input', {
          type: 'checkbox', id, value: b.name, 'data-testid': id, checked: form.bots.includes(b.name),
          onchange: (ev) => {
            form.bots = form.bots.filter((n) => n !== b.name);
            if (ev.target.checked) form.bots.push(b.name);
          },
        }),
        h('span', { class: 'who' }, b.name, h('span', { class: 'bot-badge' }, t('player.bot')))),
      levelSelect(b.name, Number(form.botLevels?.[b.name]), (level) => {
        form.botLevels = { ...form.botLevels, [b.name]: level };
      }));
      // More levels of the same bot, each an entrant of its own (not in a rated tournament,
      // whose bots play at the top level only).
      const more = form.moreLevels?.[b.name] ?? [];
      more.forEach((level, k) => {
        const set = (value) => {
          form.moreLevels = { ...form.moreLevels, [b.name]: more.map((l, i) => (i === k ? value : l)) };
        };
        row.append(levelSelect(`${b.name}-${k + 2}`, level, set, b.name),
          h('button', { type: 'button', class: 'link', 'data-testid': `tournament-bot-less-${b.name}-${k + 2}`, onclick: () => {
            form.moreLevels = { ...form.moreLevels, [b.name]: more.filter((_, i) => i !== k) };
            renderBots(true);
          } }, t('tour.lessLevel')));
      });
      if (!form.rated) {
        row.append(h('button', { type: 'button', class: 'link', 'data-testid': `tournament-bot-more-${b.name}`, onclick: () => {
          form.moreLevels = { ...form.moreLevels, [b.name]: [...more, BOT_LEVEL_MIN] };
          if (!form.bots.includes(b.name)) form.bots.push(b.name);
          renderBots(true);
        } }, t('tour.moreLevel', { name: b.name })));
      }
    }
  }

  /** A level box (`tournament-bot-level-<key>`) for bot `name`, at `level` (else the top);
   *  `set(level)` keeps the choice. A rated tournament's bots play at the top level only. */
  function levelSelect(key, level, set, name = key) {
    const id = `tournament-bot-level-${key}`;
    const select = h('select', {
      id, 'data-testid': id, class: 'bot-level', 'aria-label': t('tour.botLevel', { name }), disabled: !!form.rated,
      onchange: (ev) => set(Number(ev.target.value)),
    });
    const chosen = form.rated ? BOT_LEVEL_MAX : level || BOT_LEVEL_MAX;
    for (let l = BOT_LEVEL_MIN; l <= BOT_LEVEL_MAX; l++) select.append(h('option', { value: l, selected: l === chosen ? true : null }, t('tour.level', { n: l })));
    select.value = String(chosen);
    return select;
  }

  function renderForm() {
    kindSelect.value = form.kind;
    gameSelect.value = form.gameKey;
    kindNote.textContent = t(`tour.kindNote.${form.kind}`);
    roundsField.hidden = form.kind !== 'swiss';
    renderBots();
    saveForm(form);
  }

  async function create() {
    if (busy) return;
    errorBox.hidden = true;
    form.name = nameInput.value;
    if (!form.name.trim()) {
      showError(t('tour.nameNeeded'));
      nameInput.focus();
      return;
    }
    busy = true;
    submit.disabled = true;
    const res = await api.createTournament(createBody(form, app.net.token));
    busy = false;
    submit.disabled = false;
    if (gone) return;
    const id = res.data?.id;
    if (!res.ok || id == null) {
      showError(res.error || t('api.failed', { status: res.status }));
      return;
    }
    app.show({ page: 'tournament', id: String(id) });
  }

  // ---- the page ----
  const createBox = h('div', {});
  /** The form for an account; for a guest, why not and where to sign in. Known from the welcome. */
  function renderCreate() {
    clear(createBox);
    if (app.isAccount()) {
      createBox.append(createForm);
      return;
    }
    createBox.append(h('p', { class: 'note account-hint', 'data-testid': 'tournament-sign-in' },
      app.viewLink({ page: 'account', mode: 'register' }, {}, t('account.register')),
      ' / ',
      app.viewLink({ page: 'account', mode: 'signin' }, {}, t('account.signIn')),
      ' ', t('tour.signInWhy')));
  }

  root.append(h('div', { class: 'page tournaments-page', 'data-testid': 'tournaments-page' },
    h('section', { class: 'card' },
      h('div', { class: 'page-head' },
        h('h1', { 'data-i18n': 'tour.title' }, t('tour.title')),
        app.viewLink({ page: 'lobby' }, { class: 'back-link', 'data-testid': 'btn-page-lobby', 'data-i18n': 'room.back' }, t('room.back'))),
      listBox),
    h('section', { class: 'card' }, h('h2', { 'data-i18n': 'tour.new' }, t('tour.new')), createBox)));
  renderList();
  renderForm();
  renderCreate();
  loadList();

  function subscribe() {
    app.net.send({ t: 'lobby' });
  }
  if (app.net.ready) subscribe();

  return {
    onReady() {
      renderCreate();
      subscribe();
    },
    onMessage(msg) {
      if (msg.t !== 'lobby') return false;
      lobbyBots = Array.isArray(msg.bots) ? msg.bots : [];
      renderBots();
      return true;
    },
    onLang() {
      renderList();
      for (const opt of gameSelect.options) opt.textContent = gameLabel(gameForKey(opt.value));
      for (const opt of clockSelect.options) opt.textContent = clockLabel(clockFromKey(opt.value));
      kindNote.textContent = t(`tour.kindNote.${form.kind}`);
      renderBots(true);
      renderCreate();
    },
    unmount() {
      gone = true;
      clearTimeout(timer);
      app.net.send({ t: 'unlobby' });
    },
  };
}
