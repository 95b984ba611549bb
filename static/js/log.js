// The game log, grouped by action (issue 15): one numbered headline per player action ("bob:
// Cadian Shock Troops A shoots at Strike Squad — 4 hits, 2 wounds, 1 model destroyed"), the
// events of that action in words with their rule citations, and its dice behind "Dice". `add(events, state)` is
// the one entry point, for live events and history alike. A window passed goes under the action it
// interrupted. The line that is the headline is not repeated under it.
import { TABLE_WORDS, chargeShortfall, describe, eventKind, playerName } from "./describe.js";

const QUIET = new Set(["action_applied", "unit_flag_set", "effect_ended", "disembark_mode_selected"]);

function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

// What an action's attacks came to, from its attack steps and destroyed models.
function outcome(events) {
  const steps = events.filter((e) => eventKind(e) === "attack_step" && e.tray);
  const total = (step) => steps.filter((e) => e.tray.step === step).reduce((sum, e) => sum + (e.tray.successes || 0), 0);
  const destroyed = events.filter((e) => eventKind(e) === "model_destroyed").length;
  const parts = [];
  if (steps.some((e) => e.tray.step === "hit_roll")) parts.push(count(total("hit_roll"), "hit", "hits"));
  if (steps.some((e) => e.tray.step === "wound_roll")) parts.push(count(total("wound_roll"), "wound", "wounds"));
  if (steps.length || destroyed) parts.push(count(destroyed, "model destroyed", "models destroyed"));
  // A failed charge is the whole outcome of its declaration: the headline says so.
  const failed = events.find((e) => eventKind(e) === "charge_failed");
  if (failed) parts.push(`the charge fails${chargeShortfall(failed)}`);
  return parts.join(", ");
}

export class GameLog {
  constructor(list) {
    this.list = list;
    this.current = null; // {item, events, lines, summary, head}
    this.number = 0;
    this.then = null; // {active_player, phase} as the last phase_started read said
    this.decisions = new Map(); // decision id -> the decision asked, so its answer reads as a statement
    // Whether the reader keeps to the newest entry: only their own scrolling changes it, not the
    // log growing shorter when the panel above it grows (a stratagem window's offers).
    this.following = true;
    this.scrolledTo = null; // where the log last scrolled itself: its own scroll event changes nothing
    list.addEventListener("scroll", () => {
      if (this.list.scrollTop !== this.scrolledTo) this.following = this.atEnd();
    });
  }

  atEnd() {
    return this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
  }

  // The state as it was when the event happened, as far as its words need it: a page that reads
  // a past turn's log holds today's state, whose active player and phase are others.
  stateThen(state) {
    const then = this.then;
    if (!then || !state || (then.phase === state.phase && then.active_player === state.active_player)) return state;
    return { ...state, ...then };
  }

  startGroup(player, state) {
    this.number += 1;
    const item = document.createElement("li");
    item.className = "entry action";
    const summary = document.createElement("div");
    summary.className = "headline-row";
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = `${this.number}.`;
    const who = document.createElement("span");
    who.className = `who player-${player || 0}`;
    who.textContent = player ? `${playerName(player)}: ` : "";
    const head = document.createElement("span");
    head.className = "headline";
    summary.append(number, who, head);
    const lines = document.createElement("ol");
    const dice = document.createElement("details");
    dice.className = "dice-lines";
    dice.hidden = true;
    const diceList = document.createElement("ol");
    dice.append(Object.assign(document.createElement("summary"), { textContent: TABLE_WORDS.dice }), diceList);
    item.append(summary, lines, dice);
    item.dataset.action = String(this.number);
    this.list.append(item);
    this.current = { item, head, lines, dice, diceList, events: [], headline: null, rule: null, state, player };
    return this.current;
  }

