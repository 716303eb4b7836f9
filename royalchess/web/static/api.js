// The server's JSON API. Every call returns the parsed body or throws an Error whose
// message is the server's own (it names what was wrong with the request).

async function call(method, path, body) {
  const options = { method, headers: {}, credentials: 'same-origin' };
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
  move: (id, move) => call('POST', `${game(id)}/move`, { move }),
  computerMove: id => call('POST', `${game(id)}/computer-move`, {}),
  takeback: id => call('POST', `${game(id)}/takeback`, {}),
  hint: id => call('GET', `${game(id)}/hint`),
  evaluation: id => call('GET', `${game(id)}/evaluation`),
  threats: id => call('GET', `${game(id)}/threats`),
  resign: id => call('POST', `${game(id)}/resign`, {}),
  claimDraw: id => call('POST', `${game(id)}/claim-draw`, {}),
  settings: (id, options) => call('POST', `${game(id)}/settings`, options),
  record: id => call('GET', `${game(id)}/record`),
  pgnUrl: id => `${game(id)}/pgn`,
  importPgn: pgn => call('POST', '/api/import', { pgn }),
};
