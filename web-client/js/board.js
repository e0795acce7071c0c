// SVG board for the three games: grid, coordinates, stones, marks (last move, winning line, renju forbidden points, Othello legal moves), hover preview, animations, mouse/touch/keyboard input.

import { s, clear } from './dom.js';
import { t } from './i18n.js';
import { dims, cellName, columnLabel, rowLabel, connect4Drop, seatOf, EMPTY, BLOCKED } from './rules.js';

/** Layout of a game in SVG user units. */
function geometry(game) {
  const { cols, rows } = dims(game);
  if (game.kind === 'gomoku') {
    const u = 40;
    const padL = 46;
    const padB = 44;
    const padT = 22;
    const padR = 22;
    return {
      u, cols, rows, padL, padT, points: true,
      width: padL + u * (cols - 1) + padR,
      height: padT + u * (rows - 1) + padB,
      // Intersections: the cell centre is on the grid point.
      cx: (sx) => padL + sx * u,
      cy: (sy) => padT + sy * u,
      stoneR: u * 0.46,
    };
  }
  const u = 50;
  const padL = game.kind === 'othello' ? 26 : 8;
  const padT = game.kind === 'othello' ? 26 : 8;
  const padB = game.kind === 'othello' ? 8 : 30;
  return {
    u, cols, rows, padL, padT, points: false,
    width: padL + u * cols + 8,
    height: padT + u * rows + padB,
    cx: (sx) => padL + sx * u + u / 2,
    cy: (sy) => padT + sy * u + u / 2,
    stoneR: u * 0.41,
  };
}

/**
 * Creates a board in `container`. Options: onPlay(moveText) when the user plays a move,
 * testPrefix for data-testid values (so two boards never share ids), touchConfirm (Gomoku
 * on a touch screen: the first tap previews, the second on the same point plays), mini (a
 * small picture, as in the lobby's live list: no coordinates, no input, one image to screen
 * readers).
 */
