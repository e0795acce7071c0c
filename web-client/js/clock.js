// Game clocks: counts the running side down smoothly between the server's readings (state.clock / moved.clock), and the time left for a first move before the game is aborted; a correspondence room's in days, the move's own time ("2 d 23 h") with the vacation left beside it ("+ 7 d vacation").

import { t } from './i18n.js';
import { formatDays, formatVacation, corrSplit, isCorrespondence, corrLowBelowMs } from './corr-data.js';

/** m:ss, or s.t under ten seconds, or h:mm:ss for long games. */
export function formatMs(ms) {
  const v = Math.max(0, ms);
  if (v < 10000) return (Math.floor(v / 100) / 10).toFixed(1);
  const total = Math.ceil(v / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const ss = String(s).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

/** Under ten seconds a clock is low; a per-move clock, whose whole allowance may be shorter
 *  than that, under a quarter of its time for the move. */
const LOW_MS = 10000;

/** The time left under which a clock of `control` shows as low (red). */
export function lowBelowMs(control) {
  if (isCorrespondence(control)) return corrLowBelowMs(control);
  const perMove = Number(control?.move_ms);
  return Number.isFinite(perMove) && perMove > 0 ? Math.min(LOW_MS, perMove / 4) : LOW_MS;
}

/**
 * Drives two clock elements (`els.black`, `els.white`, with `els.blackVacation` and
 * `els.whiteVacation` beside them for a correspondence room's vacation) and the abort countdown
 * `els.abort`. `set(clock, toMove)` takes a
 * server reading ({black_ms, white_ms, running, abort_ms} or null) and the side to move; the
 * running side counts down from the moment the reading arrived, and so does `abort_ms`, the
 * time `toMove` has left for its first move. `stop()` freezes the display (game over, leaving
 * the room); `control(spec)` says the room's time control (see [`lowBelowMs`]).
 */
export function createClocks(els) {
  let reading = null;
  let lowBelow = LOW_MS;
  // A correspondence room's clocks and abort countdown read in days.
  let days = false;
  let toMove = null;
  let at = 0;
  let frame = 0;

  /** The abort countdown: whole seconds, rounded up, so it reaches 0 as the game ends. */
  function drawAbort() {
    const el = els.abort;
    const waiting = reading && typeof reading.abort_ms === 'number' && (toMove === 'black' || toMove === 'white');
    if (!el) return false;
    el.hidden = !waiting;
    if (!waiting) {
      el.textContent = '';
      delete el.dataset.secs;
      return false;
    }
    const secs = Math.max(0, Math.ceil((reading.abort_ms - (performance.now() - at)) / 1000));
    // Drawn once a second, not every frame: screen readers hear a timer, not a stream.
    if (el.dataset.secs !== String(secs) || el.dataset.seat !== toMove) {
      const side = t(`seat.${toMove}`);
      el.textContent = days ? t('corr.abortIn', { side, time: formatDays(secs * 1000) }) : t('room.abortIn', { side, s: secs });
      el.dataset.seat = toMove;
      el.dataset.secs = String(secs);
    }
    return secs > 0;
  }

  /** A side's vacation beside its clock ("+ 7 d vacation"), hidden when it has none left. */
  function drawVacation(el, ms) {
    if (!el) return;
    const text = ms > 0 ? t('corr.vacation', { time: formatVacation(ms) }) : '';
    if (el.textContent !== text) el.textContent = text;
    el.hidden = !text;
    el.dataset.ms = String(Math.max(0, Math.round(ms)));
  }

  function draw() {
    frame = 0;
    for (const seat of ['black', 'white']) {
      const el = els[seat];
      if (!el) continue;
      if (!reading) {
        el.textContent = '';
        el.hidden = true;
        drawVacation(els[`${seat}Vacation`], 0);
        continue;
      }
      el.hidden = false;
      let ms = reading[`${seat}_ms`];
      const running = reading.running === seat;
      if (running) ms -= performance.now() - at;
      // A correspondence move spends its own days first, then the side's vacation.
      const split = days ? corrSplit(ms, reading[`${seat}_vacation_ms`]) : null;
      el.textContent = split ? formatDays(split.own) : formatMs(ms);
      el.classList.toggle('running', running);
      el.classList.toggle('low', (split ? split.own : ms) < lowBelow);
      el.dataset.ms = String(Math.max(0, Math.round(ms)));
      drawVacation(els[`${seat}Vacation`], split ? split.vacation : 0);
    }
    const counting = drawAbort();
    if (reading && (reading.running || counting)) frame = requestAnimationFrame(draw);
  }

  return {
    /** The room's time control: how low a clock must run to show as low. */
    control(spec) {
      lowBelow = lowBelowMs(spec);
      days = isCorrespondence(spec);
    },
    set(clock, side = null) {
      reading = clock && typeof clock.black_ms === 'number' ? { ...clock } : null;
      toMove = side;
      at = performance.now();
      if (frame) cancelAnimationFrame(frame);
      draw();
    },
    stop() {
      if (reading && reading.running) {
        const elapsed = performance.now() - at;
        reading[`${reading.running}_ms`] -= elapsed;
        reading.running = null;
      }
      if (reading) reading.abort_ms = null;
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
      draw();
    },
    /** The current reading as displayed (for an undone move, which carries no clock). */
    current() {
      return reading ? { ...reading, abort_ms: null } : null;
    },
  };
}
