// Range rings drawn around a unit's bases: weapon ranges and half ranges, the charge range, the
// maximum move while dragging, engagement range and coherency. Display only.
import { svg, svgText } from "./svg.js";
import { baseSize, boundingRadius } from "./geometry.js";
import { TABLE_WORDS } from "./describe.js";

// The ranged weapons a unit's living models carry (each model's `weapons`, set by the server at
// muster), with their profiles from the datasheets of its parts (Bodyguard, Leader, Support).
const profileOf = (profileName, weaponName) =>
  profileName === weaponName || profileName.startsWith(`${weaponName} – `) || profileName.startsWith(`${weaponName} - `);

export function unitWeapons(state, unit) {
  const sheets = state.datasheets || {};
  const sheetOf = (slug) => (Array.isArray(sheets) ? sheets.find((s) => s.slug === slug) : sheets[slug]);
  const found = new Map();
  for (const model of unit.models || []) {
    if (!model.wounds_left) continue;
    const sheet = sheetOf((unit.parts || [])[model.part || 0]?.datasheet || unit.datasheet);
    for (const weapon of sheet?.weapons || []) {
      const carried = (model.weapons || []).some((name) => profileOf(weapon.name, name));
      if (carried && weapon.type === "ranged" && weapon.range) found.set(`${weapon.name}|${weapon.range}`, weapon);
    }
  }
  return [...found.values()].sort((a, b) => b.range - a.range);
}

// A union of the areas within `distance` of each base: circles drawn opaque in a translucent group.
function reachArea(models, distance, className) {
  const group = svg("g", { class: `ring ${className}` });
  for (const model of models) {
    group.append(svg("circle", { cx: model.x, cy: model.y, r: distance + boundingRadius(model.base) }));
  }
  return group;
}

function ringLabel(models, distance, text, className) {
  const top = models.reduce((best, m) => (m.y - baseSize(m.base).half_width < best.y ? m : best), models[0]);
  return svgText(top.x, top.y - distance - boundingRadius(top.base) + 0.8, text, { class: `ring-label ${className}` });
}

export function weaponRings(models, weapons) {
  const layer = svg("g", { "data-rings": "weapons" });
  const distinct = [...new Map(weapons.map((w) => [w.range, w])).values()];
  for (const weapon of distinct) {
    const names = weapons.filter((w) => w.range === weapon.range).map((w) => w.name).join(", ");
    layer.append(reachArea(models, weapon.range, "weapon-range"));
    layer.append(reachArea(models, weapon.range / 2, "half-range"));
    layer.append(ringLabel(models, weapon.range, `${names} ${weapon.range}"`, "weapon-range"));
    layer.append(ringLabel(models, weapon.range / 2, TABLE_WORDS.halfRange(weapon.range / 2), "half-range"));
  }
  return layer;
}

export function chargeRing(models, distance) {
  const layer = svg("g", { "data-rings": "charge" });
  layer.append(reachArea(models, distance, "charge-range"));
  layer.append(ringLabel(models, distance, `charge ${distance}"`, "charge-range"));
  return layer;
}

// While dragging: where each model's centre may go (max move) from where it started.
export function moveRings(startModels, maxDistance) {
  const layer = svg("g", { "data-rings": "move" });
  for (const model of startModels) {
    layer.append(svg("circle", { cx: model.x, cy: model.y, r: maxDistance, class: "ring-outline max-move" }));
  }
  return layer;
}

export function engagementRings(enemyModels, distance) {
  const layer = svg("g", { "data-rings": "engagement" });
  layer.append(reachArea(enemyModels, distance, "engagement-range"));
  return layer;
}

export function coherencyRings(models, distance) {
  const layer = svg("g", { "data-rings": "coherency" });
  for (const model of models) {
    layer.append(svg("circle", { cx: model.x, cy: model.y, r: distance + boundingRadius(model.base), class: "ring-outline coherency" }));
  }
  return layer;
}
