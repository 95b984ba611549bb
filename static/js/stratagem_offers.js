// A stratagem window as a player wants it (issue 15): the moment in words, each stratagem offered
// once with its CP cost and its WHEN / TARGET / EFFECT text, one button per target (and per
// choice that sets options apart: which Order), and the standing choices the engine keeps per game
// (`set_window_preferences`): never offer this stratagem again, pass every window this phase,
// do not ask while I have no CP, offer Command Re-roll after every roll. Every word comes from
// describe.js (WINDOW_WORDS) or the server's records.
import { WINDOW_WORDS as WORDS, momentWords, offerChoiceWords, playerName, thingName } from "./describe.js";

function element(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  node.append(...children);
  return node;
}

// The words every label starts with, up to the last ": " they share ("Use it: Order: ").
function sharedPrefix(labels) {
  let prefix = labels[0] || "";
  for (const label of labels) while (!label.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const end = prefix.lastIndexOf(": ");
  return end > 0 ? prefix.slice(0, end + 2) : "";
}

export function preferencesOf(state, seat) {
  const prefs = state?.window_preferences?.[String(seat)] || {};
  return {
    never_offer: [...(prefs.never_offer || [])],
    never_reroll: [...(prefs.never_reroll || [])],
    pass_phase: Boolean(prefs.pass_phase) && JSON.stringify(prefs.pass_phase) === JSON.stringify([state.battle_round, state.active_player, state.phase]),
    quiet_without_cp: Boolean(prefs.quiet_without_cp),
    reroll_every_roll: Boolean(prefs.reroll_every_roll),
  };
}

// {type: "set_window_preferences", ...} with one change applied.
export function preferencesAction(state, seat, change) {
  return { type: "set_window_preferences", ...preferencesOf(state, seat), ...change };
}

export function renderStratagemWindow(box, { state, seat, decisions, pending, send, sendThen }) {
  box.querySelector(".prompt").textContent = `${momentWords(pending, state, seat)}.`;
  const pass = decisions.find((d) => d.choice === "pass");
  const offers = decisions.filter((d) => d.choice && typeof d.choice === "object" && d.choice.stratagem);
  const bySlug = new Map();
  for (const decision of offers) {
    if (!bySlug.has(decision.choice.stratagem)) bySlug.set(decision.choice.stratagem, []);
    bySlug.get(decision.choice.stratagem).push(decision);
  }
  const cp = state?.players?.[String(seat)]?.cp ?? 0;
  box.append(element("p", { className: "hint" }, WORDS.youHave(cp)));
  // Passing comes first, so that it is in sight however many stratagems are offered.
  if (pass) {
    const row = element("div", { className: "pass-row" });
    const passButton = element("button", { type: "button", textContent: WORDS.pass });
    Object.assign(passButton.dataset, { action: "decide", choice: "pass" });
    passButton.addEventListener("click", () => send({ type: "decide", player: pass.player, decision: pass.decision, choice: "pass" }));
    const all = element("button", { type: "button", textContent: WORDS.passPhase });
    all.dataset.passPhase = "";
    all.addEventListener("click", () => sendThen(preferencesAction(state, seat, { pass_phase: true }), pass));
    row.append(passButton, all);
    box.append(row);
  }
  for (const [slug, options] of bySlug) {
    const record = state?.stratagems?.[slug] || {};
    const card = element("section", { className: "offer" });
    card.dataset.offer = slug;
    const cost = options[0].choice.cp ?? record.cp_cost;
    card.append(element("div", { className: "offer-head" },
      element("span", { className: "offer-name" }, record.name || WORDS.stratagem),
      element("span", { className: "cp" }, WORDS.cost(cost))));
    const text = element("details", { open: bySlug.size === 1 });
    text.append(element("summary", {}, record.category || WORDS.stratagemText));
    for (const [part, words] of [["when", record.when_text], ["target", record.target_text], ["effect", record.effect_text], ["restrictions", record.restrictions_text]]) {
      if (words) text.append(element("p", { className: `text-${part}` }, element("strong", {}, WORDS.part(part)), words));
    }
    card.append(text);
    const choices = element("div", { className: "offer-choices" });
    // One target for every option: said once; the buttons say what sets them apart.
    const targets = [...new Set(options.map((d) => d.choice.target))];
    const officers = new Set(options.map((d) => d.choice.officer));
    if (targets.length === 1 && targets[0]) choices.append(element("p", { className: "offer-target" }, WORDS.target(thingName(state, targets[0]))));
    const labels = options.map((decision) => {
      const target = decision.choice.target ? thingName(state, decision.choice.target) : "";
      const shown = officers.size > 1 ? decision.choice : { ...decision.choice, officer: undefined };
      const extra = offerChoiceWords(Object.fromEntries(Object.entries(shown).filter(([, v]) => v !== undefined)), state);
      return targets.length === 1 ? WORDS.useIt(extra) : WORDS.useOn(target, extra);
    });
    // Many options worded alike ("Use it: Order: …"): the words they share are said once, and
    // the buttons, side by side, say what sets them apart.
    const shared = options.length > 2 ? sharedPrefix(labels) : "";
    if (shared) {
      choices.classList.add("chips");
      choices.append(element("p", { className: "offer-shared" }, shared.trim()));
    }
    for (const [index, decision] of options.entries()) {
      const button = element("button", { type: "button", textContent: labels[index].slice(shared.length) });
      Object.assign(button.dataset, { action: "decide", choice: JSON.stringify(decision.choice), useStratagem: slug });
      if (typeof decision.choice.target === "string") button.dataset.optionUnit = decision.choice.target;
      button.addEventListener("click", () => send({ type: "decide", player: decision.player, decision: decision.decision, choice: decision.choice }));
      choices.append(button);
    }
    card.append(choices);
    const never = element("button", { type: "button", className: "never-offer", textContent: WORDS.neverOffer(record.name) });
    never.dataset.neverOffer = slug;
    never.addEventListener("click", () => {
      const prefs = preferencesOf(state, seat);
      sendThen(preferencesAction(state, seat, { never_offer: [...new Set([...prefs.never_offer, slug])] }), pass);
    });
    card.append(never);
    box.append(card);
  }
  box.append(standingChoices(state, seat, send));
}

// The standing choice that is not about one window: "do not ask me while I have no CP".
export function standingChoices(state, seat, send) {
  const prefs = preferencesOf(state, seat);
  const wrap = element("div", { className: "standing-choices" });
  const label = element("label");
  const input = element("input", { type: "checkbox", checked: prefs.quiet_without_cp });
  input.dataset.quietWithoutCp = "";
  input.addEventListener("change", () => send(preferencesAction(state, seat, { quiet_without_cp: input.checked })));
  label.append(input, WORDS.quietWithoutCp);
  wrap.append(label);
  // Command Re-roll is asked about only after a failed die unless this is ticked (rulings R-ST-32).
  const everyRoll = element("label");
  const everyInput = element("input", { type: "checkbox", checked: prefs.reroll_every_roll });
  everyInput.dataset.rerollEveryRoll = "";
  everyInput.addEventListener("change", () => send(preferencesAction(state, seat, { reroll_every_roll: everyInput.checked })));
  everyRoll.append(everyInput, WORDS.rerollEveryRoll);
  wrap.append(everyRoll);
  if (prefs.never_offer.length) {
    const names = prefs.never_offer.map((slug) => state?.stratagems?.[slug]?.name);
    const line = element("p", { className: "hint" }, WORDS.neverOffered(names));
    const undo = element("button", { type: "button", textContent: WORDS.offerAgain });
    undo.addEventListener("click", () => send(preferencesAction(state, seat, { never_offer: [] })));
    line.append(undo);
    wrap.append(line);
  }
  return wrap;
}

// What the other players see while a decision waits: who is deciding, and about what.
export function decidingLine(state, seat) {
  const pending = state?.pending?.[state.pending.length - 1];
  if (!pending || pending.player === seat) return null;
  return WORDS.deciding(playerName(pending.player), pending.kind === "stratagem_window" ? momentWords(pending, state, seat) : null);
}
