// Engine events in words, with the rule they cite: the one wording module of the page. Names
// come from the server: unit and model names in the state (distinct for every unit, given once at
// the muster), the players' names, and `state.display` (Order names, terrain kinds, weapon
// ability texts, the names of the ways to arrive).
const PHASES = { command: "Command", movement: "Movement", shooting: "Shooting", charge: "Charge", fight: "Fight" };

let playerNames = {};
let serverNames = { orders: {}, terrain: {}, weapon_abilities: {} };

// The players' names ({"1": "alice", "2": "bob"}) as the game record gives them.
export function setPlayerNames(names) {
  playerNames = names || {};
}

// The names and texts the server sends with the state (`state.display`).
export function useServerNames(state) {
  if (state?.display) serverNames = state.display;
}

export function playerName(player) {
  return playerNames[String(player)] || `Player ${player}`;
}

export function phaseName(phase) {
  return PHASES[phase] || titled(phase || "");
}

export function eventKind(event) {
  return event.type || event.kind;
}

export function unitName(state, id) {
  return state?.units?.[id]?.name ? `${state.units[id].name}` : "a unit";
}

// Rolls whose dice are added up (a charge, an Advance, a Battle-shock test); the sum of a handful
// of hit or save dice means nothing and is not shown.
const SUMMED = /charge|advance|battle_shock|leadership|desperate|deep_strike|distance|move/;
export function isSummed(event) {
  return (event.values || []).length === 1 || SUMMED.test(String(event.purpose || ""));
}

function purposeWords(purpose) {
  return String(purpose || "roll").replaceAll("_", " ");
}

// The damage preview of one target: the expected models destroyed and damage; a target of one
// model (a vehicle, a lone character) by the chance of destroying it, "0.0 of 1 models" saying
// nothing.
export function previewWords(result) {
  const { models_destroyed: destroyed, damage, models } = result;
  if (models === 1) {
    const chance = Math.round(100 * (destroyed.distribution?.[1] ?? destroyed.mean));
    return `: about ${damage.mean.toFixed(1)} damage, ${chance}% chance to destroy it`;
  }
  return `: about ${destroyed.mean.toFixed(1)} of ${models} models destroyed, ${damage.mean.toFixed(1)} damage`;
}

// A dice tray group's title for a roll's purpose or an attack step: "First turn roll off",
// "Hit roll". Only the first letter is raised: a player's or weapon's name before it is kept as
// the server has it.
export function rollTitle(purpose) {
  const words = purposeWords(purpose);
  return words[0].toUpperCase() + words.slice(1);
}

