// The phase and step tracker: battle round, whose turn, phase, what the game waits for, and each
// player's CP and VP; the result when the battle is over.
import { TRACKER_WORDS as WORDS, decisionPrompt, decisionWords, phaseName } from "./describe.js";

const PHASES = ["command", "movement", "shooting", "charge", "fight"];

function cell(text, dataset = {}) {
  const element = document.createElement("span");
  element.textContent = text;
  Object.assign(element.dataset, dataset);
  return element;
}

export function renderTracker(container, state, game, seat) {
  container.replaceChildren();
  if (!state) {
    container.append(cell(WORDS.noBoard(game?.status), { stage: "none" }));
    return;
  }
  const names = game?.players || {};
  const who = (player) => WORDS.player(names[String(player)], player);
  const stage = cell(String(state.stage).replaceAll("_", " "), { stage: state.stage });
  stage.className = "stage";
  container.append(stage);
  if (state.stage === "battle") {
    container.append(cell(WORDS.round(state.battle_round), { round: state.battle_round }));
    container.append(cell(WORDS.turn(who(state.active_player), Boolean(seat) && state.active_player === seat), { turn: state.active_player }));
    const phases = document.createElement("ol");
    phases.className = "phases";
    for (const phase of PHASES) {
      const item = document.createElement("li");
      item.textContent = phaseName(phase);
      if (phase === state.phase) item.className = "current";
      phases.append(item);
    }
    container.append(phases);
  } else if (state.awaiting) {
    // During the set-up a player reads "waiting for <their own name>" as waiting on someone else.
    const waiting = seat && state.awaiting === seat ? WORDS.yourMove : WORDS.waitingFor(who(state.awaiting));
    container.append(cell(waiting, { awaiting: state.awaiting }));
  }
  const pending = state.pending?.[state.pending.length - 1];
  // The player deciding reads the prompt; everyone else reads who decides what, in the third
  // person ("alice won the roll-off and chooses whether to take the first turn or the second").
  if (pending) {
    const words = seat && pending.player === seat ? WORDS.yourDecision(decisionPrompt(pending, state, seat)) : decisionWords(pending, state, seat);
    container.append(cell(words, { step: pending.kind }));
  }
  // Embarked units are not on the battlefield (01.02.04): listed with their TRANSPORT.
  const carried = {};
  for (const unit of Object.values(state.units || {})) {
    if (unit.location === "embarked" && unit.embarked_in) (carried[unit.embarked_in] ||= []).push(unit.name);
  }
  for (const [transport, names] of Object.entries(carried)) {
    const line = cell(WORDS.carries(state.units[transport]?.name || transport, names), { embarkedIn: transport });
    line.className = "embarked";
    container.append(line);
  }
  for (const player of ["1", "2"]) {
    const record = state.players?.[player] || {};
    const score = cell(WORDS.score(who(player), record.cp ?? 0, record.vp ?? 0), { score: player });
    score.className = `score player-${player}`;
    container.append(score);
  }
  if (state.stage === "ended") {
    const vp = [state.players?.["1"]?.vp ?? 0, state.players?.["2"]?.vp ?? 0];
    const result = cell(WORDS.result(state.winner ? who(state.winner) : null, vp), { result: state.winner ?? "draw" });
    result.className = "result";
    container.append(result);
  }
}
