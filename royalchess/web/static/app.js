// The page: one game at a time, shown on the board and the panel beside it. Every change
// goes to the server, which saves it and answers with the whole game; the page only shows
// what the server says.

import { api } from './api.js';
import { BoardView, pieceImage } from './board.js';
import { explainAttempt, showCoach } from './coach.js';
import { ClockView } from './clock.js';
import { Analysis } from './analysis.js';
import { Review } from './review.js';

const $ = id => document.getElementById(id);

let state = null; // the game as the server last described it
let viewPly = null; // a ply being looked at in the move list, or null for the live position
let thinking = false; // a computer move is being computed
let search = null; // that request: { id, controller } (aborted when the page leaves the game)
let paused = false; // computer-vs-computer play is paused
let hint = null;

const board = new BoardView($('board'), {
  onMove: playMove,
  onPrompt: showPrompt,
  onIllegal: (from, to) => { if (state && !analysis.on) explainAttempt(state.id, from, to); },
});
// Analysis mode (its own board position, tried moves never reach the game) and the review.
const analysis = new Analysis({ board, onChange: () => render(), onError: text => showMessage(text) });
const review = new Review({
  board, onPick: ply => navigate(ply), onError: text => showMessage(text), onChange: () => render(),
});

// The clocks (shown above and below the board; kept by the server).
const clocks = new ClockView({
  top: $('clock-top'), bottom: $('clock-bottom'), api, reload: () => reloadGame(null),
});

// ---- messages ----------------------------------------------------------------------------

function showMessage(text) {
  showCoach(null);
  const el = $('message');
  el.textContent = text || '';
  el.hidden = !text;
}

function showPrompt(text, onCancel) {
  $('prompt').hidden = !text;
  $('prompt-text').textContent = text || '';
  $('prompt-cancel').onclick = onCancel || null;
}

// ---- state and rendering -----------------------------------------------------------------

function humanSide(s) {
  const humans = ['white', 'black'].filter(c => s[c] === 'human');
  return humans.length === 1 ? humans[0] : null;
}

function playerLabel(s, color) {
  if (s[color] === 'computer') return `computer (level ${s.level})`;
  return s.mode === 'vs-computer' ? 'you' : color === 'white' ? 'White' : 'Black';
}

function humanToMove(s) {
  return !s.finished && s[s.turn] === 'human';
}

function setGame(newState, { fresh = false } = {}) {
  const changed = !state || state.id !== newState.id;
  if (changed) { abandonSearch(); review.reset(); }
  state = newState;
  if (changed || fresh) {
    viewPly = null;
    hint = null;
    board.setOrientation(humanSide(state) === 'black' ? 'black' : 'white');
    localStorage.setItem('royalchess.game', String(state.id));
    history.replaceState(null, '', `#game=${state.id}`);
    $('evaluation').hidden = true;
    syncSettings();
  }
  render();
}

function render() {
  if (!state) return;
  const s = state;
  const live = viewPly === null || viewPly >= s.moves.length;
  if (live) viewPly = null;
  const ply = live ? s.moves.length : viewPly;
  const shown = ply === 0 ? null : s.moves[ply - 1];
  const fen = shown ? shown.fen : s.start_fen;
  const turn = fen.split(' ')[1] === 'w' ? 'white' : 'black';
  const canMove = live && !thinking && humanToMove(s);
  if (!analysis.draw(s, ply)) board.show({
    files: s.files,
    ranks: s.ranks,
    boardFen: shown ? shown.board_fen : live ? s.board_fen : s.start_fen.split(' ')[0].replace(/\*/g, ''),
    queenPowers: shown ? shown.queen_powers : live ? s.queen_powers : [],
    lastMove: shown ? shown.squares.slice(0, 2).concat(shown.squares.slice(2)) : [],
    check: live ? Boolean(s.check) : Boolean(shown && shown.check),
    turn,
    legal: canMove ? s.legal : [],
  });
  board.setHint(live && !analysis.on ? hint : null);
  $('history-banner').hidden = live;
  clocks.update(s, board.orientation);
  renderTitle();
  renderStatus();
  renderMoves(ply);
  review.render(s, ply);
  renderMaterial();
  renderButtons(live);
  if (live && !analysis.on) refreshThreats();
  else { board.setThreats([]); $('threats').hidden = true; }
}

