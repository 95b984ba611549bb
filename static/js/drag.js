// Dragging a unit (every model keeps its place in the formation) or one model of it, with
// Pointer Events. It only produces proposed positions; the server decides whether they stand.
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

  // Called on pointerdown over a model glyph; returns true when a drag started.
  begin(event, unitId, modelId) {
    if (!this.draggable(unitId)) return false;
    const positions = this.positionsOf(unitId);
    if (!positions[modelId]) return false;
    const single = this.mode() === "model" || event.altKey;
    this.current = {
      unit: unitId,
      grabbed: modelId,
      single,
      from: this.board.toTable(event),
      origin: structuredClone(positions),
      positions: structuredClone(positions),
      pointerId: event.pointerId,
      moved: false,
    };
    this.board.svg.setPointerCapture?.(event.pointerId);
    this.board.svg.classList.add("dragging");
    return true;
  }

  move(event) {
    const drag = this.current;
    if (!drag || event.pointerId !== drag.pointerId) return false;
    const at = this.board.toTable(event);
    const dx = at.x - drag.from.x;
    const dy = at.y - drag.from.y;
    if (Math.hypot(dx, dy) > 0.05) drag.moved = true;
    for (const [id, [x, y, facing]] of Object.entries(drag.origin)) {
      if (drag.single && id !== drag.grabbed) continue;
      drag.positions[id] = [round(x + dx), round(y + dy), facing];
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

function round(value) {
  return Math.round(value * 1000) / 1000;
}
