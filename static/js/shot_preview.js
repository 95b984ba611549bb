// The damage preview of the shot (or fight) being composed (issue 15): asked of the server, which runs the
// engine's own attack code on the game's state, each time the weapons or targets change; shown as
// the expected damage and models destroyed and a small chart of the models-destroyed distribution.
// Also, for each enemy unit the shooting unit cannot target, the engine's reason why not.
import { TABLE_WORDS, previewWords, unitName } from "./describe.js";
import { svg, svgText } from "./svg.js";

function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

function chart(distribution) {
  const values = distribution.slice(0, 21);
  const width = 100;
  const height = 40;
  const step = width / Math.max(values.length, 1);
  const top = Math.max(...values, 0.0001);
  const figure = svg("svg", { viewBox: `0 0 ${width} ${height + 9}`, preserveAspectRatio: "none", role: "img" });
  values.forEach((p, k) => {
    const h = (p / top) * height;
    const bar = svg("rect", { class: "bar", x: k * step + step * 0.1, y: height - h, width: step * 0.8, height: h });
    const title = svg("title");
    title.textContent = `${k} destroyed: ${Math.round(p * 100)}%`;
    bar.append(title);
    figure.append(bar);
    if (values.length <= 12 || k % 2 === 0) figure.append(svgText(k * step + step / 2, height + 7, String(k), { "text-anchor": "middle" }));
  });
  return figure;
}

export class ShotPreview {
  constructor(ask) {
    this.ask = ask; // (unit, assignments, kind) -> Promise of the server's preview
    this.cache = new Map();
    this.pending = null;
  }

  // Draw into `box` the preview of these assignments (debounced; answers cached by request).
  // `kind`: "shoot", or "fight" for the unit's melee attacks (its default weapons).
  show(box, state, unit, assignments, kind = "shoot") {
    if (!this.ask) return;
    const key = JSON.stringify([state?.version, unit, assignments, kind]);
    box.dataset.previewFor = key;
    const draw = (answer) => {
      if (box.dataset.previewFor === key) this.draw(box, state, answer);
    };
    if (this.cache.has(key)) {
      draw(this.cache.get(key));
      return;
    }
    box.replaceChildren(element("p", { className: "hint", textContent: TABLE_WORDS.workingOut }));
    clearTimeout(this.pending);
    this.pending = setTimeout(() => {
      this.ask(unit, assignments, kind).then((answer) => {
        if (!answer) return;
        if (this.cache.size > 50) this.cache.clear();
        this.cache.set(key, answer);
        draw(answer);
      });
    }, 150);
  }

  draw(box, state, answer) {
    box.replaceChildren();
    if (answer.refusal) {
      box.append(element("p", { className: "hint", textContent: `${answer.refusal.message} (${answer.refusal.rule})` }));
    }
    for (const [target, result] of Object.entries(answer.targets || {})) {
      const part = element("div", { className: "preview-target" });
      part.dataset.previewTarget = target;
      const destroyed = result.models_destroyed;
      part.append(element("p", {},
        element("strong", {}, unitName(state, target)),
        previewWords(result)));
      const figure = chart(destroyed.distribution);
      figure.dataset.chart = target;
      figure.setAttribute("aria-label", TABLE_WORDS.chancesChart(destroyed.distribution.length - 1));
      part.append(figure);
      box.append(part);
    }
    const out = Object.entries(answer.unavailable || {});
    if (out.length) {
      box.append(element("p", { className: "hint", textContent: TABLE_WORDS.notATarget }));
      const list = element("ul", { className: "unavailable" });
      for (const [unit, reason] of out) {
        const item = element("li", { textContent: reason });
        item.dataset.unavailable = unit;
        item.dataset.unitRef = unit;
        list.append(item);
      }
      box.append(list);
    }
  }
}