function titled(slug) {
  return String(slug).split(/[-_]/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
}

export function orderName(slug) {
  return serverNames.orders?.[slug] || titled(slug);
}

export function terrainKindName(kind) {
  return serverNames.terrain_kinds?.[kind] || titled(kind || "terrain");
}

// A weapon ability as printed ("rapid fire 1", "anti-infantry 4+"): its name in capitals and the
// rule text the server sends for it, {label, text, rule}.
export function weaponAbility(ability) {
  const words = String(ability).toLowerCase();
  const key = Object.keys(serverNames.weapon_abilities || {}).sort((a, b) => b.length - a.length)
    .find((name) => words === name || words.startsWith(`${name} `) || words.startsWith(`${name}-`));
  const found = key ? serverNames.weapon_abilities[key] : null;
  return { label: `[${words.toUpperCase()}]`, text: found?.text || "", rule: found?.rule || "" };
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
  if (!found) return "a model";
  const { model, unit } = found;
  if (model.label) return `${unit.name}: ${model.label}`;
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
  return String(value).replaceAll("_", " ").replaceAll("-", " ");
}

// A model a player selects for something that hurts it (a mortal wound, a failed Hazardous
// test): its name, the wounds it has left and its weapons, which is what sets such models apart.
export function modelDetails(state, modelId) {
  const found = modelOf(state, modelId);
  if (!found) return thingName(state, modelId);
  const { model } = found;
  const wounds = model.W ? `${model.wounds_left}/${model.W} wounds` : "";
  const weapons = (model.weapons || []).join(", ");
  const details = [wounds, weapons].filter(Boolean).join("; ");
  return details ? `${modelName(state, modelId)} (${details})` : modelName(state, modelId);
}

const unitOrDone = (done) => (option, state) => (option === "done" ? done : thingName(state, option));
const positionsOr = (none) => (option) => (option === null ? none : "Place the models");

// Each decision kind the engine can push (rules/engine, push_decision): its options in words.
// tests/browser/test_decision_labels.py checks that every kind has an entry here.
export const DECISION_WORDS = {
  choose_first_turn: (o) => (o === "first" ? "Take the first turn" : "Take the second turn"),
  choose_fall_back_mode: (o) => ({ ordered_retreat: "Ordered retreat", desperate_escape: "Desperate escape" })[o] || choiceWords(o),
  allocate_mortal_wound: (o, s) => modelDetails(s, o),
  choose_model_destroyed: (o, s) => thingName(s, o),
  allocation_order: (o) => (Array.isArray(o) ? `Groups in the order ${o.map((i) => i + 1).join(" → ")}` : choiceWords(o)),
  choose_dice_to_reroll: (o) => {
    if (o === "pass") return "Keep the roll";
    if (o === "all") return "Re-roll the whole roll";
    if (Array.isArray(o) && o.every(Number.isInteger)) return `Re-roll die ${o.map((i) => i + 1).join(", ")}`;
    return choiceWords(o);
  },
  stratagem_window: (o, s) => {
    if (o === "pass") return "Pass";
    const extra = offerChoiceWords(o, s);
    return `${stratagemName(s, o.stratagem)}${o.target ? ` on ${thingName(s, o.target)}` : ""}${extra ? ` (${extra})` : ""}${o.cp !== undefined ? ` (${o.cp} CP)` : ""}`;
  },
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
  arrival_owed: (o) => (o === "set_up" ? "Set it up now" : "It cannot be set up: it counts as destroyed"),
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
  arrival_owed: "Reinforcements",
};

// Each decision kind said in the third person, with the deciding player's name: the words of the
// log and of every reader but the player deciding (the engine's prompt speaks to that player: "You
// won the roll-off: take the first turn or the second?", which read in the log as "Computer
// opponent: You won the roll-off"). tests/browser/test_decision_labels.py checks that every kind
// has an entry here.
const decidingUnit = (d, s) => unitName(s, d.resume?.unit ?? d.options?.unit);
const upTo = (d) => (Number.isFinite(d.options?.max_distance) ? ` (up to ${d.options.max_distance}")` : "");
const unitOfModel = (s, id) => (modelOf(s, id) ? modelOf(s, id).unit.name : "the target");
export const DECISION_THIRD_PERSON = {
  choose_first_turn: (n) => `${n} won the roll-off and chooses whether to take the first turn or the second`,
  choose_fall_back_mode: (n, d, s) => `${n} chooses how ${decidingUnit(d, s)} falls back`,
  allocate_mortal_wound: (n, d, s) => (d.resume?.step === "hazardous_model_selected"
    ? `${n} selects the model of ${decidingUnit(d, s)} that suffers the mortal wounds of a failed Hazardous test`
    : `${n} allocates a mortal wound to a model of ${decidingUnit(d, s)}`),
  choose_model_destroyed: (n, d, s) => `${n} selects a model of ${decidingUnit(d, s)} to be destroyed`,
  allocation_order: (n) => `${n} chooses the order in which the attacks are allocated`,
  choose_dice_to_reroll: (n, d) => {
    const roll = d.resume?.roll;
    return `${n} decides whether to re-roll ${roll ? `the ${purposeWords(roll.purpose)} roll${rolledWords(roll)}` : "the roll"}`;
  },
  stratagem_window: (n, d, s) => `${momentWords(d, s, null)}: ${n} may use a stratagem`,
  issue_order: (n) => `${n} may issue an Order`,
  artillery_support: (n) => `${n} selects an Artillery Support`,
  artillery_support_unit: (n, d) => (d.resume?.support
    ? `${n} selects the units for ${titled(d.resume.support)}`
    : `${n} selects the units shaken by the Creeping Barrage`),
  summary_execution: (n) => `${n} may destroy a model of a battle-shocked unit to end its battle-shock`,
  ability_choice: (n, d) => `${n} chooses whether to use ${d.rule || "an ability"}`,
  select_units: (n, d) => `${n} selects units for ${d.rule || "an ability"}`,
  emergency_disembark: (n, d, s) => `${n} sets up ${decidingUnit(d, s)} around the destroyed ${unitName(s, d.options?.transport)}`,
  lethal_hits: (n, d) => `${n} chooses how many${Number.isInteger(d.resume?.critical_hits) ? ` of the ${d.resume.critical_hits}` : ""} critical hits wound automatically`,
  shoot_out_of_turn: (n, d, s) => `${n} may shoot with ${decidingUnit(d, s)}, or hold fire`,
  precision_target: (n, d, s) => `${n} chooses which CHARACTER model of ${unitOfModel(s, (Array.isArray(d.options) ? d.options : []).find(Boolean))} the attacks go to`,
  mists_of_deimos: (n, d, s) => `${n} chooses whether ${decidingUnit(d, s)} makes a Normal move or goes into Strategic Reserves`,
  teleport_assault: (n) => `${n} may remove units from the battlefield by Teleport Assault, to set them up again in ${n}'s next Movement phase`,
  digital_weapons_target: (n) => `${n} selects the enemy unit that suffers 1 mortal wound`,
  choose_charge_targets: (n, d, s) => `${n} selects the charge targets of ${decidingUnit(d, s)}`,
  advance_move: (n, d, s) => `${n} makes the Advance move of ${decidingUnit(d, s)}${upTo(d)}`,
  fall_back_move: (n, d, s) => `${n} makes the Fall Back move of ${decidingUnit(d, s)}${upTo(d)}`,
  charge_move: (n, d, s) => `${n} makes the charge move of ${decidingUnit(d, s)}${upTo(d)}, or declines it`,
  consolidate_move: (n, d, s) => `${n} may consolidate ${decidingUnit(d, s)}${upTo(d)}`,
  stratagem_arrival: (n, d, s) => `${n} may set up ${decidingUnit(d, s)}${d.options?.method ? ` (${arrivalName(d.options.method)})` : ""}, or leave it off the battlefield`,
  redeploy_unit: (n, d, s) => `${n} sets up ${decidingUnit(d, s)} again, or puts it into Strategic Reserves`,
  return_destroyed_model: (n, d, s) => `${n} may return a destroyed model to ${decidingUnit(d, s)}`,
  normal_move: (n, d, s) => `${n} may make a Normal move with ${decidingUnit(d, s)}${upTo(d)}`,
  arrival_owed: (n, d, s) => `${n} sets up ${(d.resume?.units || []).map((u) => unitName(s, u)).join(", ") || "units"} in this Reinforcements step, or they count as destroyed`,
};

// Each decision kind's answer as a statement, with the deciding player's name: the log's line for
// `decision_made` ("alice takes the first turn"), never the button's words ("alice: Take the first
// turn"). `d` is the decision answered (its `decision_pending`), `o` the choice.
// tests/browser/test_decision_labels.py checks that every kind has an entry here.
const unitsOf = (s, ids) => (Array.isArray(ids) ? ids : [ids]).map((id) => thingName(s, id)).join(" and ");
const dice = (o) => `${o.length === 1 ? "die" : "dice"} ${o.map((i) => i + 1).join(", ")}`;
export const DECISION_ANSWERS = {
  choose_first_turn: (n, o) => `${n} takes the ${o === "second" ? "second" : "first"} turn`,
  choose_fall_back_mode: (n, o, d, s) => `${n} chooses ${o === "desperate_escape" ? "a Desperate Escape" : o === "ordered_retreat" ? "an Ordered Retreat" : choiceWords(o)} for ${decidingUnit(d, s)}`,
  allocate_mortal_wound: (n, o, d, s) => (d.resume?.step === "hazardous_model_selected"
    ? `${n} selects ${modelName(s, o)} to suffer the mortal wounds of the failed Hazardous test`
    : `${n} allocates the mortal wound to ${modelName(s, o)}`),
  choose_model_destroyed: (n, o, d, s) => `${n} selects ${thingName(s, o)} to be destroyed`,
  allocation_order: (n, o) => (Array.isArray(o)
    ? `${n} allocates the attacks group by group, in the order ${o.map((i) => i + 1).join(" → ")}`
    : `${n} chooses the order of allocation (${choiceWords(o)})`),
  choose_dice_to_reroll: (n, o, d) => {
    const roll = d.resume?.roll ? `the ${purposeWords(d.resume.roll.purpose)} roll` : "the roll";
    if (o === "pass") return `${n} keeps ${roll}`;
    if (o === "all") return `${n} re-rolls ${roll}`;
    if (Array.isArray(o) && o.every(Number.isInteger)) return `${n} re-rolls ${dice(o)} of ${roll}`;
    return `${n} re-rolls ${choiceWords(o)}`;
  },
  stratagem_window: (n, o, d, s) => (o === "pass" ? `${n} passes`
    : o?.stratagem ? `${n} uses ${DECISION_WORDS.stratagem_window(o, s)}` : `${n} chooses ${thingName(s, o)}`),
  issue_order: (n, o, d, s) => (o?.order ? `${n} issues ${orderName(o.order)} to ${thingName(s, o.unit)} (by ${modelName(s, o.officer)})`
    : `${n} issues no more Orders`),
  artillery_support: (n, o, d, s) => `${n} selects ${typeof o === "string" ? titled(o) : thingName(s, o)}`,
  artillery_support_unit: (n, o, d, s) => {
    const what = d.resume?.support ? ` for ${titled(d.resume.support)}` : " to be shaken by the Creeping Barrage";
    return o === "done" ? `${n} selects no more units${what}` : `${n} selects ${thingName(s, o)}${what}`;
  },
  summary_execution: (n, o, d, s) => (o?.model ? `${n} has ${modelName(s, o.commissar)} execute ${modelName(s, o.model)}`
    : `${n} executes no one`),
  ability_choice: (n, o, d, s) => {
    const rule = d.rule || "the ability";
    if (o === "pass") return `${n} does not use ${rule}`;
    if (o === "use") return `${n} uses ${rule}`;
    if (o && typeof o === "object") {
      if ("rally" in o) return `${n} rallies ${thingName(s, o.rally)}: it is no longer battle-shocked (${rule})`;
      if ("test" in o) return `${n} has ${thingName(s, o.test)} take a Battle-shock test (${rule})`;
      if ("eliminate" in o) return `${n} eliminates ${thingName(s, o.eliminate)} (${rule})`;
      if ("acquire" in o) return `${n} acquires ${thingName(s, o.acquire)} (${rule})`;
    }
    return `${n} chooses ${thingName(s, o)} for ${rule}`;
  },
  select_units: (n, o, d, s) => (o === "done" ? `${n} selects no more units for ${d.rule || "the ability"}`
    : `${n} selects ${thingName(s, o)} for ${d.rule || "the ability"}`),
  emergency_disembark: (n, o, d, s) => `${n} sets up ${decidingUnit(d, s)} around the destroyed ${unitName(s, d.options?.transport ?? d.resume?.transport)}`,
  lethal_hits: (n, o, d, s) => `${n} has ${Number.isInteger(o) ? o : thingName(s, o)} critical ${o === 1 ? "hit" : "hits"} wound automatically`,
  shoot_out_of_turn: (n, o, d, s) => (o === null ? `${n} holds the fire of ${decidingUnit(d, s)}` : `${n} shoots with ${decidingUnit(d, s)}`),
  precision_target: (n, o, d, s) => (o === null ? `${n} allocates the attacks as usual` : `${n} allocates the attacks to ${modelName(s, o)} ([PRECISION])`),
  mists_of_deimos: (n, o, d, s) => (o === "strategic_reserves" ? `${n} puts ${decidingUnit(d, s)} into Strategic Reserves`
    : `${n} makes a Normal move of up to 6" with ${decidingUnit(d, s)}`),
  teleport_assault: (n, o, d, s) => (o === "done" ? `${n} removes no more units by Teleport Assault`
    : `${n} removes ${thingName(s, o)} from the battlefield by Teleport Assault`),
  digital_weapons_target: (n, o, d, s) => `${n} selects ${thingName(s, o?.unit ?? o)}${o?.model ? ` (${modelName(s, o.model)})` : ""} to suffer 1 mortal wound`,
  choose_charge_targets: (n, o, d, s) => `${n} selects ${unitsOf(s, o)} as the charge ${Array.isArray(o) && o.length > 1 ? "targets" : "target"} of ${decidingUnit(d, s)}`,
  advance_move: (n, o, d, s) => (o === null ? `${n} makes no Advance move with ${decidingUnit(d, s)}` : `${n} makes the Advance move of ${decidingUnit(d, s)}`),
  fall_back_move: (n, o, d, s) => (o === null ? `${n} leaves ${decidingUnit(d, s)} where it is` : `${n} makes the Fall Back move of ${decidingUnit(d, s)}`),
  charge_move: (n, o, d, s) => (o === null ? `${n} declines the charge move of ${decidingUnit(d, s)}` : `${n} makes the charge move of ${decidingUnit(d, s)}`),
  consolidate_move: (n, o, d, s) => (o === null ? `${n} does not consolidate ${decidingUnit(d, s)}` : `${n} consolidates ${decidingUnit(d, s)}`),
  stratagem_arrival: (n, o, d, s) => (o === null ? `${n} leaves ${decidingUnit(d, s)} off the battlefield`
    : `${n} sets up ${decidingUnit(d, s)}${d.options?.method ? ` (${arrivalName(d.options.method)})` : ""}`),
  redeploy_unit: (n, o, d, s) => (o === "strategic_reserves" ? `${n} puts ${decidingUnit(d, s)} into Strategic Reserves`
    : `${n} sets up ${decidingUnit(d, s)} again`),
  return_destroyed_model: (n, o, d, s) => (o === null ? `${n} returns no model to ${decidingUnit(d, s)}` : `${n} returns a destroyed model to ${decidingUnit(d, s)}`),
  normal_move: (n, o, d, s) => (o === null ? `${n} makes no Normal move with ${decidingUnit(d, s)}` : `${n} makes a Normal move with ${decidingUnit(d, s)}`),
  arrival_owed: (n, o, d, s) => {
    const units = (d.resume?.units || []).map((u) => unitName(s, u)).join(", ") || "the units";
    return o === "set_up" ? `${n} sets up ${units} now` : `${n} cannot set up ${units}: they count as destroyed`;
  },
};

// A decision's answer in the log: a statement by the deciding player, worded by the kind of the
// decision answered where the log has seen it asked (`decision_asked`).
function answerWords(e, s) {
  const name = playerName(e.player);
  const asked = e.decision_asked || {};
  const words = DECISION_ANSWERS[asked.kind];
  if (words) return words(name, e.choice, asked, s);
  if (e.choice === "pass") return `${name} passes`;
  return `${name} chose ${e.choice === null ? "decline" : thingName(s, e.choice)}`;
}

// A pending decision as `seat` reads it: the prompt for the player deciding, the third person
// (with the player's name) for the other player and spectators, and in the log (no seat).
export function decisionWords(decision, state, seat = null) {
  if (seat && decision?.player === seat) return decisionPrompt(decision, state, seat);
  const name = playerName(decision?.player);
  const words = DECISION_THIRD_PERSON[decision?.kind];
  return words ? words(name, decision, state) : `${name} decides (${choiceWords(decision?.kind || "a decision")})`;
}

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
  game_created: (e, s) => `Game created: ${s?.mission?.name || "the mission"} (${e.edition === "10e" ? "10th" : "11th"} edition)`,
  game_conceded: (e) => `${playerName(e.player)} concedes: ${playerName(e.winner)} wins`,
  action_applied: () => null,
  reserves_declared: (e, s) => `${playerName(e.player)} declares ${e.units.length ? e.units.map((u) => unitName(s, u)).join(", ") : "no units"} in reserves`,
  stage_started: (e) => `The ${String(e.stage).replaceAll("_", " ")} stage begins`,
  unit_deployed: (e, s) => `${playerName(e.player)} deploys ${unitName(s, e.unit)}`,
  dice_rolled: (e) => `Rolled ${e.values.join(", ")} for ${purposeWords(e.purpose)}${e.modifier_applied ? ` (${e.modifier_applied > 0 ? "+" : ""}${e.modifier_applied})` : ""}${isSummed(e) ? `: ${e.total}` : ""}`,
  dice_rerolled: (e) => `Re-rolled ${purposeWords(e.purpose)}: now ${e.values.join(", ")}${isSummed(e) ? ` (total ${e.total})` : ""}`,
  attack_step: (e, s) => `${unitName(s, e.unit)} → ${unitName(s, e.target)}${e.tray?.weapon ? `, ${e.tray.weapon}` : ""}: ${e.tray?.summary ? traySummary(e.tray) : purposeWords(e.tray?.step)}`,
  attacks_resolved: () => null,
  roll_automatic: (e) => `${purposeWords(e.purpose)} succeeds automatically`,
  roll_off_won: (e) => `${playerName(e.player)} wins the roll-off`,
  decision_pending: (e, s) => decisionWords(e.decision, s),
  // The log passes the decision answered (`decision_asked`, its decision_pending), so the answer
  // reads as a statement of what the player chose ("alice takes the first turn").
  decision_made: (e, s) => answerWords(e, s),
  order_issued: (e, s) => `${playerName(e.player)} issues ${e.name || orderName(e.order)} to ${unitName(s, e.unit)} (${modelName(s, e.officer)})`,
  ability_used: (e, s) => `${playerName(e.player)} uses ${titled(String(e.ability).split(":")[0])}: ${optionWords(s, "ability_choice", e.choice)}`,
  abilities_granted: (e, s) => `${e.units.map((u) => unitName(s, u)).join(", ")} gain ${e.ability}`,
  unit_redeployed: (e, s) => `${unitName(s, e.unit)} is redeployed ${e.location === "strategic_reserves" ? "into Strategic Reserves" : "on the battlefield"}`,
  artillery_support_selected: (e) => `${playerName(e.player)} selects ${titled(e.support)}`,
  unit_shaken: (e, s) => `${unitName(s, e.unit)} is shaken by the barrage`,
  summary_execution: (e, s) => `Summary Execution: ${modelName(s, e.model)} is executed`,
  model_returned: (e, s) => `A destroyed model returns to ${unitName(s, e.unit)}`,
  fight_type_selected: (e, s) => `${unitName(s, e.unit)} makes ${e.fight_type === "overrun" ? "an overrun" : "a normal"} fight`,
  normal_move_declined: (e, s) => `${unitName(s, e.unit)} makes no Normal move`,
  normal_move_unavailable: (e, s) => `${unitName(s, e.unit)} cannot make its Normal move (${choiceWords(e.reason)})`,
  unit_removed_from_battlefield: (e, s) => `${unitName(s, e.unit)} is removed from the battlefield${e.method ? ` (${choiceWords(e.method)})` : ""}`,
  arrival_declined: (e, s) => `${unitName(s, e.unit)} stays in reserves`,
  first_turn_decided: (e) => `${playerName(e.player)} takes the first turn`,
  starting_strengths_recorded: () => "Each unit's Starting Strength is recorded",
  battle_round_started: (e) => `Battle round ${e.battle_round} begins`,
  battle_round_ended: (e) => `Battle round ${e.battle_round} ends`,
  turn_started: (e) => `${playerName(e.player)}'s turn begins`,
  turn_ended: (e) => `${playerName(e.player)}'s turn ends`,
  phase_started: (e) => `${playerName(e.player)}'s ${phaseName(e.phase)} phase`,
  phase_ended: (e) => `${phaseName(e.phase)} phase ends`,
  command_points_gained: (e) => `${playerName(e.player)} gains ${e.amount} CP`,
  command_points_spent: (e) => `${playerName(e.player)} spends ${e.amount} CP`,
  objective_control_changed: (e) => `Objective ${e.objective}: ${e.controller ? `controlled by ${playerName(e.controller)}` : "uncontrolled"}`,
  victory_points_scored: (e) => `${playerName(e.player)} scores ${e.amount} VP${e.source ? ` (${e.source})` : ""}`,
  unit_flag_set: () => null,
  unit_remained_stationary: (e, s) => `${unitName(s, e.unit)} remains stationary`,
  unit_moved: (e, s) => `${unitName(s, e.unit)} ${e.move && e.move !== "normal" ? `makes a ${choiceWords(e.move)} move` : "moves"}${e.source ? ` (${stratagemName(s, e.source)})` : ""}`,
  unit_arrived: (e, s) => `${unitName(s, e.unit)} arrives from reserves`,
  unit_embarked: (e, s) => `${unitName(s, e.unit)} embarks within ${unitName(s, e.transport)}`,
  unit_disembarked: (e, s) => `${unitName(s, e.unit)} disembarks from ${unitName(s, e.transport)} (${choiceWords(e.mode)})`,
  disembark_mode_selected: () => null,
  deadly_demise: (e, s) => `${unitName(s, e.unit)} suffers a deadly demise`,
  unit_selected_to_shoot: (e, s) => `${unitName(s, e.unit)} shoots${e.targets ? ` at ${e.targets.map((t) => unitName(s, t)).join(", ")}` : ""}`,
  // Who shoots what with which weapons: "Cadian Shock Troops shoots at Strike Squad A (Lasgun ×9, Flamer)".
  targets_selected: (e, s) => {
    const attacks = e.attacks || [];
    const targets = [...new Set(attacks.map((a) => a.target))].map((t) => unitName(s, t));
    const weapons = attacks.map((a) => `${a.weapon}${a.models?.length > 1 ? ` ×${a.models.length}` : ""}${targets.length > 1 ? ` at ${unitName(s, a.target)}` : ""}`);
    return `${unitName(s, e.unit)} shoots${targets.length ? ` at ${targets.join(", ")}` : ""}${weapons.length ? ` (${weapons.join(", ")})` : ""}`;
  },
  unit_selected_to_fight: (e, s) => `${unitName(s, e.unit)} fights`,
  charge_declared: (e, s) => `${unitName(s, e.unit)} declares a charge${e.targets ? ` against ${e.targets.map((t) => unitName(s, t)).join(", ")}` : ""}`,
  unit_charged: (e, s) => `${unitName(s, e.unit)} charges`,
  charge_failed: (e, s) => `${unitName(s, e.unit)} fails its charge${chargeShortfall(e)}`,
  charge_move_declined: (e, s) => `${unitName(s, e.unit)} declines the charge move`,
  fall_back_mode_selected: (e, s) => `${unitName(s, e.unit)} falls back (${choiceWords(e.mode)})`,
  battle_shock_rolled: (e, s) => battleShockWords(e, s),
  effect_started: (e, s) => effectWords(e.effect, s),
  effect_ended: () => null,
  wounds_lost: (e, s) => `${unitName(s, e.unit)} loses ${e.amount ?? e.wounds ?? ""} ${(e.amount ?? e.wounds) === 1 ? "wound" : "wounds"}`,
  model_destroyed: (e, s) => `A model of ${unitName(s, e.unit)} is destroyed`,
  unit_part_destroyed: (e, s) => `Part of ${unitName(s, e.unit)} is destroyed`,
  unit_destroyed: (e, s) => `${unitName(s, e.unit)} is destroyed`,
  shooting_out_of_turn_declined: (e, s) => `${unitName(s, e.unit)} holds its fire`,
  shooting_out_of_turn_impossible: (e, s) => `${unitName(s, e.unit)} has nothing to shoot at`,
  precision_target_chosen: (e, s) => `[PRECISION]: ${e.model ? `the attacks go to ${e.model}` : "allocated as usual"} (${unitName(s, e.target)})`,
  reactive_move_declined: (e, s) => `${unitName(s, e.unit)} does not move (${e.rule})`,
  hazard_rolled: (e, s) => {
    const test = e.rule === "Hazardous" ? "Hazardous test" : "hazard roll"; // 10e / 11e 06.03
    if (!e.failures) return `${unitName(s, e.unit)}: no ${test} fails`;
    return `${unitName(s, e.unit)}: ${e.failures} failed ${test}${e.failures === 1 ? "" : "s"}, ${e.mortal_wounds} mortal ${e.mortal_wounds === 1 ? "wound" : "wounds"}`;
  },
  hazard_deferred: (e, s) => `${unitName(s, e.unit)}: ${e.failures} failed Hazardous ${e.failures === 1 ? "test" : "tests"}; the mortal wounds come once ${unitName(s, e.charging)} has ended its charge`,
  charge_ended: (e, s) => `${unitName(s, e.unit)} was destroyed before its charge roll`,
  stratagem_used: (e, s) => `${playerName(e.player)} uses ${e.name || stratagemName(s, e.stratagem)}${e.target ? ` on ${thingName(s, e.target)}` : ""}${e.cp ? ` (${e.cp} CP)` : ""}`,
  // Events the log said as their raw kind before ("coherency lost", "unit fought").
  advance_roll_replaced: (e, s) => `${unitName(s, e.unit)} makes no Advance roll: ${e.rule || "a rule"} replaces it`,
  allocation_order_chosen: (e, s) => `The attacks on ${unitName(s, e.unit)} are allocated group by group, in the order ${(e.order || []).map((i) => i + 1).join(" → ")}`,
  battle_shock_test_treated_as_passed: (e, s) => `${unitName(s, e.unit)} is treated as having passed its Battle-shock test (${stratagemName(s, e.stratagem)})`,
  coherency_lost: (e, s) => {
    const why = e.reason ? withModelNames(s, String(e.reason).replace(/^model \S+ is /, "")) : "";
    return `${modelName(s, e.model)} is removed at the end of the turn, out of unit coherency${why ? ` (${why})` : ""}`;
  },
  explosives_thrown: (e, s) => `${modelName(s, e.model)} throws explosives at ${unitName(s, e.enemy)}: ${e.mortal_wounds} mortal ${e.mortal_wounds === 1 ? "wound" : "wounds"}`,
  fall_back_move_abandoned: (e, s) => `${unitName(s, e.unit)} makes no Fall Back move and stays where it is`,
  fight_step_ended: (e) => `${playerName(e.player)} makes no more ${e.step === "consolidate" ? "consolidation" : "pile-in"} moves`,
  firing_deck: (e, s) => `${unitName(s, e.unit)} shoots with the weapons of ${(e.units || []).map((u) => unitName(s, u)).join(", ")}, embarked within it`,
  leaders_became_separate_units: (e, s) => `${unitName(s, e.unit)}'s Bodyguard is destroyed: ${(e.units || []).map((u) => unitName(s, u)).join(" and ")} ${(e.units || []).length === 1 ? "becomes a separate unit" : "become separate units"} again`,
  leadership_tested: (e, s) => `${unitName(s, e.unit)} ${e.passed ? "passed" : "failed"} its Leadership test (rolled ${e.total} against Leadership ${e.leadership}+)`,
  lethal_hits_chosen: (e, s) => `[LETHAL HITS]: ${e.automatic_wounds} of the ${e.critical_hits} critical ${e.critical_hits === 1 ? "hit" : "hits"} of ${unitName(s, e.unit)} ${e.automatic_wounds === 1 ? "wounds" : "wound"} automatically`,
  mortal_wound_ignored: (e, s) => `${modelName(s, e.model)} ignores a mortal wound (Feel No Pain)`,
  position_set_up: (e) => {
    const p = e.position || {};
    const turn = p.active_player ? `, ${playerName(p.active_player)}'s ${phaseName(p.phase || "command")} phase` : "";
    return `The game starts from a set-up position${p.battle_round ? `: battle round ${p.battle_round}` : ""}${turn}`;
  },
  unit_fights_next: (e, s) => `${unitName(s, e.unit)} fights next (${stratagemName(s, e.stratagem)})`,
  unit_fought: (e, s) => `${unitName(s, e.unit)} has fought`,
  unit_placed_into_reserves: (e, s) => `${unitName(s, e.unit)} is placed into Strategic Reserves${e.source ? ` (${stratagemName(s, e.source)})` : ""}`,
  window_preferences_set: (e) => `${playerName(e.player)} changes which stratagem windows to be asked about`,
  window_timed_out: (e) => `${playerName(e.player)}'s time to use a stratagem ran out: ${playerName(e.player)} passes`,
  battle_ended: (e) => `The battle ends: ${e.winner ? `${playerName(e.winner)} wins` : "a draw"}${e.victory_points ? ` (${e.victory_points["1"]}–${e.victory_points["2"]} VP)` : ""}`,
};

