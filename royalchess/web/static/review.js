// Game review: the server analyses every move in the background (POST .../review, then the
// page polls GET .../review for the progress); the page then shows the evaluation graph,
// each side's accuracy, the judged moves in the move list (?! ? ??), and for the move looked
// at, the better move as an arrow with its line. The annotated PGN is a download.

import { drawGraph } from './graph.js';
import { numbered, scoreText } from './analysis.js';

const $ = id => document.getElementById(id);
const POLL_MS = 300;

async function call(method, path) {
  const options = { method, credentials: 'same-origin', headers: {} };
  if (method !== 'GET') { // every change is JSON (the server refuses anything else)
    options.headers['Content-Type'] = 'application/json';
    options.body = '{}';
  }
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || `HTTP ${response.status}`);
  return data;
}

export class Review {
  // onPick(ply): show that move; onError(text): show a message.
  constructor({ board, onPick, onError, onChange }) {
    this.board = board;
    this.onPick = onPick;
    this.onError = onError;
    this.onChange = onChange;
    this.result = null; // the finished review
    this.gameId = null;
    this.ply = null; // the game's ply it is for
    this.graph = null;
    this._ticket = 0;
  }

  // A new game is shown (or the game moved on): the review no longer applies.
  reset() {
    this._ticket += 1;
    this.result = null;
    this.gameId = null;
    this.graph = null;
    $('review').hidden = true;
    this.board.setArrows('review', []);
  }

  async start(s) {
    this.reset();
    const ticket = this._ticket;
    this.gameId = s.id;
    this.ply = s.ply;
    $('review').hidden = false;
    $('review-progress').hidden = false;
    $('review-result').hidden = true;
    $('review-progress').value = 0;
    $('review-status').textContent = 'Reviewing every move…';
    const path = `/api/games/${encodeURIComponent(s.id)}/review`;
    let status;
    try {
      status = await call('POST', path);
      while (status.state === 'running') {
        this._progress(status);
        await new Promise(r => setTimeout(r, POLL_MS));
        if (ticket !== this._ticket) return;
        status = await call('GET', path);
      }
    } catch (err) {
      if (ticket === this._ticket) { $('review').hidden = true; this.onError(err.message); }
      return;
    }
    if (ticket !== this._ticket) return;
    if (status.state !== 'done') {
      $('review').hidden = true;
      this.onError(status.error || `the review ${status.state}`);
      return;
    }
    this._progress(status);
    this.result = status;
    this._show(path);
    this.onChange();
  }

  _progress(status) {
    $('review-progress').max = status.total;
    $('review-progress').value = status.done;
    $('review-status').textContent = `Reviewing every move… ${status.done} of ${status.total} positions`;
  }

  _show(path) {
    const r = this.result;
    $('review-progress').hidden = true;
    $('review-result').hidden = false;
    const acc = v => (v === null ? '–' : `${v.toFixed(1)}%`);
    const counts = c => `${c.inaccuracy} inaccurac${c.inaccuracy === 1 ? 'y' : 'ies'}, ${c.mistake} mistake${c.mistake === 1 ? '' : 's'}, ${c.blunder} blunder${c.blunder === 1 ? '' : 's'}`;
    $('review-status').textContent = 'Review';
    $('review-white').textContent = `White: accuracy ${acc(r.white_accuracy)} · ${counts(r.counts.white)}`;
    $('review-black').textContent = `Black: accuracy ${acc(r.black_accuracy)} · ${counts(r.counts.black)}`;
    $('review-pgn').href = `${path}/pgn`;
    this.graph = drawGraph($('review-graph'), r.evals, r.moves, ply => this.onPick(ply));
  }

  // Called by the page's render: mark the move list, the graph's cursor, the move shown.
  render(s, ply) {
    if (!this.result) return;
    if (s.id !== this.gameId || s.ply !== this.ply) { this.reset(); return; }
    const r = this.result;
    for (const li of document.querySelectorAll('#moves .mv[data-ply]')) {
      const m = r.moves[Number(li.dataset.ply) - 1];
      if (!m || !m.nag) continue;
      li.classList.add(m.judgement.toLowerCase());
      const nag = document.createElement('span');
      nag.className = 'nag';
      nag.textContent = m.nag;
      li.appendChild(nag);
    }
    this.graph.select(ply);
    const box = $('review-move');
    const m = ply > 0 ? r.moves[ply - 1] : null;
    const e = r.evals[ply];
    const evalText = e.over ? 'game over' : scoreText(e.cp, e.mate);
    if (!m) {
      box.textContent = `Start position · ${evalText}`;
      this.board.setArrows('review', []);
      return;
    }
    const fen = ply > 1 ? s.moves[ply - 2].fen : s.start_fen;
    box.textContent = '';
    const head = document.createElement('div');
    head.textContent = `${numbered(fen, [m.san])}${m.nag || ''} · ${evalText}`;
    box.appendChild(head);
    if (m.judgement && m.best) {
      const note = document.createElement('div');
      note.className = `judgement ${m.judgement.toLowerCase()}`;
      note.textContent = `${m.judgement}. ${m.best.san} was best: ${numbered(fen, m.best.line)}`;
      box.appendChild(note);
      this.board.setArrows('review', m.best.arrows.map(([orig, dest]) => ({ orig, dest, brush: 'green' })));
    } else {
      this.board.setArrows('review', []);
    }
  }
}
