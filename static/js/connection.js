// The game's websocket: connects, resumes from the last version seen, and reconnects by itself.
// It only carries messages; what they mean is decided by the server.

export class GameConnection {
  constructor({ gameId, spectatorToken = null, onMessage, onStatus }) {
    this.gameId = gameId;
    this.spectatorToken = spectatorToken;
    this.onMessage = onMessage;
    this.onStatus = onStatus || (() => {});
    this.version = 0;
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
      if (event.code === 4403) {
        this.onStatus("refused");
        return;
      }
      this.onStatus("reconnecting");
      setTimeout(() => this.open(), this.retryDelay);
      this.retryDelay = Math.min(this.retryDelay * 2, 8000);
    });
  }

  receive(message) {
    if (message.type === "hello" && message.game.version > this.version) {
      this.send({ type: "sync", since: this.version });
    }
    if (message.type === "events") {
      const fresh = message.events.filter((event) => event.sequence > this.version);
      const gap = fresh.length && fresh[0].sequence !== this.version + 1;
      if (gap) {
        this.send({ type: "sync", since: this.version });
        return;
      }
      if (fresh.length) this.version = fresh[fresh.length - 1].sequence;
      message = { ...message, events: fresh };
    }
    if (message.type === "snapshot") this.version = message.version;
    this.onMessage(message);
  }

  send(message) {
    if (this.socket && this.socket.readyState === WebSocket.OPEN) {
      this.socket.send(JSON.stringify(message));
      return true;
    }
    return false;
  }
}
