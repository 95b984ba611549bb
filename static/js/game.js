// The game page: shows what the server says, and asks it for what the player wants.
// Wiring only: each module below has one job; nothing here decides a rule.
import { GameConnection } from "./connection.js";
import { Board, placedModels } from "./board.js";
import { PanZoom } from "./pan_zoom.js";
import { Drag, turned } from "./drag.js";
import { Ruler, measure, rulerLine } from "./ruler.js";
import { chargeRing, coherencyRings, engagementRings, moveRings, unitWeapons, weaponRings } from "./rings.js";
import { DiceTray } from "./dice_tray.js";
import { GameLog } from "./log.js";
import { ActionPanel, completeAction, isPositionTemplate, offersWays, skiesField, withArrivalWay } from "./action_panel.js";
import { boardPicks } from "./choices.js";
import { renderTracker } from "./tracker.js";
import { renderRoster } from "./roster.js";
import { renderDatacard } from "./datacard.js";
import { TABLE_WORDS, playerName, setPlayerNames, useServerNames } from "./describe.js";
import { alive, baseSize, centroid, insidePolygon, polygonCentroid } from "./geometry.js";
import { svg } from "./svg.js";
import { isOver, renderHeader } from "./game_header.js";
import { EventFeed } from "./history.js";
import { WindowClock } from "./window_clock.js";
import { ResultScreen } from "./result.js";
import { fitToWindow } from "./fit_screen.js";

const root = document.querySelector("[data-game]");
const $ = (selector) => root.querySelector(selector);
const statusLine = $("[data-connection]");
const chatList = $("[data-chat-list]");
const chatForm = $("[data-chat-form]");
const gameStatus = $("[data-game-status]");
const errorLine = $("[data-error]");
const selectionLine = $("[data-selection]");
const verdictLine = $("[data-verdict]");

const view = {
  seat: root.dataset.seat ? Number(root.dataset.seat) : null,
  game: null,
  state: null,
  legalActions: [],
  catchingUp: false, // an action was accepted whose events have not arrived: no action is offered
  selectedUnit: null,
  draft: null, // {unit, template, positions, single}
  focus: null, // {unit, model}: the model last touched, which the turning handle and keys turn
  tools: { ruler: false, "weapon-ranges": false, "charge-range": false, "single-model": false },
  sent: new Map(), // client_id -> what to do when the server answers
  prefs: { skies: new Set(), order: {}, ways: {} }, // the player's picks in the panel: take to the skies, the Order, the way an arriving unit is set up
  card: null, // {unit, pinned}: the datacard shown (on hover, or pinned by a click)
  hovered: null, // the unit hovered anywhere on the page, lit on the board
  verdict: null, // the referee's answer to the draft as it stands: {key, accepted, message, costs}
};

fitToWindow(document.querySelector(".tabletop"), [document.querySelector("[data-game-header]"), $("[data-tracker]"), document.querySelector("[data-window-clock]")]);
const board = new Board($("[data-board]"));
const panZoom = new PanZoom(board.svg, {
  isEmptyTable: (event) => !view.tools.ruler && !event.target.closest(".model, .turn-handle"),
});
const ruler = new Ruler(board, { modelAt: (event) => modelFromEvent(event) });
const dragOverlay = svg("g", { "data-drag-measure": "" });
board.layers.measure.append(dragOverlay);
const diceTray = new DiceTray($("[data-dice-tray]"));
const gameLog = new GameLog($("[data-log]"));
// The log and the dice tray show the whole history: read from the event log, then live.
const feed = new EventFeed({
  url: root.dataset.logUrl,
  spectatorToken: root.dataset.spectatorToken || null,
  state: () => view.state,
  show: (events, state) => {
    gameLog.add(events, state);
    diceTray.add(events, state);
    // What the last action came to (a failed charge, a shot's hits), without opening the log.
    const latest = gameLog.latest();
    const line = root.querySelector("[data-latest]");
    if (line) {
      line.querySelector("[data-latest-text]").textContent = latest;
      line.hidden = !latest;
    }
  },
  onProgress: (shown, target) => {
    root.dataset.historyShown = String(shown);
    root.dataset.historyLoading = String(shown < target);
  },
});
const windowClock = new WindowClock(document.querySelector("[data-window-clock]"));
const resultScreen = new ResultScreen(document.querySelector("[data-result]"), {
  url: root.dataset.resultUrl,
  verifyUrl: root.dataset.verifyUrl,
  spectatorToken: root.dataset.spectatorToken || null,
});
const rosterList = $("[data-roster]");
const datacard = $("[data-datacard]");
const panel = new ActionPanel($("[data-actions]"), {
  send: (action) => sendAction(action),
  sendThen: (action, next) => sendAction(action, action.unit, next),
  preview: (unit, assignments, kind) => askPreview(unit, assignments, kind),
  select: (unitId) => select(unitId),
  place: (template) => startPlacement(template),
  chooseWay: (unitId, method) => chooseWay(unitId, method),
  confirmPlacement: () => confirmDraft(),
  cancelPlacement: () => {
    view.draft = null;
    render();
  },
  prefs: view.prefs,
  changed: () => render(),
  setHeight: (unitId, modelId, z) => setHeight(unitId, modelId, z),
});

