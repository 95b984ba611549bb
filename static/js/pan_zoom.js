// Pan and zoom the table by changing the SVG viewBox: wheel, drag on the empty table, pinch.
// Pointer Events throughout, so mouse, pen and touch behave the same.
export class PanZoom {
  constructor(svgElement, { isEmptyTable, margin = 2 } = {}) {
    this.svg = svgElement;
    this.isEmptyTable = isEmptyTable || (() => true);
    this.margin = margin;
    this.view = { x: -margin, y: -margin, width: 64, height: 48 };
    this.pointers = new Map();
    this.panning = null;
    this.enabled = true;
    svgElement.addEventListener("wheel", (event) => this.onWheel(event), { passive: false });
    svgElement.addEventListener("pointerdown", (event) => this.onDown(event));
    svgElement.addEventListener("pointermove", (event) => this.onMove(event));
    for (const type of ["pointerup", "pointercancel", "pointerleave"]) {
      svgElement.addEventListener(type, (event) => this.onUp(event));
    }
  }

  fit(width, depth) {
    this.full = { x: -this.margin, y: -this.margin, width: width + 2 * this.margin, height: depth + 2 * this.margin };
    this.view = { ...this.full };
    this.apply();
  }

  apply() {
    const { x, y, width, height } = this.view;
    this.svg.setAttribute("viewBox", `${x} ${y} ${width} ${height}`);
    this.svg.dataset.zoom = (this.full ? this.full.width / width : 1).toFixed(2);
    this.svg.dispatchEvent(new CustomEvent("viewchange"));
  }

  // The SVG point (viewBox units) under client coordinates.
  toView(clientX, clientY) {
    const matrix = this.svg.getScreenCTM();
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return { x: point.x, y: point.y };
  }

  zoomAt(clientX, clientY, factor) {
    const anchor = this.toView(clientX, clientY);
    const full = this.full || this.view;
    const width = Math.min(full.width * 1.5, Math.max(4, this.view.width / factor));
    const scale = width / this.view.width;
    this.view = {
      x: anchor.x - (anchor.x - this.view.x) * scale,
      y: anchor.y - (anchor.y - this.view.y) * scale,
      width,
      height: this.view.height * scale,
    };
    this.apply();
  }

  zoomBy(factor) {
    const box = this.svg.getBoundingClientRect();
    this.zoomAt(box.left + box.width / 2, box.top + box.height / 2, factor);
  }

  reset() {
    if (this.full) this.view = { ...this.full };
    this.apply();
  }

  onWheel(event) {
    event.preventDefault();
    // Firefox may report lines (deltaMode 1) or pages (2) where Chromium reports pixels.
    const pixels = event.deltaY * (event.deltaMode === 1 ? 16 : event.deltaMode === 2 ? 400 : 1);
    this.zoomAt(event.clientX, event.clientY, Math.exp(-pixels * 0.0015));
  }

  onDown(event) {
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      this.pinch = { distance: Math.hypot(a.x - b.x, a.y - b.y) };
      this.panning = null;
      return;
    }
    if (!this.enabled || !this.isEmptyTable(event)) return;
    this.panning = { x: event.clientX, y: event.clientY, view: { ...this.view } };
    this.svg.setPointerCapture?.(event.pointerId);
    this.svg.classList.add("panning");
  }

  onMove(event) {
    if (!this.pointers.has(event.pointerId)) return;
    this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (this.pinch && this.pointers.size === 2) {
      const [a, b] = [...this.pointers.values()];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (this.pinch.distance > 0) this.zoomAt((a.x + b.x) / 2, (a.y + b.y) / 2, distance / this.pinch.distance);
      this.pinch.distance = distance;
      return;
    }
    if (!this.panning) return;
    const box = this.svg.getBoundingClientRect();
    const unitsPerPixel = Math.max(this.panning.view.width / box.width, this.panning.view.height / box.height);
    this.view = {
      ...this.view,
      x: this.panning.view.x - (event.clientX - this.panning.x) * unitsPerPixel,
      y: this.panning.view.y - (event.clientY - this.panning.y) * unitsPerPixel,
    };
    this.apply();
  }

  onUp(event) {
    this.pointers.delete(event.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    if (this.panning) {
      this.panning = null;
      this.svg.classList.remove("panning");
    }
  }
}
