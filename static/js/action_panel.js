// The action panel: offers exactly what the server's legal_actions list, nothing more. Choosing
// sends the action (templates are completed with the player's targets or dragged positions).
import { DECISION_TITLES, MOVE_WORDS, PANEL_WORDS as WORDS, UNIT_ACTION_LABELS, actionName, arrivalName, choiceWords, decisionPrompt, decisionReason, optionWords, orderName, stepWaitingWords, stepWords, stratagemName, thingName, unitName, noUnitActsWords, waitingWords } from "./describe.js";
import { issueOrderChoices, optionUnit, unitOptions } from "./choices.js";
import { decidingLine, renderStratagemWindow, standingChoices } from "./stratagem_offers.js";
import { ShotPreview } from "./shot_preview.js";
import { meleeAssignments, meleeEditor } from "./melee_editor.js";

const TEMPLATE_ONLY = ["max_distance", "candidates", "max_points", "points", "weapons", "default_assignments", "weapon_choices", "fight_types", "can_take_to_the_skies", "fly_move_penalty", "single_target", "move", "default_assignments_by_target", "embark_options", "near", "suggested", "mode", "fewest_models", "firing_deck_options", "methods", "areas"];
// Its words, and the moves made by dragging (MOVE_WORDS) and the one-button unit actions
// (UNIT_ACTION_LABELS) by action type, are describe.js's: the page's one wording module.

export function completeAction(template, fields) {
  // A decision is answered with its id and the choice; the template's other fields describe it.
  if (template.type === "decide") {
    return { type: "decide", player: template.player, decision: template.decision, choice: template.choice, ...fields };
  }
  const action = { ...template, ...fields };
  for (const key of TEMPLATE_ONLY) delete action[key];
  // An "optional" field (the 10e pile-in of `fight`) the player did not fill is left out.
  for (const [key, value] of Object.entries(action)) if (value === "optional") delete action[key];
  return action;
}

// The `shoot` template lists each ranged weapon with the targets it may shoot at, and the
// server's `default_assignments` (which weapon of which models at which target): shown as one row
// per weapon for the player to edit, sent as the rows stand.
export function shootingRows(action) {
  const defaults = action.default_assignments || [];
  return (action.weapons || []).map((option) => {
    const assigned = defaults.find((a) => a.weapon === option.weapon);
    return {
      weapon: option.weapon,
      targets: option.targets,
      models: assigned?.models || option.models,
      target: assigned?.target || "",
    };
  });
}