// --- what the player may do with the pieces ------------------------------------------------

// The template whose positions a drag of this unit fills in: a move, a set-up, a positions
// decision, or a fight with an optional pile-in (an overrun fight, 10e fights). A returning model
// is dragged only once its ghost is on the table.
function positionTemplate(unitId) {
  if (!view.seat) return null;
  const template = view.legalActions.find((a) => a.unit === unitId && (isPositionTemplate(a) || (a.type === "fight" && a.pile_in === "optional"))) || null;
  if (template?.model && view.draft?.unit !== unitId) return null;
  return withArrivalWay(template, view.prefs);
}

// Whole-unit moves are sent on release; a fight's pile-in goes with the fight button, and a
// set-up (deployment, arrival, disembarking, a unit set up by a rule) is placed, adjusted and
// only then confirmed.
const PLACED_THEN_CONFIRMED = new Set(["deploy", "arrive", "disembark", "stratagem_arrival", "redeploy_unit", "emergency_disembark"]);
function sentOnRelease(template) {
  if (!template || template.type === "fight") return false;
  const kind = template.type === "decide" ? view.state?.pending?.at(-1)?.kind : template.type;
  return !PLACED_THEN_CONFIRMED.has(kind);
}

function currentPositions(unitId) {
  if (view.draft && view.draft.unit === unitId) return view.draft.positions;
  const unit = view.state?.units?.[unitId];
  const positions = {};
  for (const model of placedModels(unit || {})) positions[model.id] = [model.x, model.y, model.facing || 0];
  return positions;
}

function modelFromEvent(event) {
  const glyph = event.target.closest?.(".model");
  if (!glyph) return null;
  const unit = view.state?.units?.[glyph.dataset.unit];
  const model = unit?.models.find((m) => m.id === glyph.dataset.model);
  if (!model) return null;
  const at = currentPositions(unit.id)[model.id];
  return at ? { ...model, x: at[0], y: at[1], facing: at[2] } : model;
}

// Rows of five, half an inch between bases, centred on a point: where a unit starts when placed.
function formation(unit, centre) {
  const models = (unit.models || []).filter(alive);
  const step = Math.max(...models.map((m) => 2 * baseSize(m.base).half_length)) + 0.5;
  const rows = Math.ceil(models.length / 5);
  const positions = {};
  models.forEach((model, index) => {
    const column = index % 5;
    const row = Math.floor(index / 5);
    const inRow = Math.min(5, models.length - row * 5);
    positions[model.id] = [
      Math.round((centre.x + (column - (inRow - 1) / 2) * step) * 1000) / 1000,
      Math.round((centre.y + (row - (rows - 1) / 2) * step) * 1000) / 1000,
      0,
    ];
  });
  return positions;
}

// The ghost of the destroyed model a decision returns, beside its unit, to be dragged into place.
function ghostPositions(unit, modelId) {
  const models = placedModels(unit);
  const at = models.length ? centroid(models) : { x: board.width / 2, y: board.depth / 2 };
  return { [modelId]: [Math.round((at.x + 1.5) * 1000) / 1000, Math.round(at.y * 1000) / 1000, 0] };
}

function startPlacement(offered) {
  const template = withArrivalWay(offered, view.prefs);
  const unit = view.state.units[template.unit];
  let positions = template.model ? ghostPositions(unit, template.model) : currentPositions(unit.id);
  // A disembark or emergency disembark: start from the engine's suggested set-up around the
  // TRANSPORT (the player may drag from there).
  if (!Object.keys(positions).length && template.suggested && Object.keys(template.suggested).length) {
    positions = { ...template.suggested };
  }
  if (!Object.keys(positions).length) {
    const zone = view.state.mission?.deployment_zones?.[String(view.seat)];
    const [x, y] = zone ? polygonCentroid(zone) : [board.width / 2, board.depth / 2];
    positions = formation(unit, { x, y });
  }
  view.selectedUnit = unit.id;
  const first = Object.keys(positions)[0];
  view.focus = first ? { unit: unit.id, model: first } : null;
  view.draft = { unit: unit.id, template, positions, single: false };
  clearRefusal();
  render();
  checkDraft();
}

