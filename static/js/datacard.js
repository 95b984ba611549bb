// A unit's datacard (issue 15), for any unit, theirs or yours: the stat line of each model
// profile, every weapon it carries with its abilities (each ability's rule text on hover), its
// abilities with their text, keywords, attached Leaders and their enhancements, wargear and wounds
// left per model, starting strength and half-strength, and every active effect with its source
// and when it ends. Everything is read from the state the server sent.
import { effectEnds, effectSource, effectWhat, phaseName, playerName, serverEnhancement, weaponAbility } from "./describe.js";
import { alive } from "./geometry.js";
import { unitBadges, woundsOf } from "./roster.js";
import { engagedUnits } from "./board.js";

function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function table(head, rows) {
  const grid = element("table");
  const top = element("tr");
  for (const cell of head) top.append(element("th", { textContent: cell }));
  grid.append(element("thead", {}, top));
  const body = element("tbody");
  for (const row of rows) {
    const line = element("tr");
    for (const cell of row) line.append(cell instanceof Node ? element("td", {}, cell) : element("td", { textContent: cell }));
    body.append(line);
  }
  grid.append(body);
  return grid;
}

const plus = (value) => (value === null || value === undefined ? "–" : `${value}+`);

function sheetsOf(state, unit) {
  const sheets = state.datasheets || {};
  return (unit.parts || [{ datasheet: unit.datasheet }]).map((part) => ({ part, sheet: sheets[part.datasheet] || null }));
}

function carries(model, weaponName) {
  return (model.weapons || []).some((name) => weaponName === name || weaponName.startsWith(`${name} – `) || weaponName.startsWith(`${name} - `));
}

function abilityList(abilities) {
  const cell = element("span");
  abilities.forEach((ability, index) => {
    const { label, text, rule } = weaponAbility(ability);
    const word = element("span", { className: "ability-word", textContent: label, title: text ? `${text}${rule ? ` (${rule})` : ""}` : label });
    word.dataset.weaponAbility = ability;
    word.tabIndex = 0;
    if (index) cell.append(", ");
    cell.append(word);
  });
  return cell;
}

