// The evaluation graph of a reviewed game: an SVG with White's winning chances after each
// move (above the middle line: White is better; below: Black), the judged moves marked, the
// move shown as a vertical line. A click anywhere picks the nearest move (onPick(ply)).
// Built with DOM calls: no inline script or style, as the page's CSP wants.

const NS = 'http://www.w3.org/2000/svg';
const W = 600;
const H = 120;
const MARKS = { Inaccuracy: 'inaccuracy', Mistake: 'mistake', Blunder: 'blunder' };

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

// evals: one per position (ply 0..n), each { chances } from White's side; moves: the
// review's moves (ply 1..n) with their judgement.
export function drawGraph(container, evals, moves, onPick) {
  container.innerHTML = '';
  const n = evals.length - 1;
  const x = ply => (n === 0 ? 0 : (ply / n) * W);
  const y = chances => H / 2 - (chances * (H / 2 - 4));
  const svg = el('svg', {
    viewBox: `0 0 ${W} ${H}`, preserveAspectRatio: 'none', class: 'graph',
    role: 'img', 'aria-label': 'Evaluation graph: White above the line, Black below',
  }, container);
  el('rect', { x: 0, y: 0, width: W, height: H, class: 'graph-black' }, svg);
  const points = evals.map((e, ply) => `${x(ply).toFixed(1)},${y(e.chances).toFixed(1)}`);
  el('polygon', { points: `0,${H} ${points.join(' ')} ${W},${H}`, class: 'graph-white' }, svg);
  el('polyline', { points: points.join(' '), class: 'graph-line' }, svg);
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'graph-mid' }, svg);
  const cursor = el('line', { x1: 0, y1: 0, x2: 0, y2: H, class: 'graph-cursor' }, svg);
  for (const m of moves) {
    if (!m.judgement) continue;
    el('circle', {
      cx: x(m.ply), cy: y(evals[m.ply].chances), r: 4.5,
      class: `graph-mark ${MARKS[m.judgement]}`, 'data-mark': m.ply,
    }, svg);
  }
  // One strip per position, as wide as its share of the graph: the click targets.
  const step = n === 0 ? W : W / n;
  for (let ply = 0; ply <= n; ply += 1) {
    const hit = el('rect', {
      x: Math.max(0, x(ply) - step / 2), y: 0, width: step, height: H,
      class: 'graph-hit', 'data-ply': ply,
    }, svg);
    const title = el('title', {}, hit);
    const move = moves[ply - 1];
    title.textContent = ply === 0 ? 'start position'
      : `${move.san}${move.nag || ''}${move.judgement ? ` (${move.judgement.toLowerCase()})` : ''}`;
    hit.addEventListener('click', () => onPick(ply));
  }
  return {
    // Show the move being looked at.
    select(ply) {
      cursor.setAttribute('x1', x(ply));
      cursor.setAttribute('x2', x(ply));
    },
  };
}