// An engine reason that names models by id ('model AM-3 is not within 2" of another model'), with
// the names a player sees.
function withModelNames(state, words) {
  return String(words).replace(/model (\S+?)(?=[\s,.;]|$)/g, (said, id) => (modelOf(state, id) ? modelName(state, id) : said));
}

// A line for the game log: {text, rule}; text null for bookkeeping events not worth a line.
export function describe(event, state) {
  const kind = eventKind(event);
  const words = WORDS[kind];
  let text = words ? words(event, state) : event.summary || event.text || kind.replaceAll("_", " ");
  if (event.summary && kind !== "dice_rolled") text = Array.isArray(event.dice) ? traySummary(event) : event.summary;
  const rule = event.rule || event.reroll_rule || event.decision?.rule || null;
  return { text, rule };
}

// --- the words of the table's panels (issue 15) ---------------------------------------------

const DURATION_WORDS = {
  end_of_phase: "until the end of the phase",
  end_of_turn: "until the end of the turn",
  end_of_battle_round: "until the end of the battle round",
  start_of_next_command_phase: "until the start of its player's next Command phase",
  start_of_next_movement_phase: "until the start of its player's next Movement phase",
  end_of_battle: "until the end of the battle",
  until_removed: "until the rule that set it ends it",
};

// Where an effect comes from, in words: a stratagem, an Order, a battle-shock test, an ability.
export function effectSource(effect, state) {
  const source = String(effect?.source || "");
  if (state?.stratagems?.[source]) return `${state.stratagems[source].name} (stratagem)`;
  if (serverNames.orders?.[source]) return `${serverNames.orders[source]} (Order)`;
  if (source.startsWith("battle_shock")) return "a failed Battle-shock test";
  return titled(source.split(":")[0]);
}

