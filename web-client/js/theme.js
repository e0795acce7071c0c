// The page's theme: the system's (light or dark, as the browser says), or the one the player picks in the header, remembered in this browser; applied as `data-theme` on <html>, which style.css reads.

const KEY = 'kibitz.theme';
export const THEMES = ['system', 'light', 'dark'];

/** The theme picked in this browser, 'system' when none is. */
export function getTheme() {
  try {
    const stored = localStorage.getItem(KEY);
    return THEMES.includes(stored) ? stored : 'system';
  } catch {
    return 'system';
  }
}

/** Applies `theme` to the page and remembers it ('system' forgets the choice). */
export function setTheme(theme) {
  const pick = THEMES.includes(theme) ? theme : 'system';
  if (pick === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = pick;
  try {
    if (pick === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, pick);
  } catch {
    // Storage refused: the theme holds for this page.
  }
}
