// A unit's datacard (issue 15), for any unit, theirs or yours: the stat line of each model
// profile, every weapon it carries with its abilities (each ability's rule text on hover), its
// abilities with their text, keywords, attached Leaders and their enhancements, wargear and wounds
// left per model, starting strength and half-strength, and every active effect with its source
// and when it ends. Everything is read from the state the server sent; its words are describe.js's
// (DATACARD_WORDS).
import { DATACARD_WORDS as WORDS, effectEnds, effectSource, effectWhat, playerName, serverEnhancement, weaponAbility } from "./describe.js";
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
    const word = element("span", { className: "ability-word", textContent: label, title: text ? WORDS.abilityTitle(text, rule) : label });
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
  const closer = element("button", { type: "button", className: "close", textContent: "×", title: WORDS.close });
  closer.addEventListener("click", close);
  card.append(closer);
  card.append(element("h3", { textContent: unit.name }));
  const badges = unitBadges(state, unit, engagedUnits(state));
  const { models, wounds, of } = woundsOf(unit);
  const strength = unit.starting_strength ?? (unit.parts || []).reduce((sum, p) => sum + (p.starting_strength || 0), 0);
  card.append(element("p", { className: "summary" },
    WORDS.summary(playerName(unit.player), models, wounds, of),
    // A unit of one model is never "half-strength (0.5 models)": its wounds say how it stands.
    strength > 1 ? WORDS.strength(strength, state.edition?.half_strength === "below_half") : "",
    badges.length ? ` · ${badges.join(", ")}` : ""));
  if (!pinned) card.append(element("p", { className: "pinned-note", textContent: WORDS.pinNote }));
  const parts = sheetsOf(state, unit);
  const living = (unit.models || []).filter(alive);

  // Stat lines: one per profile (name and characteristics) among the unit's models.
  const profiles = new Map();
  for (const model of unit.models || []) {
    const key = [model.name, model.M, model.T, model.Sv, model.invulnerable_save, model.W, model.Ld, model.OC].join("|");
    if (!profiles.has(key)) profiles.set(key, { model, count: 0 });
    if (alive(model)) profiles.get(key).count += 1;
  }
  card.append(element("h4", { textContent: WORDS.profiles }));
  card.append(table(WORDS.profileHead,
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
    card.append(element("h4", { textContent: WORDS.weapons(type) }));
    card.append(table(WORDS.weaponHead(type),
      list.map((w) => [`${w.name}${w.bearers > 1 ? ` ×${w.bearers}` : ""}`, w.range ? `${w.range}"` : WORDS.melee, String(w.A), plus(w.skill), String(w.S), String(w.AP), String(w.D), abilityList(w.abilities || [])])));
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
    card.append(element("h4", { textContent: WORDS.abilities }));
    card.append(texts);
    if (others.length) card.append(element("p", { textContent: WORDS.also(others) }));
  }

  // Attached units and enhancements.
  const attached = (unit.parts || []).filter((part) => part.role && part.role !== "bodyguard");
  const enhancements = living.flatMap((m) => (m.enhancements || []).map((slug) => ({ model: m, ...serverEnhancement(slug) })));
  if (attached.length || enhancements.length || unit.warlord) {
    card.append(element("h4", { textContent: WORDS.leaders }));
    for (const part of attached) card.append(element("p", { textContent: WORDS.attached(part.role, part.name, part.warlord) }));
    if (unit.warlord && !attached.some((p) => p.warlord)) card.append(element("p", { textContent: WORDS.warlord }));
    for (const e of enhancements) card.append(element("p", { title: e.text || "", textContent: WORDS.enhancement(e.name, e.model.label || e.model.name) }));
  }

  // Each model: wounds left and what it carries.
  card.append(element("h4", { textContent: WORDS.models }));
  card.append(table(WORDS.modelHead, (unit.models || []).map((m) => [
    m.label || m.name, alive(m) ? `${m.wounds_left}/${m.W}` : WORDS.destroyed, [...(m.weapons || []), ...(m.wargear_abilities || [])].join(", "),
  ])));
  card.lastChild.dataset.models = "";

  // Active effects.
  const effects = (state.effects || []).filter((e) => e.selector?.unit === unitId);
  if (effects.length) {
    card.append(element("h4", { textContent: WORDS.effects }));
    const list = element("ul", { className: "effects" });
    for (const effect of effects) {
      const item = element("li", { textContent: WORDS.effect(effectWhat(effect), effectSource(effect, state), effect.started_at, effectEnds(effect)) });
      item.dataset.effect = effect.id;
      list.append(item);
    }
    card.append(list);
  }

  const keywords = [...new Set(parts.flatMap(({ sheet }) => sheet?.faction_keywords || []))];
  card.append(element("h4", { textContent: WORDS.keywords }));
  card.append(element("p", { className: "keywords", textContent: (unit.keywords || []).join(", ") }));
  if (keywords.length) card.append(element("p", { className: "keywords", textContent: WORDS.faction(keywords) }));
}