export function effectWhat(effect) {
  const modifier = effect?.modifier || {};
  if (modifier.status) return titled(modifier.status);
  return effectSourceName(effect);
}

function effectSourceName(effect) {
  const source = String(effect?.source || "");
  return serverNames.orders?.[source] || titled(source.split(":")[0]);
}

export function effectEnds(effect) {
  return DURATION_WORDS[effect?.duration] || "";
}

function effectWords(effect, state) {
  if (!effect) return null;
  const unit = effect.selector?.unit ? ` on ${unitName(state, effect.selector.unit)}` : "";
  const ends = effectEnds(effect);
  return `${effectWhat(effect)}${unit}: from ${effectSource(effect, state)}${ends ? `, ${ends}` : ""}`;
}

function battleShockWords(e, s) {
  const verdict = e.passed ? "passed" : "failed";
  const against = e.leadership ? ` (rolled ${e.total} against Leadership ${e.leadership}+)` : "";
  return `${unitName(s, e.unit)} ${verdict} its Battle-shock test${e.automatic ? " automatically" : against}`;
}

function whose(state, unitId, seat) {
  const unit = state?.units?.[unitId];
  if (!unit) return "a unit";
  return unit.player === seat ? `your ${unit.name}` : `${playerName(unit.player)}'s ${unit.name}`;
}