function draftAction(draft) {
  const { template, positions } = draft;
  const skies = skiesField(template, view.prefs);
  let field = { positions, ...skies };
  if (template.type === "decide") {
    field = { choice: template.take_to_the_skies === true && skies.take_to_the_skies ? { positions, take_to_the_skies: true } : positions };
    // A decision that offers more than one way to arrive (Rapid Ingress) is answered with the way.
    if (offersWays(template)) field = { choice: { positions, method: template.method } };
  }
  return completeAction(template, field);
}

// The player picks another way for the arriving unit being placed: its area is drawn and the
// referee asked again.
function chooseWay(unitId, method) {
  view.prefs.ways[unitId] = method;
  if (view.draft?.unit === unitId) view.draft = { ...view.draft, template: withArrivalWay(view.draft.template, view.prefs) };
  view.verdict = null;
  render();
  checkDraft();
}

function confirmDraft() {
  if (!view.draft) return;
  sendAction(draftAction(view.draft), view.draft.unit);
}

// While a unit is dragged or placed, the referee is asked (a dry run: nothing is played) whether
// it would accept the positions as they stand, and what each model's move costs over terrain; the
// answer is drawn beside the rulers and in the verdict line.
let checkTimer = null;
// What the referee's answer is about: the positions, and the way an arriving unit is set up.
function draftKey(draft) {
  return JSON.stringify([draft.positions, draft.template?.method ?? null]);
}

function checkDraft() {
  clearTimeout(checkTimer);
  const draft = view.draft;
  if (!draft?.template || !view.seat) {
    view.verdict = null;
    drawVerdict();
    return;
  }
  const key = draftKey(draft);
  checkTimer = setTimeout(async () => {
    const answer = await askServer("check", { action: { ...draftAction(draft), player: view.seat } });
    if (!answer || !view.draft || draftKey(view.draft) !== key) return;
    view.verdict = { key, ...answer };
    drawOverlays(null);
    drawVerdict();
  }, 180);
}

function drawVerdict() {
  const verdict = view.draft && view.verdict?.key === draftKey(view.draft) ? view.verdict : null;
  verdictLine.hidden = !verdict;
  verdictLine.className = `verdict ${verdict?.accepted ? "legal" : "illegal"}`;
  verdictLine.textContent = !verdict ? "" : verdict.accepted ? TABLE_WORDS.wouldAccept
    : `${verdict.message}${verdict.rule ? ` (${verdict.rule})` : ""}`;
  // The model the refusal is about (out of coherency, too far, too close) is ringed in red.
  for (const glyph of board.svg.querySelectorAll(".model.refused-model")) glyph.classList.remove("refused-model");
  const model = verdict && !verdict.accepted && typeof verdict.model === "string" ? verdict.model : null;
  if (model) board.svg.querySelector(`.model[data-model="${CSS.escape(model)}"]`)?.classList.add("refused-model");
}

function select(unitId) {
  view.selectedUnit = unitId;
  const first = (view.state?.units?.[unitId]?.models || []).find(alive);
  view.focus = first ? { unit: unitId, model: first.id } : null;
  if (view.draft && view.draft.unit !== unitId) view.draft = null;
  clearRefusal();
  render();
}

// The height the focused model ends at, as the fourth value of its position (a draft, like a turn).
function setHeight(unitId, modelId, z) {
  const positions = structuredClone(currentPositions(unitId));
  if (!positions[modelId]) return;
  const [x, y, facing] = positions[modelId];
  positions[modelId] = [x, y, facing, z];
  view.draft = { unit: unitId, template: positionTemplate(unitId), positions, single: true };
  render();
}

// Offered for the focused model when it stands over terrain with a height (or above the ground).
function heightChoice() {
  const focus = view.focus;
  const template = focus && focus.unit === view.selectedUnit && positionTemplate(focus.unit);
  if (!template || template.model) return null;
  const at = currentPositions(focus.unit)[focus.model];
  const model = view.state.units[focus.unit]?.models.find((m) => m.id === focus.model);
  if (!at || !model) return null;
  const point = { x: at[0], y: at[1] };
  const heights = (view.state.mission?.terrain || [])
    .filter((piece) => piece.height > 0 && insidePolygon(point, piece.footprint || piece.polygon || []))
    .map((piece) => piece.height);
  const z = at[3] ?? model.z ?? 0;
  if (!heights.length && !(z > 0)) return null;
  return { max: Math.max(0, ...heights), z };
}