export function rowAssignments(rows) {
  return rows.filter((row) => row.target).map((row) => ({ weapon: row.weapon, models: row.models, target: row.target }));
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

function hint(text, dataset = {}) {
  const element = Object.assign(document.createElement("p"), { className: "hint", textContent: text });
  Object.assign(element.dataset, dataset);
  return element;
}

// The 11e "take to the skies" declaration (21.03), offered only when the template carries it.
function skiesToggle(template, prefs, onChange) {
  const label = document.createElement("label");
  label.className = "skies";
  const input = Object.assign(document.createElement("input"), { type: "checkbox", checked: prefs.skies.has(template.unit) });
  input.dataset.takeToTheSkies = template.unit;
  input.addEventListener("change", () => {
    if (input.checked) prefs.skies.add(template.unit);
    else prefs.skies.delete(template.unit);
    onChange();
  });
  label.append(input, WORDS.takeToTheSkies(template.fly_move_penalty));
  return label;
}

export function skiesField(template, prefs) {
  return prefs.skies.has(template.unit) ? { take_to_the_skies: true } : {};
}

// The way an arriving unit is set up, where its template (`arrive`, or a `stratagem_arrival`
// decision's) offers more than one in `methods` (an ingress move or Deep Strike): the player's
// pick (`prefs.ways`), else the first. The area drawn is that way's, and it is sent as the
// action's `method` (a decision's choice {positions, method}).
export function withArrivalWay(template, prefs) {
  const ways = template?.methods || [];
  if (ways.length < 2) return template;
  const picked = prefs.ways?.[template.unit];
  return { ...template, method: ways.includes(picked) ? picked : ways[0] };
}

export function offersWays(template) {
  return (template?.methods || []).length > 1;
}

export class ActionPanel {
  constructor(container, { send, sendThen, select, place, chooseWay, confirmPlacement, cancelPlacement, prefs, changed, setHeight, preview, hover }) {
    this.sendThen = sendThen; // send an action, then another once the first is accepted
    this.shotPreview = new ShotPreview(preview); // the damage preview of the shot being composed
    this.hover = hover || (() => {}); // a unit named in the panel is highlighted on the board
    this.container = container;
    this.prefs = prefs; // {skies: Set of unit ids, order: {officer, order, unit}}: the player's picks so far
    this.changed = changed; // re-draw the board (highlights, rings) after a pick
    this.setHeight = setHeight;
    this.send = send;
    this.select = select;
    this.place = place;
    this.chooseWay = chooseWay; // (unit, method): the way the unit being placed arrives
    this.confirmPlacement = confirmPlacement;
    this.cancelPlacement = cancelPlacement;
    this.timer = null;
    this.melee = { unit: null, weapons: {}, targets: {} }; // the player's melee weapon picks
  }

  render({ state, legalActions, catchingUp, seat, selectedUnit, draft, focus, heights }) {
    clearInterval(this.timer);
    this.container.replaceChildren();
    const deciding = decidingLine(state, seat);
    // A set-up step another player is taking, in the third person: what it is and what they do.
    const theirs = stepWaitingWords(state, seat);
    const theirStep = () => {
      const line = Object.assign(document.createElement("p"), { className: "step-waiting" });
      line.append(Object.assign(document.createElement("strong"), { textContent: theirs.name }), ` ${theirs.others}`);
      if (theirs.rule) line.append(" ", Object.assign(document.createElement("cite"), { textContent: theirs.rule }));
      line.dataset.stepWaiting = theirs.stage;
      return line;
    };
    if (!seat) {
      this.container.append(Object.assign(document.createElement("p"), { textContent: WORDS.watching, className: "hint" }));
      if (theirs) this.container.append(theirStep());
      if (deciding && !theirs?.own) this.container.append(Object.assign(document.createElement("p"), { textContent: deciding, className: "deciding" }));
      return;
    }
    const actions = legalActions || [];
    if (!actions.length) {
      // The step's line stands for "Waiting for your opponent"; "bob is deciding…" is added for
      // another rule's question asked during the step, not for the step's own decision.
      const step = theirs && !catchingUp ? theirStep() : null;
      const said = step ? (theirs.own ? null : deciding) : deciding || waitingWords(state, catchingUp);
      if (step) this.container.append(step);
      const waiting = said ? Object.assign(document.createElement("p"), { textContent: said, className: deciding ? "deciding" : "hint" }) : step;
      waiting.dataset.waiting = "";
      if (said) this.container.append(waiting);
      if (state && state.stage !== "ended") this.container.append(standingChoices(state, seat, this.send));
      return;
    }
    const decisions = actions.filter((a) => a.type === "decide");
    // A set-up step before the battle, as the server words it: what it asks and how to finish it,
    // at the head of the panel; beside a decision only where the step is made of such decisions
    // (the redeployments, the first turn), not beside another rule's question in the step.
    const step = state?.stage !== "battle" ? stepWords(state?.stage) : null;
    const topKind = state?.pending?.[state.pending.length - 1]?.kind;
    if (step && (!decisions.length || (step.with || []).includes(topKind))) {
      const box = section(null);
      box.dataset.stepHint = state.stage;
      const line = hint(step.text);
      if (step.rule) line.append(" ", Object.assign(document.createElement("cite"), { textContent: step.rule }));
      box.append(line);
      this.container.append(box);
    }
    if (decisions.length) this.renderDecision(state, decisions, draft);
    const reserves = actions.find((a) => a.type === "declare_reserves");
    if (reserves) this.renderReserves(state, reserves);
    const orders = actions.filter((a) => a.type === "issue_order");
    if (orders.length) this.renderOrders(state, orders);
    const stratagems = actions.filter((a) => a.type === "use_stratagem");
    if (stratagems.length) this.renderStratagems(state, stratagems);
    const placements = actions.filter((a) => ["deploy", "arrive", "disembark"].includes(a.type));
    if (placements.length) this.renderPlacements(state, placements, draft);
    this.renderUnits(state, actions, selectedUnit, draft);
    if (heights) this.renderHeight(state, focus, heights);
    const known = new Set(["decide", "declare_reserves", "deploy", "arrive", "disembark", "shoot", "declare_charge", "end_phase", "end_step", "end_scouts", "issue_order", "use_stratagem", ...Object.keys(MOVE_WORDS), ...Object.keys(UNIT_ACTION_LABELS)]);
    const other = actions.filter((a) => !known.has(a.type) && !Object.values(a).includes("required"));
    if (other.length) {
      const box = section(WORDS.otherActions);
      for (const action of other) {
        const label = action.type === "embark" ? WORDS.embarkWithin(unitName(state, action.unit), unitName(state, action.transport)) : actionName(action.type);
        box.append(button(label, { action: action.type }, () => this.send(completeAction(action, {}))));
      }
      this.container.append(box);
    }
    const endStep = actions.find((a) => a.type === "end_step");
    if (endStep) {
      const words = WORDS.endStep(actions.some((a) => a.type === "consolidate"), actions.some((a) => a.type === "pile_in"));
      this.container.append(button(words, { action: "end_step" }, () => this.send(completeAction(endStep, {})), "end-phase"));
    }
    // The Scouts step ends like a phase: its button at the foot of the panel.
    const endScouts = actions.find((a) => a.type === "end_scouts");
    if (endScouts) this.container.append(button(actionName("end_scouts"), { action: "end_scouts" }, () => this.send(completeAction(endScouts, {})), "end-phase"));
    const end = actions.find((a) => a.type === "end_phase");
    if (end) {
      this.container.append(button(WORDS.endPhase(state?.phase), { action: "end_phase" }, () => this.send(completeAction(end, {})), "end-phase"));
    }
  }

  renderDecision(state, decisions, draft) {
    const pending = state?.pending?.[state.pending.length - 1];
    const kind = pending?.kind || "";
    const box = section(DECISION_TITLES[kind] || WORDS.decision);
    box.classList.add("decision");
    box.dataset.decision = kind;
    const prompt = document.createElement("p");
    prompt.className = "prompt";
    prompt.textContent = decisionPrompt(pending, state) || WORDS.yourDecision;
    if (pending?.rule) prompt.append(" ", Object.assign(document.createElement("cite"), { textContent: pending.rule }));
    box.append(prompt);
    // Why it is asked (what the rule is, what answering does), where the server says it.
    const reason = decisionReason(kind);
    if (reason) {
      const why = Object.assign(document.createElement("p"), { className: "why", textContent: reason.text });
      why.dataset.why = kind;
      box.append(why);
    }
    if (kind === "stratagem_window") {
      renderStratagemWindow(box, { state, seat: pending.player, decisions: decisions.map((d) => ({ ...d })), pending, send: this.send, sendThen: this.sendThen });
      this.container.append(box);
      return;
    }
    // A window's time limit: an absolute `deadline`/`expires_at`, or `seconds_left` when sent.
    const seconds = pending?.seconds_left ?? pending?.time_left;
    const deadline = pending?.deadline || pending?.expires_at || (Number.isFinite(seconds) ? Date.now() + seconds * 1000 : null);
    if (deadline) {
      const clock = document.createElement("p");
      clock.className = "time-left";
      clock.dataset.timeLeft = "";
      const tick = () => {
        const left = Math.max(0, Math.round((new Date(deadline).getTime() - Date.now()) / 1000));
        clock.textContent = WORDS.secondsLeft(left);
      };
      tick();
      this.timer = setInterval(tick, 1000);
      box.append(clock);
    }
    const decide = (decision, label) => button(label, {
      action: "decide",
      choice: typeof decision.choice === "string" ? decision.choice : JSON.stringify(decision.choice),
    }, () => this.send(completeAction(decision, {})));
    const units = unitOptions(state, decisions);
    // Options that read the same (two alike models of one unit) are numbered, not left identical.
    const labels = decisions.map((d) => (d.choice === "positions" ? "" : optionWords(state, kind, d.choice)));
    const seen = {};
    const numbered = labels.map((label) => {
      if (labels.filter((l) => l === label).length < 2) return label;
      seen[label] = (seen[label] || 0) + 1;
      return `${label} #${seen[label]}`;
    });
    const list = document.createElement("div");
    list.className = "unit-choices";
    decisions.forEach((decision, index) => {
      if (decision.choice === "positions") {
        box.append(...this.positionDecision(state, kind, decision, draft));
        return;
      }
      if (decision.choice === "assignments") {
        // Shooting out of turn (Fire Overwatch, Exact Punishment): one target at a time, with the
        // server's default assignment at it; holding fire is the decision's `null` answer.
        for (const [target, assignments] of Object.entries(decision.default_assignments_by_target || {})) {
          box.append(button(WORDS.shootAt(unitName(state, target)), { action: "decide", choice: "shoot", target }, () => this.send(completeAction(decision, { choice: { assignments } }))));
        }
        return;
      }
      const label = numbered[index];
      if (units.includes(decision.choice)) {
        const choice = decide(decision, label);
        choice.dataset.optionUnit = decision.choice;
        list.append(choice);
      } else {
        const choice = decide(decision, label);
        const about = optionUnit(state, decision.choice);
        if (about) choice.dataset.optionUnit = about;
        box.append(choice);
      }
    });
    if (list.children.length) {
      box.append(hint(WORDS.pickOne), list);
    }
    this.container.append(box);
  }

  // A decision answered with positions: drag the unit (or the ghost of a returning model) and
  // confirm; the template may offer another answer (`or`: Strategic Reserves).
  positionDecision(state, kind, decision, draft) {
    const parts = [];
    const who = decision.model ? thingName(state, decision.model) : unitName(state, decision.unit);
    parts.push(hint(kind === "return_destroyed_model" ? WORDS.dragGhost(who) : WORDS.dragToPlace(who, decision.max_distance), { positionsFor: kind }));
    if (decision.take_to_the_skies === true) parts.push(skiesToggle(decision, this.prefs, this.changed));
    const placing = draft && draft.unit === decision.unit;
    if (placing && offersWays(decision)) parts.push(this.wayChoice(decision));
    if (!placing && offersWays(decision)) {
      // One button per way to arrive (Rapid Ingress: an ingress move or Deep Strike).
      for (const method of decision.methods) parts.push(button(WORDS.placeModelsBy(arrivalName(method)), { action: "place", method }, () => this.placeBy(decision, method)));
    } else if (!placing) parts.push(button(WORDS.placeModels, { action: "place" }, () => this.place(decision)));
    else parts.push(button(WORDS.confirm, { action: "confirm-positions" }, () => this.confirmPlacement()));
    if (typeof decision.or === "string") {
      parts.push(button(optionWords(state, kind, decision.or), { action: "decide", choice: decision.or }, () => this.send(completeAction(decision, { choice: decision.or }))));
    }
    return parts;
  }

  // Placing a unit by the way the player picked.
  placeBy(template, method) {
    this.prefs.ways = { ...this.prefs.ways, [template.unit]: method };
    this.place(template);
  }

  // While an arriving unit is placed, the ways its template offers: a pick redraws the area and
  // asks the referee again.
  wayChoice(template) {
    const form = document.createElement("fieldset");
    form.className = "arrival-ways";
    form.dataset.arrivalWays = template.unit;
    const legend = document.createElement("legend");
    legend.textContent = WORDS.setUpBy;
    form.append(legend);
    const current = withArrivalWay(template, this.prefs).method;
    for (const method of template.methods) {
      const label = document.createElement("label");
      const input = Object.assign(document.createElement("input"), { type: "radio", name: `way-${template.unit}`, value: method, checked: method === current });
      input.dataset.arrivalWay = method;
      input.addEventListener("change", () => this.chooseWay(template.unit, method));
      label.append(input, ` ${arrivalName(method)}`);
      form.append(label);
    }
    return form;
  }

  // Voice of Command: the Order, then the unit (the eligible ones ringed on the board).
  renderOrders(state, actions) {
    const box = section(WORDS.orders);
    box.classList.add("orders");
    box.dataset.orders = "";
    const pick = this.prefs.order;
    const { officers, orders, units, chosen } = issueOrderChoices(actions, pick);
    Object.assign(pick, { officer: chosen.officer, order: chosen.order, unit: chosen.unit });
    const field = (name, values, current, words) => {
      const label = document.createElement("label");
      const select = document.createElement("select");
      select.dataset.orderField = name;
      for (const value of values) select.append(new Option(words(value), value));
      select.value = current;
      select.addEventListener("change", () => {
        pick[name] = select.value;
        if (name !== "unit") pick.unit = null;
        this.changed();
      });
      label.append(`${WORDS.orderFields[name]} `, select);
      return label;
    };
    if (officers.length > 1) box.append(field("officer", officers, pick.officer, (id) => thingName(state, id)));
    else box.append(hint(WORDS.officer(thingName(state, pick.officer))));
    box.append(field("order", orders, pick.order, orderName));
    box.append(field("unit", units, pick.unit, (id) => unitName(state, id)));
    const action = actions.find((a) => a.officer === pick.officer && a.order === pick.order && a.unit === pick.unit);
    box.append(button(WORDS.issueOrder, { action: "issue_order" }, () => {
      if (action) this.send(completeAction(action, {}));
    }));
    this.container.append(box);
  }

  renderStratagems(state, actions) {
    const box = section(WORDS.stratagems);
    for (const action of actions) {
      const record = state?.stratagems?.[action.stratagem] || {};
      const target = action.target ? thingName(state, action.target) : "";
      const words = WORDS.stratagemButton(stratagemName(state, action.stratagem), target, action.cp ?? record.cp_cost);
      const use = button(words, { action: "use_stratagem", stratagem: action.stratagem }, () => this.send(completeAction(action, {})));
      use.title = WORDS.stratagemTitle(record);
      if (typeof action.target === "string") use.dataset.optionUnit = action.target;
      box.append(use);
    }
    this.container.append(box);
  }

  // The height the touched model ends at (11e 13.06; 10e Ruins upper floors): offered while it
  // stands over terrain with height; the server checks whether it may stand there.
  renderHeight(state, focus, heights) {
    const box = section(WORDS.height);
    const label = document.createElement("label");
    const input = Object.assign(document.createElement("input"), { type: "number", min: 0, max: heights.max, step: 0.5, value: heights.z });
    input.dataset.height = focus.model;
    input.addEventListener("change", () => this.setHeight(focus.unit, focus.model, Math.max(0, Number(input.value) || 0)));
    label.append(WORDS.endsAt(thingName(state, focus.model)), input, WORDS.aboveTheGround(heights.max));
    box.append(label);
    this.container.append(box);
  }

  renderReserves(state, template) {
    // What to tick and the points it may come to: the step's line above, in the server's words.
    const box = section(WORDS.strategicReserves);
    const chosen = new Set();
    for (const id of template.candidates) {
      const label = document.createElement("label");
      const box2 = Object.assign(document.createElement("input"), { type: "checkbox", value: id });
      box2.addEventListener("change", () => (box2.checked ? chosen.add(id) : chosen.delete(id)));
      label.append(box2, WORDS.reserveUnit(unitName(state, id), template.points?.[id]));
      box.append(label);
    }
    // Units that may start embarked (18.01): one TRANSPORT each, or none.
    const embarked = {};
    for (const [id, transports] of Object.entries(template.embark_options || {})) {
      const label = document.createElement("label");
      const select = document.createElement("select");
      select.dataset.embark = id;
      select.append(new Option(WORDS.onTheBattlefield, ""), ...transports.map((t) => new Option(WORDS.embarkedWithin(unitName(state, t)), t)));
      select.addEventListener("change", () => (select.value ? (embarked[id] = select.value) : delete embarked[id]));
      label.append(WORDS.startsAs(unitName(state, id)), select);
      box.append(label);
    }
    // The panel's own child, not the section's: it stays in sight at the panel's foot (CSS).
    const declare = button(WORDS.declareReserves, { action: "declare_reserves" }, () => this.send(completeAction(template, { units: [...chosen], embarked: { ...embarked } })), "end-phase");
    this.container.append(box, declare);
  }

  renderPlacements(state, templates, draft) {
    const box = section(WORDS.placementTitle(templates[0].type));
    for (const template of templates) {
      const name = unitName(state, template.unit);
      if (draft && draft.unit === template.unit) {
        box.append(hint(WORDS.dragIntoPlace(name)));
        if (offersWays(template)) box.append(this.wayChoice(template));
        box.append(button(WORDS.placeHere(template.type, name), { action: "confirm-positions" }, () => this.confirmPlacement()),
          button(WORDS.cancel, { action: "cancel-placement" }, () => this.cancelPlacement()));
      } else if (offersWays(template)) {
        // One button per way to arrive: the area drawn and the action sent follow the choice.
        for (const method of template.methods) {
          box.append(button(WORDS.placeUnit("arrive", name, arrivalName(method)), { action: template.type, unit: template.unit, method }, () => this.placeBy(template, method)));
        }
      } else {
        box.append(button(WORDS.placeUnit(template.type, name, template.mode ? choiceWords(template.mode) : ""), { action: template.type, unit: template.unit }, () => this.place(template)));
      }
    }
    this.container.append(box);
  }

  renderUnits(state, actions, selectedUnit, draft) {
    const unitActions = actions.filter((a) => a.unit && !["deploy", "arrive", "disembark", "embark", "decide", "issue_order"].includes(a.type));
    const units = [...new Set(unitActions.map((a) => a.unit))];
    if (!units.length) {
      // A phase the player can only end: say so, rather than leave a lone "End … phase" button.
      const onlyEnd = actions.some((a) => a.type === "end_phase") && actions.every((a) => ["end_phase", "use_stratagem", "set_window_preferences"].includes(a.type));
      const words = onlyEnd && state?.stage === "battle" ? noUnitActsWords(state.phase) : null;
      if (words) this.container.append(hint(words, { nothingToDo: state.phase }));
      return;
    }
    const box = section(WORDS.yourUnits);
    const list = document.createElement("div");
    list.className = "unit-choices";
    for (const id of units) {
      list.append(button(unitName(state, id), { selectUnit: id }, () => this.select(id), id === selectedUnit ? "selected" : ""));
    }
    box.append(list);
    const mine = unitActions.filter((a) => a.unit === selectedUnit);
    const flying = mine.find((a) => a.can_take_to_the_skies);
    if (flying) box.append(skiesToggle(flying, this.prefs, this.changed));
    for (const action of mine) {
      if (action.type === "fight") {
        box.append(...this.fightButtons(state, action, draft));
      } else if (UNIT_ACTION_LABELS[action.type]) {
        box.append(button(UNIT_ACTION_LABELS[action.type], { action: action.type }, () => this.send(completeAction(action, skiesField(action, this.prefs)))));
      } else if (MOVE_WORDS[action.type]) {
        box.append(hint(WORDS.dragToMove(action.type, action.max_distance), { moveHint: action.type }));
        if (draft && draft.unit === selectedUnit) box.append(button(WORDS.confirmMove, { action: "confirm-positions" }, () => this.confirmPlacement()), button(WORDS.reset, { action: "cancel-placement" }, () => this.cancelPlacement()));
      } else if (Array.isArray(action.targets) || Array.isArray(action.weapons)) {
        box.append(this.targetChooser(state, action));
      }
    }
    this.container.append(box);
  }

  targetChooser(state, action) {
    if (action.type === "shoot") return this.shootingEditor(state, action);
    const form = document.createElement("fieldset");
    form.className = "targets";
    form.dataset.targetsFor = action.type;
    const legend = document.createElement("legend");
    legend.textContent = WORDS.targetsOf(action.type);
    form.append(legend);
    const targets = action.targets;
    const chosen = new Set(targets.length === 1 ? targets : []);
    for (const target of targets) {
      const label = document.createElement("label");
      const input = Object.assign(document.createElement("input"), { type: "checkbox", value: target, checked: chosen.has(target) });
      input.dataset.target = target;
      input.addEventListener("change", () => (input.checked ? chosen.add(target) : chosen.delete(target)));
      label.append(input, ` ${unitName(state, target)}`);
      form.append(label);
    }
    form.append(button(WORDS.declareTargets(action.type), { action: action.type }, () => {
      if (chosen.size) this.send(completeAction(action, { targets: [...chosen], ...skiesField(action, this.prefs) }));
    }));
    return form;
  }

  // One button per fight type the template lists (11e 12.04: normal, overrun); an overrun fight
  // (or a 10e fight) takes the pile-in the player dragged, if any.
  fightButtons(state, action, draft) {
    const parts = [];
    const types = action.fight_types || [null];
    const piles = (type) => action.pile_in === "optional" && (type === null || type === "overrun");
    if (types.some(piles)) {
      parts.push(hint(WORDS.pileInFirst(action.max_distance), { moveHint: "fight" }));
    }
    // Its melee weapons (the engine's default, changed where a model has a choice) and what
    // they would do, from the engine, where it stands.
    if (this.melee.unit !== action.unit) this.melee = { unit: action.unit, weapons: {}, targets: {} };
    const picked = Object.keys(this.melee.weapons).length + Object.keys(this.melee.targets).length > 0;
    const { form, rows } = meleeEditor(state, action, this.melee, this.changed);
    const assignments = picked ? meleeAssignments(rows) : null;
    const preview = document.createElement("div");
    preview.className = "preview";
    preview.dataset.preview = action.unit;
    this.shotPreview.show(preview, state, action.unit, assignments, "fight");
    // The buttons first, so that they are in sight however many models have a choice.
    for (const type of types) {
      parts.push(button(WORDS.fightType(type), { action: "fight", fightType: type || "" }, () => {
        const fields = type ? { fight_type: type } : {};
        if (assignments) fields.assignments = assignments;
        if (piles(type) && draft && draft.unit === action.unit) fields.pile_in = draft.positions;
        this.send(completeAction(action, fields));
      }));
    }
    if (rows.length) parts.push(form);
    parts.push(preview);
    return parts;
  }

  // One row per weapon: its models and a target (or hold fire), starting from the server's default.
  shootingEditor(state, action) {
    const form = document.createElement("fieldset");
    form.className = "targets assignments";
    form.dataset.targetsFor = "shoot";
    const legend = document.createElement("legend");
    legend.textContent = WORDS.shoot;
    form.append(legend);
    const rows = shootingRows(action);
    for (const row of rows) {
      const line = document.createElement("label");
      line.className = "assignment";
      line.dataset.weapon = row.weapon;
      const select = document.createElement("select");
      select.dataset.assignment = row.weapon;
      select.append(new Option(WORDS.holdFire, ""));
      for (const target of row.targets) select.append(new Option(unitName(state, target), target));
      select.value = row.target;
      select.addEventListener("change", () => {
        row.target = select.value;
        refresh();
      });
      line.append(WORDS.weaponAt(row.weapon, row.models.length), select);
      form.append(line);
    }
    const preview = document.createElement("div");
    preview.className = "preview";
    preview.dataset.preview = action.unit;
    const refresh = () => this.shotPreview.show(preview, state, action.unit, rowAssignments(rows));
    refresh();
    // The button before the preview, so that it is in sight without scrolling the panel.
    form.append(button(WORDS.shoot, { action: "shoot" }, () => {
      const assignments = rowAssignments(rows);
      if (assignments.length) this.send(completeAction(action, { assignments }));
    }));
    form.append(preview);
    return form;
  }
}
