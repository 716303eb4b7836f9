// Analysis mode: the engine's best lines on the position shown, streamed by the server
// (GET /api/analysis, server-sent events), the best line as an arrow and an evaluation bar.
// It follows the position the player looks at (a move picked in the list, the game's
// position) and the moves they try on the board. Tried moves live only here: they are sent
// as part of the position to analyse, never as a move of the game.

const $ = id => document.getElementById(id);

// One id per tab: the server runs at most one search per tab (a new stream stops the old).
const TAB = Array.from(crypto.getRandomValues(new Uint8Array(12)), b => b.toString(16).padStart(2, '0')).join('');

// White's winning chances (-1..1) of a score, the curve the review uses (lichess's).
export function chances(cp, mate) {
  if (mate !== null && mate !== undefined) return mate > 0 ? 1 : -1;
  const c = Math.max(-1000, Math.min(1000, cp || 0));
  return 2 / (1 + Math.exp(-0.00368208 * c)) - 1;
}

export function scoreText(cp, mate) {
  if (mate !== null && mate !== undefined) return `#${mate}`;
  return `${cp >= 0 ? '+' : ''}${(cp / 100).toFixed(2)}`;
}

// "12. Nf3 Nc6 13. Bb5" from the FEN of the position the line starts in.
export function numbered(fen, sans) {
  const parts = fen.split(' ');
  let white = parts[1] === 'w';
  let number = Number(parts[5]) || 1;
  const out = [];
  sans.forEach((san, i) => {
    if (white) out.push(`${number}.`);
    else if (i === 0) out.push(`${number}…`);
    out.push(san);
    if (!white) number += 1;
    white = !white;
  });
  return out.join(' ');
}

export class Analysis {
  // board: the BoardView; onChange(): the page redraws (a new position view arrived).
  constructor({ board, onChange, onError }) {
    this.board = board;
    this.onChange = onChange;
    this.onError = onError || (() => {});
    this.on = false;
    this.base = null; // { key, variant, fen, moves }: the position picked in the game
    this.tried = []; // UCI moves tried on the analysis board
    this.view = null; // the server's view of base + tried (legal moves, SAN)
    this.source = null; // the EventSource
    this.updates = 0; // 'lines' events received by the current stream (the tests read it)
    this.running = false;
    this.latest = null;
    this._asked = 0;
    this._stopping = Promise.resolve();
  }

  toggle() {
    if (this.on) this.stop();
    else {
      this.on = true;
      this.base = null;
    }
    this.onChange();
  }

