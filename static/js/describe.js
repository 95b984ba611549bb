// Engine events in words, with the rule they cite. Names come from the state the server sent.
const PHASES = { command: "Command", movement: "Movement", shooting: "Shooting", charge: "Charge", fight: "Fight" };

export function eventKind(event) {
  return event.type || event.kind;
}

export function unitName(state, id) {
  return state?.units?.[id]?.name ? `${state.units[id].name}` : id || "a unit";
}

function purposeWords(purpose) {
  return String(purpose || "roll").replaceAll("_", " ");
}

// Display names of the Orders (Voice of Command and the rules that add Orders), by slug.
export const ORDER_NAMES = {
  "move-move-move": "Move! Move! Move!",
  "fix-bayonets": "Fix Bayonets!",
  "take-aim": "Take Aim!",
  "first-rank-fire-second-rank-fire": "First Rank, Fire! Second Rank, Fire!",
  "take-cover": "Take Cover!",
  "duty-and-honour": "Duty and Honour!",
  "on-my-signal": "On My Signal",
  "target-weak-spot": "Target Weak Spot",
};

function titled(slug) {
  return String(slug).split(/[-_]/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
}

export function orderName(slug) {
  return ORDER_NAMES[slug] || titled(slug);
}

export function stratagemName(state, slug) {
  return state?.stratagems?.[slug]?.name || titled(slug);
}

export function modelOf(state, modelId) {
  for (const unit of Object.values(state?.units || {})) {
    const model = (unit.models || []).find((m) => m.id === modelId);
    if (model) return { unit, model };
  }
  return null;
}

export function modelName(state, modelId) {
  const found = modelOf(state, modelId);
  if (!found) return modelId;
  const { model, unit } = found;
  return model.name && model.name !== unit.name ? `${model.name} (${unit.name})` : `a model of ${unit.name}`;
}

function isObjective(state, id) {
  return (state?.objectives || state?.mission?.objective_markers || []).some((m) => m.id === id);
}

// Any id the engine sends, in words: a unit, a model, an objective marker, else the words.
export function thingName(state, value) {
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.map((v) => thingName(state, v)).join(" and ");
  if (typeof value === "object") return choiceWords(value, state);
  if (state?.units?.[value]) return unitName(state, value);
  if (modelOf(state, value)) return modelName(state, value);
  if (isObjective(state, value)) return `objective ${value}`;
  return String(value).replaceAll("_", " ");
}

const unitOrDone = (done) => (option, state) => (option === "done" ? done : thingName(state, option));
const positionsOr = (none) => (option) => (option === null ? none : "Place the models");

// Each decision kind the engine can push (rules/engine, push_decision): its options in words.
// tests/browser/test_decision_labels.py checks that every kind has an entry here.
export const DECISION_WORDS = {
  choose_first_turn: (o) => (o === "first" ? "Take the first turn" : "Take the second turn"),
  choose_fall_back_mode: (o) => ({ ordered_retreat: "Ordered retreat", desperate_escape: "Desperate escape" })[o] || choiceWords(o),
  allocate_mortal_wound: (o, s) => thingName(s, o),
  choose_model_destroyed: (o, s) => thingName(s, o),
  allocation_order: (o) => (Array.isArray(o) ? `Groups in the order ${o.map((i) => i + 1).join(" → ")}` : choiceWords(o)),
  choose_dice_to_reroll: (o) => {
    if (o === "pass") return "Keep the roll";
    if (o === "all") return "Re-roll the whole roll";
    if (Array.isArray(o) && o.every(Number.isInteger)) return `Re-roll die ${o.map((i) => i + 1).join(", ")}`;
    return choiceWords(o);
  },
  stratagem_window: (o, s) => (o === "pass" ? "Pass"
    : `${stratagemName(s, o.stratagem)}${o.target ? ` on ${thingName(s, o.target)}` : ""}${o.cp !== undefined ? ` (${o.cp} CP)` : ""}`),
  issue_order: (o, s) => (o === "done" ? "Done: no more Orders"
    : `${orderName(o.order)} to ${thingName(s, o.unit)} (by ${modelName(s, o.officer)})`),
  artillery_support: (o) => titled(o),
  artillery_support_unit: unitOrDone("Done"),
  summary_execution: (o, s) => (o === "decline" ? "Decline"
    : `Execute ${modelName(s, o.model)} (by ${modelName(s, o.commissar)})`),
  ability_choice: (o, s) => {
    if (o === "pass") return "Pass";
    if (o === "use") return "Use it";
    if (o && typeof o === "object") {
      if ("rally" in o) return `Rally ${thingName(s, o.rally)} (no longer battle-shocked)`;
      if ("test" in o) return `${thingName(s, o.test)} takes a Battle-shock test`;
      if ("eliminate" in o) return `Eliminate ${thingName(s, o.eliminate)}`;
      if ("acquire" in o) return `Acquire ${thingName(s, o.acquire)}`;
    }
    return thingName(s, o);
  },
  select_units: unitOrDone("Done"),
  emergency_disembark: positionsOr("Place the models"),
  lethal_hits: (o) => `${o} critical hit${o === 1 ? "" : "s"} wound${o === 1 ? "s" : ""} automatically`,
  shoot_out_of_turn: (o) => (o === null ? "Hold fire" : "Shoot"),
  precision_target: (o, s) => (o === null ? "Allocate as usual" : `[PRECISION] at ${modelName(s, o)}`),
  mists_of_deimos: (o) => (o === "strategic_reserves" ? "Into Strategic Reserves" : "A Normal move of up to 6\""),
  teleport_assault: unitOrDone("Done"),
  digital_weapons_target: (o, s) => `${thingName(s, o.unit)}${o.model ? `, on ${modelName(s, o.model)}` : ""}`,
  choose_charge_targets: (o, s) => `Charge ${thingName(s, o)}`,
  advance_move: positionsOr("No move"),
  fall_back_move: positionsOr("Stay where it is"),
  charge_move: positionsOr("Decline the charge move"),
  consolidate_move: positionsOr("No consolidation move"),
  stratagem_arrival: positionsOr("Stay in reserves"),
  redeploy_unit: (o) => (o === "strategic_reserves" ? "Strategic Reserves" : "Place the models"),
  return_destroyed_model: positionsOr("Return no model"),
  normal_move: positionsOr("No move"),
};

// Headings of the decision box, per kind (the prompt and rule come from the engine).
export const DECISION_TITLES = {
  issue_order: "Orders",
  ability_choice: "Ability",
  select_units: "Select units",
  teleport_assault: "Teleport Assault",
  artillery_support: "Artillery Support",
  artillery_support_unit: "Artillery Support",
  summary_execution: "Summary Execution",
  redeploy_unit: "Redeploy",
  return_destroyed_model: "Return a destroyed model",
  normal_move: "Normal move",
  stratagem_window: "Stratagem",
};

export function optionWords(state, kind, option) {
  const words = DECISION_WORDS[kind];
  return words ? words(option, state) : choiceWords(option, state);
}

export function choiceWords(choice, state = null) {
  if (choice === null || choice === undefined) return "decline";
  if (typeof choice === "string") return choice.replaceAll("_", " ");
  if (Array.isArray(choice)) return choice.map(choiceWords).join(", ");
  if (typeof choice === "object") {
    if (choice.label || choice.name) return choice.label || choice.name;
    if (choice.order) return DECISION_WORDS.issue_order(choice, state);
    if (choice.stratagem) return DECISION_WORDS.stratagem_window(choice, state);
    if (choice.positions || Object.values(choice).every(Array.isArray)) return "where the models go";
    if (choice.unit) return thingName(state, choice.unit);
    return Object.entries(choice).map(([k, v]) => `${k.replaceAll("_", " ")} ${thingName(state, v)}`).join(", ");
  }
  return String(choice);
}

const WORDS = {
  game_created: (e, s) => `Game created (${e.edition}, ${s?.mission?.name || e.mission})`,
  game_conceded: (e) => `Player ${e.player} concedes: player ${e.winner} wins`,
  action_applied: () => null,
  reserves_declared: (e, s) => `Player ${e.player} declares ${e.units.length ? e.units.map((u) => unitName(s, u)).join(", ") : "no units"} in reserves`,
  stage_started: (e) => `The ${String(e.stage).replaceAll("_", " ")} begins`,
  unit_deployed: (e, s) => `Player ${e.player} deploys ${unitName(s, e.unit)}`,
  dice_rolled: (e) => `Rolled ${e.values.join(", ")} for ${purposeWords(e.purpose)}${e.modifier_applied ? ` (${e.modifier_applied > 0 ? "+" : ""}${e.modifier_applied})` : ""}: ${e.total}`,
  dice_rerolled: (e) => `Re-rolled ${purposeWords(e.purpose)}: now ${e.values.join(", ")} (total ${e.total})`,
  roll_automatic: (e) => `${purposeWords(e.purpose)} succeeds automatically`,
  roll_off_won: (e) => `Player ${e.player} wins the roll-off`,
  decision_pending: (e) => `Player ${e.decision.player}: ${e.decision.prompt}`,
  decision_made: (e, s) => `Player ${e.player} chose ${e.choice === null ? "decline" : thingName(s, e.choice)}`,
  order_issued: (e, s) => `Player ${e.player} issues ${e.name || orderName(e.order)} to ${unitName(s, e.unit)} (${modelName(s, e.officer)})`,
  ability_used: (e, s) => `Player ${e.player} uses ${titled(String(e.ability).split(":")[0])}: ${optionWords(s, "ability_choice", e.choice)}`,
  abilities_granted: (e, s) => `${e.units.map((u) => unitName(s, u)).join(", ")} gain ${e.ability}`,
  unit_redeployed: (e, s) => `${unitName(s, e.unit)} is redeployed ${e.location === "strategic_reserves" ? "into Strategic Reserves" : "on the battlefield"}`,
  artillery_support_selected: (e) => `Player ${e.player} selects ${titled(e.support)}`,
  unit_shaken: (e, s) => `${unitName(s, e.unit)} is shaken by the barrage`,
  summary_execution: (e, s) => `Summary Execution: ${modelName(s, e.model)} is executed`,
  model_returned: (e, s) => `A destroyed model returns to ${unitName(s, e.unit)}`,
  fight_type_selected: (e, s) => `${unitName(s, e.unit)} makes ${e.fight_type === "overrun" ? "an overrun" : "a normal"} fight`,
  normal_move_declined: (e, s) => `${unitName(s, e.unit)} makes no Normal move`,
  normal_move_unavailable: (e, s) => `${unitName(s, e.unit)} cannot make its Normal move (${choiceWords(e.reason)})`,
  unit_removed_from_battlefield: (e, s) => `${unitName(s, e.unit)} is removed from the battlefield${e.method ? ` (${choiceWords(e.method)})` : ""}`,
  arrival_declined: (e, s) => `${unitName(s, e.unit)} stays in reserves`,
  first_turn_decided: (e) => `Player ${e.player} takes the first turn`,
  starting_strengths_recorded: () => "Starting strengths recorded",
  battle_round_started: (e) => `Battle round ${e.battle_round} begins`,
  battle_round_ended: (e) => `Battle round ${e.battle_round} ends`,
  turn_started: (e) => `Player ${e.player}'s turn begins`,
  turn_ended: (e) => `Player ${e.player}'s turn ends`,
  phase_started: (e) => `${PHASES[e.phase] || e.phase} phase (player ${e.player})`,
  phase_ended: (e) => `${PHASES[e.phase] || e.phase} phase ends`,
  command_points_gained: (e) => `Player ${e.player} gains ${e.amount} CP`,
  command_points_spent: (e) => `Player ${e.player} spends ${e.amount} CP`,
  objective_control_changed: (e) => `Objective ${e.objective}: ${e.controller ? `controlled by player ${e.controller}` : "uncontrolled"}`,
  victory_points_scored: (e) => `Player ${e.player} scores ${e.amount} VP${e.source ? ` (${e.source})` : ""}`,
  unit_flag_set: () => null,
  unit_remained_stationary: (e, s) => `${unitName(s, e.unit)} remains stationary`,
  unit_moved: (e, s) => `${unitName(s, e.unit)} ${e.move && e.move !== "normal" ? `makes a ${choiceWords(e.move)} move` : "moves"}${e.source ? ` (${stratagemName(s, e.source)})` : ""}`,
  unit_arrived: (e, s) => `${unitName(s, e.unit)} arrives from reserves`,
  unit_embarked: (e, s) => `${unitName(s, e.unit)} embarks within ${unitName(s, e.transport)}`,
  unit_disembarked: (e, s) => `${unitName(s, e.unit)} disembarks from ${unitName(s, e.transport)} (${choiceWords(e.mode)})`,
  disembark_mode_selected: () => null,
  deadly_demise: (e, s) => `${unitName(s, e.unit)} suffers a deadly demise`,
  unit_selected_to_shoot: (e, s) => `${unitName(s, e.unit)} shoots${e.targets ? ` at ${e.targets.map((t) => unitName(s, t)).join(", ")}` : ""}`,
  unit_selected_to_fight: (e, s) => `${unitName(s, e.unit)} fights`,
  charge_declared: (e, s) => `${unitName(s, e.unit)} declares a charge${e.targets ? ` against ${e.targets.map((t) => unitName(s, t)).join(", ")}` : ""}`,
  unit_charged: (e, s) => `${unitName(s, e.unit)} charges`,
  charge_failed: (e, s) => `${unitName(s, e.unit)} fails its charge`,
  charge_move_declined: (e, s) => `${unitName(s, e.unit)} declines the charge move`,
  fall_back_mode_selected: (e, s) => `${unitName(s, e.unit)} falls back (${choiceWords(e.mode)})`,
  battle_shock_rolled: (e, s) => `${unitName(s, e.unit)} battle-shock test`,
  effect_started: (e) => `Effect: ${choiceWords(e.effect?.modifier?.status || e.effect?.source || "started")}`,
  effect_ended: () => null,
  wounds_lost: (e, s) => `${unitName(s, e.unit)} loses ${e.amount ?? e.wounds ?? ""} wound(s)`,
  model_destroyed: (e, s) => `A model of ${unitName(s, e.unit)} is destroyed`,
  unit_part_destroyed: (e, s) => `Part of ${unitName(s, e.unit)} is destroyed`,
  unit_destroyed: (e, s) => `${unitName(s, e.unit)} is destroyed`,
  shooting_out_of_turn_declined: (e, s) => `${unitName(s, e.unit)} holds its fire`,
  shooting_out_of_turn_impossible: (e, s) => `${unitName(s, e.unit)} has nothing to shoot at`,
  precision_target_chosen: (e, s) => `[PRECISION]: ${e.model ? `the attacks go to ${e.model}` : "allocated as usual"} (${unitName(s, e.target)})`,
  reactive_move_declined: (e, s) => `${unitName(s, e.unit)} does not move (${e.rule})`,
  charge_ended: (e, s) => `${unitName(s, e.unit)} was destroyed before its charge roll`,
  stratagem_used: (e) => `Player ${e.player} uses ${e.name || e.stratagem}${e.cp ? ` (${e.cp} CP)` : ""}`,
  battle_ended: (e) => `The battle ends: ${e.winner ? `player ${e.winner} wins` : "a draw"}${e.victory_points ? ` (${e.victory_points["1"]}–${e.victory_points["2"]} VP)` : ""}`,
};

// A line for the game log: {text, rule}; text null for bookkeeping events not worth a line.
export function describe(event, state) {
  const kind = eventKind(event);
  const words = WORDS[kind];
  let text = words ? words(event, state) : event.summary || event.text || kind.replaceAll("_", " ");
  if (event.summary && kind !== "dice_rolled") text = event.summary;
  const rule = event.rule || event.reroll_rule || event.decision?.rule || null;
  return { text, rule };
}
