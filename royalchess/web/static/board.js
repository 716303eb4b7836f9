// The board: chessgroundx showing the server's position, offering exactly the server's legal
// moves, and turning a drag or click into one move's UCI. No rule is known here: when one
// drag matches several legal moves (promotion kinds, castling choices), the player picks one
// of the server's moves.

import { Chessground } from './vendor/chessgroundx.js';
import { choose } from './choose.js';

const PIECE_NAMES = {
  q: 'Queen', r: 'Rook', b: 'Bishop', n: 'Knight', g: "Queen's Guard", w: "King's Guard",
};
const PROMOTION_ORDER = ['q', 'r', 'b', 'n', 'g', 'w'];

const MINOR_MARK = '<circle cx="50" cy="50" r="31" fill="none" stroke="#1d5fb5" stroke-width="8" opacity="0.9"/>';
const QUEEN_POWERS_MARK =
  '<circle cx="82" cy="18" r="13" fill="#e6b800" stroke="#3b3128" stroke-width="2.5"/>' +
  '<text x="82" y="25" text-anchor="middle" font-size="19" font-weight="700" ' +
  'font-family="sans-serif" fill="#3b3128">Q</text>';
const THREAT_MARK =
  '<circle cx="50" cy="50" r="44" fill="none" stroke="#e0a000" stroke-width="6" stroke-dasharray="10 6"/>' +
  '<circle cx="18" cy="18" r="13" fill="#e0a000"/>' +
  '<text x="18" y="26" text-anchor="middle" font-size="22" font-weight="900" ' +
  'font-family="sans-serif" fill="#fff">!</text>';

export function pieceImage(color, letter) {
  return `static/pieces/${color[0]}${letter.toUpperCase()}.svg`;
}

export class BoardView {
  constructor(element, { onMove, onPrompt, onIllegal }) {
    this.element = element;
    this.onMove = onMove;
    this.onPrompt = onPrompt || (() => {});
    // Called with (from, to) when a click or a drag asks for a move that is not legal.
    this.onIllegal = onIllegal || (() => {});
    this._selected = undefined; // the square selected before the latest click
    // A drop on a square the piece cannot go to fires no chessground event: look at the drag
    // as the button goes up, before chessground ends it (capture phase, on window).
    for (const type of ['mouseup', 'touchend']) window.addEventListener(type, e => this._dropped(e), true);
    this.orientation = 'white';
    this.files = 0;
    this.legal = [];
    this.mode = null; // {kind: 'guard-first', kingFrom, kingTo, moves}
    this.shapes = { guard: [], hint: [], threats: [], powers: [], analysis: [], review: [] };
    this.cg = null;
  }

  _create(files, ranks) {
    if (this.cg) this.cg.destroy();
    this.element.innerHTML = '';
    this.element.classList.toggle('cg-10x8', files === 10);
    this.files = files;
    this.cg = Chessground(this.element, {
      dimensions: { width: files, height: ranks },
      orientation: this.orientation,
      coordinates: true,
      autoCastle: false,
      animation: { enabled: true, duration: 160 },
      highlight: { lastMove: true, check: true },
      premovable: { enabled: false },
      draggable: { enabled: true, showGhost: true },
      selectable: { enabled: true },
      drawable: { enabled: true, visible: true, eraseOnClick: true },
      movable: {
        free: false,
        showDests: true,
        rookCastle: false,
        events: { after: (orig, dest) => this._afterMove(orig, dest) },
      },
      events: {
        select: key => {
          this._clicked(key);
          setTimeout(() => this._markSelection(), 0);
        },
      },
    });
  }

