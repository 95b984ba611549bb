// The action panel: offers exactly what the server's legal_actions list, nothing more. Choosing
// sends the action (templates are completed with the player's targets or dragged positions).
import { choiceWords, unitName } from "./describe.js";

const TEMPLATE_ONLY = ["max_distance", "candidates", "max_units", "weapons", "embark_options", "near", "suggested", "mode", "fewest_models", "firing_deck_options"];
const UNIT_ACTION_LABELS = {
  remain_stationary: "Remain stationary",
  advance: "Advance",
  fall_back: "Fall back",
  fight: "Fight",
};

export function completeAction(template, fields) {
  const action = { ...template, ...fields };
  for (const key of TEMPLATE_ONLY) delete action[key];
  // An "optional" field (the 10e pile-in of `fight`) the player did not fill is left out.
  for (const [key, value] of Object.entries(action)) if (value === "optional") delete action[key];
  return action;
}

// The `shoot` template lists each ranged weapon with the targets it may shoot at.
function shootingTargets(action) {
  return [...new Set((action.weapons || []).flatMap((option) => option.targets))];
}

// Every weapon that can shoot at one of the chosen targets does, at the first of them it can;
// [PISTOL]/[CLOSE-QUARTERS] weapons only when no other weapon shoots (a model fires one kind).
export function shootingAssignments(action, chosen) {
  const assign = (options) => options.flatMap((option) => {
    const target = chosen.find((t) => option.targets.includes(t));
    return target ? [{ weapon: option.weapon, target }] : [];
  });
  const options = action.weapons || [];
  const others = assign(options.filter((option) => !option.close_quarters));
  return others.length ? others : assign(options.filter((option) => option.close_quarters));
}

export function isPositionTemplate(action) {
  return action.positions === "required" || (action.type === "decide" && action.choice === "positions");
}

function button(label, dataset, onClick, className = "") {
  const element = document.createElement("button");
  element.type = "button";
  element.textContent = label;
  if (className) element.className = className;
  Object.assign(element.dataset, dataset);
  element.addEventListener("click", onClick);
  return element;
}

function section(title) {
  const element = document.createElement("section");
  if (title) {
    const heading = document.createElement("h3");
    heading.textContent = title;
    element.append(heading);
  }
  return element;
}

// Dice positions (re-roll choices) read as die numbers; everything else in words.
function optionLabel(option) {
  if (Array.isArray(option) && option.every(Number.isInteger)) {
    return `re-roll die ${option.map((i) => i + 1).join(", ")}`;
  }
  return choiceWords(option);
}

export class ActionPanel {
  constructor(container, { send, select, place, confirmPlacement, cancelPlacement }) {
    this.container = container;
    this.send = send;
    this.select = select;
    this.place = place;
    this.confirmPlacement = confirmPlacement;
    this.cancelPlacement = cancelPlacement;
    this.timer = null;
  }

  render({ state, legalActions, seat, selectedUnit, draft }) {
    clearInterval(this.timer);
    this.container.replaceChildren();
    if (!seat) {
      this.container.append(Object.assign(document.createElement("p"), { textContent: "You are watching: the board and dice are read-only.", className: "hint" }));
      return;
    }
    const actions = legalActions || [];
    if (!actions.length) {
      this.container.append(Object.assign(document.createElement("p"), { textContent: state && state.stage !== "ended" ? "Waiting for your opponent." : "No action now.", className: "hint", "data-waiting": "" }));
      return;
    }
    const decisions = actions.filter((a) => a.type === "decide");
    if (decisions.length) this.renderDecision(state, decisions, draft);
    const reserves = actions.find((a) => a.type === "declare_reserves");
    if (reserves) this.renderReserves(state, reserves);
    const placements = actions.filter((a) => ["deploy", "arrive", "disembark"].includes(a.type));
    if (placements.length) this.renderPlacements(state, placements, draft);
    this.renderUnits(state, actions, selectedUnit, draft);
    const known = new Set(["decide", "declare_reserves", "deploy", "arrive", "disembark", "move", "shoot", "declare_charge", "end_phase", ...Object.keys(UNIT_ACTION_LABELS)]);
    const other = actions.filter((a) => !known.has(a.type) && !Object.values(a).includes("required"));
    if (other.length) {
      const box = section("Other actions");
      for (const action of other) {
        const label = action.type === "embark" ? `${unitName(state, action.unit)}: embark within ${unitName(state, action.transport)}` : choiceWords(action.type);
        box.append(button(label, { action: action.type }, () => this.send(completeAction(action, {}))));
      }
      this.container.append(box);
    }
    const end = actions.find((a) => a.type === "end_phase");
    if (end) {
      const phase = state?.phase ? `End ${state.phase} phase` : "End phase";
      this.container.append(button(phase, { action: "end_phase" }, () => this.send(completeAction(end, {})), "end-phase"));
    }
  }

