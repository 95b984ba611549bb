// The game's history in the log and the dice tray: every event from the first, once.
//
// Live events (the socket) and the history (read from the event log over HTTP, in pages) go
// through the same `show` function, in order of their sequence numbers. While the history loads
// the live events wait in a queue, so a line never appears before the ones that came earlier.
// Between pages the page is given back to the browser, so a long game never freezes it.

export class EventFeed {
  constructor({ url, spectatorToken = null, show, state, pageSize = 200, onProgress = () => {} }) {
    this.url = url;
    this.spectatorToken = spectatorToken;
    this.show = show; // (events, state) => draws them in the log and the dice tray
    this.state = state; // () => the newest state, whose names the lines use
    this.pageSize = pageSize;
    this.onProgress = onProgress; // (shown, target) while loading, (shown, shown) when done
    this.shown = 0; // the sequence of the last event shown
    this.target = 0;
    this.queue = [];
    this.loading = null;
  }

  // Events from the socket, in order; a gap (e.g. after a snapshot) is read from the log first.
  live(events, state) {
    const numbered = events.filter((event) => Number.isInteger(event.sequence));
    if (this.loading) {
      this.queue.push(...numbered);
      return;
    }
    const fresh = numbered.filter((event) => event.sequence > this.shown);
    if (!fresh.length) return;
    if (fresh[0].sequence > this.shown + 1) {
      this.queue.push(...fresh);
      this.catchUp(fresh[0].sequence - 1);
      return;
    }
    this.draw(fresh, state);
  }

  // Everything up to `version` (the hello's, or a snapshot's) that is not shown yet.
  catchUp(version) {
    this.target = Math.max(this.target, version);
    if (this.loading) return this.loading;
    if (this.target <= this.shown) {
      this.onProgress(this.shown, this.shown);
      return Promise.resolve();
    }
    this.loading = this.load().catch((error) => console.warn("history not loaded:", error)).finally(() => {
      this.loading = null;
      const queued = this.queue.sort((a, b) => a.sequence - b.sequence);
      this.queue = [];
      if (queued.length) this.live(queued, this.state());
      this.onProgress(this.shown, this.shown);
    });
    return this.loading;
  }

  draw(events, state) {
    const fresh = events.filter((event) => event.sequence > this.shown);
    if (!fresh.length) return;
    this.show(fresh, state);
    this.shown = fresh[fresh.length - 1].sequence;
  }

  async load() {
    let failures = 0;
    while (this.shown < this.target) {
      let page;
      try {
        page = await this.fetchPage(this.shown);
      } catch (error) {
        failures += 1;
        if (failures > 3) throw error;
        await pause(1000 * failures);
        continue;
      }
      if (!page.events.length) break;
      this.draw(page.events, this.state());
      this.onProgress(this.shown, this.target);
      if (page.next === null) break;
      await pause(0); // let the browser draw and answer between pages
    }
  }

  async fetchPage(since) {
    const query = new URLSearchParams({ since: String(since), limit: String(this.pageSize) });
    if (this.spectatorToken) query.set("spectate", this.spectatorToken);
    const response = await fetch(`${this.url}?${query}`, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`the event log answered ${response.status}`);
    return response.json();
  }
}

function pause(milliseconds) {
  return new Promise((resolve) => setTimeout(resolve, milliseconds));
}