  // Show a position. `position` has: files, ranks, fen, boardFen, lastMove, check, turn,
  // queenPowers, legal (the moves the player may make now; empty for none), movable color.
  show(position) {
    if (!this.cg || this.files !== position.files) this._create(position.files, position.ranks);
    this.legal = position.legal || [];
    this._fenBefore = position.boardFen;
    this._endMode(false);
    this.shapes.guard = [];
    this.shapes.powers = (position.queenPowers || []).map(sq => ({ orig: sq, customSvg: QUEEN_POWERS_MARK }));
    this.cg.set({
      fen: position.boardFen,
      turnColor: position.turn,
      orientation: this.orientation,
      lastMove: position.lastMove && position.lastMove.length ? position.lastMove : undefined,
      check: position.check ? position.turn : false,
      movable: {
        color: this.legal.length ? position.turn : undefined,
        dests: this._dests(this.legal),
      },
    });
    this.cg.selectSquare(null);
    this._draw();
  }

  flip() {
    this.orientation = this.orientation === 'white' ? 'black' : 'white';
    if (this.cg) this.cg.set({ orientation: this.orientation });
  }

  setOrientation(color) {
    this.orientation = color;
    if (this.cg) this.cg.set({ orientation: color });
  }

  setHint(hint) {
    this.shapes.hint = (hint ? hint.arrows : []).map(([orig, dest]) => ({ orig, dest, brush: 'paleBlue' }));
    this._draw();
  }

  // Arrows of the analysis or the review (name: 'analysis' or 'review'): [{orig, dest, brush}].
  setArrows(name, arrows) {
    this.shapes[name] = arrows || [];
    this._draw();
  }

  setThreats(hanging) {
    this.shapes.threats = (hanging || []).map(h => ({ orig: h.square, customSvg: THREAT_MARK }));
    this._draw();
  }

  _draw() {
    if (!this.cg) return;
    const s = this.shapes;
    this.cg.setAutoShapes([...s.powers, ...s.threats, ...s.guard, ...s.hint, ...s.review, ...s.analysis]);
  }

  _dests(moves) {
    const dests = new Map();
    for (const m of moves) {
      const list = dests.get(m.from) || [];
      if (!list.includes(m.to)) list.push(m.to);
      dests.set(m.from, list);
    }
    return dests;
  }

  _isLegal(from, to) {
    // A Royal castling may also be asked for by putting the King on its own Rook.
    return this.legal.some(m => m.from === from && (m.to === to || (m.castling && m.castling.rook_from === to)));
  }

  _pieceAt(key) {
    const s = this.cg.state;
    return (s.boardState ? s.boardState.pieces : s.pieces).get(key);
  }

  // A click on a square after selecting a piece: an illegal move unless the square is one of
  // that piece's destinations or holds another piece of the mover (which it then selects).
  _clicked(key) {
    const before = this._selected;
    this._selected = this.cg.state.selectable.selected;
    if (!key || !before || before === key || this.mode || !this.legal.length || this._isLegal(before, key)) return;
    const piece = this._pieceAt(key);
    if (piece && piece.color === this.cg.state.turnColor) return;
    this.onIllegal(before, key);
  }

  _dropped(event) {
    const drag = this.cg && this.cg.state.draggable.current;
    if (!drag || !drag.started || !drag.orig || this.mode || !this.legal.length) return;
    const point = event.changedTouches ? event.changedTouches[0] : event;
    const key = this.cg.getKeyAtDomPos([point.clientX, point.clientY]);
    if (key && key !== drag.orig && !this._isLegal(drag.orig, key)) this.onIllegal(drag.orig, key);
  }

  // Mark a selected Guard's minor targets (its major ones keep the plain dots).
  _markSelection() {
    if (!this.cg) return;
    const selected = this.cg.state.selectable.selected;
    let marks = [];
    if (typeof selected === 'string') {
      let moves;
      if (this.mode) moves = this.mode.moves.filter(m => m.guard.from === selected)
        .map(m => ({ to: m.guard.to, kind: m.guard_kind }));
      else moves = this.legal.filter(m => m.from === selected && !m.castling && m.guard_kind)
        .map(m => ({ to: m.to, kind: m.guard_kind }));
      marks = moves.filter(m => m.kind === 'minor').map(m => ({ orig: m.to, customSvg: MINOR_MARK }));
      const legend = document.getElementById('guard-legend');
      if (legend) legend.hidden = moves.length === 0;
    } else {
      const legend = document.getElementById('guard-legend');
      if (legend) legend.hidden = true;
    }
    this.shapes.guard = marks;
    this._draw();
  }

