// Display arithmetic on the table: inches, bases in millimetres, distances between bases.
// Only for drawing and for showing numbers while a player measures; the server checks everything.
export const MM_PER_INCH = 25.4;

export function baseSize(base) {
  // Half length along the facing and half width across it, in inches.
  if (!base) return { half_length: 0.5, half_width: 0.5 };
  if (base.shape === "round") {
    const radius = base.diameter_mm / MM_PER_INCH / 2;
    return { half_length: radius, half_width: radius };
  }
  return { half_length: base.length_mm / MM_PER_INCH / 2, half_width: base.width_mm / MM_PER_INCH / 2 };
}

export function boundingRadius(base) {
  const { half_length, half_width } = baseSize(base);
  return base && base.shape === "hull" ? Math.hypot(half_length, half_width) : Math.max(half_length, half_width);
}

// Distance from the centre of a base to its edge in direction `angle` (radians, table frame).
export function edgeReach(base, facingDegrees, angle) {
  const { half_length: a, half_width: b } = baseSize(base);
  const local = angle - ((facingDegrees || 0) * Math.PI) / 180;
  const c = Math.abs(Math.cos(local));
  const s = Math.abs(Math.sin(local));
  if (!base || base.shape === "round") return a;
  if (base.shape === "oval") return (a * b) / Math.hypot(b * c, a * s);
  return Math.min(c > 1e-9 ? a / c : Infinity, s > 1e-9 ? b / s : Infinity);
}

// Closest distance between two bases (0 when they touch or overlap): centre distance minus the
// reach of each base along the line between them. Exact for round bases, close for the others.
export function baseDistance(a, b) {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const centre = Math.hypot(dx, dy);
  const angle = Math.atan2(dy, dx);
  const gap = centre - edgeReach(a.base, a.facing, angle) - edgeReach(b.base, b.facing, angle + Math.PI);
  return Math.max(0, gap);
}

export function pointToBaseDistance(point, model) {
  const dx = point.x - model.x;
  const dy = point.y - model.y;
  return Math.max(0, Math.hypot(dx, dy) - edgeReach(model.base, model.facing, Math.atan2(dy, dx)));
}

export function centreDistance(a, b) {
  return Math.hypot(b.x - a.x, b.y - a.y);
}

export function formatInches(value) {
  return `${value.toFixed(1)}"`;
}

export function alive(model) {
  return model.wounds_left === undefined || model.wounds_left > 0;
}

export function centroid(models) {
  const n = models.length || 1;
  return {
    x: models.reduce((sum, m) => sum + m.x, 0) / n,
    y: models.reduce((sum, m) => sum + m.y, 0) / n,
  };
}

export function polygonCentroid(polygon) {
  const n = polygon.length || 1;
  return [polygon.reduce((s, p) => s + p[0], 0) / n, polygon.reduce((s, p) => s + p[1], 0) / n];
}

// Whether the point lies inside the polygon [[x, y], ...] (even-odd rule).
export function insidePolygon(point, polygon) {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i];
    const [xj, yj] = polygon[j];
    if ((yi > point.y) !== (yj > point.y) && point.x < ((xj - xi) * (point.y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