function listOf(state, ids, seat) {
  return (ids || []).map((id) => whose(state, id, seat)).join(" and ");
}

// The moment a stratagem window opens, in words, as `seat` reads it.
const MOMENTS = {
  phase_start: (a, s) => `The ${phaseName(s.phase)} phase begins (${playerName(s.active_player)}'s turn)`,
  phase_end: (a, s) => `The ${phaseName(s.phase)} phase ends (${playerName(s.active_player)}'s turn)`,
  battle_shock_before_roll: (a, s, seat) => `${whose(s, a.unit, seat)} is about to take a Battle-shock test`,
  battle_shock_after_fail: (a, s, seat) => `${whose(s, a.unit, seat)} failed a Battle-shock test`,
  unit_selected_to_shoot: (a, s, seat) => `${whose(s, a.unit, seat)} was selected to shoot${a.targets?.length ? ` at ${listOf(s, a.targets, seat)}` : ""}`,
  enemy_unit_selected_targets: (a, s, seat) => `${whose(s, a.unit, seat)} was selected to shoot${a.targets?.length ? ` at ${listOf(s, a.targets, seat)}` : ""}`,
  unit_selected_to_fight: (a, s, seat) => `${whose(s, a.unit, seat)} was selected to fight`,
  enemy_unit_shot: (a, s, seat) => `${whose(s, a.unit, seat)} has shot`,
  enemy_unit_fought: (a, s, seat) => `${whose(s, a.unit, seat)} has fought`,
  enemy_unit_resolved_attacks: (a, s, seat) => `${whose(s, a.unit, seat)} has resolved its attacks`,
  charge_declared: (a, s, seat) => `${whose(s, a.unit, seat)} declared a charge${a.targets?.length ? ` against ${listOf(s, a.targets, seat)}` : ""}`,
  enemy_charge_declared: (a, s, seat) => `${whose(s, a.unit, seat)} declared a charge${a.targets?.length ? ` against ${listOf(s, a.targets, seat)}` : ""}`,
  charge_move_ended: (a, s, seat) => `${whose(s, a.unit, seat)} ended a charge move`,
  enemy_move_started_or_ended: (a, s, seat) => `${whose(s, a.unit, seat)} started or ended a move`,
  enemy_unit_set_up: (a, s, seat) => `${whose(s, a.unit, seat)} was set up on the battlefield`,
  after_roll: (a, s, seat) => `${a.unit ? `${whose(s, a.unit, seat)} ` : ""}just made ${rollWords(a.roll?.purpose)}${rolledWords(a.roll)}`,
  unit_destroyed: (a, s, seat) => `${whose(s, a.unit, seat)} was destroyed`,
  unit_targeted: (a, s, seat) => `${whose(s, a.unit, seat)} was targeted`,
  fight_step: (a, s) => `A step of the ${phaseName(s.phase)} phase begins`,
  reinforcements_step: () => "The Reinforcements step",
  any_time: (a, s) => `${playerName(s.active_player)}'s ${phaseName(s.phase)} phase`,
};