  add(events, state) {
    // A log in a hidden tab has no height: it keeps to its newest entry, which is what the player
    // sees on opening the tab.
    const hidden = this.list.clientHeight === 0;
    const stick = hidden || this.following || this.atEnd();
    for (const event of events) {
      const kind = eventKind(event);
      if (kind === "action_applied") {
        // Passing a window is not an action of its own: it goes under the action it interrupted
        // (a shot's attacks carry on after each pass, and stay one entry).
        if (!(this.current && event.action?.type === "decide" && event.action.choice === "pass")) this.startGroup(event.action?.player, state);
        continue;
      }
      const group = this.current || this.startGroup(null, state);
      group.events.push(event);
      if (kind === "phase_started") this.then = { active_player: event.player, phase: event.phase };
      if (kind === "decision_pending" && event.decision?.id) this.decisions.set(event.decision.id, event.decision);
      if (QUIET.has(kind)) continue;
      const said = kind === "decision_made" ? { ...event, decision_asked: this.decisions.get(event.decision) } : event;
      const { text, rule } = describe(said, this.stateThen(state));
      // Nothing said, or the line before said the same (one effect on each part of a unit).
      if (!text || group.lines.lastChild?.firstChild?.textContent === text) continue;
      const line = document.createElement("li");
      line.dataset.sequence = event.sequence ?? "";
      line.dataset.kind = kind;
      if (event.unit && state?.units?.[event.unit]) line.dataset.unitRef = event.unit;
      if (kind === "battle_shock_rolled") line.className = event.passed ? "shock-passed" : "shock-failed";
      // The opponent passing a window this action opened is said under the action, never as it.
      const othersPass = kind === "decision_made" && event.choice === "pass" && group.player && event.player !== group.player;
      if (othersPass) line.dataset.othersPass = "";
      line.append(document.createTextNode(text));
      if (rule) line.append(" ", Object.assign(document.createElement("cite"), { textContent: rule }));
      const isDice = ["dice_rolled", "dice_rerolled", "attack_step", "roll_automatic"].includes(kind);
      if (isDice) {
        group.dice.hidden = false;
        group.diceList.append(line);
      } else {
        group.lines.append(line);
      }
      // The headline: the first line that says what the player did (not a roll or a prompt); a
      // shot's targets say it better than its selection.
      if (kind === "targets_selected" && group.headlineKind === "unit_selected_to_shoot") group.headline = null;
      if (!group.headline && !othersPass && !["dice_rolled", "dice_rerolled", "decision_pending", "attack_step", "roll_automatic"].includes(kind)) {
        group.headline = text;
        group.headlineKind = kind;
        group.rule = rule;
        group.headlineLine = line;
        if (event.unit && state?.units?.[event.unit]) group.item.dataset.unitRef = event.unit;
      }
      this.refreshHead(group);
    }
    if (stick) {
      this.list.scrollTop = this.list.scrollHeight;
      this.scrolledTo = this.list.scrollTop;
      this.following = true;
    }
  }

  // The newest action's headline, without its rule: what the page says "just happened".
  latest() {
    const text = this.current?.head.firstChild?.textContent || "";
    return text && `${this.current.item.querySelector(".who")?.textContent || ""}${text}`;
  }

  refreshHead(group) {
    const result = outcome(group.events);
    const firstLine = [...group.lines.children].find((line) => !("othersPass" in line.dataset));
    const first = firstLine?.firstChild?.textContent || (group.diceList.firstChild ? TABLE_WORDS.diceRolled : group.lines.firstChild?.firstChild?.textContent || "");
    // The entry already starts with the player's name: a headline that starts with it too does
    // not say it twice, and a statement of the player's keeps reading as one ("alice takes the
    // first turn", "alice passes": the name without its colon).
    const name = group.player ? playerName(group.player) : "";
    const whole = group.headline || first;
    const statement = name && whole.startsWith(`${name} `);
    const text = name && whole.startsWith(`${name}: `) ? whole.slice(name.length + 2) : statement ? whole.slice(name.length + 1) : whole;
    const who = group.item.querySelector(".who");
    if (who && name) who.textContent = statement ? `${name} ` : `${name}: `;
    // The line the headline says is not said twice under it.
    const said = group.headline ? group.headlineLine : firstLine || null;
    for (const line of group.lines.children) line.hidden = line === said;
    group.head.textContent = `${text}${result ? ` — ${result}` : ""}`;
    group.head.querySelector?.("cite")?.remove();
    if (group.rule) group.head.append(" ", Object.assign(document.createElement("cite"), { textContent: group.rule }));
  }
}