function renderTitle() {
  const s = state;
  let who;
  if (s.mode === 'vs-computer') {
    who = `you (${humanSide(s) === 'white' ? 'White' : 'Black'}) against the computer, level ${s.level}`;
  } else if (s.mode === 'two-players') {
    who = 'two players';
  } else {
    who = `computer against computer, level ${s.level}`;
  }
  const clock = s.clock ? ` · ${s.clock.control.text}` : '';
  $('game-title').textContent = `${s.title} · ${who}${clock} · game ${s.id}`;
}

function renderStatus() {
  const s = state;
  const el = $('status');
  el.classList.toggle('over', s.finished);
  if (s.finished) {
    el.textContent = `${s.reason}. ${s.result}`;
    return;
  }
  const side = s.turn === 'white' ? 'White' : 'Black';
  let text = s.mode === 'vs-computer' && s[s.turn] === 'human' ? `Your move (${side})` : `${side} to move`;
  if (s.check) text += ' — check!';
  if (s.can_claim_draw) text += ' · a draw can be claimed';
  el.textContent = text;
  if (thinking) {
    const span = document.createElement('span');
    span.className = 'thinking';
    span.textContent = ' · the computer is thinking…';
    el.appendChild(span);
  }
}

function renderMoves(ply) {
  const list = $('moves');
  list.innerHTML = '';
  const s = state;
  const add = (cls, text, target) => {
    const li = document.createElement('li');
    li.className = cls;
    li.textContent = text;
    if (target !== undefined) {
      li.dataset.ply = String(target);
      li.addEventListener('click', () => navigate(target));
      if (target === ply) li.classList.add('current');
    }
    list.appendChild(li);
    return li;
  };
  s.moves.forEach((m, i) => {
    const absolute = s.start_ply + i;
    const black = absolute % 2 === 1;
    const number = Math.floor(absolute / 2) + 1;
    if (!black) add('num', `${number}.`);
    else if (i === 0) { add('num', `${number}.`); add('mv empty', '…'); }
    add('mv', m.san, i + 1);
  });
  if (s.finished) add('result', `${s.result} — ${s.reason}`);
  const current = list.querySelector('.current') || list.lastElementChild;
  if (current) current.scrollIntoView({ block: 'nearest' });
}

function renderMaterial() {
  const s = state;
  const bottom = board.orientation;
  const top = bottom === 'white' ? 'black' : 'white';
  for (const [color, el] of [[top, $('material-top')], [bottom, $('material-bottom')]]) {
    el.innerHTML = '';
    const label = document.createElement('strong');
    label.textContent = `${playerLabel(s, color)}`;
    label.style.marginRight = '10px';
    el.appendChild(label);
    for (const letter of s.material[color]) {
      const img = document.createElement('img');
      img.src = pieceImage(color, letter);
      img.alt = letter;
      el.appendChild(img);
    }
    const diff = color === 'white' ? s.material.diff : -s.material.diff;
    if (diff > 0) {
      const span = document.createElement('span');
      span.className = 'points';
      span.textContent = `+${diff}`;
      el.appendChild(span);
    }
  }
}

function renderButtons(live) {
  const s = state;
  const idle = !thinking;
  $('btn-takeback').disabled = !idle || s.moves.length === 0 || s.mode === 'computer-vs-computer';
  $('btn-hint').disabled = !idle || !live || s.finished;
  $('btn-eval').disabled = !idle || !live || s.finished;
  $('btn-draw').disabled = !idle || s.finished || !s.can_claim_draw;
  $('btn-resign').disabled = !idle || s.finished || s.mode === 'computer-vs-computer';
  $('btn-computer').disabled = !idle || !live || s.finished;
  $('btn-pause').hidden = s.mode !== 'computer-vs-computer' || s.finished;
  $('btn-pause').textContent = paused ? 'Resume' : 'Pause';
  $('entry-text').disabled = !live || s.finished || !humanToMove(s);
  $('btn-analysis').textContent = analysis.on ? 'Stop analysis' : 'Analysis';
  $('btn-analysis').setAttribute('aria-pressed', String(analysis.on));
  $('btn-review').disabled = s.moves.length === 0;
}

