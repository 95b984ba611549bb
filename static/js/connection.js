// The game's websocket: connects, resumes from the last version seen, and reconnects by itself.
// It only carries messages; what they mean is decided by the server. It keeps the public state:
// `hello`, `snapshot` and the answer to `sync` carry it whole, a broadcast `events` carries the
// patch from the state at `since` (docs/protocol.md); the page is handed the state either way.
import { applyPatch } from "./json_patch.js";

export class GameConnection {
  constructor({ gameId, spectatorToken = null, onMessage, onStatus, loadsHistory = false }) {
    this.gameId = gameId;
    // The page reads the history it never saw from the event log (history.js): a first hello
    // moves straight to the server's version instead of asking for every event with `sync`.
    this.loadsHistory = loadsHistory;
    this.spectatorToken = spectatorToken;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.version = 0; // the last event seen
    this.state = null; // the public state at stateVersion
    this.stateVersion = -1;
    this.awaitingState = false;
    this.retryDelay = 500;
    this.socket = null;
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const query = this.spectatorToken ? `?spectate=${encodeURIComponent(this.spectatorToken)}` : "";
    return `${scheme}://${window.location.host}/ws/games/${this.gameId}/${query}`;
  }

  open() {
    this.onStatus("connecting");
    const socket = new WebSocket(this.url());
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.retryDelay = 500;
      this.onStatus("connected");
    });
    socket.addEventListener("message", (frame) => this.receive(JSON.parse(frame.data)));
    socket.addEventListener("close", (event) => {
      // 4403: refused or the spectator link revoked; 4404: no such game. The server sent an
      // `error` saying why just before; reconnecting would only be refused again.
      if (event.code === 4403 || event.code === 4404) {
        this.onStatus("refused", event.reason);
        return;
      }
      this.onStatus("reconnecting");
      setTimeout(() => this.open(), this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, 8000);
    });
  }

  receive(message) {
    if (message.type === "hello") {
      this.takeState(message);
      if (message.game.version > this.version) {
        if (this.loadsHistory && this.version === 0) this.version = message.game.version;
        else this.send({ type: "sync", since: this.version });
      }
    }
    if (message.type === "events") {
      message = this.withState(message);
      const numbered = message.events.every((event) => Number.isInteger(event.sequence));
      const fresh = numbered ? message.events.filter((event) => event.sequence > this.version) : message.events;
      const first = numbered && fresh.length ? fresh[0].sequence - 1 : message.since;
      const gap = first !== undefined && first > this.version && (fresh.length || !numbered);
      if (gap) {
        // The missed events come with the answer to `sync`; the state is already the newest.
        this.send({ type: "sync", since: this.version });
        if (message.state) this.onMessage({ ...message, events: [] });
        return;
      }
      const stale = !fresh.length && Number.isInteger(message.version) && message.version < this.version;
      if (numbered && fresh.length) this.version = fresh[fresh.length - 1].sequence;
      if (Number.isInteger(message.version) && message.version > this.version) this.version = message.version;
      // A state older than what was applied is dropped; events already seen are not shown twice.
      message = { ...message, events: fresh };
      if (stale) {
        delete message.state;
        delete message.legal_actions;
      }
    }
    if (message.type === "snapshot") {
      this.takeState(message);
      this.version = message.version;
    }
    this.onMessage(message);
  }

  takeState(message) {
    this.state = message.state;
    this.stateVersion = message.version;
    this.awaitingState = false;
  }

  // The message with the state after it: taken whole, or the patch applied when it starts from
  // the state held; otherwise (a gap, a patch that does not fit) the whole state is asked for.
  withState(message) {
    if ("state" in message) {
      if (message.version >= this.stateVersion) {
        this.takeState(message);
        return message;
      }
      const { state, legal_actions, ...older } = message; // newer ones were applied meanwhile
      return older;
    }
    if (!message.patch) return message;
    const { patch, ...rest } = message;
    if (message.version <= this.stateVersion) return rest;
    if (message.since === this.stateVersion) {
      try {
        this.state = applyPatch(this.state, patch);
        this.stateVersion = message.version;
        return { ...rest, state: this.state };
      } catch (error) {
        console.warn("state patch not applied; asking for the whole state", error);
      }
    }
    this.askForState();
    delete rest.legal_actions; // they belong to a state this page does not have yet
    return rest;
  }

  askForState() {
    if (this.awaitingState) return;
    if (this.send({ type: "sync", since: this.version })) this.awaitingState = true;
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }
}
