// Tests js/plot.js: the rating history scaled into the plot's box (time left to right, higher ratings higher up), one series a key, and the single-point and flat edge cases.
import test from 'node:test';
import assert from 'node:assert/strict';
import { scaleHistory, polylinePoints, PLOT_BOX } from '../js/plot.js';

const box = { width: 200, height: 100, left: 20, right: 10, top: 10, bottom: 20 };

test('points are scaled into the drawing area, one series a key in first-seen order, oldest first', () => {
  const plot = scaleHistory([
    { key: 'othello', at_ms: 3000, rating: 1600, room: 'c' },
    { key: 'gomoku-freestyle', at_ms: 1000, rating: 1500, room: 'a' },
    { key: 'othello', at_ms: 2000, rating: 1400, room: 'b' },
  ], box);
  assert.equal(plot.xMin, 1000);
  assert.equal(plot.xMax, 3000);
  assert.equal(plot.yMin, 1400);
  assert.equal(plot.yMax, 1600);
  assert.deepEqual([plot.yLo, plot.yHi], [1400, 1600], 'the axis runs from the lowest to the highest');
  assert.deepEqual(plot.series.map((s) => s.key), ['othello', 'gomoku-freestyle']);
  const [othello, gomoku] = plot.series;
  // x: 20..190 over 1000..3000 ms; y: 80 (1400) up to 10 (1600).
  assert.deepEqual(othello.points.map((p) => [p.x, p.y]), [[105, 80], [190, 10]]);
  assert.deepEqual(gomoku.points.map((p) => [p.x, p.y]), [[20, 45]]);
  assert.equal(polylinePoints(othello.points), '105,80 190,10');
});

test('one moment is drawn in the middle, a flat history at mid height', () => {
  const plot = scaleHistory([{ key: 'connect4', at_ms: 5, rating: 1500 }], box);
  assert.deepEqual(plot.series[0].points.map((p) => [p.x, p.y]), [[105, 45]]);
  assert.equal(plot.yMin, 1500);
  assert.equal(plot.yMax, 1500);
  assert.deepEqual([plot.yLo, plot.yHi], [1475, 1525], 'a flat history sits in a band around it');
  const flat = scaleHistory([{ key: 'othello', at_ms: 1, rating: 1500 }, { key: 'othello', at_ms: 2, rating: 1500 }], box);
  assert.deepEqual(flat.series[0].points.map((p) => p.y), [45, 45]);
});

test('nothing usable gives no plot; bad points are left out', () => {
  assert.equal(scaleHistory([]), null);
  assert.equal(scaleHistory(undefined), null);
  assert.equal(scaleHistory([{ key: 'othello', at_ms: 'x', rating: 1500 }, { at_ms: 1, rating: 1 }]), null);
  const plot = scaleHistory([{ key: 'othello', at_ms: 1, rating: 1500 }, { key: 'othello', at_ms: 2, rating: null }]);
  assert.equal(plot.series[0].points.length, 1);
  assert.equal(plot.box, PLOT_BOX);
});