export function createBoard(container, { onPlay, testPrefix = '', label = 'board.aria', mini = false } = {}) {
  const svg = s('svg', mini ? {
    class: 'board mini',
    role: 'img',
    'data-testid': `${testPrefix}board`,
  } : {
    class: 'board',
    role: 'application',
    tabindex: 0,
    'data-testid': `${testPrefix}board`,
    'aria-roledescription': 'board',
  });
  container.append(svg);

  let view = null;
  let geo = null;
  let hover = -1; // cell index (Gomoku/Othello) or column (Connect Four)
  let cursor = -1;
  let touchPending = -1;
  let lastPointer = 'mouse';
  // When the last pointer went down: never, at first (a page younger than the pointer window
  // must not take a Tab's focus for a click's).
  let pointerAt = -Infinity;
  // Focus that came from a click leaves the arrow keys to the page (move-list navigation); focus
  // from the keyboard (Tab) gives them to the board's cursor.
  let keyboardFocus = false;
  let previewLayer = null;
  let cursorLayer = null;

  const tid = (name) => `${testPrefix}${name}`;

  /** Display position of board cell (x, y): the board may be turned. */
  function screen(x, y) {
    if (!view.flipped) return [x, y];
    if (view.game.kind === 'connect4') return [geo.cols - 1 - x, y];
    return [geo.cols - 1 - x, geo.rows - 1 - y];
  }

  function centre(idx) {
    const [sx, sy] = screen(idx % geo.cols, Math.floor(idx / geo.cols));
    return [geo.cx(sx), geo.cy(sy)];
  }

  function stone(idx, seat, extra = {}) {
    const [x, y] = centre(idx);
    return s('circle', { cx: x, cy: y, r: geo.stoneR, class: `stone ${seat}`, ...extra });
  }

  function canPlayAt(idx) {
    if (!view || !view.interactive || idx < 0) return false;
    // The analysis board's edit mode: any point, taken or not, gets a stone or loses one.
    if (view.edit) return idx < view.pos.cells.length;
    if (view.game.kind === 'connect4') return connect4Drop(view.pos.cells, geo.cols, geo.rows, idx) >= 0;
    if (view.pos.cells[idx] !== EMPTY) return false;
    if (view.game.kind === 'othello') return (view.legal || []).includes(idx);
    return true;
  }

  function moveText(idx) {
    return view.game.kind === 'connect4' ? String(idx + 1) : cellName(view.game, idx);
  }

  function drawPreview() {
    if (!previewLayer) return;
    clear(previewLayer);
    const at = hover >= 0 ? hover : touchPending;
    if (!canPlayAt(at) || !view.me || (view.edit && view.pos.cells[at] !== EMPTY)) return;
    if (view.game.kind === 'connect4') {
      const [sx] = screen(at, 0);
      previewLayer.append(
        s('rect', { x: geo.padL + sx * geo.u, y: geo.padT, width: geo.u, height: geo.u * geo.rows, class: 'col-hover', rx: 6 }),
      );
      const land = connect4Drop(view.pos.cells, geo.cols, geo.rows, at);
      previewLayer.append(stone(land, view.me, { class: `stone ${view.me} preview` }));
    } else {
      const forbidden = (view.forbidden || []).some((f) => f.idx === at);
      previewLayer.append(stone(at, view.me, { class: `stone ${view.me} preview${forbidden ? ' on-forbidden' : ''}` }));
    }
  }

  function drawCursor() {
    if (!cursorLayer) return;
    clear(cursorLayer);
    if (cursor < 0 || !view) return;
    if (view.game.kind === 'connect4') {
      const [sx] = screen(cursor, 0);
      cursorLayer.append(s('rect', { x: geo.padL + sx * geo.u + 2, y: geo.padT + 2, width: geo.u - 4, height: geo.u * geo.rows - 4, class: 'cursor', rx: 6 }));
    } else {
      const [x, y] = centre(cursor);
      const half = geo.u / 2 - 2;
      cursorLayer.append(s('rect', { x: x - half, y: y - half, width: half * 2, height: half * 2, class: 'cursor', rx: 4 }));
    }
    const name = view.game.kind === 'connect4' ? t('board.column', { n: cursor + 1 }) : cellName(view.game, cursor);
    svg.setAttribute('aria-label', `${t(label)} — ${name}`);
  }

  function render(next) {
    const changedGame = !view || JSON.stringify(view.game) !== JSON.stringify(next.game);
    view = next;
    geo = geometry(view.game);
    if (changedGame) {
      cursor = -1;
      hover = -1;
    }
    touchPending = -1;
    const { game, pos } = view;
    const kind = game.kind;
    clear(svg);
    svg.setAttribute('viewBox', `0 0 ${geo.width} ${geo.height}`);
    svg.setAttribute('class', `board board-${kind}${mini ? ' mini' : ''}${view.interactive ? ' interactive' : ''}`);
    svg.setAttribute('aria-label', t(label));

    // Background and grid.
    const bg = s('g', { class: 'layer-bg' });
    bg.append(s('rect', { x: 0, y: 0, width: geo.width, height: geo.height, class: `board-bg bg-${kind}`, rx: 8 }));
    if (kind === 'gomoku') {
      const x0 = geo.cx(0);
      const x1 = geo.cx(geo.cols - 1);
      const y0 = geo.cy(0);
      const y1 = geo.cy(geo.rows - 1);
      for (let i = 0; i < geo.cols; i++) bg.append(s('line', { x1: geo.cx(i), y1: y0, x2: geo.cx(i), y2: y1, class: 'grid' }));
      for (let j = 0; j < geo.rows; j++) bg.append(s('line', { x1: x0, y1: geo.cy(j), x2: x1, y2: geo.cy(j), class: 'grid' }));
      const n = geo.cols;
      const d = n >= 13 ? 3 : 2;
      const stars = n >= 9 ? [[d, d], [n - 1 - d, d], [d, n - 1 - d], [n - 1 - d, n - 1 - d]] : [];
      if (n % 2 === 1) stars.push([(n - 1) / 2, (n - 1) / 2]);
      for (const [x, y] of stars) bg.append(s('circle', { cx: geo.cx(x), cy: geo.cy(y), r: 3.5, class: 'star' }));
    } else if (kind === 'othello') {
      bg.append(s('rect', { x: geo.padL, y: geo.padT, width: 8 * geo.u, height: 8 * geo.u, class: 'felt' }));
      for (let i = 0; i <= 8; i++) {
        bg.append(s('line', { x1: geo.padL + i * geo.u, y1: geo.padT, x2: geo.padL + i * geo.u, y2: geo.padT + 8 * geo.u, class: 'grid' }));
        bg.append(s('line', { x1: geo.padL, y1: geo.padT + i * geo.u, x2: geo.padL + 8 * geo.u, y2: geo.padT + i * geo.u, class: 'grid' }));
      }
      for (const [x, y] of [[2, 2], [6, 2], [2, 6], [6, 6]]) {
        bg.append(s('circle', { cx: geo.padL + x * geo.u, cy: geo.padT + y * geo.u, r: 3.5, class: 'star' }));
      }
    } else {
      bg.append(s('rect', { x: geo.padL, y: geo.padT, width: geo.u * geo.cols, height: geo.u * geo.rows, class: 'c4-frame', rx: 10 }));
    }

    // Coordinates.
    const labels = s('g', { class: 'layer-labels', 'aria-hidden': 'true' });
    for (let x = 0; x < geo.cols; x++) {
      const [sx] = screen(x, 0);
      const text = columnLabel(game, x);
      if (kind === 'gomoku') labels.append(s('text', { x: geo.cx(sx), y: geo.cy(geo.rows - 1) + 31, class: 'coord' }, text));
      else if (kind === 'othello') labels.append(s('text', { x: geo.cx(sx), y: geo.padT - 9, class: 'coord' }, text));
      else labels.append(s('text', { x: geo.cx(sx), y: geo.padT + geo.u * geo.rows + 20, class: 'coord' }, text));
    }
    if (kind !== 'connect4') {
      for (let y = 0; y < geo.rows; y++) {
        const [, sy] = screen(0, y);
        const lx = kind === 'gomoku' ? geo.padL - 31 : geo.padL - 13;
        labels.append(s('text', { x: lx, y: geo.cy(sy) + 1, class: 'coord row' }, rowLabel(game, y)));
      }
    }

    // Marks under the stones: forbidden points, legal moves.
    const marks = s('g', { class: 'layer-marks' });
    for (const f of view.forbidden || []) {
      const [x, y] = centre(f.idx);
      const r = geo.u * 0.2;
      marks.append(
        s('g', { class: `forbidden ${f.kind}`, 'data-testid': tid(`forbidden-${cellName(game, f.idx)}`), 'data-kind': f.kind },
          s('title', {}, t(`forbidden.${f.kind}`)),
          s('line', { x1: x - r, y1: y - r, x2: x + r, y2: y + r }),
          s('line', { x1: x - r, y1: y + r, x2: x + r, y2: y - r })),
      );
    }
    for (const idx of view.legal || []) {
      const [x, y] = centre(idx);
      marks.append(s('circle', { cx: x, cy: y, r: geo.u * 0.12, class: `legal${view.me ? ` for-${view.me}` : ''}`, 'data-testid': tid(`legal-${cellName(game, idx)}`) }));
    }
    // An opening's 5th moves: offered (`proposal`) or being picked to offer (`picked`), as
    // dashed stones of the colour they would be.
    for (const m of view.marks || []) {
      const [x, y] = centre(m.idx);
      // A review's better move: a ring around the point, so that a ghost stone there still shows.
      const r = m.kind === 'better' ? geo.stoneR * 1.22 : geo.stoneR;
      marks.append(s('circle', { cx: x, cy: y, r, class: `opening-mark ${m.kind} ${m.seat || ''}`, 'data-testid': tid(`${m.kind}-${cellName(game, m.idx)}`) }));
      // A review's best line: the ghost stones are numbered in the order of the line.
      if (m.label) marks.append(s('text', { x, y: y + geo.u * 0.12, class: `mark-label ${m.seat || ''}` }, m.label));
    }

    // Stones (Connect Four: every hole, blocked cells too).
    const stones = s('g', { class: 'layer-stones' });
    for (let idx = 0; idx < pos.cells.length; idx++) {
      const v = pos.cells[idx];
      const name = cellName(game, idx);
      if (kind === 'connect4') {
        const [x, y] = centre(idx);
        if (v === BLOCKED) {
          const r = geo.stoneR;
          stones.append(s('g', { class: 'blocked', 'data-testid': tid(`cell-${name}`), 'data-blocked': 'true' },
            s('title', {}, t('board.blocked')),
            s('rect', { x: x - r, y: y - r, width: 2 * r, height: 2 * r, rx: 6 }),
            s('line', { x1: x - r / 2, y1: y - r / 2, x2: x + r / 2, y2: y + r / 2 }),
            s('line', { x1: x - r / 2, y1: y + r / 2, x2: x + r / 2, y2: y - r / 2 })));
          continue;
        }
        const seat = seatOf(v);
        stones.append(s('circle', { cx: x, cy: y, r: geo.stoneR, class: 'hole', 'data-testid': tid(`cell-${name}`), 'data-stone': seat || '' }));
        if (v === EMPTY) continue;
        const attrs = {};
        if (view.animate && idx === pos.last) {
          attrs.class = `stone ${seat} drop`;
          attrs.style = `--drop: ${-(y - geo.padT + geo.u / 2)}px`;
        }
        stones.append(stone(idx, seat, attrs));
        continue;
      }
      if (v === EMPTY) continue;
      const seat = seatOf(v);
      const attrs = {};
      if (view.animate && idx === pos.last) attrs.class = `stone ${seat} place`;
      else if (view.animate && kind === 'othello' && pos.flipped.includes(idx)) {
        attrs.class = `stone ${seat} flip`;
        attrs.style = `--from: var(--stone-${seat === 'black' ? 'white' : 'black'})`;
      }
      stones.append(stone(idx, seat, attrs));
    }

    // Last move, winning line.
    const over = s('g', { class: 'layer-over' });
    if (pos.last >= 0 && !(view.winLine && view.winLine.length)) {
      const [x, y] = centre(pos.last);
      const seat = seatOf(pos.cells[pos.last]) || 'black';
      over.append(kind === 'connect4'
        ? s('circle', { cx: x, cy: y, r: geo.stoneR * 0.35, class: `last-move on-${seat}`, 'data-testid': tid('last-move') })
        : s('circle', { cx: x, cy: y, r: geo.stoneR * 0.28, class: `last-move on-${seat}`, 'data-testid': tid('last-move') }));
    }
    if (view.winLine && view.winLine.length) {
      const a = centre(view.winLine[0]);
      const b = centre(view.winLine[view.winLine.length - 1]);
      over.append(s('line', { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: 'win-line' }));
      for (const idx of view.winLine) {
        const [x, y] = centre(idx);
        over.append(s('circle', { cx: x, cy: y, r: geo.stoneR * 0.9, class: 'win-ring', 'data-testid': tid(`win-${cellName(game, idx)}`) }));
      }
    }

    previewLayer = s('g', { class: 'layer-preview', 'aria-hidden': 'true' });
    cursorLayer = s('g', { class: 'layer-cursor', 'aria-hidden': 'true' });

    // Hit targets, on top: one per point (Gomoku, Othello) or per column (Connect Four).
    const hit = s('g', { class: 'layer-hit' });
    if (kind === 'connect4') {
      for (let x = 0; x < geo.cols; x++) {
        const [sx] = screen(x, 0);
        hit.append(s('rect', {
          x: geo.padL + sx * geo.u, y: 0, width: geo.u, height: geo.height,
          class: 'hit', 'data-idx': x, 'data-move': String(x + 1), 'data-testid': tid(`col-${x + 1}`),
          // A label needs a role (ARIA allows none on a bare shape): a picture of the column.
          role: 'img', 'aria-label': t('board.column', { n: x + 1 }),
        }));
      }
    } else {
      const forbiddenAt = new Map((view.forbidden || []).map((f) => [f.idx, f.kind]));
      for (let idx = 0; idx < pos.cells.length; idx++) {
        const [x, y] = centre(idx);
        const name = cellName(game, idx);
        // A forbidden point says why on hover (its title) and to screen readers (its label).
        const why = forbiddenAt.has(idx) ? t(`forbidden.${forbiddenAt.get(idx)}`) : null;
        hit.append(s('rect', {
          x: x - geo.u / 2, y: y - geo.u / 2, width: geo.u, height: geo.u,
          class: 'hit', 'data-idx': idx, 'data-move': name, 'data-testid': tid(`cell-${name}`),
          'data-stone': seatOf(pos.cells[idx]) || '',
          role: why ? 'img' : null, 'aria-label': why ? `${name}: ${why}` : null,
        }, why ? s('title', {}, why) : null));
      }
    }
    // A small picture has nothing to point at and no room for coordinates.
    if (mini) svg.append(bg, marks, stones, over);
    else svg.append(bg, labels, marks, stones, over, previewLayer, cursorLayer, hit);
    drawPreview();
    drawCursor();
  }

  function targetIdx(ev) {
    const el = ev.target.closest ? ev.target.closest('[data-idx]') : null;
    return el && svg.contains(el) ? Number(el.dataset.idx) : -1;
  }

  function play(idx) {
    if (!canPlayAt(idx)) return false;
    onPlay?.(moveText(idx));
    return true;
  }

  svg.addEventListener('pointerdown', (ev) => {
    lastPointer = ev.pointerType || 'mouse';
    pointerAt = performance.now();
    keyboardFocus = false;
  });
  svg.addEventListener('focus', () => {
    keyboardFocus = performance.now() - pointerAt > 400;
  });
  svg.addEventListener('pointermove', (ev) => {
    if (ev.pointerType === 'touch') return;
    const idx = targetIdx(ev);
    if (idx !== hover) {
      hover = idx;
      drawPreview();
      view?.onInspect?.(idx);
    }
  });
  svg.addEventListener('pointerleave', (ev) => {
    // A finger leaves with every tap: what the tap explained stays until the next one.
    if (ev.pointerType === 'touch') return;
    hover = -1;
    drawPreview();
    view?.onInspect?.(-1);
  });
  svg.addEventListener('click', (ev) => {
    const idx = targetIdx(ev);
    if (idx < 0 || !view) return;
    if (lastPointer === 'touch') {
      view.onInspect?.(idx);
      // A finger cannot hover: a tap on a forbidden point explains it and plays nothing.
      if ((view.forbidden || []).some((f) => f.idx === idx)) {
        touchPending = -1;
        hover = -1;
        drawPreview();
        return;
      }
    }
    if (!view.interactive) {
      view.onInactiveClick?.();
      return;
    }
    // Small Gomoku points are easy to miss with a finger: preview first, play on a second tap.
    if (lastPointer === 'touch' && view.game.kind === 'gomoku' && view.touchConfirm !== false) {
      if (touchPending !== idx) {
        touchPending = canPlayAt(idx) ? idx : -1;
        hover = -1;
        drawPreview();
        return;
      }
      touchPending = -1;
    }
    play(idx);
  });

  svg.addEventListener('keydown', (ev) => {
    if (!view || ev.defaultPrevented) return;
    if (ev.key.startsWith('Arrow') && !keyboardFocus && cursor < 0) return;
    const c4 = view.game.kind === 'connect4';
    const size = c4 ? geo.cols : geo.cols * geo.rows;
    if (cursor < 0 || cursor >= size) {
      cursor = c4 ? Math.floor(geo.cols / 2) : Math.floor(geo.rows / 2) * geo.cols + Math.floor(geo.cols / 2);
    }
    let x = c4 ? cursor : cursor % geo.cols;
    let y = c4 ? 0 : Math.floor(cursor / geo.cols);
    // Keys move on the screen, so a turned board turns them too.
    const sign = view.flipped ? -1 : 1;
    const vsign = view.flipped && !c4 ? -1 : 1;
    switch (ev.key) {
      case 'ArrowLeft': x -= sign; break;
      case 'ArrowRight': x += sign; break;
      case 'ArrowUp': y -= vsign; break;
      case 'ArrowDown': y += vsign; break;
      case 'Enter':
      case ' ':
        ev.preventDefault();
        ev.stopPropagation();
        if (!view.interactive) view.onInactiveClick?.();
        else play(cursor);
        return;
      case 'Escape':
        cursor = -1;
        drawCursor();
        return;
      default:
        return;
    }
    ev.preventDefault();
    ev.stopPropagation();
    x = Math.max(0, Math.min(geo.cols - 1, x));
    y = Math.max(0, Math.min(geo.rows - 1, y));
    cursor = c4 ? x : y * geo.cols + x;
    hover = cursor;
    drawPreview();
    drawCursor();
    if (!c4) view.onInspect?.(cursor);
  });
  svg.addEventListener('blur', () => {
    hover = -1;
    drawPreview();
  });

  return { render, element: svg };
}