export function momentWords(decision, state, seat) {
  const resume = decision?.resume || {};
  const triggers = resume.triggers || [];
  const about = resume.about || {};
  const trigger = triggers.find((t) => MOMENTS[t]) || triggers[0];
  const words = MOMENTS[trigger];
  // The phase the window belongs to, as its offers say: the log of a past game reads it with
  // today's state, whose phase is another one (or none, once the battle is over).
  const offered = (Array.isArray(decision?.options) ? decision.options : []).find((o) => o?.window?.phase);
  const at = offered ? { ...(state || {}), phase: offered.window.phase } : state || {};
  const said = words ? words(about, at, seat) : "Now";
  // A moment can start with "your" or "a" ("your Strike Squad just made a save roll"): it opens
  // the sentence. A player's name is left as its player wrote it.
  return said.replace(/^(your|a) /, (start) => start[0].toUpperCase() + start.slice(1));
}

// The action panel's own words (action_panel.js shows no English of its own: every word comes
// from here or from the server's names; tests/browser/test_decision_labels.py fails on a literal
// there). Moves made by dragging, by action type: what the hint calls them.
export const MOVE_WORDS = { move: "move it", pile_in: "pile in", consolidate: "consolidate", scout: "make a Scout move" };
// Actions on a selected unit answered by one button, by action type.
export const UNIT_ACTION_LABELS = { remain_stationary: "Remain stationary", advance: "Advance", fall_back: "Fall back", fight: "Fight" };
const PLACEMENT_TITLES = { deploy: "Deployment", arrive: "Arrivals", disembark: "Disembark" };
const PLACEMENT_VERBS = { deploy: "Deploy", arrive: "Arrive with", disembark: "Disembark" };
export const PANEL_WORDS = {
  watching: "You are watching: the board and dice are read-only.",
  otherActions: "Other actions",
  embarkWithin: (unit, transport) => `${unit}: embark within ${transport}`,
  endStep: (consolidating, pilingIn) => `End ${consolidating ? "consolidation moves" : pilingIn ? "pile-in moves" : "this step"}`,
  endPhase: (phase) => (phase ? `End ${phaseName(phase)} phase` : "End phase"),
  decision: "Decision",
  yourDecision: "Your decision",
  secondsLeft: (seconds) => `${seconds} s left`,
  shootAt: (target) => `Shoot ${target}`,
  pickOne: "Pick one (the units you can pick are ringed on the board; click one there too):",
  dragGhost: (who) => `Drag the ghost of ${who} into coherency with its unit, then confirm.`,
  dragToPlace: (who, inches) => `Drag ${who} to place it${inches ? ` (up to ${inches}")` : ""}.`,
  placeModels: "Place models",
  placeModelsBy: (how) => `Place models (${how})`,
  setUpBy: "Set up by",
  confirm: "Confirm",
  takeToTheSkies: (penalty) => ` Take to the skies${penalty ? ` (${penalty}" less)` : ""}`,
  orders: "Orders",
  orderFields: { officer: "Officer", order: "Order", unit: "Unit" },
  officer: (name) => `Officer: ${name}`,
  issueOrder: "Issue order",
  stratagems: "Stratagems",
  stratagemButton: (name, target, cost) => `${name}${target ? ` on ${target}` : ""}${cost !== undefined ? ` (${cost} CP)` : ""}`,
  stratagemTitle: (record) => [record.when_text && `WHEN: ${record.when_text}`, record.target_text && `TARGET: ${record.target_text}`, record.effect_text && `EFFECT: ${record.effect_text}`].filter(Boolean).join("\n"),
  height: "Height",
  endsAt: (model) => `${model} ends at `,
  aboveTheGround: (max) => `" above the ground (up to ${max}" here)`,
  strategicReserves: "Strategic reserves",
  reserveUnit: (unit, worth) => ` ${unit}${worth === undefined ? "" : ` (${worth} pts)`}`,
  onTheBattlefield: "on the battlefield",
  embarkedWithin: (transport) => `embarked within ${transport}`,
  startsAs: (unit) => `${unit} starts `,
  declareReserves: "Declare reserves",
  placementTitle: (type) => PLACEMENT_TITLES[type] || choiceWords(type),
  dragIntoPlace: (unit) => `Drag ${unit} into place (nothing is sent until you confirm), then confirm.`,
  placeHere: (type, unit) => `${PLACEMENT_VERBS[type] || choiceWords(type)} ${unit} here`,
  cancel: "Cancel",
  placeUnit: (type, unit, how) => `${PLACEMENT_VERBS[type] || choiceWords(type)} ${unit}${how ? ` (${how})` : ""}`,
  yourUnits: "Your units",
  dragToMove: (type, inches) => `Drag the unit to ${MOVE_WORDS[type]} (up to ${inches}"); hold Alt or pick "one model" to move a single model; turn the touched model by its handle or with [ and ].`,
  confirmMove: "Confirm move",
  reset: "Reset",
  targetsOf: (type) => (type === "declare_charge" ? "Charge" : choiceWords(type)),
  declareTargets: (type) => (type === "declare_charge" ? "Declare charge" : choiceWords(type)),
  pileInFirst: (inches) => `Drag the unit to pile in first (up to ${inches}"), or fight where it stands.`,
  fightType: (type) => (type === null ? "Fight" : type === "overrun" ? "Overrun fight" : "Fight (normal)"),
  shoot: "Shoot",
  holdFire: "hold fire",
  weaponAt: (weapon, models) => `${weapon}${models > 1 ? ` ×${models}` : ""} at `,
};

// The table's other words: the board, the dice tray, the log, the roster, the previews.
export const TABLE_WORDS = {
  deploymentZone: (name) => `${name}'s deployment zone`,
  rerolledFrom: (value) => `re-rolled from ${value}`,
  noDiceRolled: "succeeds automatically: no dice rolled",
  dice: "Dice",
  diceRolled: "Dice rolled",
  meleeWeapons: "Melee weapons (one per model)",
  halfRange: (inches) => `half range ${inches}"`,
  offTheBattlefield: (how) => `off the battlefield (${how})`,
  workingOut: "Working out the odds…",
  chancesChart: (most) => `Chances of 0 to ${most} models destroyed`,
  notATarget: "Not a target now:",
  wouldAccept: "The referee would accept this.",
  notConnected: "Not connected: try again in a moment.",
  setUpHere: (inches) => `Set up here, more than ${inches}" from enemy models`,
  turnHandle: "Drag round to turn (keys [ and ])",
  selected: (name) => `Selected: ${name}`,
};

// The army builder's own words (army_builder.js, its own page).
export const ARMY_BUILDER_WORDS = {
  remove: "Remove",
  delete: "Delete",
  upTo: (option, limit) => `${option} (up to ${limit})`,
  reportLine: (line) => `Line ${line.line}: ${line.text} — ${line.message}`,
  title: (army) => (army ? `Edit ${army.name}` : "New army"),
  defaultName: "My army",
  saved: "Saved.",
  notSaved: (why) => `Not saved: ${why}`,
};

// The datacard's own words (datacard.js): its headings, table heads and lines.
export const DATACARD_WORDS = {
  close: "Close the datacard",
  abilityTitle: (text, rule) => `${text}${rule ? ` (${rule})` : ""}`,
  summary: (player, models, wounds, of) => `${player}'s unit · ${models} ${models === 1 ? "model" : "models"}, ${wounds}/${of} wounds left`,
  strength: (strength, belowHalf) => ` · starting strength ${strength}, half-strength ${belowHalf ? "below half" : "at or below half"} (${strength / 2} models)`,
  pinNote: "Click the unit to keep this card open.",
  profiles: "Profiles",
  profileHead: ["Model", "M", "T", "Sv", "Inv", "W", "Ld", "OC"],
  weapons: (type) => (type === "ranged" ? "Ranged weapons" : "Melee weapons"),
  weaponHead: (type) => ["Weapon", "Range", "A", type === "ranged" ? "BS" : "WS", "S", "AP", "D", "Abilities"],
  melee: "Melee",
  abilities: "Abilities",
  also: (names) => `Also: ${names.join(", ")}`,
  leaders: "Leaders and enhancements",
  attached: (role, name, warlord) => `${role === "support" ? "Support" : "Leader"}: ${name}${warlord ? " (Warlord)" : ""}`,
  warlord: "Warlord",
  enhancement: (name, bearer) => `Enhancement: ${name} (on ${bearer})`,
  models: "Models",
  modelHead: ["Model", "Wounds", "Wargear"],
  destroyed: "destroyed",
  effects: "Active effects",
  effect: (what, source, started, ends) => `${what}: from ${source}${started ? ` (since round ${started.battle_round}, ${phaseName(started.phase)} phase)` : ""}${ends ? `, ${ends}` : ""}`,
  keywords: "Keywords",
  faction: (keywords) => `Faction: ${keywords.join(", ")}`,
};

// The tracker's own words (tracker.js): the battle round, whose turn, whom the set-up awaits,
// the scores and the result.
export const TRACKER_WORDS = {
  noBoard: (status) => `Game ${status || ""}: the board appears when the battle is set up.`,
  player: (name, player) => (name ? `${name} (P${player})` : `Player ${player}`),
  round: (round) => `Round ${round}`,
  turn: (who, yours) => `${who}'s turn${yours ? " (you)" : ""}`,
  yourMove: "your move",
  waitingFor: (who) => `waiting for ${who}`,
  yourDecision: (prompt) => `Your decision: ${prompt}`,
  carries: (transport, units) => `${transport} carries ${units.join(", ")}`,
  score: (who, cp, vp) => `${who}: ${cp} CP · ${vp} VP`,
  result: (winner, [one, two]) => `${winner ? `${winner} wins` : "A draw"}, ${one}–${two} VP`,
};

// The stratagem window's own words (stratagem_offers.js), and "bob is deciding…" for the others.
export const WINDOW_WORDS = {
  youHave: (cp) => `You have ${cp} CP.`,
  pass: "Pass",
  passPhase: "Pass every window this phase",
  stratagem: "Stratagem",
  cost: (cp) => `${cp ?? "?"} CP`,
  stratagemText: "Stratagem text",
  part: (part) => `${part.toUpperCase()}: `,
  target: (name) => `Target: ${name}`,
  useIt: (extra) => (extra ? `Use it: ${extra}` : "Use it"),
  useOn: (target, extra) => `Use on ${target || "this"}${extra ? `: ${extra}` : ""}`,
  neverOffer: (name) => `Pass, and never offer ${name || "it"} again this battle`,
  quietWithoutCp: " Don't ask me when I have no CP",
  rerollEveryRoll: " Offer Command Re-roll after every roll, not only after a failed die",
  neverOffered: (names) => `Never offered again: ${names.map((name) => name || "a stratagem").join(", ")} `,
  offerAgain: "Offer them again",
  deciding: (name, moment) => `${name} is deciding…${moment ? ` (${moment}: a stratagem?)` : ""}`,
};

// A pending decision's prompt as the page shows it (the stratagem window's moment in words).
// An attack step's line in the dice tray: the engine's summary; [TORRENT] hits, for which nothing
// is rolled, said as such. The engine puts a count of one in the singular; a game logged by an
// older engine ("1 hits") is shown with the same agreement, so its replay reads the same.
const ONE = { "hit rolls": "hit roll", "wound rolls": "wound roll", "save rolls": "save roll", "attack dice": "attack die", hits: "hit", wounds: "wound" };
export function traySummary(record) {
  if (!record.dice?.length && record.step === "hit_roll" && record.automatic) {
    return `${record.automatic} automatic ${record.automatic === 1 ? "hit" : "hits"} (no roll)`;
  }
  const words = String(record.summary ?? `${record.successes ?? ""} successes`);
  return words.replace(/(^|[^\d.])1 (hit rolls|wound rolls|save rolls|attack dice|hits|wounds)\b/g, (_, before, noun) => `${before}1 ${ONE[noun]}`);
}

// Why a charge failed, in numbers: the roll and the distance it needed (the engine's, to the
// nearest tenth of an inch), when the event carries them.
export function chargeShortfall(event) {
  if (typeof event.roll !== "number") return "";
  const needed = Number.isFinite(event.needed) ? `, needed ${event.needed.toFixed(1)}"` : "";
  return ` (rolled ${event.roll}${needed})`;
}

// What a roll came to, for the player deciding whether to re-roll it: its dice, and their sum
// where it counts (a charge, an Advance).
function rolledWords(roll) {
  const values = roll?.values || [];
  if (!values.length) return "";
  return ` (rolled ${values.join(", ")}${isSummed(roll) && values.length > 1 ? `: ${roll.total}` : ""})`;
}

// A roll by its purpose, with its article: "a hit roll", "an Advance roll", "a roll for its Attacks".
const ROLLS = { attacks: "a roll for its Attacks", advance: "an Advance roll", charge: "a Charge roll", hazard: "a Hazard roll", battle_shock: "a Battle-shock test", desperate_escape: "a Desperate Escape test" };
function rollWords(purpose) {
  const words = String(purpose || "").replaceAll("_", " ");
  return ROLLS[purpose] || `${/^[aeiou]/i.test(words) ? "an" : "a"} ${words} roll`;
}

// Decisions whose engine prompt is written for programs that speak the protocol (it names the
// JSON to answer with): what the page says instead, with the same choices.
const PROMPTS = {
  // The engine's prompt prints the dice as a list ("[1, 1, 6, 6]").
  choose_dice_to_reroll: (d) => {
    const roll = d.resume?.roll;
    if (!roll?.values?.length) return withoutProtocolWords(d.prompt);
    return `Re-roll the ${purposeWords(roll.purpose)} roll${rolledWords(roll)}?`;
  },
  shoot_out_of_turn: (d, s) => `Shoot with ${unitName(s, d.options?.unit)} (${d.options?.single_target ? "one target" : "its targets"}), or hold fire.`,
  stratagem_arrival: (d, s) => `Set up ${unitName(s, d.options?.unit)}${d.options?.method ? ` (${arrivalName(d.options.method)})` : ""}, or leave it off the battlefield.`,
  return_destroyed_model: (d, s) => `Return a destroyed model to ${unitName(s, d.options?.unit)}: place it in unit coherency, or return none.`,
};

// Other engine prompts say how to decline in the protocol's words ("(or decline with null)",
// "null: no move."): the page offers declining as a button (DECISION_WORDS), so that part goes.
// "…, or done." (the answer "done") names the button the player presses instead.
function withoutProtocolWords(prompt) {
  return String(prompt || "")
    .replace(/, or done\.$/, ', or press "Done".')
    .replace(/\s*\([^()]*\bnull\b[^()]*\)/g, "")
    .replace(/;?\s*\bnull: [^.;]*[.;]?/g, ".")
    .replace(/\.\.$/, ".")
    .replace(/\s+([.?])$/, "$1");
}

// A phase in which none of the player's units has anything left to do (the panel's only action
// is ending the phase).
const NO_UNIT_ACTS = {
  movement: "None of your units can move now.",
  shooting: "None of your units can shoot now.",
  charge: "None of your units can declare a charge now.",
  fight: "None of your units can fight now.",
};
export function noUnitActsWords(phase) {
  return NO_UNIT_ACTS[phase] || null;
}

// The action panel of a seat with nothing to do now.
export function waitingWords(state, catchingUp = false) {
  if (!state) return "Your actions appear here once both players have chosen an army.";
  if (state.stage === "ended") return "No action now.";
  return catchingUp ? "Accepted; the table is being brought up to date." : "Waiting for your opponent.";
}

export function decisionPrompt(decision, state, seat = null) {
  if (decision?.kind === "stratagem_window") return `${momentWords(decision, state, seat)}: use a stratagem?`;
  const words = PROMPTS[decision?.kind];
  return words ? words(decision, state) : withoutProtocolWords(decision?.prompt);
}

// How a unit arrives on the battlefield, by the engine's method word: the rule's name, as the
// server sends it (`state.display.arrival_methods`: ingress move, Deep Strike, Teleport Assault).
export function arrivalName(method) {
  return serverNames.arrival_methods?.[method] || choiceWords(method);
}

// Actions without a panel of their own, on their button.
const ACTION_WORDS = { end_scouts: "End Scout moves" };
export function actionName(type) {
  return ACTION_WORDS[type] || choiceWords(type);
}

// What sets apart options of one stratagem on one target (the Order it issues, a model, a mode).
export function offerChoiceWords(option, state) {
  const extras = Object.entries(option || {}).filter(([key, value]) => !["stratagem", "target", "window", "cp"].includes(key)
    && !(key === "unit" && value === option.target));
  return extras.map(([key, value]) => {
    if (key === "order") return `Order: ${orderName(value)}`;
    if (key === "officer") return `by ${modelOf(state, value)?.model?.label || thingName(state, value)}`;
    if (key === "unit") return `to ${thingName(state, value)}`;
    return `${titled(key)}: ${thingName(state, value)}`;
  }).join(", ");
}

// What a set-up step asks of the player whose step it is, {text, rule, with}, as the server words
// it (`state.display.steps`: every step before the battle), or null.
export function stepWords(stage) {
  return serverNames.steps?.[stage] || null;
}

// The set-up step as the other player and spectators read it, {stage, name, others, rule, own},
// or null: the server's third-person line (`others`) after the name of the player whose step it
// is (the one deciding the top decision, else the one the step awaits), so that no one reads only
// "Waiting for your opponent" (alice: "bob is deploying: the players take turns …"). `own` is set
// when the open decision is one the step is made of (the roll-off winner's choice): the line
// says it.
export function stepWaitingWords(state, seat = null) {
  if (!state || state.stage === "battle") return null;
  const step = stepWords(state.stage);
  const top = state.pending?.[state.pending.length - 1];
  const player = top ? top.player : state.awaiting;
  if (!step?.others || !player || (seat && player === seat)) return null;
  return { stage: state.stage, name: playerName(player), others: step.others, rule: step.rule || "", own: !top || (step.with || []).includes(top.kind) };
}

// Why a decision is asked, {text, rule}, as the rule package that asks it words it for the player
// deciding (`state.display.decisions`: Teleport Assault), or null.
export function decisionReason(kind) {
  return serverNames.decisions?.[kind] || null;
}

// An enhancement a model bears, by its slug: its name and text as the server sends them.
export function serverEnhancement(slug) {
  return serverNames.enhancements?.[slug] || { name: titled(slug), text: "" };
}
