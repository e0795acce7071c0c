// Tests of the lobby's remembered choices (lobby/settings.js): defaults, what is kept in the browser (never the set-up stones), and the listeners told of each change.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createSettings } from '../js/lobby/settings.js';

/** A stand-in for the browser's localStorage, holding `entries`. */
function fakeStorage(entries = {}) {
  const data = new Map(Object.entries(entries));
  return {
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => data.set(k, String(v)),
    removeItem: (k) => data.delete(k),
  };
}

function withStorage(storage, fn) {
  const before = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true, writable: true });
  try {
    return fn();
  } finally {
    if (before) Object.defineProperty(globalThis, 'localStorage', before);
    else delete globalThis.localStorage;
  }
}

test('without a saved entry (or with a damaged one) the defaults stand', () => {
  withStorage(fakeStorage({ 'kibitz.newGame': '{oops' }), () => {
    const s = createSettings();
    assert.equal(s.get('kind'), 'gomoku');
    assert.equal(s.get('clock'), '5+3');
    assert.equal(s.get('level'), 3);
    assert.deepEqual(s.get('blocked'), []);
  });
});

test('saved choices come back over the defaults; set-up stones are never kept', () => {
  const storage = fakeStorage({ 'kibitz.newGame': JSON.stringify({ kind: 'connect4', cols: 9, opening: ['h8'] }) });
  withStorage(storage, () => {
    const s = createSettings();
    assert.equal(s.get('kind'), 'connect4');
    assert.equal(s.get('cols'), 9);
    assert.equal(s.get('rows'), 6);
    assert.equal(s.get('opening'), undefined);
    s.set({ level: 7 });
    const kept = JSON.parse(storage.getItem('kibitz.newGame'));
    assert.equal(kept.level, 7);
    assert.equal(kept.cols, 9);
    assert.equal('opening' in kept, false);
  });
});

test('every listener hears each change until it stops listening', () => {
  withStorage(fakeStorage(), () => {
    const s = createSettings();
    const heard = [];
    const stop = s.onChange((patch) => heard.push(patch));
    s.set({ level: 5 });
    stop();
    s.set({ level: 6 });
    assert.deepEqual(heard, [{ level: 5 }]);
    assert.equal(s.get('level'), 6);
  });
});

test('without storage (disabled) the choices still hold for the page', () => {
  withStorage(undefined, () => {
    const s = createSettings();
    s.set({ vsOrder: 'computer' });
    assert.equal(s.get('vsOrder'), 'computer');
  });
});