  // Leave analysis mode: tell the server to stop the tab's search, then close the stream
  // (closing it alone stops the search too, a little later). A new stream waits for this.
  stop() {
    this.on = false;
    const source = this.source;
    this.source = null;
    this.running = false;
    this._stopping = fetch('/api/analysis/stop', {
      method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ tab: TAB }),
    }).catch(() => {}).finally(() => { if (source) source.close(); });
    this.tried = [];
    this.view = null;
    this.base = null;
    this.board.setArrows('analysis', []);
    $('eval-bar').hidden = true;
    $('analysis').hidden = true;
  }

  // Called by the page's render with the game and the ply shown. Returns true when the
  // analysis board is drawn (the page then leaves the board alone).
  draw(s, ply) {
    if (!this.on) return false;
    const moves = s.moves.slice(0, ply).map(m => m.uci);
    const key = `${s.id}|${s.start_fen}|${moves.join(' ')}`;
    if (!this.base || this.base.key !== key) {
      const at = ply === 0 ? s.start_fen : s.moves[ply - 1].fen;
      this.base = { key, variant: s.variant, fen: s.start_fen, moves, at };
      this.tried = [];
      this.view = null;
      this._load();
    }
    $('analysis').hidden = false;
    if (!this.view) return false; // the game's position until the view arrives
    const v = this.view;
    this.board.show({
      files: v.files, ranks: v.ranks, boardFen: v.board_fen, queenPowers: v.queen_powers,
      lastMove: v.last, check: Boolean(v.check), turn: v.turn, legal: v.legal,
    });
    this._renderTried();
    this._renderBar();
    return true;
  }

  tryMove(text) {
    if (!this.on || !this.base) return;
    if (text === null || text === undefined) { this.onChange(); return; }
    this.tried.push(text);
    this._load();
  }

  backToGame() {
    this.tried = [];
    this._load();
  }

  _moves() {
    return [...this.base.moves, ...this.tried];
  }

  _query() {
    return new URLSearchParams({ variant: this.base.variant, fen: this.base.fen, moves: this._moves().join(' ') });
  }

  // Ask the server for the position (legal moves, SAN), then start its stream.
  async _load() {
    const ticket = ++this._asked;
    this._close(null);
    let view;
    try {
      const response = await fetch(`/api/position?${this._query()}`, { credentials: 'same-origin' });
      view = await response.json();
      if (!response.ok) throw new Error(view.error || `HTTP ${response.status}`);
    } catch (err) {
      if (ticket !== this._asked) return;
      this.tried.pop(); // the move tried was not legal: back to the position before it
      this.onError(err.message);
      if (this.view) this.onChange();
      return;
    }
    if (ticket !== this._asked || !this.on) return;
    this.view = view;
    this.tried = view.moves.slice(this.base.moves.length).map(m => m.uci);
    this.onChange();
    this._open();
  }

  async _open() {
    await this._stopping; // the server must not take a late stop for this new stream
    if (!this.on || !this.view) return;
    this._close(null); // a stream opened meanwhile (positions picked quickly) ends here
    const query = this._query();
    query.set('lines', '3');
    query.set('tab', TAB);
    const source = new EventSource(`/api/analysis?${query}`);
    this.source = source;
    this.updates = 0;
    this.running = true;
    this.latest = null;
    this.board.setArrows('analysis', []);
    this._status('starting…');
    $('analysis-lines').innerHTML = '';
    source.addEventListener('lines', event => {
      if (source !== this.source) return;
      this.updates += 1;
      this.latest = JSON.parse(event.data);
      this._renderLines();
    });
    source.addEventListener('done', event => {
      if (source !== this.source) return;
      const reason = JSON.parse(event.data).reason;
      const depth = this.latest ? ` at depth ${this.latest.depth}` : '';
      this._close(reason === 'over' ? 'the game is over in this position'
        : reason === 'limit' ? `finished${depth}` : `stopped${depth}`);
    });
    source.addEventListener('error', () => {
      // The stream broke (the server went away): EventSource would reconnect; we do not.
      if (source === this.source) this._close('interrupted: start it again');
    });
  }

  _close(status) {
    if (this.source) this.source.close();
    this.source = null;
    this.running = false;
    if (status) this._status(status);
  }

  _status(text) {
    $('analysis-status').textContent = text;
  }

  _renderLines() {
    const data = this.latest;
    const list = $('analysis-lines');
    list.innerHTML = '';
    for (const line of data.lines) {
      const li = document.createElement('li');
      const score = document.createElement('span');
      score.className = 'score';
      score.textContent = scoreText(line.cp, line.mate);
      const moves = document.createElement('span');
      moves.className = 'line';
      moves.textContent = numbered(data.fen, line.san);
      li.append(score, ' ', moves);
      list.appendChild(li);
    }
    const knps = data.nps ? ` · ${Math.round(data.nps / 1000)} kN/s` : '';
    this._status(`depth ${data.depth}${knps}`);
    const best = data.lines[0];
    this.board.setArrows('analysis', best ? best.arrows.map(([orig, dest]) => ({ orig, dest, brush: 'paleGreen' })) : []);
    this._renderBar();
  }

  _renderBar() {
    const bar = $('eval-bar');
    bar.hidden = false;
    bar.classList.toggle('flipped', this.board.orientation === 'black');
    const best = this.latest && this.latest.lines[0];
    const white = best ? 50 + 50 * chances(best.cp, best.mate) : 50;
    bar.style.setProperty('--white', `${white.toFixed(1)}%`); // CSSOM: allowed by the CSP
    bar.title = best ? `${scoreText(best.cp, best.mate)} (White's view)` : '';
  }

  _renderTried() {
    const box = $('analysis-tried');
    const v = this.view;
    const tried = v.moves.slice(this.base.moves.length).map(m => m.san);
    box.hidden = tried.length === 0;
    if (!tried.length) return;
    $('analysis-tried-moves').textContent = numbered(this.base.at, tried);
  }
}
