// The coach's words on the page: when a click or a drag asks for a move that is not legal,
// the server says why (GET .../explain) and the words show for a few seconds in a small box
// under the board. Not a dialog: the board stays usable, and a new attempt replaces the words.

const SHOW_MS = 8000;
let timer = null;
let asked = 0;

export function showCoach(text) {
  const box = document.getElementById('coach');
  if (!box) return;
  clearTimeout(timer);
  box.textContent = text || '';
  box.hidden = !text;
  if (text) timer = setTimeout(() => { box.hidden = true; }, SHOW_MS);
}

// Ask why the piece on `from` cannot go to `to` in game `gameId`, and show the answer.
export async function explainAttempt(gameId, from, to) {
  const ticket = ++asked; // only the latest attempt's words are shown
  const query = new URLSearchParams({ from, to });
  let text;
  try {
    // A question, not a change: a plain GET (api.js's calls are the game's changes and state).
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/explain?${query}`,
      { credentials: 'same-origin' });
    const data = await response.json();
    text = response.ok ? data.explanation : data.error;
  } catch (err) {
    text = `the coach cannot be reached (${err.message})`;
  }
  if (ticket === asked) showCoach(text);
}
