// The countdown of the stratagem window on the clock: the server sends `window`
// ({decision, deadline}) with hello, events, snapshots and lobby messages; the page counts down
// to the deadline and names the player who decides. When the time is up the server passes the
// window by itself (games/window_clock.py); the page only shows the time left.

export class WindowClock {
  constructor(element) {
    this.element = element;
    this.window = null;
    this.timer = null;
  }

  // `names`: player number -> name, from the game the server described.
  set(window, state, names = {}) {
    this.window = window || null;
    clearInterval(this.timer);
    this.timer = null;
    if (!this.element) return;
    if (!this.window) {
      this.element.hidden = true;
      delete this.element.dataset.decision;
      return;
    }
    const decision = (state?.pending || []).find((d) => d.id === this.window.decision);
    const player = decision?.player;
    const who = this.element.querySelector("[data-clock-player]");
    if (who) who.textContent = (player && names[String(player)]) || (player ? `P${player}` : "");
    this.element.dataset.decision = this.window.decision;
    this.element.dataset.deadline = this.window.deadline;
    this.element.hidden = false;
    this.tick();
    this.timer = setInterval(() => this.tick(), 250);
  }

  secondsLeft() {
    if (!this.window) return null;
    return Math.max(0, Math.ceil((Date.parse(this.window.deadline) - Date.now()) / 1000));
  }

  tick() {
    const left = this.secondsLeft();
    const seconds = this.element.querySelector("[data-clock-seconds]");
    if (seconds) seconds.textContent = String(left);
    this.element.dataset.secondsLeft = String(left);
    this.element.classList.toggle("urgent", left !== null && left <= 5);
  }
}
