// Draws the battlefield to scale from the server's state: one SVG user unit is one inch.
import { svg, svgText, pointsAttribute } from "./svg.js";
import { alive, baseDistance, baseSize, centroid, polygonCentroid } from "./geometry.js";
import { TABLE_WORDS, playerName, terrainKindName } from "./describe.js";
import { layoutLabels } from "./labels.js";

export function unitMarks(state, unit) {
  const marks = [];
  const shocked = (state.effects || []).some(
    (effect) => effect.selector?.unit === unit.id && effect.modifier?.status === "battle_shocked",
  );
  if (shocked) marks.push("battle-shocked");
  return marks;
}

export function placedModels(unit) {
  return (unit.models || []).filter((m) => alive(m) && m.x !== null && m.x !== undefined);
}

// Which units are engaged (display only: bases within the edition's horizontal engagement range).
export function engagedUnits(state) {
  const range = state.edition?.engagement_range_horizontal ?? 1;
  const onTable = Object.values(state.units || {}).filter((u) => u.location === "battlefield");
  const engaged = new Set();
  for (const a of onTable) {
    for (const b of onTable) {
      if (a.player === b.player || engaged.has(a.id)) continue;
      if (placedModels(a).some((ma) => placedModels(b).some((mb) => baseDistance(ma, mb) <= range + 1e-6))) {
        engaged.add(a.id);
        engaged.add(b.id);
      }
    }
  }
  return engaged;
}

function baseShape(model, className) {
  const base = model.base || { shape: "round", diameter_mm: 25 };
  const { half_length, half_width } = baseSize(base);
  if (base.shape === "round") return svg("circle", { r: half_length, class: className });
  if (base.shape === "oval") return svg("ellipse", { rx: half_length, ry: half_width, class: className });
  return svg("rect", {
    x: -half_length, y: -half_width, width: 2 * half_length, height: 2 * half_width, rx: 0.15, class: className,
  });
}

export function modelGlyph(unit, model, { ghost = false } = {}) {
  const { half_length } = baseSize(model.base);
  const group = svg("g", {
    class: `model player-${unit.player}${ghost ? " ghost" : ""}`,
    "data-model": model.id,
    "data-unit": unit.id,
    transform: `translate(${model.x} ${model.y})`,
  });
  const body = svg("g", { transform: `rotate(${model.facing || 0})` });
  body.append(baseShape(model, "base"));
  body.append(svg("line", { x1: 0, y1: 0, x2: half_length, y2: 0, class: "facing" }));
  group.append(body);
  const full = model.W !== undefined && model.wounds_left !== undefined && model.wounds_left < model.W;
  if (model.z > 0) group.append(svgText(0, -baseSize(model.base).half_width - 0.15, `↑${model.z}"`, { class: "height" }));
  if (model.wounds_left !== undefined && (model.W > 1 || full)) {
    group.append(svgText(0, 0.18, String(model.wounds_left), { class: `wounds${full ? " hurt" : ""}` }));
  }
  const title = svg("title");
  title.textContent = `${unit.name} · ${model.name || model.id}` +
    (model.wounds_left !== undefined ? ` · ${model.wounds_left}/${model.W ?? "?"} W` : "");
  group.append(title);
  return group;
}

export class Board {
  constructor(svgElement) {
    this.svg = svgElement;
    this.table = svg("g", { class: "table-layer" });
    this.layers = {};
    for (const name of ["ground", "zones", "terrain", "objectives", "rings", "units", "labels", "measure", "notes"]) {
      this.layers[name] = svg("g", { "data-layer": name });
      this.table.append(this.layers[name]);
    }
    this.svg.append(this.table);
    this.width = 60;
    this.depth = 44;
    // Labels are laid out again whenever the view changes (zoom, pan, a resized window).
    this.svg.addEventListener("viewchange", () => this.layoutLabels());
    if (typeof ResizeObserver !== "undefined") new ResizeObserver(() => this.layoutLabels()).observe(this.svg);
  }

  layoutLabels() {
    layoutLabels(this.svg, this.table, {
      flipped: this.svg.classList.contains("flipped"), bounds: { width: this.width, depth: this.depth },
    });
  }

  size(state) {
    const field = state?.mission?.battlefield || {};
    return { width: field.width || 60, depth: field.depth || 44 };
  }

  render(state, { selectedUnit = null, draft = null, highlight = [], seat = null } = {}) {
    const { width, depth } = this.size(state);
    this.width = width;
    this.depth = depth;
    this.svg.dataset.width = width;
    this.svg.dataset.depth = depth;
    this.orient(state, seat);
    this.drawGround(width, depth);
    this.drawZones(state);
    this.drawTerrain(state);
    this.drawObjectives(state);
    this.drawUnits(state, selectedUnit, draft, new Set(highlight));
    this.layoutLabels();
  }

