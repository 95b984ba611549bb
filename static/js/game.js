// The game page: shows what the server says, and asks it for what the player wants.
import { GameConnection } from "./connection.js";

const root = document.querySelector("[data-game]");
const seat = root.dataset.seat ? Number(root.dataset.seat) : null;
const statusLine = root.querySelector("[data-connection]");
const chatList = root.querySelector("[data-chat-list]");
const chatForm = root.querySelector("[data-chat-form]");
const logList = root.querySelector("[data-log]");
const gameStatus = root.querySelector("[data-game-status]");
const errorLine = root.querySelector("[data-error]");

function appendChat(message) {
  const item = document.createElement("li");
  item.className = `seat-${message.seat}`;
  const author = document.createElement("strong");
  author.textContent = `${message.author}: `;
  item.append(author, document.createTextNode(message.text));
  chatList.append(item);
  chatList.scrollTop = chatList.scrollHeight;
}

function appendLog(event) {
  const item = document.createElement("li");
  item.dataset.sequence = event.sequence;
  const rule = event.rule ? ` (${event.rule})` : "";
  item.textContent = `#${event.sequence} ${event.text || event.kind}${rule}`;
  logList.append(item);
  logList.scrollTop = logList.scrollHeight;
}

const handlers = {
  hello(message) {
    gameStatus.textContent = message.game.status;
    chatList.replaceChildren();
    message.chat.forEach(appendChat);
  },
  events(message) {
    message.events.forEach(appendLog);
  },
  chat(message) {
    appendChat(message.message);
  },
  lobby(message) {
    gameStatus.textContent = message.status;
  },
  error(message) {
    errorLine.textContent = message.message;
    errorLine.dataset.code = message.code;
  },
};

const connection = new GameConnection({
  gameId: root.dataset.game,
  spectatorToken: root.dataset.spectatorToken || null,
  onMessage: (message) => handlers[message.type]?.(message),
  onStatus: (status) => {
    statusLine.textContent = status;
    statusLine.dataset.status = status;
  },
});
connection.open();

if (chatForm && seat) {
  chatForm.addEventListener("submit", (submit) => {
    submit.preventDefault();
    const input = chatForm.querySelector("input");
    if (input.value.trim() && connection.send({ type: "chat", text: input.value })) input.value = "";
  });
}
