// Measuring: lines with their length in inches, between two points, a point and a base, or two
// bases (closest edges, as the rules measure). Display arithmetic only.
import { svg, svgText } from "./svg.js";
import { baseDistance, formatInches, pointToBaseDistance } from "./geometry.js";

export function measure(from, to) {
  if (from.model && to.model) return baseDistance(from.model, to.model);
  if (from.model) return pointToBaseDistance(to, from.model);
  if (to.model) return pointToBaseDistance(from, to.model);
  return Math.hypot(to.x - from.x, to.y - from.y);
}

export function rulerLine(from, to, distance, className = "ruler") {
  const group = svg("g", { class: className });
  group.append(svg("line", { x1: from.x, y1: from.y, x2: to.x, y2: to.y }));
  const label = svgText((from.x + to.x) / 2, (from.y + to.y) / 2 - 0.4, formatInches(distance), { class: "ruler-label" });
  group.append(label);
  return group;
}

// The free ruler tool: press on the table (or a base), drag, read; press again elsewhere to restart.
export class Ruler {
  constructor(board, { modelAt }) {
    this.board = board;
    this.modelAt = modelAt;
    this.active = false;
    this.start = null;
    this.layer = svg("g", { "data-ruler": "" });
    board.layers.measure.append(this.layer);
  }

  anchor(event) {
    const point = this.board.toTable(event);
    const model = this.modelAt(event);
    return model ? { x: model.x, y: model.y, model } : point;
  }

  down(event) {
    this.start = this.anchor(event);
    this.layer.replaceChildren();
  }

  move(event) {
    if (!this.start) return;
    const end = this.anchor(event);
    const distance = measure(this.start, end);
    this.layer.replaceChildren(rulerLine(this.start, end, distance, "ruler free"));
    this.layer.dataset.distance = distance.toFixed(2);
  }

  up(event) {
    this.move(event);
    this.start = null;
  }

  clear() {
    this.layer.replaceChildren();
    delete this.layer.dataset.distance;
  }
}
