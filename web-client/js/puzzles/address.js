// The puzzles' addresses without the DOM: the trainer (`/?puzzles[&variant=<v>][&theme=<t>][&mode=streak]`) and one puzzle by its id (`/?puzzle=<id>`), read from a query and written back; node tests it.

import { VARIANTS, THEMES, ALL_THEMES } from './puzzle.js';

/** A theme kept only when the variant has it (any theme when no variant is chosen). */
function themeOf(variant, theme) {
  if (!theme) return null;
  if (variant) return THEMES[variant].includes(theme) ? theme : null;
  return ALL_THEMES.includes(theme) ? theme : null;
}

/** The trainer's route from an address's query (a URLSearchParams): unknown values dropped. */
export function puzzlesRoute(q) {
  const variant = VARIANTS.includes(q.get('variant')) ? q.get('variant') : null;
  return { page: 'puzzles', variant, theme: themeOf(variant, q.get('theme')), mode: q.get('mode') === 'streak' ? 'streak' : null };
}

/** One puzzle's route from an address's query, or null without a usable id. */
export function puzzleRoute(q) {
  const id = (q.get('puzzle') || '').trim();
  return id ? { page: 'puzzle', id } : null;
}

/** The query of a puzzles route (after `?`): `puzzles` and what is chosen, or `puzzle=<id>`. */
export function puzzlesQuery(route) {
  const enc = encodeURIComponent;
  if (route?.page === 'puzzle') return `puzzle=${enc(route.id)}`;
  const variant = VARIANTS.includes(route?.variant) ? route.variant : null;
  let q = 'puzzles';
  if (variant) q += `&variant=${variant}`;
  const theme = themeOf(variant, route?.theme);
  if (theme) q += `&theme=${theme}`;
  if (route?.mode === 'streak') q += '&mode=streak';
  return q;
}