  async _afterMove(orig, dest) {
    this.shapes.guard = [];
    this.shapes.hint = [];
    const legend = document.getElementById('guard-legend');
    if (legend) legend.hidden = true;
    if (this.mode) {
      const move = this.mode.moves.find(m => m.guard.from === orig && m.guard.to === dest);
      this._endMode(false);
      if (move) this.onMove(move.uci);
      else this.onMove(null);
      return;
    }
    const candidates = this.legal.filter(m => m.from === orig && m.to === dest);
    if (candidates.length === 0) return this.onMove(null);
    if (candidates.length === 1) return this.onMove(candidates[0].uci);
    if (candidates.every(m => m.promotion)) return this._choosePromotion(candidates);
    return this._chooseCastling(candidates, orig, dest);
  }

  async _choosePromotion(candidates) {
    const color = this.cg.state.turnColor === 'white' ? 'black' : 'white'; // chessground flipped it
    const sorted = [...candidates].sort((a, b) =>
      PROMOTION_ORDER.indexOf(a.promotion) - PROMOTION_ORDER.indexOf(b.promotion) || (a.waived - b.waived));
    const options = sorted.map(m => {
      let label = PIECE_NAMES[m.promotion];
      if (m.promotion === 'g' || m.promotion === 'w') {
        label += m.waived ? ' (queen powers waived)' : ' with queen powers';
      }
      return { value: m.uci, label, image: pieceImage(color, m.promotion), id: `promote-${m.promotion}${m.waived ? '-waived' : ''}` };
    });
    const uci = await choose('Promote to', options);
    this.onMove(uci);
  }

  async _chooseCastling(candidates, orig, dest) {
    const plain = candidates.filter(m => !m.castling);
    const castle = candidates.filter(m => m.castling && !m.guard);
    const guardFirst = candidates.filter(m => m.castling && m.guard);
    const options = [];
    for (const m of plain) options.push({ value: m.uci, label: `King to ${dest} (${m.san})`, id: 'king-step' });
    for (const m of castle) {
      options.push({ value: m.uci, label: `Castle ${m.san}: King to ${dest}, Rook to ${m.castling.rook_to}`, id: 'castle' });
    }
    if (guardFirst.length) {
      options.push({ value: 'guard-first', label: `Castle with a Guard move first (King to ${dest})`, id: 'castle-guard-first' });
    }
    let choice = options.length === 1 && guardFirst.length ? 'guard-first' : await choose('Which move?', options);
    if (choice !== 'guard-first') return this.onMove(choice);
    this._startGuardFirst(orig, dest, guardFirst);
  }

  // Castling with a Guard move first: the board goes back to the position and offers only
  // the Guard moves that belong to castling with the King on the chosen square.
  _startGuardFirst(kingFrom, kingTo, moves) {
    this.mode = { kind: 'guard-first', kingFrom, kingTo, moves };
    const dests = new Map();
    for (const m of moves) {
      const list = dests.get(m.guard.from) || [];
      if (!list.includes(m.guard.to)) list.push(m.guard.to);
      dests.set(m.guard.from, list);
    }
    const turn = this.cg.state.turnColor === 'white' ? 'black' : 'white';
    this.cg.set({ fen: this._fenBefore, turnColor: turn, movable: { color: turn, dests } });
    const side = moves[0].castling.side === 'king' ? 'O-O' : 'O-O-O';
    this.onPrompt(`Castling ${side} with the King to ${kingTo}: now move the Guard that goes first.`,
      () => this.cancelMode());
    this.shapes.hint = [{ orig: kingFrom, dest: kingTo, brush: 'paleGreen' }];
    this._draw();
  }

  cancelMode() {
    if (!this.mode) return;
    this._endMode(true);
    this.onMove(null);
  }

  _endMode(announce) {
    if (this.mode || announce) this.onPrompt(null);
    this.mode = null;
  }
}