  renderDecision(state, decisions, draft) {
    const pending = state?.pending?.[state.pending.length - 1];
    const box = section("Decision");
    box.classList.add("decision");
    box.dataset.decision = pending?.kind || "";
    const prompt = document.createElement("p");
    prompt.className = "prompt";
    prompt.textContent = pending?.prompt || "Your decision";
    if (pending?.rule) prompt.append(" ", Object.assign(document.createElement("cite"), { textContent: pending.rule }));
    box.append(prompt);
    // A window's time limit: an absolute `deadline`/`expires_at`, or `seconds_left` when sent.
    const seconds = pending?.seconds_left ?? pending?.time_left;
    const deadline = pending?.deadline || pending?.expires_at || (Number.isFinite(seconds) ? Date.now() + seconds * 1000 : null);
    if (deadline) {
      const clock = document.createElement("p");
      clock.className = "time-left";
      clock.dataset.timeLeft = "";
      const tick = () => {
        const left = Math.max(0, Math.round((new Date(deadline).getTime() - Date.now()) / 1000));
        clock.textContent = `${left} s left`;
      };
      tick();
      this.timer = setInterval(tick, 1000);
      box.append(clock);
    }
    for (const decision of decisions) {
      if (decision.choice === "positions") {
        const hint = document.createElement("p");
        hint.className = "hint";
        hint.textContent = `Drag ${unitName(state, decision.unit)} to place it${decision.max_distance ? ` (up to ${decision.max_distance}")` : ""}.`;
        box.append(hint);
        if (!draft || draft.unit !== decision.unit) box.append(button("Place models", { action: "place" }, () => this.place(decision)));
        else box.append(button("Confirm", { action: "confirm-positions" }, () => this.confirmPlacement()));
        continue;
      }
      const option = decision.choice;
      const detail = option && typeof option === "object" && (option.cp !== undefined) ? ` (${option.cp} CP)` : "";
      box.append(button(`${optionLabel(option)}${detail}`, { action: "decide", choice: typeof option === "string" ? option : JSON.stringify(option) }, () => this.send(completeAction(decision, {}))));
    }
    this.container.append(box);
  }

  renderReserves(state, template) {
    const box = section("Strategic reserves");
    const hint = document.createElement("p");
    hint.className = "hint";
    hint.textContent = `Choose up to ${template.max_units} unit(s) to start in reserves.`;
    box.append(hint);
    const chosen = new Set();
    for (const id of template.candidates) {
      const label = document.createElement("label");
      const box2 = Object.assign(document.createElement("input"), { type: "checkbox", value: id });
      box2.addEventListener("change", () => (box2.checked ? chosen.add(id) : chosen.delete(id)));
      label.append(box2, ` ${unitName(state, id)}`);
      box.append(label);
    }
    // Units that may start embarked (18.01): one TRANSPORT each, or none.
    const embarked = {};
    for (const [id, transports] of Object.entries(template.embark_options || {})) {
      const label = document.createElement("label");
      const select = document.createElement("select");
      select.dataset.embark = id;
      select.append(new Option("on the battlefield", ""), ...transports.map((t) => new Option(`embarked within ${unitName(state, t)}`, t)));
      select.addEventListener("change", () => (select.value ? (embarked[id] = select.value) : delete embarked[id]));
      label.append(`${unitName(state, id)} starts `, select);
      box.append(label);
    }
    box.append(button("Declare reserves", { action: "declare_reserves" }, () => this.send(completeAction(template, { units: [...chosen], embarked: { ...embarked } }))));
    this.container.append(box);
  }

  renderPlacements(state, templates, draft) {
    const titles = { deploy: "Deployment", arrive: "Arrivals", disembark: "Disembark" };
    const verbs = { deploy: "Deploy", arrive: "Arrive with", disembark: "Disembark" };
    const box = section(titles[templates[0].type]);
    for (const template of templates) {
      if (draft && draft.unit === template.unit) {
        const hint = Object.assign(document.createElement("p"), { className: "hint", textContent: `Drag ${unitName(state, template.unit)} into place, then confirm.` });
        box.append(hint, button(`Deploy ${unitName(state, template.unit)} here`, { action: "confirm-positions" }, () => this.confirmPlacement()),
          button("Cancel", { action: "cancel-placement" }, () => this.cancelPlacement()));
      } else {
        box.append(button(`${verbs[template.type]} ${unitName(state, template.unit)}${template.mode ? ` (${choiceWords(template.mode)})` : ""}`, { action: template.type, unit: template.unit }, () => this.place(template)));
      }
    }
    this.container.append(box);
  }

  renderUnits(state, actions, selectedUnit, draft) {
    const unitActions = actions.filter((a) => a.unit && !["deploy", "arrive", "disembark", "embark", "decide"].includes(a.type));
    const units = [...new Set(unitActions.map((a) => a.unit))];
    if (!units.length) return;
    const box = section("Your units");
    const list = document.createElement("div");
    list.className = "unit-choices";
    for (const id of units) {
      list.append(button(unitName(state, id), { selectUnit: id }, () => this.select(id), id === selectedUnit ? "selected" : ""));
    }
    box.append(list);
    const mine = unitActions.filter((a) => a.unit === selectedUnit);
    for (const action of mine) {
      if (UNIT_ACTION_LABELS[action.type]) {
        box.append(button(UNIT_ACTION_LABELS[action.type], { action: action.type }, () => this.send(completeAction(action, {}))));
      } else if (action.type === "move") {
        const hint = Object.assign(document.createElement("p"), { className: "hint", textContent: `Drag the unit to move it (up to ${action.max_distance}"); hold Alt or pick "one model" to move a single model.` });
        box.append(hint);
        if (draft && draft.unit === selectedUnit) box.append(button("Confirm move", { action: "confirm-positions" }, () => this.confirmPlacement()), button("Reset", { action: "cancel-placement" }, () => this.cancelPlacement()));
      } else if (Array.isArray(action.targets) || Array.isArray(action.weapons)) {
        box.append(this.targetChooser(state, action));
      }
    }
    this.container.append(box);
  }

  targetChooser(state, action) {
    const form = document.createElement("fieldset");
    form.className = "targets";
    form.dataset.targetsFor = action.type;
    const legend = document.createElement("legend");
    legend.textContent = action.type === "shoot" ? "Shoot at" : action.type === "declare_charge" ? "Charge" : choiceWords(action.type);
    form.append(legend);
    const targets = action.type === "shoot" ? shootingTargets(action) : action.targets;
    const chosen = new Set(targets.length === 1 ? targets : []);
    for (const target of targets) {
      const label = document.createElement("label");
      const input = Object.assign(document.createElement("input"), { type: "checkbox", value: target, checked: chosen.has(target) });
      input.dataset.target = target;
      input.addEventListener("change", () => (input.checked ? chosen.add(target) : chosen.delete(target)));
      label.append(input, ` ${unitName(state, target)}`);
      form.append(label);
    }
    const verb = action.type === "shoot" ? "Shoot" : action.type === "declare_charge" ? "Declare charge" : choiceWords(action.type);
    form.append(button(verb, { action: action.type }, () => {
      if (!chosen.size) return;
      if (action.type === "shoot") this.send(completeAction(action, { assignments: shootingAssignments(action, [...chosen]) }));
      else this.send(completeAction(action, { targets: [...chosen] }));
    }));
    return form;
  }
}