export function renderDatacard(card, state, unitId, { pinned, close }) {
  const unit = state?.units?.[unitId];
  card.replaceChildren();
  if (!unit) {
    card.hidden = true;
    return;
  }
  card.hidden = false;
  card.classList.remove("player-1", "player-2");
  card.classList.add(`player-${unit.player}`);
  card.dataset.datacard = unitId;
  const closer = element("button", { type: "button", className: "close", textContent: "×", title: "Close the datacard" });
  closer.addEventListener("click", close);
  card.append(closer);
  card.append(element("h3", { textContent: unit.name }));
  const badges = unitBadges(state, unit, engagedUnits(state));
  const { models, wounds, of } = woundsOf(unit);
  const strength = unit.starting_strength ?? (unit.parts || []).reduce((sum, p) => sum + (p.starting_strength || 0), 0);
  const half = state.edition?.half_strength === "below_half" ? "below half" : "at or below half";
  card.append(element("p", { className: "summary" },
    `${playerName(unit.player)}'s unit · ${models} ${models === 1 ? "model" : "models"}, ${wounds}/${of} wounds left`,
    // A unit of one model is never "half-strength (0.5 models)": its wounds say how it stands.
    strength > 1 ? ` · starting strength ${strength}, half-strength ${half} (${strength / 2} models)` : "",
    badges.length ? ` · ${badges.join(", ")}` : ""));
  if (!pinned) card.append(element("p", { className: "pinned-note", textContent: "Click the unit to keep this card open." }));
  const parts = sheetsOf(state, unit);
  const living = (unit.models || []).filter(alive);

  // Stat lines: one per profile (name and characteristics) among the unit's models.
  const profiles = new Map();
  for (const model of unit.models || []) {
    const key = [model.name, model.M, model.T, model.Sv, model.invulnerable_save, model.W, model.Ld, model.OC].join("|");
    if (!profiles.has(key)) profiles.set(key, { model, count: 0 });
    if (alive(model)) profiles.get(key).count += 1;
  }
  card.append(element("h4", { textContent: "Profiles" }));
  card.append(table(["Model", "M", "T", "Sv", "Inv", "W", "Ld", "OC"],
    [...profiles.values()].map(({ model, count }) => [
      `${model.name}${count > 1 ? ` ×${count}` : ""}`, `${model.M}"`, String(model.T), plus(model.Sv), plus(model.invulnerable_save), String(model.W), plus(model.Ld), String(model.OC),
    ])));
  card.lastChild.dataset.statLine = "";

  // Weapons carried by its models, with their abilities.
  const weapons = [];
  for (const { sheet } of parts) {
    for (const weapon of sheet?.weapons || []) {
      const bearers = living.filter((m) => carries(m, weapon.name)).length;
      if (bearers && !weapons.some((w) => w.name === weapon.name)) weapons.push({ ...weapon, bearers });
    }
  }
  for (const type of ["ranged", "melee"]) {
    const list = weapons.filter((w) => w.type === type);
    if (!list.length) continue;
    card.append(element("h4", { textContent: type === "ranged" ? "Ranged weapons" : "Melee weapons" }));
    card.append(table(["Weapon", "Range", "A", type === "ranged" ? "BS" : "WS", "S", "AP", "D", "Abilities"],
      list.map((w) => [`${w.name}${w.bearers > 1 ? ` ×${w.bearers}` : ""}`, w.range ? `${w.range}"` : "Melee", String(w.A), plus(w.skill), String(w.S), String(w.AP), String(w.D), abilityList(w.abilities || [])])));
    card.lastChild.dataset.weapons = type;
  }

  // Abilities with their text (datasheet, wargear, faction), then the core abilities by name.
  const texts = element("dl");
  const named = new Set();
  for (const { sheet } of parts) {
    for (const ability of sheet?.abilities || []) {
      if (named.has(ability.name)) continue;
      named.add(ability.name);
      texts.append(element("dt", { textContent: `${ability.name}${ability.parameter ? ` ${ability.parameter}` : ""}` }), element("dd", { textContent: ability.text || "" }));
    }
  }
  const others = (unit.abilities || []).filter((name) => !named.has(name));
  if (texts.children.length || others.length) {
    card.append(element("h4", { textContent: "Abilities" }));
    card.append(texts);
    if (others.length) card.append(element("p", { textContent: `Also: ${others.join(", ")}` }));
  }

  // Attached units and enhancements.
  const attached = (unit.parts || []).filter((part) => part.role && part.role !== "bodyguard");
  const enhancements = living.flatMap((m) => (m.enhancements || []).map((slug) => ({ model: m, ...serverEnhancement(slug) })));
  if (attached.length || enhancements.length || unit.warlord) {
    card.append(element("h4", { textContent: "Leaders and enhancements" }));
    for (const part of attached) card.append(element("p", { textContent: `${part.role === "support" ? "Support" : "Leader"}: ${part.name}${part.warlord ? " (Warlord)" : ""}` }));
    if (unit.warlord && !attached.some((p) => p.warlord)) card.append(element("p", { textContent: "Warlord" }));
    for (const e of enhancements) card.append(element("p", { title: e.text || "", textContent: `Enhancement: ${e.name} (on ${e.model.label || e.model.name})` }));
  }

  // Each model: wounds left and what it carries.
  card.append(element("h4", { textContent: "Models" }));
  card.append(table(["Model", "Wounds", "Wargear"], (unit.models || []).map((m) => [
    m.label || m.name, alive(m) ? `${m.wounds_left}/${m.W}` : "destroyed", [...(m.weapons || []), ...(m.wargear_abilities || [])].join(", "),
  ])));
  card.lastChild.dataset.models = "";

  // Active effects.
  const effects = (state.effects || []).filter((e) => e.selector?.unit === unitId);
  if (effects.length) {
    card.append(element("h4", { textContent: "Active effects" }));
    const list = element("ul", { className: "effects" });
    for (const effect of effects) {
      const started = effect.started_at ? ` (since round ${effect.started_at.battle_round}, ${phaseName(effect.started_at.phase)} phase)` : "";
      const item = element("li", { textContent: `${effectWhat(effect)}: from ${effectSource(effect, state)}${started}${effectEnds(effect) ? `, ${effectEnds(effect)}` : ""}` });
      item.dataset.effect = effect.id;
      list.append(item);
    }
    card.append(list);
  }

  const keywords = [...new Set(parts.flatMap(({ sheet }) => sheet?.faction_keywords || []))];
  card.append(element("h4", { textContent: "Keywords" }));
  card.append(element("p", { className: "keywords", textContent: (unit.keywords || []).join(", ") }));
  if (keywords.length) card.append(element("p", { className: "keywords", textContent: `Faction: ${keywords.join(", ")}` }));
}
