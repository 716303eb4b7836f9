// The game's clocks on the page. The server keeps them (royalchess/clock.py): each game state
// carries both times left and which clock runs; between two answers the page counts the
// running clock down by itself, and it asks the server again
//   - every few seconds while the page is shown (a sign of life: a game nobody looks at
//     stops its clock by itself, see PAUSE_AFTER on the server),
//   - at once when its shown clock reaches zero (the server decides whether the flag fell),
// and it pauses the clock when the page is hidden or closed (as a chess computer switched
// off); showing the page again reloads the game, which starts the clock again.

const POLL_MS = 10000;

function format(seconds) {
  seconds = Math.max(0, seconds);
  if (seconds < 10) return `0:${(Math.floor(seconds * 10) / 10).toFixed(1).padStart(4, '0')}`;
  const whole = Math.floor(seconds);
  const h = Math.floor(whole / 3600), m = Math.floor((whole % 3600) / 60), s = whole % 60;
  const mm = h ? String(m).padStart(2, '0') : String(m);
  return `${h ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

export class ClockView {
  // top, bottom: the elements above and below the board; reload(): fetch and show the game
  // again (it changed: a flag fell, a move was made elsewhere); api: the server's API.
  constructor({ top, bottom, reload, api }) {
    this.els = { top, bottom };
    this.reload = reload;
    this.api = api;
    this.state = null; // the game state as last shown
    this.from = null; // the state's own clock object: a new one is a new answer of the server
    this.clock = null; // the server's latest times (from the state or from a look since)
    this.received = 0; // performance.now() when those times were read
    this.asked = false; // a look at the server is on its way
    this.timer = setInterval(() => this.tick(), 100);
    this.poll = setInterval(() => this.look(), POLL_MS);
    const away = () => this.pause();
    window.addEventListener('pagehide', away);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'hidden') away();
      else if (this.state && this.state.clock && !this.state.finished) this.reload();
    });
  }

  // Show the game state *s* (as the server sent it) with the board turned to *orientation*.
  update(s, orientation) {
    if (!s || s.clock !== this.from) { // drawn again with the same state: times go on counting
      this.from = s ? s.clock : null;
      this.clock = this.from;
      this.received = performance.now();
    }
    this.state = s;
    this.orientation = orientation;
    const on = Boolean(s && s.clock);
    for (const el of Object.values(this.els)) el.hidden = !on;
    this.draw();
  }

  // Seconds left of *color* now, as shown (the running clock counts down since the answer).
  left(color) {
    const c = this.clock;
    const run = c.running === color && !c.paused;
    return c[color] - (run ? (performance.now() - this.received) / 1000 : 0);
  }

  draw() {
    const s = this.state, c = this.clock;
    if (!s || !c) return;
    const bottom = this.orientation === 'black' ? 'black' : 'white';
    const sides = { bottom, top: bottom === 'white' ? 'black' : 'white' };
    for (const [place, color] of Object.entries(sides)) {
      const el = this.els[place];
      const left = this.left(color);
      el.dataset.color = color;
      el.textContent = `${color === 'white' ? 'White' : 'Black'} ${format(left)}`;
      el.classList.toggle('running', c.running === color && !c.paused);
      el.classList.toggle('low', left < 10);
      el.classList.toggle('flagged', left <= 0);
    }
  }

  tick() {
    const s = this.state;
    if (!s || !s.clock || s.finished) return;
    this.draw();
    const run = this.clock.running;
    if (run && !this.clock.paused && this.left(run) <= 0) this.look(); // did the flag fall?
  }

  // Ask the server about the clocks: reload the game when it is not as shown any more.
  async look() {
    const s = this.state;
    if (!s || !s.clock || s.finished || this.asked || document.visibilityState === 'hidden') return;
    this.asked = true;
    try {
      const now = await this.api.clock(s.id);
      if (this.state !== s) return; // another game, or a newer state, meanwhile
      if (now.ply !== s.ply || now.finished !== s.finished) await this.reload();
      else {
        this.clock = now.clock;
        this.received = performance.now();
        this.draw();
      }
    } catch (err) {
      // the server cannot be reached: keep counting; the next look tries again
    } finally {
      this.asked = false;
    }
  }

  // Stop the clock of the game shown (the page goes away); sent so that it outlives the page.
  pause() {
    const s = this.state;
    if (!s || !s.clock || s.finished) return;
    this.api.pause(s);
  }
}
