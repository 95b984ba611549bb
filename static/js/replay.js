// The replay viewer: step through a game's log event by event or action by action, with the
// board, the log and the dice as they were. Read-only: it never sends anything to the game.
// The events come from the event log (history.js); the state after each action from the server,
// which replays the engine deterministically (games/replays.py).
import { Board } from "./board.js";
import { PanZoom } from "./pan_zoom.js";
import { DiceTray } from "./dice_tray.js";
import { GameLog } from "./log.js";
import { renderTracker } from "./tracker.js";
import { EventFeed } from "./history.js";
import { setPlayerNames, useServerNames } from "./describe.js";

const root = document.querySelector("[data-replay]");
const $ = (selector) => root.querySelector(selector);
const token = root.dataset.spectatorToken || null;
// The players' names as the game record gives them (`data-player-1`: a dataset key that starts
// with a digit after the dash is not camel-cased, so it is read by its attribute name).
const players = { 1: root.getAttribute("data-player-1") || "", 2: root.getAttribute("data-player-2") || "" };
setPlayerNames(players);
const board = new Board($("[data-board]"));
const panZoom = new PanZoom(board.svg, { isEmptyTable: () => true });
const logList = $("[data-log]");
const trayBox = $("[data-dice-tray]");

const replay = {
  events: [],
  position: 0, // how many events are shown
  shown: 0, // how many are drawn in the log and the tray
  starts: [], // the positions at which an action (or a concession) begins
  states: new Map(), // version -> state after the actions begun by then
  state: null,
  fitted: false,
  log: new GameLog(logList),
  tray: new DiceTray(trayBox),
};

function isActionStart(event) {
  return event.kind === "action_applied" || event.kind === "game_conceded";
}

// The version whose state the board shows: the last action begun at or before the position.
function stateVersion(position) {
  let version = 0;
  for (const start of replay.starts) {
    if (start < position) version = replay.events[start].sequence;
    else break;
  }
  return version;
}

async function stateAt(version) {
  if (!replay.states.has(version)) {
    const query = new URLSearchParams({ version: String(version) });
    if (token) query.set("spectate", token);
    const response = await fetch(`${root.dataset.stateUrl}?${query}`, { credentials: "same-origin" });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.message);
    replay.states.set(version, answer.state);
  }
  return replay.states.get(version);
}

function drawEvents(position, state) {
  if (position < replay.shown) {
    logList.replaceChildren();
    trayBox.replaceChildren();
    replay.tray = new DiceTray(trayBox);
    replay.shown = 0;
  }
  const fresh = replay.events.slice(replay.shown, position);
  if (fresh.length) {
    replay.log.add(fresh, state);
    replay.tray.add(fresh, state);
  }
  replay.shown = position;
}

async function show(position) {
  position = Math.max(0, Math.min(position, replay.events.length));
  replay.position = position;
  root.dataset.position = String(position);
  $("[data-position]").textContent = String(position);
  const actionsSoFar = replay.starts.filter((start) => start < position).length;
  $("[data-action-number]").textContent = String(actionsSoFar);
  let state;
  try {
    state = await stateAt(stateVersion(position));
  } catch (error) {
    $("[data-replay-error]").textContent = error.message; // the server's words
    return;
  }
  if (replay.position !== position) return; // a newer step was asked for meanwhile
  replay.state = state;
  if (!replay.fitted && state) {
    const { width, depth } = board.size(state);
    panZoom.fit(width, depth);
    replay.fitted = true;
  }
  useServerNames(state);
  board.render(state, {});
  renderTracker($("[data-tracker]"), state, { players }, null);
  drawEvents(position, state);
  root.dataset.stateVersion = String(stateVersion(position));
  root.dataset.ready = "true";
}

function step(kind) {
  const { position, starts, events } = replay;
  const ends = [...starts, events.length];
  if (kind === "start") return show(starts[0] ?? 0);
  if (kind === "end") return show(events.length);
  if (kind === "prev-event") return show(position - 1);
  if (kind === "next-event") return show(position + 1);
  if (kind === "next-action") return show(ends.find((end) => end > position) ?? events.length);
  if (kind === "prev-action") return show([...ends].reverse().find((end) => end < position) ?? 0);
  return null;
}

function fillRounds() {
  const select = $("[data-round]");
  replay.events.forEach((event, index) => {
    if (event.kind !== "battle_round_started") return;
    const option = document.createElement("option");
    option.value = String(index + 1);
    option.textContent = String(event.battle_round);
    select.append(option);
  });
  select.addEventListener("change", () => {
    if (select.value) show(Number(select.value));
  });
}

root.querySelectorAll("[data-step]").forEach((button) => {
  button.addEventListener("click", () => step(button.dataset.step));
});
document.addEventListener("keydown", (event) => {
  if (event.target.closest?.("input, select, textarea")) return;
  if (event.key === "ArrowRight") step(event.shiftKey ? "next-action" : "next-event");
  else if (event.key === "ArrowLeft") step(event.shiftKey ? "prev-action" : "prev-event");
  else return;
  event.preventDefault();
});

async function start() {
  const feed = new EventFeed({
    url: root.dataset.logUrl,
    spectatorToken: token,
    state: () => null,
    show: (events) => replay.events.push(...events),
  });
  await feed.catchUp(Number(root.dataset.version));
  replay.events.forEach((event, index) => {
    if (isActionStart(event)) replay.starts.push(index);
  });
  $("[data-total]").textContent = String(replay.events.length);
  $("[data-action-total]").textContent = String(replay.starts.length);
  $("[data-loading]").hidden = true;
  root.dataset.total = String(replay.events.length);
  fillRounds();
  await show(replay.starts[0] ?? replay.events.length);
}

start();

// For the browser tests and anyone curious in the console.
window.strategium = { replay, board, show, step };