let threatRequest = 0;
async function refreshThreats() {
  const box = $('threats');
  const s = state;
  const mine = s.mode === 'vs-computer' ? humanToMove(s) : !s.finished && s.mode === 'two-players';
  if (!$('opt-threats').checked || !mine || thinking) {
    box.hidden = true;
    board.setThreats([]);
    return;
  }
  const ticket = ++threatRequest;
  try {
    const t = await api.threats(s.id);
    if (ticket !== threatRequest || state !== s) return;
    board.setThreats(t.hanging);
    box.hidden = t.hanging.length === 0;
    box.textContent = t.hanging.length
      ? 'Hanging: ' + t.hanging.map(h => `${pieceName(h.piece)} on ${h.square}`).join(', ')
      : '';
  } catch (err) {
    box.hidden = true;
  }
}

function pieceName(letter) {
  return { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king', g: "Queen's Guard", w: "King's Guard" }[letter[0].toLowerCase()];
}

// ---- actions -------------------------------------------------------------------------------

// Every change is sent with the ply of the game as shown; a 409 answer means the game is not
// as shown (changed in another tab, window or the terminal, or over): show it as saved.
async function reloadGame(message) {
  if (state) {
    try {
      setGame(await api.get(state.id));
    } catch (err) {
      // deleted meanwhile: keep showing it, with the message
    }
  }
  showMessage(message);
  render();
}

async function act(request) {
  showMessage(null);
  try {
    const next = await request();
    if (next && next.id !== undefined) setGame(next);
    return next;
  } catch (err) {
    if (err.status === 409) await reloadGame(err.message);
    else {
      showMessage(err.message);
      render();
    }
    return null;
  }
}

async function playMove(text) {
  if (analysis.on) { analysis.tryMove(text); return null; } // the analysis board's move
  if (text === null || text === undefined) { render(); return; } // cancelled: show the position again
  hint = null;
  const next = await act(() => api.move(state, text));
  if (next) await computerTurns();
  return next;
}

function abandonSearch() {
  // the server stops a search whose request goes away
  if (search) search.controller.abort();
  search = null;
  thinking = false;
}

// Ask the server for the computer's move in the game as shown; returns true when the game
// moved on (by this move, or elsewhere: the page then shows it as saved).
async function askComputer({ forHuman = false } = {}) {
  const asked = state;
  const mine = { id: asked.id, controller: new AbortController() };
  search = mine;
  thinking = true;
  render();
  let next;
  try {
    next = await api.computerMove(asked, { forHuman, signal: mine.controller.signal });
  } catch (err) {
    if (search !== mine) return false; // abandoned: the page left this game
    search = null;
    thinking = false;
    if (err.status !== 409) {
      showMessage(err.message);
      render();
      return false;
    }
    await reloadGame(err.message);
    return Boolean(state && state.id === asked.id && state.ply !== asked.ply);
  }
  if (search !== mine) return false;
  search = null;
  thinking = false;
  setGame(next);
  return true;
}

async function computerTurns() {
  while (state && state.computer_to_move && !state.finished && !thinking) {
    if (state.mode === 'computer-vs-computer' && paused) return;
    if (!(await askComputer())) return;
    if (state.mode === 'computer-vs-computer') await new Promise(r => setTimeout(r, 400));
  }
}

function navigate(ply) {
  if (!state) return;
  const last = state.moves.length;
  viewPly = Math.max(0, Math.min(ply, last));
  if (viewPly === last) viewPly = null;
  render();
}

async function loadGame(id) {
  const s = await api.get(id);
  setGame(s, { fresh: true });
  computerTurns();
  return s;
}

function syncSettings() {
  $('set-mode').value = state.mode;
  $('set-color').value = humanSide(state) || 'white';
  $('set-level').value = String(state.level);
}

// ---- controls ------------------------------------------------------------------------------

$('btn-flip').addEventListener('click', () => { board.flip(); render(); });
$('btn-analysis').addEventListener('click', () => { if (state) analysis.toggle(); });
$('btn-analysis-back').addEventListener('click', () => analysis.backToGame());
$('btn-review').addEventListener('click', () => { if (state) { showMessage(null); review.start(state); } });
$('btn-live').addEventListener('click', () => navigate(Infinity));
$('btn-takeback').addEventListener('click', async () => {
  hint = null;
  await act(() => api.takeback(state));
  computerTurns();
});
$('btn-hint').addEventListener('click', async () => {
  showMessage(null);
  $('btn-hint').disabled = true;
  try {
    hint = await api.hint(state.id);
    board.setHint(hint);
    $('evaluation').hidden = false;
    $('evaluation').textContent = `Hint: ${hint.san}`;
  } catch (err) {
    showMessage(err.message);
  } finally {
    $('btn-hint').disabled = false;
  }
});
$('btn-eval').addEventListener('click', async () => {
  showMessage(null);
  $('btn-eval').disabled = true;
  try {
    const e = await api.evaluation(state.id);
    let score;
    if (e.mate !== null && e.mate !== undefined) score = `${e.mate > 0 ? 'White' : 'Black'} mates in ${Math.abs(e.mate)}`;
    else score = `${e.cp >= 0 ? '+' : ''}${(e.cp / 100).toFixed(2)} (White's view)`;
    $('evaluation').hidden = false;
    $('evaluation').textContent = `Evaluation: ${score}${e.depth ? `, depth ${e.depth}` : ''}${e.pv && e.pv.length ? ` · ${e.pv.slice(0, 8).join(' ')}` : ''}`;
  } catch (err) {
    showMessage(err.message);
  } finally {
    $('btn-eval').disabled = false;
  }
});
$('btn-resign').addEventListener('click', async () => {
  if (!confirm('Resign this game?')) return;
  await act(() => api.resign(state));
});
$('btn-draw').addEventListener('click', () => act(() => api.claimDraw(state)));
$('btn-computer').addEventListener('click', async () => {
  if (thinking || !state) return;
  showMessage(null);
  // On a person's turn the computer plays their move, as asked (for_human); then its own.
  if (await askComputer({ forHuman: state[state.turn] === 'human' })) computerTurns();
});
$('btn-pause').addEventListener('click', () => {
  paused = !paused;
  render();
  if (!paused) computerTurns();
});
$('opt-threats').addEventListener('change', () => refreshThreats());
$('btn-apply').addEventListener('click', async () => {
  const next = await act(() => api.settings(state, {
    mode: $('set-mode').value, color: $('set-color').value, level: Number($('set-level').value),
  }));
  if (next) { syncSettings(); computerTurns(); }
});

$('entry').addEventListener('submit', async event => {
  event.preventDefault();
  const input = $('entry-text');
  const text = input.value.trim();
  if (!text || !state) return;
  const next = await playMove(text);
  if (next) input.value = '';
});

document.querySelectorAll('#moves-nav button').forEach(button => {
  button.addEventListener('click', () => {
    const current = viewPly === null ? state.moves.length : viewPly;
    const target = { first: 0, prev: current - 1, next: current + 1, last: Infinity }[button.dataset.nav];
    navigate(target);
  });
});

document.addEventListener('keydown', event => {
  if (!state || event.target.closest('input, textarea, select, dialog')) return;
  const current = viewPly === null ? state.moves.length : viewPly;
  if (event.key === 'ArrowLeft') navigate(current - 1);
  else if (event.key === 'ArrowRight') navigate(current + 1);
  else if (event.key === 'Home') navigate(0);
  else if (event.key === 'End') navigate(Infinity);
  else return;
  event.preventDefault();
});

// ---- dialogs ------------------------------------------------------------------------------

document.querySelectorAll('dialog [data-close]').forEach(button => {
  button.addEventListener('click', () => button.closest('dialog').close());
});

const formNew = $('form-new');
formNew.elements.clock.addEventListener('change', () => {
  $('clock-custom').hidden = formNew.elements.clock.value !== 'custom';
});
formNew.elements.level.addEventListener('input', () => {
  formNew.elements['level-out'].value = formNew.elements.level.value;
});
$('btn-new').addEventListener('click', () => {
  formNew.querySelector('.dialog-error').hidden = true;
  $('dlg-new').showModal();
});
formNew.addEventListener('submit', async event => {
  event.preventDefault();
  const f = formNew.elements;
  const options = {
    variant: f.variant.value,
    mode: f.mode.value,
    color: f.color.value,
    level: Number(f.level.value),
  };
  const clock = f.clock.value === 'custom'
    ? `${f['clock-minutes'].value || 0}+${f['clock-increment'].value || 0}` : f.clock.value;
  if (clock) options.clock = clock;
  const setup = f.setup.value.trim();
  if (setup) {
    if (setup.includes(',') || /^[BW]M/m.test(setup)) options.record = setup;
    else { options.fen = setup; options.variant = 'auto'; }
  }
  const error = formNew.querySelector('.dialog-error');
  try {
    const s = await api.create(options);
    error.hidden = true;
    f.setup.value = '';
    $('dlg-new').close();
    paused = false;
    showMessage(null);
    setGame(s, { fresh: true });
    computerTurns();
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
  }
});

async function showGames() {
  const status = document.querySelector('input[name="games-status"]:checked').value;
  const tbody = $('games-table').querySelector('tbody');
  tbody.innerHTML = '';
  let games = [];
  try {
    games = (await api.list(status)).games;
  } catch (err) {
    showMessage(err.message);
  }
  for (const g of games) {
    const tr = document.createElement('tr');
    const who = c => (g[c] === 'computer' ? `computer ${g.level}` : 'human');
    const cells = [
      g.id,
      (g.variant === 'royal' ? 'Royal Chess' : 'Chess') + (g.clock ? ` · ${g.clock}` : ''),
      `${who('white')} – ${who('black')}`,
      Math.ceil(g.plies / 2),
      g.finished ? `${g.result} ${g.reason}` : 'unfinished',
      new Date(g.updated * 1000).toLocaleString(),
    ];
    for (const c of cells) {
      const td = document.createElement('td');
      td.textContent = String(c);
      tr.appendChild(td);
    }
    const td = document.createElement('td');
    const open = document.createElement('button');
    open.type = 'button';
    open.textContent = g.finished ? 'View' : 'Resume';
    open.dataset.game = String(g.id);
    open.addEventListener('click', async () => {
      $('dlg-games').close();
      paused = false;
      await act(() => loadGame(g.id));
    });
    const del = document.createElement('button');
    del.type = 'button';
    del.textContent = 'Delete';
    del.addEventListener('click', async () => {
      if (!confirm(`Delete game ${g.id}?`)) return;
      try { await api.remove(g.id); } catch (err) { showMessage(err.message); }
      showGames();
    });
    td.append(open, ' ', del);
    tr.appendChild(td);
    tbody.appendChild(tr);
  }
  if (!games.length) {
    const tr = document.createElement('tr');
    tr.innerHTML = '<td colspan="7">No games here yet.</td>';
    tbody.appendChild(tr);
  }
}
$('btn-games').addEventListener('click', () => { showGames(); $('dlg-games').showModal(); });
document.querySelectorAll('input[name="games-status"]').forEach(r => r.addEventListener('change', showGames));

$('btn-pgn').addEventListener('click', () => {
  if (state) $('pgn-download').href = api.pgnUrl(state.id);
  $('pgn-download').hidden = !state;
  $('position-text').hidden = true;
  $('form-import').querySelector('.dialog-error').hidden = true;
  $('dlg-pgn').showModal();
});
$('btn-record').addEventListener('click', async () => {
  try {
    const r = await api.record(state.id);
    $('position-text').textContent = r.fen + (r.record ? `\n\n${r.record}` : '');
    $('position-text').hidden = false;
  } catch (err) {
    showMessage(err.message);
  }
});
$('form-import').addEventListener('submit', async event => {
  event.preventDefault();
  const error = $('form-import').querySelector('.dialog-error');
  try {
    const s = await api.importPgn($('pgn-text').value);
    error.hidden = true;
    $('dlg-pgn').close();
    setGame(s, { fresh: true });
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
  }
});

// ---- start ---------------------------------------------------------------------------------

async function start() {
  // Open the game named in the address, else the last one played here, else the most
  // recently played unfinished game; none: offer a new game. Whatever the player starts in
  // the meantime wins.
  const resume = async id => {
    const s = await api.get(id);
    if (state) return;
    setGame(s, { fresh: true });
    computerTurns();
  };
  const fromHash = /game=(\d+)/.exec(location.hash);
  const candidates = [fromHash && fromHash[1], localStorage.getItem('royalchess.game')].filter(Boolean);
  for (const id of candidates) {
    try {
      await resume(id);
      return;
    } catch (err) {
      // a deleted or unknown game: try the next
    }
  }
  try {
    const unfinished = (await api.list('unfinished')).games;
    if (unfinished.length) {
      await resume(unfinished[0].id);
      return;
    }
  } catch (err) {
    showMessage(err.message);
  }
  if (!state) $('dlg-new').showModal();
}

window.royalchess = { get state() { return state; }, get thinking() { return thinking; }, board, analysis, review };
start();