const drag = new Drag(board, {
  draggable: (unitId) => Boolean(positionTemplate(unitId)),
  positionsOf: currentPositions,
  mode: () => (view.tools["single-model"] ? "model" : "unit"),
  onChange: (current) => {
    view.draft = { unit: current.unit, template: positionTemplate(current.unit), positions: current.positions, single: current.single };
    render(current);
    checkDraft();
  },
  onRelease: (current, cancelled) => {
    if (cancelled || !current.moved) {
      render();
      return;
    }
    view.draft = { unit: current.unit, template: positionTemplate(current.unit), positions: current.positions, single: current.single };
    checkDraft();
    // A turn waits for the move it belongs to (or "Confirm"); a whole unit dragged is sent.
    if (current.single || current.kind === "turn" || !sentOnRelease(view.draft.template)) render();
    else confirmDraft();
  },
});

// Rotation is free (the server takes each model's facing with its move): the keys [ and ] turn
// the model last touched, or every model of its unit when whole units are moved; with Shift
// ({ and }) by a larger step.
const TURN_KEYS = { "[": -15, "]": 15, "{": -45, "}": 45 };
function turnFocus(degrees, single) {
  const focus = view.focus;
  if (!focus || focus.unit !== view.selectedUnit || !positionTemplate(focus.unit)) return false;
  const positions = currentPositions(focus.unit);
  if (!positions[focus.model]) return false;
  view.draft = {
    unit: focus.unit,
    template: positionTemplate(focus.unit),
    positions: turned(positions, single ? [focus.model] : null, degrees),
    single: true,
  };
  render();
  return true;
}

// --- talking to the server --------------------------------------------------------------------

