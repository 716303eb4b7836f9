// The server's JSON API. Every call returns the parsed body or throws an Error whose
// message is the server's own (it names what was wrong with the request) and whose status is
// the HTTP status (409: the game is not as the page shows it; the page reloads it).
//
// Every change of a game is made from the game state the page shows (`s`) and carries its
// `ply`, the number of moves played: the server refuses it (409) when the game has another
// number of moves now (changed in another tab, window or the terminal).

async function call(method, path, body, signal) {
  const options = { method, headers: {}, credentials: 'same-origin', signal };
  // Every request that changes something is JSON, even without fields: the server takes no
  // other content type on POST/DELETE, as a form or a "simple" cross-site fetch cannot send
  // JSON (another site's fetch with JSON needs a CORS preflight, which this server never grants).
  if (body !== undefined || method !== 'GET') {
    options.headers['Content-Type'] = 'application/json';
    options.body = JSON.stringify(body === undefined ? {} : body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    if (err.name === 'AbortError') throw err; // the page abandoned it (left the game)
    throw new Error(`the server cannot be reached (${err.message})`);
  }
  const type = response.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await response.json() : await response.text();
  if (!response.ok) {
    const message = typeof data === 'object' && data && data.error ? data.error : `HTTP ${response.status}`;
    const error = new Error(message);
    error.status = response.status;
    throw error;
  }
  return data;
}

const game = id => `/api/games/${encodeURIComponent(id)}`;

export const api = {
  info: () => call('GET', '/api/info'),
  list: status => call('GET', `/api/games?status=${encodeURIComponent(status)}`),
  create: options => call('POST', '/api/games', options),
  get: id => call('GET', game(id)),
  remove: id => call('DELETE', game(id)),
  move: (s, move) => call('POST', `${game(s.id)}/move`, { move, ply: s.ply }),
  // forHuman: the human to move asks the computer to play their move ("Computer, move")
  computerMove: (s, { forHuman = false, signal } = {}) =>
    call('POST', `${game(s.id)}/computer-move`, { ply: s.ply, for_human: forHuman }, signal),
  takeback: s => call('POST', `${game(s.id)}/takeback`, { ply: s.ply }),
  hint: id => call('GET', `${game(id)}/hint`),
  evaluation: id => call('GET', `${game(id)}/evaluation`),
  threats: id => call('GET', `${game(id)}/threats`),
  resign: s => call('POST', `${game(s.id)}/resign`, { ply: s.ply }),
  claimDraw: s => call('POST', `${game(s.id)}/claim-draw`, { ply: s.ply }),
  // the clocks now (the server looks at the flag); pausing is sent with keepalive, so that it
  // still goes when the page is being closed
  clock: id => call('GET', `${game(id)}/clock`),
  pause: s => fetch(`${game(s.id)}/pause`, {
    method: 'POST',
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ ply: s.ply }),
  }).catch(() => null),
  settings: (s, options) => call('POST', `${game(s.id)}/settings`, { ...options, ply: s.ply }),
  record: id => call('GET', `${game(id)}/record`),
  pgnUrl: id => `${game(id)}/pgn`,
  importPgn: pgn => call('POST', '/api/import', { pgn }),
};
