// The page's languages: the strings (strings/en.js and strings/zh.js, the same keys), the language choice (browser default, switchable, remembered), the label helpers and local dates.

import { clockKey } from './record.js';
import { EN } from './strings/en.js';
import { ZH } from './strings/zh.js';

const LANG_KEY = 'kibitz.lang';

export const LANGS = { en: 'English', zh: '中文' };

export const STRINGS = { en: EN, zh: ZH };

let lang = 'en';
const listeners = [];

function pickInitial() {
  try {
    const saved = localStorage.getItem(LANG_KEY);
    if (saved && STRINGS[saved]) return saved;
  } catch {
    // storage disabled
  }
  const nav = (globalThis.navigator && (navigator.languages?.[0] || navigator.language)) || 'en';
  return /^zh/i.test(nav) ? 'zh' : 'en';
}

export function initLang() {
  lang = pickInitial();
  if (globalThis.document) document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
  return lang;
}

export const getLang = () => lang;

export function setLang(next) {
  if (!STRINGS[next] || next === lang) return;
  lang = next;
  try {
    localStorage.setItem(LANG_KEY, next);
  } catch {
    // storage disabled
  }
  if (globalThis.document) {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    applyI18n(document.body);
  }
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) {
  listeners.push(fn);
  return () => listeners.splice(listeners.indexOf(fn), 1);
}

/** The string for key in the current language, with {name} filled from params. */
export function t(key, params) {
  let text = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  if (params) text = text.replace(/\{(\w+)\}/g, (m, k) => (params[k] != null ? String(params[k]) : m));
  return text;
}

/** Re-translates static elements: data-i18n (text), data-i18n-aria, -placeholder, -title. */
export function applyI18n(root) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) el.setAttribute('aria-label', t(el.dataset.i18nAria));
  for (const el of root.querySelectorAll('[data-i18n-placeholder]')) el.setAttribute('placeholder', t(el.dataset.i18nPlaceholder));
  for (const el of root.querySelectorAll('[data-i18n-title]')) el.setAttribute('title', t(el.dataset.i18nTitle));
}

/** "Gomoku 15×15 · renju", "Othello", "Connect Four 9×10 · 1 blocked". */
export function gameLabel(game) {
  if (!game) return '';
  if (game.kind === 'gomoku') {
    const rule = game.rule || 'freestyle';
    const label = t('label.gomoku', { size: game.size || 15, rule: t(`rule.${rule}`) });
    return game.opening_rule ? `${label} · ${t(`openingRule.${game.opening_rule}`)}` : label;
  }
  if (game.kind === 'othello') return t('game.othello');
  if (game.kind === 'connect4') {
    const n = (game.blocked || []).length;
    const p = { cols: game.cols || 7, rows: game.rows || 6, n };
    return n ? t('label.connect4blocked', p) : t('label.connect4', p);
  }
  return String(game.kind);
}

/** "3+2", "5 s per move", "3 days per move" (correspondence), "untimed". */
export function clockLabel(clock) {
  if (!clock) return t('clock.none');
  if (clock.move_ms != null) return t('clock.move', { s: Math.round(clock.move_ms / 1000) });
  if (clock.days != null) return t(Number(clock.days) === 1 ? 'clock.day' : 'clock.days', { n: Number(clock.days) });
  const [m, s] = clockKey(clock).split('+');
  return t('clock.fischer', { m, s });
}

/** A moment in the page's language and the browser's time zone: "Dec 6, 2026, 5:00 AM". */
export function dateTime(ms) {
  if (ms == null || !Number.isFinite(Number(ms))) return '';
  const date = new Date(Number(ms));
  try {
    return date.toLocaleString(lang === 'zh' ? 'zh-CN' : 'en', { dateStyle: 'medium', timeStyle: 'short' });
  } catch {
    return date.toISOString();
  }
}

/** A short message for a server `error`: the translated code, else the server's text. */
export function errorText(err) {
  const key = `err.${err.code}`;
  // A sanction's sentence says which, why and until when: the server's words in any language.
  if (err.code === 'sanctioned' && err.message) return String(err.message).slice(0, 300);
  // `forbidden` is also a chat line holding a word of the hall's list, not renju's point.
  if (err.code === 'forbidden' && err.ref === 'chat') return lang === 'en' && err.message ? String(err.message).slice(0, 200) : t('err.forbiddenChat');
  // The server's English text is more precise ("h8 is occupied"); other languages get the
  // translated code.
  if (lang === 'en' && err.message) return String(err.message).slice(0, 200);
  if (STRINGS.en[key]) return t(key);
  return String(err.message || err.code || 'error').slice(0, 200);
}