function clientId() {
  return globalThis.crypto?.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(16).slice(2)}`;
}

// `then`: an action to send once this one is accepted (a standing choice, then the pass).
function sendAction(action, unitId = action.unit, then = null, version = connection.version) {
  const id = clientId();
  const positions = action.positions || (action.type === "decide" && action.choice && typeof action.choice === "object" && !action.choice.stratagem ? action.choice : null);
  const first = positions && Object.values(positions)[0];
  view.sent.set(id, { unit: unitId, at: Array.isArray(first) ? { x: first[0], y: first[1] } : null, then });
  clearRefusal();
  const sent = connection.send({ type: "action", version, client_id: id, action: { ...action, player: view.seat } });
  if (!sent) showRefusal({ client_id: id, message: TABLE_WORDS.notConnected, code: "offline" });
}

// A refusal is about what the player last tried: it goes once they try again or turn to another
// unit, so it is never read as being about the unit now in hand.
function clearRefusal() {
  board.clearNote();
  errorLine.textContent = "";
  errorLine.dataset.code = "";
}

function showRefusal(message) {
  const context = view.sent.get(message.client_id) || {};
  view.sent.delete(message.client_id);
  view.draft = null; // the pieces snap back to where the server says they are
  render();
  const unit = context.unit && view.state?.units?.[context.unit];
  const models = unit ? placedModels(unit) : [];
  const point = models.length ? centroid(models) : context.at || { x: board.width / 2, y: board.depth / 2 };
  const reason = `${message.message}${message.rule ? ` (${message.rule})` : ""}`;
  board.note(point, reason, message.code);
  errorLine.textContent = reason;
  errorLine.dataset.code = message.code || "";
}

// --- drawing ------------------------------------------------------------------------------------

function drawOverlays(current) {
  const rings = board.layers.rings;
  rings.replaceChildren();
  dragOverlay.replaceChildren();
  const state = view.state;
  if (!state) return;
  const unit = view.selectedUnit && state.units[view.selectedUnit];
  const edition = state.edition || {};
  if (unit && unit.location === "battlefield") {
    const models = placedModels(unit);
    if (models.length && view.tools["weapon-ranges"]) rings.append(weaponRings(models, unitWeapons(state, unit)));
    if (models.length && view.tools["charge-range"]) rings.append(chargeRing(models, edition.charge_range ?? 12));
  }
  if (!view.draft) return;
  drawArrivalArea(rings, view.draft.template);
  const draftUnit = state.units[view.draft.unit];
  const start = placedModels(draftUnit);
  const draftModels = (draftUnit.models || []).filter(alive).filter((m) => view.draft.positions[m.id])
    .map((m) => ({ ...m, x: view.draft.positions[m.id][0], y: view.draft.positions[m.id][1], facing: view.draft.positions[m.id][2] }));
  const enemies = Object.values(state.units).filter((u) => u.player !== draftUnit.player && u.location === "battlefield").flatMap(placedModels);
  rings.append(engagementRings(enemies, edition.engagement_range_horizontal ?? 1));
  rings.append(coherencyRings(draftModels, edition.coherency_neighbour_distance ?? 2));
  const template = view.draft.template;
  const flying = template && view.prefs.skies.has(template.unit) && Number(template.fly_move_penalty);
  const maxDistance = template?.max_distance && flying ? template.max_distance - flying : template?.max_distance;
  if (maxDistance && start.length) rings.append(moveRings(start, maxDistance));
  if (draftUnit.location === "battlefield") {
    for (const model of draftModels) {
      const from = start.find((m) => m.id === model.id);
      if (!from || (from.x === model.x && from.y === model.y)) continue;
      // The server's measure of the move (climbing, vertical moves) once it has answered.
      const verdict = view.verdict?.key === draftKey(view.draft) ? view.verdict : null;
      const cost = verdict?.costs?.[model.id];
      const distance = cost ?? measure(from, model);
      const judged = verdict ? (verdict.accepted ? " legal" : " too-far") : maxDistance && distance > maxDistance + 1e-6 ? " too-far" : "";
      const line = rulerLine(from, model, distance, `ruler move${judged}`);
      line.dataset.modelDistance = model.id;
      if (cost !== undefined) line.dataset.pathCost = String(cost);
      dragOverlay.append(line);
    }
  }
  if (current) dragOverlay.dataset.dragging = current.unit;
  else delete dragOverlay.dataset.dragging;
}

// Where an arriving unit may be set up (the server's areas for the chosen way to arrive, on the
// `arrive` template or a `stratagem_arrival` decision's): the allowed area, and the area too
// close to enemy models, drawn before the unit is dropped: the way the player picked where the
// template offers more than one (`withArrivalWay`), or its one way.
function drawArrivalArea(layer, template) {
  if (!template?.areas) return;
  const method = template.method || template.methods?.[0];
  const area = template.areas[method];
  if (!area) return;
  const group = svg("g", { "data-arrival-area": method });
  // Each polygon is its outline and holes (the ingress band is the table less its middle).
  const path = (rings) => rings.map((ring) => `M${ring.map((p) => p.join(",")).join(" L")} Z`).join(" ");
  for (const rings of area.allowed || []) group.append(svg("path", { d: path(rings), class: "arrival-area", "fill-rule": "evenodd" }));
  for (const rings of area.keep_out || []) group.append(svg("path", { d: path(rings), class: "no-arrival", "fill-rule": "evenodd" }));
  const title = svg("title");
  title.textContent = TABLE_WORDS.setUpHere(area.enemy_distance);
  group.append(title);
  layer.append(group);
}

// A handle beyond the edge of the focused model's base, in the direction it faces: drag it round.
function drawTurnHandle() {
  const focus = view.focus;
  if (!focus || focus.unit !== view.selectedUnit || !positionTemplate(focus.unit)) return;
  const unit = view.state.units[focus.unit];
  const model = unit?.models.find((m) => m.id === focus.model);
  const at = currentPositions(focus.unit)[focus.model];
  if (!model || !at) return;
  const [x, y, facing] = at;
  const reach = baseSize(model.base).half_length + 0.7;
  const angle = ((facing || 0) * Math.PI) / 180;
  const hx = x + reach * Math.cos(angle);
  const hy = y + reach * Math.sin(angle);
  const handle = svg("g", { class: "turn-handle", "data-turn": focus.model, "data-unit": focus.unit, "data-facing": facing || 0 });
  handle.append(svg("line", { x1: x, y1: y, x2: hx, y2: hy, "pointer-events": "none" })); // the base stays grabbable
  handle.append(svg("circle", { cx: hx, cy: hy, r: 0.4 }));
  const title = svg("title");
  title.textContent = TABLE_WORDS.turnHandle;
  handle.append(title);
  dragOverlay.append(handle);
}

function picks() {
  return view.seat && view.state ? boardPicks(view.state, view.legalActions, view.prefs.order) : { units: [] };
}

function render(current = null) {
  root.classList.toggle("has-state", Boolean(view.state));
  renderTracker($("[data-tracker]"), view.state, view.game, view.seat);
  if (view.state) {
    board.render(view.state, { selectedUnit: view.selectedUnit, draft: view.draft, highlight: picks().units, seat: view.seat });
    drawOverlays(current);
    if (!current || current.kind === "turn") drawTurnHandle();
  }
  if (!current) {
    panel.render({
      state: view.state, legalActions: view.legalActions, catchingUp: view.catchingUp, seat: view.seat,
      selectedUnit: view.selectedUnit, draft: view.draft, focus: view.focus, heights: view.state && heightChoice(),
    });
  }
  const unit = view.selectedUnit && view.state?.units?.[view.selectedUnit];
  selectionLine.textContent = unit ? TABLE_WORDS.selected(unit.name) : "";
  renderRoster(rosterList, view.state, { seat: view.seat, selectedUnit: view.selectedUnit });
  drawCard();
  drawVerdict();
  board.highlight(view.hovered);
}

function drawCard() {
  if (!view.card || !view.state?.units?.[view.card.unit]) {
    datacard.hidden = true;
    datacard.replaceChildren();
    return;
  }
  datacard.classList.toggle("pinned", view.card.pinned);
  renderDatacard(datacard, view.state, view.card.unit, {
    pinned: view.card.pinned,
    close: () => {
      view.card = null;
      drawCard();
    },
  });
}

// `near`: the pointer's client x, so the card opens on the other side of the board from it.
function showCard(unitId, pinned, near = null) {
  if (view.card?.pinned && !pinned) return; // a pinned card stays until closed or replaced
  view.card = unitId ? { unit: unitId, pinned } : null;
  if (near !== null) {
    const frame = datacard.parentElement.getBoundingClientRect();
    datacard.classList.toggle("left", near > frame.left + frame.width / 2);
  }
  drawCard();
  datacard.classList.toggle("pinned", Boolean(view.card?.pinned));
}

function hover(unitId) {
  view.hovered = unitId;
  board.highlight(unitId);
  for (const line of rosterList.querySelectorAll(".hovered")) line.classList.remove("hovered");
  if (unitId) rosterList.querySelector(`[data-roster-unit="${CSS.escape(unitId)}"]`)?.classList.add("hovered");
}

// --- the damage preview, asked of the server -----------------------------------------------------

function cookie(name) {
  const found = document.cookie.split("; ").find((c) => c.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

async function askServer(endpoint, body) {
  try {
    const answer = await fetch(`/api/games/${root.dataset.game}/${endpoint}/`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": cookie("csrftoken") || document.querySelector("[name=csrfmiddlewaretoken]")?.value || "" },
      body: JSON.stringify(body),
    });
    return answer.ok ? answer.json() : null;
  } catch {
    return null;
  }
}

function askPreview(unit, assignments, kind = "shoot") {
  return askServer("preview", assignments ? { unit, assignments, kind } : { unit, kind });
}

let fitted = false;
function setState(state) {
  if (!state) return;
  view.state = state;
  useServerNames(state);
  if (!fitted) {
    const { width, depth } = board.size(state);
    panZoom.fit(width, depth);
    fitted = true;
  }
}

// --- the board's pointer input -----------------------------------------------------------------

board.svg.addEventListener("pointerdown", (event) => {
  if (view.tools.ruler) {
    ruler.down(event);
    board.svg.setPointerCapture?.(event.pointerId);
    return;
  }
  const handle = event.target.closest(".turn-handle");
  if (handle) {
    event.preventDefault();
    drag.beginTurn(event, handle.dataset.unit, handle.dataset.turn);
    return;
  }
  const glyph = event.target.closest(".model");
  if (!glyph) return;
  event.preventDefault();
  // A unit ringed as a pick (a decision's unit, the unit for the picked Order) is picked by a click.
  const pick = picks();
  if (pick.units.includes(glyph.dataset.unit) && !positionTemplate(glyph.dataset.unit)) {
    if (pick.action) sendAction(completeAction(pick.action(glyph.dataset.unit), {}), glyph.dataset.unit);
    else if (pick.order) Object.assign(view.prefs.order, pick.order(glyph.dataset.unit));
    render();
    return;
  }
  view.focus = { unit: glyph.dataset.unit, model: glyph.dataset.model };
  if (!positionTemplate(glyph.dataset.unit)) showCard(glyph.dataset.unit, true, event.clientX);
  if (view.selectedUnit !== glyph.dataset.unit) {
    view.selectedUnit = glyph.dataset.unit;
    if (view.draft && view.draft.unit !== glyph.dataset.unit) view.draft = null;
    board.clearNote();
    render();
  }
  drag.begin(event, glyph.dataset.unit, glyph.dataset.model);
});
board.svg.addEventListener("pointermove", (event) => {
  if (view.tools.ruler) ruler.move(event);
  else drag.move(event);
});
for (const type of ["pointerup", "pointercancel"]) {
  board.svg.addEventListener(type, (event) => {
    if (view.tools.ruler) ruler.up(event);
    else drag.end(event);
  });
}

document.addEventListener("keydown", (event) => {
  if (event.target.closest?.("input, select, textarea")) return;
  if (Object.hasOwn(TURN_KEYS, event.key)) {
    if (turnFocus(TURN_KEYS[event.key], view.tools["single-model"] || event.altKey)) event.preventDefault();
    return;
  }
  if (event.key !== "Escape") return;
  view.selectedUnit = null;
  view.card = null; // a pinned datacard too: it covers a third of the board
  drawCard();
  view.draft = null;
  ruler.clear();
  board.clearNote();
  render();
});

root.querySelectorAll("[data-tool]").forEach((control) => {
  control.addEventListener("click", () => {
    const tool = control.dataset.tool;
    if (tool === "zoom-in") return panZoom.zoomBy(1.25);
    if (tool === "zoom-out") return panZoom.zoomBy(0.8);
    if (tool === "fit") return panZoom.reset();
    view.tools[tool] = !view.tools[tool];
    control.setAttribute("aria-pressed", String(view.tools[tool]));
    if (tool === "ruler" && !view.tools.ruler) ruler.clear();
    board.svg.classList.toggle("measuring", view.tools.ruler);
    render();
  });
});

// Hovering a model shows its unit's datacard; hovering a unit named anywhere (roster, prompt,
// target list, log) lights it on the board.
board.svg.addEventListener("pointerover", (event) => {
  const glyph = event.target.closest?.(".model");
  if (!glyph || drag.current) return;
  hover(glyph.dataset.unit);
  // The unit in hand (selected, to be moved or placed) shows no card: it would cover the board
  // where the player is placing it, each time a drag ends with the pointer on a model.
  if (glyph.dataset.unit === view.selectedUnit && positionTemplate(glyph.dataset.unit)) return;
  showCard(glyph.dataset.unit, false, event.clientX);
});
board.svg.addEventListener("pointerout", (event) => {
  const glyph = event.target.closest?.(".model");
  if (!glyph || glyph.contains(event.relatedTarget)) return;
  hover(null);
  if (view.card && !view.card.pinned) showCard(null, false);
});
const UNIT_REFS = "[data-unit-ref], [data-option-unit], [data-select-unit], [data-roster-unit]";
const unitRef = (node) => {
  const found = node?.closest?.(UNIT_REFS);
  return found && (found.dataset.unitRef || found.dataset.optionUnit || found.dataset.selectUnit || found.dataset.rosterUnit);
};
root.addEventListener("pointerover", (event) => {
  const unitId = unitRef(event.target);
  if (unitId && !event.target.closest(".board")) hover(unitId);
});
root.addEventListener("pointerout", (event) => {
  if (unitRef(event.target) && !unitRef(event.relatedTarget) && !event.target.closest(".board")) hover(null);
});
rosterList.addEventListener("click", (event) => {
  const unitId = unitRef(event.target);
  if (!unitId) return;
  showCard(unitId, true);
  if (view.state?.units?.[unitId]?.location === "battlefield") select(unitId);
});

// The side panel's tabs: roster, log, dice, chat.
const tabs = [...root.querySelectorAll("[data-tab]")];
for (const tab of tabs) {
  tab.addEventListener("click", () => {
    for (const other of tabs) {
      const on = other === tab;
      other.setAttribute("aria-selected", String(on));
      root.querySelector(`[data-panel="${other.dataset.tab}"]`).hidden = !on;
    }
    // What came in while the tab was hidden could not scroll it (a hidden list has no height):
    // the log, dice tray and chat open at their newest entry.
    for (const list of root.querySelectorAll(`[data-panel="${tab.dataset.tab}"] .log, [data-panel="${tab.dataset.tab}"] .dice-tray, [data-panel="${tab.dataset.tab}"] .chat`)) {
      list.scrollTop = list.scrollHeight;
    }
  });
}

// --- messages from the server -------------------------------------------------------------------

function appendChat(message) {
  const item = document.createElement("li");
  item.className = `seat-${message.seat}`;
  const author = document.createElement("strong");
  author.textContent = `${message.author}: `;
  item.append(author, document.createTextNode(message.text));
  chatList.append(item);
  chatList.scrollTop = chatList.scrollHeight;
}

function takeLegalActions(message) {
  if ("legal_actions" in message) {
    view.legalActions = message.legal_actions || [];
    view.catchingUp = false;
  }
  // A model to return: its ghost appears beside its unit, ready to be dragged.
  const returning = view.legalActions.find((a) => a.type === "decide" && a.choice === "positions" && a.model);
  if (returning && view.draft?.unit !== returning.unit && view.state) startPlacement(returning);
}

// The game as the server last described it: header, controls, the window clock, the result.
function showGame(message) {
  if ("window" in message) windowClock.set(message.window, view.state, view.game?.players);
  if (!view.game) return;
  gameStatus.textContent = view.game.status;
  renderHeader(view.game, view.seat);
  if (isOver(view.game)) {
    view.legalActions = [];
    view.draft = null;
  }
  if (view.game.status === "finished") resultScreen.show(view.game.version);
}

// The armies' rules the server lists once per game: not enforced (apply them by agreement), or a
// detachment that prints no rule (rulings SD-16); each with its player and the note the server gives.
function showNotEnforced(game) {
  const section = document.querySelector("[data-not-enforced]");
  const rules = Object.entries(game?.not_enforced || {}).flatMap(([seat, list]) =>
    list.map((rule) => ({ ...rule, player: playerName(seat) })));
  section.hidden = !rules.length;
  section.querySelector("[data-not-enforced-rules]").replaceChildren(
    ...rules.map((rule) => {
      const item = document.createElement("li");
      const units = rule.units.length ? `: ${rule.units.join(", ")}` : "";
      item.textContent = `${rule.player}: ${rule.name} (${rule.kind}${units}) — ${rule.note}`;
      return item;
    }),
  );
}

const handlers = {
  hello(message) {
    view.game = message.game;
    setPlayerNames(message.game?.players);
    showNotEnforced(message.game);
    if (message.seat !== undefined) view.seat = message.seat || null;
    chatList.replaceChildren();
    message.chat.forEach(appendChat);
    setState(message.state);
    takeLegalActions(message);
    showGame(message);
    feed.catchUp(message.version);
    render();
  },
  events(message) {
    const state = message.state || view.state;
    feed.live(message.events, state);
    setState(message.state);
    if (message.state && view.draft && !view.sent.size) view.draft = null;
    takeLegalActions(message);
    showGame(message);
    render();
  },
  snapshot(message) {
    setState(message.state);
    takeLegalActions(message);
    showGame(message);
    feed.catchUp(message.version);
    render();
  },
  accepted(message) {
    const then = view.sent.get(message.client_id)?.then;
    view.sent.delete(message.client_id);
    // The answer can overtake the events it caused (they come through the channel layer): until
    // they arrive, the actions held belong to the state before, and a click on one is refused.
    if (message.version > connection.stateVersion) {
      view.legalActions = [];
      view.catchingUp = true;
    }
    if (then) sendAction(then, then.unit, null, message.version);
    view.draft = null;
    board.clearNote();
    render();
  },
  refused(message) {
    showRefusal(message);
  },
  chat(message) {
    appendChat(message.message);
  },
  lobby(message) {
    view.game = { ...(view.game || {}), ...(message.game || { status: message.status }) };
    takeLegalActions(message);
    showGame(message);
    setPlayerNames(view.game?.players);
    render();
  },
  error(message) {
    errorLine.textContent = message.message;
    errorLine.dataset.code = message.code;
  },
};

const connection = new GameConnection({
  gameId: root.dataset.game,
  spectatorToken: root.dataset.spectatorToken || null,
  loadsHistory: true, // a fresh page reads the log over HTTP (history.js) instead of `sync`
  onMessage: (message) => handlers[message.type]?.(message),
  onStatus: (status) => {
    statusLine.textContent = status;
    statusLine.dataset.status = status;
  },
});
connection.open();

if (chatForm && view.seat) {
  chatForm.addEventListener("submit", (submit) => {
    submit.preventDefault();
    const input = chatForm.querySelector("input");
    if (input.value.trim() && connection.send({ type: "chat", text: input.value })) input.value = "";
  });
}

// For the browser tests and anyone curious in the console: what the page was last told.
window.strategium = { view, board, panZoom, feed, windowClock, connection, showCard };
