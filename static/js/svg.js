// Creating SVG elements: one small helper so the drawing modules read like the picture they draw.
export const SVG_NS = "http://www.w3.org/2000/svg";

export function svg(tag, attributes = {}, children = []) {
  const element = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined && value !== false) element.setAttribute(name, value);
  }
  for (const child of children) element.append(child);
  return element;
}

export function svgText(x, y, text, attributes = {}) {
  const element = svg("text", { x, y, ...attributes });
  element.textContent = text;
  return element;
}

export function pointsAttribute(polygon) {
  return polygon.map(([x, y]) => `${x},${y}`).join(" ");
}
