// Checks the i18n table: both languages have the same keys, and every key the page's modules name exists.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STRINGS } from '../js/i18n.js';

const here = path.dirname(fileURLToPath(import.meta.url));

test('English and Chinese have the same keys and placeholders', () => {
  const en = Object.keys(STRINGS.en).sort();
  const zh = Object.keys(STRINGS.zh).sort();
  assert.deepEqual(zh, en);
  for (const key of en) {
    const names = (s) => (s.match(/\{\w+\}/g) || []).sort();
    assert.deepEqual(names(STRINGS.zh[key]), names(STRINGS.en[key]), key);
  }
});

test('every literal key used by the modules and the page is in the table', () => {
  const files = [
    ...fs.readdirSync(path.join(here, '../js'), { recursive: true })
      .filter((f) => f.endsWith('.js'))
      .map((f) => path.join(here, '../js', f)),
    path.join(here, '../index.html'),
  ];
  const missing = [];
  for (const file of files) {
    const src = fs.readFileSync(file, 'utf8');
    const patterns = [/\bt\('([\w.-]+)'/g, /data-i18n(?:-aria|-placeholder|-title)?['"]?\s*[:=]\s*['"]([\w.-]+)['"]/g, /\b(?:btn|field|card)\([^,]*?,?\s*'([a-z]+\.[\w.-]+)'/g];
    for (const re of patterns) {
      for (const m of src.matchAll(re)) if (!(m[1] in STRINGS.en)) missing.push(`${path.basename(file)}: ${m[1]}`);
    }
  }
  assert.deepEqual(missing, []);
});
