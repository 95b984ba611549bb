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

export function choiceWords(choice) {
  if (choice === null || choice === undefined) return "decline";
  if (typeof choice === "string") return choice.replaceAll("_", " ");
  if (Array.isArray(choice)) return choice.map(choiceWords).join(", ");
  if (typeof choice === "object") return choice.label || choice.name || choice.id || JSON.stringify(choice);
  return String(choice);
}

const WORDS = {
  game_created: (e) => `Game created (${e.edition}, ${e.mission})`,
  action_applied: () => null,
  reserves_declared: (e, s) => `Player ${e.player} declares ${e.units.length ? e.units.map((u) => unitName(s, u)).join(", ") : "no units"} in reserves`,
  stage_started: (e) => `The ${String(e.stage).replaceAll("_", " ")} begins`,
  unit_deployed: (e, s) => `Player ${e.player} deploys ${unitName(s, e.unit)}`,
  dice_rolled: (e) => `Rolled ${e.values.join(", ")} for ${purposeWords(e.purpose)}${e.modifier_applied ? ` (${e.modifier_applied > 0 ? "+" : ""}${e.modifier_applied})` : ""}: ${e.total}`,
  dice_rerolled: (e) => `Re-rolled ${purposeWords(e.purpose)}: now ${e.values.join(", ")} (total ${e.total})`,
  roll_automatic: (e) => `${purposeWords(e.purpose)} succeeds automatically`,
  roll_off_won: (e) => `Player ${e.player} wins the roll-off`,
  decision_pending: (e) => `Player ${e.decision.player}: ${e.decision.prompt}`,
  decision_made: (e) => `Player ${e.player} chose ${choiceWords(e.choice)}`,
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
  unit_moved: (e, s) => `${unitName(s, e.unit)} moves`,
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