  // Each player sees their own deployment zone at the bottom: the table is turned half round
  // (about its centre) for the player whose zone lies in the top half; words stay upright.
  orient(state, seat) {
    const zone = seat && state?.mission?.deployment_zones?.[String(seat)];
    const flipped = Boolean(zone && polygonCentroid(zone)[1] < this.depth / 2);
    this.svg.classList.toggle("flipped", flipped);
    this.svg.dataset.flipped = String(flipped);
    if (flipped) this.table.setAttribute("transform", `rotate(180 ${this.width / 2} ${this.depth / 2})`);
    else this.table.removeAttribute("transform");
  }

  drawGround(width, depth) {
    const layer = this.layers.ground;
    layer.replaceChildren(svg("rect", { x: 0, y: 0, width, height: depth, class: "surface", "data-surface": "" }));
    const grid = svg("g", { class: "grid" });
    for (let x = 6; x < width; x += 6) grid.append(svg("line", { x1: x, y1: 0, x2: x, y2: depth }));
    for (let y = 6; y < depth; y += 6) grid.append(svg("line", { x1: 0, y1: y, x2: width, y2: y }));
    layer.append(grid);
  }

  drawZones(state) {
    const layer = this.layers.zones;
    layer.replaceChildren();
    const zones = state?.mission?.deployment_zones || {};
    const entries = Array.isArray(zones) ? zones.map((z) => [String(z.player), z.polygon]) : Object.entries(zones);
    for (const [player, polygon] of entries) {
      layer.append(svg("polygon", { points: pointsAttribute(polygon), class: `zone player-${player}`, "data-zone": player }));
      // The label goes along the zone's table edge, clear of markers in the middle of the zone.
      const [cx, cy] = polygonCentroid(polygon);
      const ys = polygon.map((p) => p[1]);
      const y = cy < this.depth / 2 ? Math.min(...ys) + 1.2 : Math.max(...ys) - 0.6;
      layer.append(svgText(cx, y, TABLE_WORDS.deploymentZone(playerName(player)), { class: `zone-label player-${player}` }));
    }
  }

  drawTerrain(state) {
    const layer = this.layers.terrain;
    layer.replaceChildren();
    for (const piece of state?.mission?.terrain || []) {
      const polygon = piece.footprint || piece.polygon;
      if (!polygon) continue;
      const kind = piece.kind || "terrain";
      // Whether it obscures is the server's to say (`state.display.terrain`).
      const shown = state?.display?.terrain?.[String(piece.id)] || {};
      const obscuring = Boolean(shown.obscuring ?? piece.obscuring);
      const group = svg("g", { class: `terrain kind-${kind}${obscuring ? " obscuring" : ""}`, "data-terrain": piece.id || "" });
      group.append(svg("polygon", { points: pointsAttribute(polygon), class: "footprint" }));
      for (const feature of piece.features || []) {
        if (feature.polygon) group.append(svg("polygon", { points: pointsAttribute(feature.polygon), class: `feature ${feature.category || feature.kind || ""}` }));
      }
      const [cx, cy] = polygonCentroid(polygon);
      const label = `${shown.kind || terrainKindName(kind)}${piece.height ? ` ${piece.height}"` : ""}${obscuring ? " · obscuring" : ""}`;
      group.append(svgText(cx, cy, label, { class: "terrain-label" }));
      const title = svg("title");
      title.textContent = `${piece.name || piece.id || ""} ${label}`.trim();
      group.append(title);
      layer.append(group);
    }
  }

  drawObjectives(state) {
    const layer = this.layers.objectives;
    layer.replaceChildren();
    const diameter = (state?.edition?.objective_marker_diameter_mm ?? 40) / 25.4;
    const range = state?.edition?.objective_range_horizontal ?? 3;
    const markers = state?.objectives?.length ? state.objectives : state?.mission?.objective_markers || [];
    for (const marker of markers) {
      const controller = marker.controller ?? null;
      const owner = controller ? `player-${controller}` : "uncontrolled";
      const group = svg("g", {
        class: `objective ${owner}`, "data-objective": marker.id, "data-controller": controller ?? "",
        transform: `translate(${marker.x} ${marker.y})`,
      });
      group.append(svg("circle", { r: diameter / 2 + range, class: "objective-range" }));
      // A marker is a ring (in its controller's colour) around a small dot: not a base.
      group.append(svg("circle", { r: diameter / 2, class: "marker" }));
      group.append(svg("circle", { r: diameter / 6, class: "marker-core" }));
      group.append(svgText(0, diameter / 2 + 0.9, controller ? `${marker.id} · ${playerName(controller)}` : marker.id, { class: "objective-label" }));
      layer.append(group);
    }
  }

