// The dice tray: every roll as the server streams it, grouped per step, successes and criticals
// marked, re-rolls shown, the outcome in words. It never rolls anything itself.
import { TABLE_WORDS, eventKind, isSummed, playerName, rollTitle, traySummary, unitName } from "./describe.js";

function die(value, { success = null, critical = false, rerolledFrom = null } = {}) {
  const face = document.createElement("span");
  face.className = "die";
  if (success === true) face.classList.add("success");
  if (success === false) face.classList.add("fail");
  if (critical) face.classList.add("critical");
  if (rerolledFrom !== null) {
    face.classList.add("rerolled");
    face.title = TABLE_WORDS.rerolledFrom(rerolledFrom);
  }
  face.textContent = value;
  return face;
}

function heading(text, rule) {
  const title = document.createElement("header");
  title.textContent = text;
  if (rule) {
    const cite = document.createElement("cite");
    cite.textContent = rule;
    title.append(" ", cite);
  }
  return title;
}

export class DiceTray {
  constructor(container) {
    this.container = container;
    this.rolls = new Map();
    this.action = 0; // the sequence of the action the rolls belong to: one group per weapon group
  }

  add(events, state) {
    for (const event of events) {
      const kind = eventKind(event);
      // A window passed in the middle of a shot does not start new groups: the attacks go on.
      const passed = event.action?.type === "decide" && event.action.choice === "pass";
      if (kind === "action_applied" && !passed) this.action = event.sequence ?? this.action + 1;
      if (kind === "dice_rolled" || kind === "dice_rerolled") this.showRoll(event, state, kind === "dice_rerolled");
      else if (kind === "roll_automatic") this.showAutomatic(event);
      else {
        // Attack steps carry a dice-tray record, on the event itself or under `record`/`tray`.
        const records = [event.record, ...(Array.isArray(event.tray) ? event.tray : [event.tray]), event]
          .filter((r) => r && Array.isArray(r.dice) && r.step);
        if (records.length) this.showStep({ sequence: event.sequence, roll: event.roll, ...records[0] }, event, state);
      }
    }
  }

  group(key, title, rule) {
    let group = this.container.querySelector(`[data-roll-group="${CSS.escape(key)}"]`);
    if (!group) {
      group = document.createElement("section");
      group.className = "roll";
      group.dataset.rollGroup = key;
      group.append(heading(title, rule));
      this.container.append(group);
    }
    this.container.scrollTop = this.container.scrollHeight;
    return group;
  }

  showRoll(event, state, isReroll) {
    const who = event.unit ? `${unitName(state, event.unit)}: ` : event.player ? `${playerName(event.player)}: ` : "";
    const group = this.group(event.roll || `seq-${event.sequence}`, `${who}${rollTitle(event.purpose)}`, event.rule);
    const row = document.createElement("div");
    row.className = isReroll ? "dice-row reroll" : "dice-row";
    row.dataset.diceKind = isReroll ? "rerolled" : "rolled";
    const previous = this.rolls.get(event.roll);
    event.values.forEach((value, position) => {
      const changed = isReroll && (event.positions || []).includes(position);
      row.append(die(value, { rerolledFrom: changed && previous ? previous.values[position] : null }));
    });
    const total = document.createElement("span");
    total.className = "outcome";
    const modifier = event.modifier_applied ? ` ${event.modifier_applied > 0 ? "+" : ""}${event.modifier_applied}` : "";
    total.textContent = `${isReroll ? "re-rolled" : ""}${modifier}${isSummed(event) ? ` = ${event.total}` : ""}`;
    row.append(total);
    group.append(row);
    if (isReroll && event.reroll_rule) row.title = `re-roll: ${event.reroll_rule}`;
    this.rolls.set(event.roll, event);
  }

  showAutomatic(event) {
    const group = this.group(`auto-${event.sequence ?? Math.random()}`, rollTitle(event.purpose), event.rule);
    const row = document.createElement("div");
    row.className = "dice-row";
    row.textContent = TABLE_WORDS.noDiceRolled;
    group.append(row);
  }

  // An attack step's dice-tray record (docs/attacks.md): hit, wound, save, damage rolls.
  // A game's attack step follows the `dice_rolled` event of its dice (`roll`): the step's row,
  // which marks successes and criticals, takes the place of that plain row.
  showStep(record, event = {}, state = null) {
    if (record.roll) this.container.querySelector(`[data-roll-group="${CSS.escape(record.roll)}"]`)?.remove();
    // One group per weapon group: who attacked what with which weapon; each step is a row.
    const who = event.unit ? `${unitName(state, event.unit)} → ${unitName(state, event.target)}` : "";
    const key = `attack-${this.action}-${event.unit || ""}-${event.target || ""}-${record.weapon || record.sequence}`;
    const title = `${who}${who && record.weapon ? ": " : ""}${record.weapon || ""}`;
    const group = this.group(key, title || rollTitle(record.step), null);
    group.dataset.weaponGroup = record.weapon || "";
    const row = document.createElement("div");
    row.className = "dice-row";
    row.dataset.step = record.step;
    const label = document.createElement("span");
    label.className = "step-name";
    label.textContent = `${String(record.step).replaceAll("_", " ")}:`;
    row.append(label);
    const rerolled = new Map((record.rerolled || []).map((r) => [r.position, r.from]));
    const needs = record.target;
    const modifier = record.modifier || 0;
    const critical = record.critical_on ?? 6;
    record.dice.forEach((value, position) => {
      const success = needs ? value !== 1 && value + modifier >= needs : null;
      const isCritical = ["hit_roll", "wound_roll"].includes(record.step) && value >= critical;
      row.append(die(value, { success: isCritical ? true : success, critical: isCritical, rerolledFrom: rerolled.get(position) ?? null }));
    });
    const words = document.createElement("span");
    words.className = "outcome";
    words.textContent = traySummary(record);
    row.append(words);
    if (record.rule) row.append(" ", Object.assign(document.createElement("cite"), { textContent: record.rule }));
    group.append(row);
  }
}
