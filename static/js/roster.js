// The roster beside the board (issue 15): every unit of both armies by player, with the name the
// server gave it (distinct in the game), wounds left, status badges and what it did this phase.
// Hovering a line highlights the unit on the board; clicking it opens its datacard.
import { TABLE_WORDS, arrivalName, playerName } from "./describe.js";
import { engagedUnits } from "./board.js";
import { alive } from "./geometry.js";

const FLAG_WORDS = {
  remained_stationary: "stationary",
  moved: "moved",
  advanced: "advanced",
  fell_back: "fell back",
  charged: "charged",
  shot: "shot",
  fought: "fought",
  arrived_from_reserves: "arrived",
  disembarked: "disembarked",
};
const LOCATION_WORDS = { strategic_reserves: "in reserves", embarked: "embarked", unplaced: "not deployed", destroyed: "destroyed" };

export function unitBadges(state, unit, engaged) {
  const badges = [];
  const living = (unit.models || []).filter(alive);
  if (!living.length || unit.location === "destroyed") return ["destroyed"];
  const shocked = (state.effects || []).some((e) => e.selector?.unit === unit.id && e.modifier?.status === "battle_shocked");
  if (shocked) badges.push("battle-shocked");
  if (engaged.has(unit.id)) badges.push("engaged");
  if (LOCATION_WORDS[unit.location]) badges.push(LOCATION_WORDS[unit.location]);
  // Removed by a rule (Teleport Assault, Rapid Tactical Relocation) and waiting to be set up again.
  if (unit.location === "off_battlefield") badges.push(TABLE_WORDS.offTheBattlefield(arrivalName(unit.awaiting_arrival?.method)));
  for (const [flag, word] of Object.entries(FLAG_WORDS)) {
    if ((state.facts?.turn?.[flag] || []).includes(unit.id)) badges.push(word);
  }
  if ((state.facts?.phase?.acted || []).includes(unit.id)) badges.push("acted this phase");
  return [...new Set(badges)];
}

export function woundsOf(unit) {
  const living = (unit.models || []).filter(alive);
  return {
    models: living.length,
    wounds: living.reduce((sum, m) => sum + (m.wounds_left ?? 0), 0),
    of: (unit.models || []).reduce((sum, m) => sum + (m.W ?? 0), 0),
  };
}

export function renderRoster(container, state, { seat, selectedUnit }) {
  container.replaceChildren();
  if (!state) return;
  const engaged = engagedUnits(state);
  const players = seat === 2 ? ["2", "1"] : ["1", "2"];
  for (const player of players) {
    const army = document.createElement("section");
    army.className = `army player-${player}`;
    const title = document.createElement("h3");
    const record = state.players?.[player] || {};
    title.textContent = `${playerName(player)}${Number(player) === seat ? " (you)" : ""}${record.army ? ` · ${record.army}` : ""}`;
    army.append(title);
    const list = document.createElement("ul");
    for (const unit of Object.values(state.units || {}).filter((u) => String(u.player) === player)) {
      const item = document.createElement("li");
      item.dataset.rosterUnit = unit.id;
      item.dataset.unitRef = unit.id;
      if (unit.id === selectedUnit) item.classList.add("selected");
      const badges = unitBadges(state, unit, engaged);
      if (badges.includes("destroyed")) item.classList.add("destroyed");
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = unit.name;
      item.append(name);
      for (const badge of badges) {
        const mark = document.createElement("span");
        mark.className = `badge ${badge.replaceAll(" ", "-")}`;
        mark.textContent = badge;
        item.append(mark);
      }
      const { models, wounds, of } = woundsOf(unit);
      const health = document.createElement("span");
      health.className = "wounds";
      health.textContent = `${models} ${models === 1 ? "model" : "models"} · ${wounds}/${of} W`;
      item.append(health);
      list.append(item);
    }
    army.append(list);
    container.append(army);
  }
}
