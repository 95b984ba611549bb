// Dragging a unit (every model keeps its place in the formation) or one model of it, and turning
// models by a handle or by keys, with Pointer Events. It only produces proposed positions
// `{modelId: [x, y, facing]}` (with a height `z` as a fourth value when the player set one); the server decides whether they stand.
export class Drag {
  constructor(board, { draggable, positionsOf, mode, onChange, onRelease }) {
    this.board = board;
    this.draggable = draggable; // (unitId) -> true when the player may place this unit now
    this.positionsOf = positionsOf; // (unitId) -> {modelId: [x, y, facing]} where it stands now
    this.mode = mode; // () -> "unit" | "model"
    this.onChange = onChange;
    this.onRelease = onRelease;
    this.current = null;
  }

  start(event, unitId, modelId, kind) {
    if (!this.draggable(unitId)) return false;
    const positions = this.positionsOf(unitId);
    if (!positions[modelId]) return false;
    const from = this.board.toTable(event);
    const [px, py] = positions[modelId];
    this.current = {
      kind, // "move" | "turn"
      unit: unitId,
      grabbed: modelId,
      single: this.mode() === "model" || event.altKey,
      from,
      startAngle: bearing({ x: px, y: py }, from),
      origin: structuredClone(positions),
      positions: structuredClone(positions),
      pointerId: event.pointerId,
      moved: false,
    };
    this.board.svg.setPointerCapture?.(event.pointerId);
    this.board.svg.classList.add("dragging");
    return true;
  }

  // Called on pointerdown over a model glyph; returns true when a drag started.
  begin(event, unitId, modelId) {
    return this.start(event, unitId, modelId, "move");
  }

  // Called on pointerdown over a model's turning handle: the model (or, moving whole units, every
  // model of the unit about its own centre) turns as the pointer goes round it.
  beginTurn(event, unitId, modelId) {
    return this.start(event, unitId, modelId, "turn");
  }

  move(event) {
    const drag = this.current;
    if (!drag || event.pointerId !== drag.pointerId) return false;
    const at = this.board.toTable(event);
    if (drag.kind === "turn") {
      const [px, py] = drag.origin[drag.grabbed];
      const delta = bearing({ x: px, y: py }, at) - drag.startAngle;
      if (Math.abs(delta) > 0.5) drag.moved = true;
      drag.positions = turned(drag.origin, drag.single ? [drag.grabbed] : null, delta);
      this.onChange(drag);
      return true;
    }
    const dx = at.x - drag.from.x;
    const dy = at.y - drag.from.y;
    if (Math.hypot(dx, dy) > 0.05) drag.moved = true;
    for (const [id, [x, y, facing, ...height]] of Object.entries(drag.origin)) {
      if (drag.single && id !== drag.grabbed) continue;
      drag.positions[id] = [round(x + dx), round(y + dy), facing, ...height];
    }
    this.onChange(drag);
    return true;
  }

  end(event) {
    const drag = this.current;
    if (!drag || event.pointerId !== drag.pointerId) return false;
    this.current = null;
    this.board.svg.classList.remove("dragging");
    this.onRelease(drag, event.type === "pointercancel");
    return true;
  }
}

// The positions with the models `ids` (all when null) turned by `degrees` about their centres.
export function turned(positions, ids, degrees) {
  const result = structuredClone(positions);
  for (const [id, [x, y, facing, ...height]] of Object.entries(positions)) {
    if (ids && !ids.includes(id)) continue;
    result[id] = [x, y, normalDegrees((facing || 0) + degrees), ...height];
  }
  return result;
}

// Degrees clockwise from the table's x axis (SVG's y goes down), as `facing` is drawn.
function bearing(centre, point) {
  return (Math.atan2(point.y - centre.y, point.x - centre.x) * 180) / Math.PI;
}

function normalDegrees(value) {
  return Math.round((((value % 360) + 360) % 360) * 10) / 10;
}

function round(value) {
  return Math.round(value * 1000) / 1000;
}
