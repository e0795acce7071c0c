// The analysis board's share and export part: the share link (the page's own address, which holds the whole tree) with a Copy button, and the tree or the line on show as SGF, PSQ or JSON, shown as text to copy and offered as a file to download.

import { h, clear } from '../dom.js';
import { t } from '../i18n.js';
import { exportFormats, exportText, exportFile, exportType } from './export.js';

/** Copies `text`; resolves with whether the clipboard took it. */
async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * The panel: `analysis()` gives { game, setup, tree, current } as they stand, `shareUrl()` the
 * link. Returns { element, render() }: render after every change (the link, the formats, an
 * export on show follows the tree).
 */
export function createExportPanel({ analysis, shareUrl }) {
  let scope = 'tree';
  let format = null;
  let blobUrl = null;

  const urlField = h('input', { type: 'text', id: 'analysis-share-url', 'data-testid': 'analysis-share-url', readonly: true });
  const urlLabel = h('label', { for: 'analysis-share-url' });
  const copyLink = h('button', { type: 'button', 'data-testid': 'analysis-copy-link', onclick: () => copyFrom(urlField, urlNote) });
  const urlNote = h('span', { class: 'note', 'data-testid': 'analysis-copy-note', 'aria-live': 'polite' });
  // A group of radios, not a fieldset: Chromium lays out a fieldset built inside a closed
  // <details> with no height once it opens.
  const scopeLabel = h('span', { class: 'an-legend', id: 'analysis-export-scope' });
  const scopeBox = h('div', { class: 'an-scope', role: 'radiogroup', 'aria-labelledby': 'analysis-export-scope' });
  const formats = h('div', { class: 'an-row an-formats' });
  const text = h('textarea', { id: 'analysis-export-text', 'data-testid': 'analysis-export-text', rows: 4, readonly: true, hidden: true, spellcheck: 'false' });
  const textLabel = h('label', { for: 'analysis-export-text', class: 'sr-only' });
  const download = h('a', { class: 'button', 'data-testid': 'analysis-download', hidden: true });
  const copyText = h('button', { type: 'button', 'data-testid': 'analysis-export-copy', hidden: true, onclick: () => copyFrom(text, textNote) });
  const textNote = h('span', { class: 'note', 'aria-live': 'polite' });
  const element = h('div', { class: 'an-export' },
    urlLabel, h('div', { class: 'an-row' }, urlField, copyLink), urlNote,
    scopeBox, formats, textLabel, text, h('div', { class: 'an-row' }, download, copyText, textNote));

  async function copyFrom(field, note) {
    const ok = await copy(field.value);
    if (!ok) field.select();
    note.textContent = t(ok ? 'analysis.share.copied' : 'analysis.share.copyFailed');
  }

  function renderScope() {
    clear(scopeBox);
    scopeLabel.textContent = t('analysis.export.scope');
    scopeBox.append(scopeLabel);
    for (const s of ['tree', 'line']) {
      const id = `analysis-export-scope-${s}`;
      const radio = h('input', { type: 'radio', name: 'analysis-export-scope', id, value: s, 'data-testid': id, checked: scope === s });
      radio.addEventListener('change', () => {
        scope = s;
        showExport();
      });
      scopeBox.append(h('span', { class: 'field' }, radio, h('label', { for: id }, t(`analysis.export.${s}`))));
    }
  }

  function renderFormats() {
    clear(formats);
    const a = analysis();
    const can = exportFormats(a.game, a.setup);
    if (format && !can.includes(format)) format = null;
    for (const f of can) {
      formats.append(h('button', {
        type: 'button', 'data-testid': `analysis-export-${f}`, 'aria-pressed': String(f === format),
        onclick: () => { format = f; renderFormats(); showExport(); },
      }, t(`analysis.export.${f}`)));
    }
    if (a.game.kind === 'gomoku' && !can.includes('psq')) formats.append(h('span', { class: 'note' }, t('analysis.export.psqNone')));
  }

  /** The export chosen, as text and as a file. */
  function showExport() {
    if (blobUrl) URL.revokeObjectURL(blobUrl);
    blobUrl = null;
    const body = format ? exportText(format, { ...analysis(), scope }) : null;
    text.hidden = download.hidden = copyText.hidden = !body;
    textNote.textContent = '';
    if (!body) return;
    text.value = body;
    text.dataset.format = format;
    const file = exportFile(analysis().game, format, scope);
    blobUrl = URL.createObjectURL(new Blob([body], { type: exportType(format) }));
    download.href = blobUrl;
    download.setAttribute('download', file);
    download.textContent = t('analysis.export.download', { file });
  }

  function render() {
    urlLabel.textContent = t('analysis.share.link');
    copyLink.textContent = t('analysis.share.copy');
    copyText.textContent = t('analysis.export.copy');
    textLabel.textContent = t('analysis.export.text');
    urlField.value = shareUrl();
    urlNote.textContent = '';
    renderScope();
    renderFormats();
    showExport();
  }

  render();
  return {
    element,
    render,
    dispose() {
      if (blobUrl) URL.revokeObjectURL(blobUrl);
    },
  };
}