  drawUnits(state, selectedUnit, draft, highlight = new Set()) {
    const units = this.layers.units;
    const labels = this.layers.labels;
    units.replaceChildren();
    labels.replaceChildren();
    const engaged = engagedUnits(state);
    for (const unit of Object.values(state?.units || {})) {
      if (unit.location !== "battlefield" && !(draft && draft.unit === unit.id)) continue;
      const marks = unitMarks(state, unit);
      if (engaged.has(unit.id)) marks.push("engaged");
      if (unit.id === selectedUnit) marks.push("selected");
      if (highlight.has(unit.id)) marks.push("eligible");
      const group = svg("g", { class: `unit player-${unit.player} ${marks.join(" ")}`, "data-unit-group": unit.id });
      const models = placedModels(unit).map((m) => (draft && draft.unit === unit.id && draft.positions[m.id]
        ? { ...m, x: draft.positions[m.id][0], y: draft.positions[m.id][1], facing: draft.positions[m.id][2], z: draft.positions[m.id][3] ?? m.z }
        : m));
      const drawn = draft && draft.unit === unit.id && unit.location !== "battlefield"
        ? (unit.models || []).filter(alive).filter((m) => draft.positions[m.id]).map((m) => ({
          ...m, x: draft.positions[m.id][0], y: draft.positions[m.id][1], facing: draft.positions[m.id][2],
        }))
        : models;
      for (const model of drawn) group.append(modelGlyph(unit, model));
      // A destroyed model being returned (Apothecary's Narthecium) is dragged as a ghost base.
      if (draft && draft.unit === unit.id && unit.location === "battlefield") {
        for (const model of (unit.models || []).filter((m) => !alive(m) && draft.positions[m.id])) {
          const [x, y, facing] = draft.positions[model.id];
          group.append(modelGlyph(unit, { ...model, x, y, facing }, { ghost: true }));
        }
      }
      units.append(group);
      if (!drawn.length) continue;
      // The label goes above the unit as the player sees it: on a turned table, past its far side.
      const flipped = this.svg.classList.contains("flipped");
      const top = flipped
        ? Math.max(...drawn.map((m) => m.y + baseSize(m.base).half_width)) + 1.3
        : Math.min(...drawn.map((m) => m.y - baseSize(m.base).half_width));
      const centre = centroid(drawn);
      const span = Math.max(...drawn.map((m) => m.y + baseSize(m.base).half_width)) -
        Math.min(...drawn.map((m) => m.y - baseSize(m.base).half_width)) + 0.5;
      const woundsLeft = drawn.reduce((s, m) => s + (m.wounds_left ?? 0), 0);
      const text = `${unit.name} (${drawn.length}${woundsLeft ? ` · ${woundsLeft}W` : ""})` +
        (marks.includes("battle-shocked") ? " · battle-shocked" : "") + (marks.includes("engaged") ? " · engaged" : "");
      labels.append(svgText(centre.x, top - 0.5, text, {
        class: `unit-label player-${unit.player} ${marks.join(" ")}`, "data-unit-label": unit.id, "data-span": span.toFixed(2),
      }));
    }
  }

  // The unit hovered anywhere on the page (roster, prompt, target list, log) is lit on the board.
  highlight(unitId) {
    for (const lit of this.svg.querySelectorAll(".hovered")) lit.classList.remove("hovered");
    if (!unitId) return;
    for (const node of this.svg.querySelectorAll(`[data-unit-group="${CSS.escape(unitId)}"], [data-unit-label="${CSS.escape(unitId)}"]`)) node.classList.add("hovered");
  }

  // A reason from the server shown beside a model (or a point), until the next change.
  note(point, text, code) {
    const layer = this.layers.notes;
    layer.replaceChildren();
    if (!text) return;
    const group = svg("g", { class: "note", "data-note": code || "", transform: `translate(${point.x} ${point.y})` });
    const label = svgText(1.2, -1.2, text, { class: "note-text" });
    group.append(svg("rect", { x: 0.8, y: -2.3, width: Math.min(40, 0.42 * text.length + 0.8), height: 1.6, rx: 0.3, class: "note-box" }));
    group.append(label);
    layer.append(group);
  }

  clearNote() {
    this.layers.notes.replaceChildren();
  }

  // Table coordinates (inches) of a pointer event.
  toTable(event) {
    const matrix = this.table.getScreenCTM();
    if (!matrix) return { x: 0, y: 0 };
    const point = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
    return { x: point.x, y: point.y };
  }
}
