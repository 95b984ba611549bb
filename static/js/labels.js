// Keeps the board's words legible and apart at every zoom level (issue 15).
//
// Labels are drawn in table inches, so zooming out would shrink them below reading size and
// zooming in would blow them up: their size is kept between MIN_PX and MAX_PX on the screen (the
// `--label-scale` of the board). A bigger label takes more of the table, so after each render, zoom
// or resize the labels are laid out again: terrain labels first, then deployment zones, objective
// markers and units, each moved up or down the screen in steps of its own height to the nearest
// place where it overlaps no model and no label already placed. Display only: nothing here is a rule.

const MIN_PX = 11;
const MAX_PX = 16;
const BASE_FONT = 0.7; // inches: the unit label's size at scale 1 (site.css)
const STEPS = 40; // how far (in label heights) a label may go from where it belongs
const GAP = 0.05; // inches between two labels

// Placement order: what is fixed to the table (terrain, zones) before what moves (units).
const KINDS = [".terrain-label", ".zone-label", ".objective-label", ".unit-label"];

export function pixelsPerInch(table) {
  const matrix = table.getScreenCTM();
  return matrix ? Math.hypot(matrix.a, matrix.b) : 0;
}

export function labelScale(ppi) {
  if (!(ppi > 0)) return 1;
  const px = BASE_FONT * ppi;
  return Math.min(MAX_PX, Math.max(MIN_PX, px)) / px;
}

function overlaps(a, b) {
  return a.x < b.x + b.width + GAP && b.x < a.x + a.width + GAP && a.y < b.y + b.height + GAP && b.y < a.y + a.height + GAP;
}

// Where a label may go, nearest first: its own place, then further up or down the screen (a unit
// label also below its unit: `data-span` is the unit's depth on the table), each also shifted to
// either side by half or all of its width; sorted by how far that is from its own place.
function offsets(label, box, up) {
  const span = Number(label.dataset.span || 0);
  const below = span ? -up * (span + box.height) : 0;
  const vertical = [0];
  if (below) vertical.push(below);
  for (let step = 1; step <= STEPS; step += 1) vertical.push(up * step * box.height, below - up * step * box.height);
  const found = [];
  for (const dy of vertical) {
    for (const dx of [0, -0.5, 0.5, -1, 1]) found.push({ dx: dx * box.width, dy, cost: Math.abs(dy) + Math.abs(dx * box.width) * 0.6 });
  }
  return found.sort((a, b) => a.cost - b.cost);
}

// An element's box in table inches: its own box moved by the groups it sits in (an objective's
// label is drawn inside the marker's group, a model's base inside the model's). Only translations
// are applied: turning words upright (the flipped table) does not change their box.
function tableBox(element, table, frameOf = element.parentNode) {
  const own = element.getBBox();
  if (!own.width) return null;
  const parent = frameOf.getCTM();
  const frame = table.getCTM();
  const shift = parent && frame ? frame.inverse().multiply(parent) : { e: 0, f: 0 };
  return { x: own.x + shift.e, y: own.y + shift.f, width: own.width, height: own.height };
}

// Lays out every label of the board's SVG; `flipped` when the table is turned half round.
// A label stays on the table (`bounds`: its width and depth in inches).
export function layoutLabels(svgElement, table, { flipped = false, bounds = null } = {}) {
  const ppi = pixelsPerInch(table);
  if (!(ppi > 0)) return;
  svgElement.style.setProperty("--label-scale", labelScale(ppi).toFixed(3));
  const up = flipped ? 1 : -1; // screen-up in table y
  // Models cannot move: words go around them, so that no base hides a label.
  const placed = [...svgElement.querySelectorAll(".model")].map((m) => tableBox(m, table, m)).filter(Boolean);
  for (const kind of KINDS) {
    for (const label of svgElement.querySelectorAll(kind)) {
      const homeX = Number(label.dataset.homeX ?? label.getAttribute("x"));
      const homeY = Number(label.dataset.homeY ?? label.getAttribute("y"));
      Object.assign(label.dataset, { homeX: String(homeX), homeY: String(homeY) });
      label.setAttribute("x", homeX);
      label.setAttribute("y", homeY);
      const box = tableBox(label, table);
      if (!box) continue;
      let chosen = { dx: 0, dy: 0, moved: box };
      for (const { dx, dy } of offsets(label, box, up)) {
        const moved = { x: box.x + dx, y: box.y + dy, width: box.width, height: box.height };
        const off = bounds && (moved.y < -0.2 || moved.y + moved.height > bounds.depth + 0.2
          || moved.x < -0.2 || moved.x + moved.width > bounds.width + 0.2);
        if (!off && !placed.some((other) => overlaps(moved, other))) {
          chosen = { dx, dy, moved };
          break;
        }
      }
      label.setAttribute("x", homeX + chosen.dx);
      label.setAttribute("y", homeY + chosen.dy);
      label.classList.toggle("displaced", chosen.dx !== 0 || chosen.dy !== 0);
      placed.push(chosen.moved);
    }
  }
}
