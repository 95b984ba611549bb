// The army builder: picks units from the rules data (/api/rules/), totals their points as you go,
// and shows the server's check (/api/armies/validate/), which is the one that counts. Its words
// are describe.js's (ARMY_BUILDER_WORDS).
import { ARMY_BUILDER_WORDS as WORDS } from "./describe.js";

const root = document.getElementById("army-builder");
const form = document.getElementById("army-form");
const csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
const AGENTS = "AGENTS OF THE IMPERIUM";

const builder = {
  armyId: null,
  units: [],
  factions: [],
  datasheets: new Map(),
  enhancements: [],
  nextKey: 1,
};

async function api(path, options = {}) {
  const response = await fetch(path, {
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
    ...options,
  });
  if (response.status === 204) return null;
  const body = await response.json();
  if (!response.ok) throw Object.assign(new Error(body.message || response.statusText), { body });
  return body;
}

const all = async (path) => (await api(`${path}${path.includes("?") ? "&" : "?"}limit=1000`)).results;

function option(value, label, selected = false) {
  const element = document.createElement("option");
  element.value = value;
  element.textContent = label;
  element.selected = selected;
  return element;
}

function isAgentHere(sheet) {
  const faction = builder.factions.find((f) => f.slug === form.faction.value);
  return faction && faction.faction_keyword !== AGENTS && sheet.faction_keywords.includes(AGENTS);
}

function unitPoints(unit) {
  const sheet = builder.datasheets.get(unit.datasheet);
  if (!sheet) return 0;
  const entries = sheet.points.filter((entry) => entry.models === unit.models);
  const assigned = isAgentHere(sheet);
  const entry = entries.find((e) => (e.label === "Assigned Agent") === assigned) || entries[0];
  const enhancement = builder.enhancements.find((e) => unit.enhancements.includes(e.slug));
  return (entry ? entry.points : 0) + (enhancement ? enhancement.points : 0);
}

function armyData() {
  return {
    name: form.name.value,
    battle_size: form.battle_size.value,
    faction: form.faction.value,
    detachment: form.detachment.value,
    units: builder.units.map((unit) => ({ ...unit, attached_to: unit.attached_to || null })),
  };
}

async function loadFaction(detachment = form.detachment.value) {
  const faction = form.faction.value;
  root.dataset.ready = "false";
  const [detachments, own, agents] = await Promise.all([
    all(`/api/rules/detachments/?faction=${faction}`),
    all(`/api/rules/datasheets/?faction=${faction}`),
    all("/api/rules/datasheets/?faction=imperial-agents"),
  ]);
  if (form.faction.value !== faction) return; // another faction was chosen meanwhile
  form.detachment.replaceChildren(
    ...detachments.map((d) => option(d.slug, d.note ? `${d.name} (${d.note})` : d.name, d.slug === detachment)),
  );
  builder.datasheets = new Map([...agents, ...own].map((sheet) => [sheet.slug, sheet]));
  const picker = document.getElementById("datasheet-picker");
  picker.replaceChildren(
    ...[...builder.datasheets.values()]
      .filter((sheet) => sheet.faction === faction || isAgentHere(sheet))
      .map((sheet) => option(sheet.slug, isAgentHere(sheet) ? `${sheet.name} (Assigned Agent)` : sheet.name)),
  );
  await loadEnhancements();
}

async function loadEnhancements() {
  const detachment = form.detachment.value;
  root.dataset.ready = "false";
  const found = detachment ? await all(`/api/rules/enhancements/?detachment=${detachment}`) : [];
  if (form.detachment.value !== detachment) return; // another detachment was chosen meanwhile
  builder.enhancements = found;
  render();
  root.dataset.ready = "true"; // the builder answers input from here on (tests wait for this)
}

function cell(...children) {
  const td = document.createElement("td");
  td.append(...children);
  return td;
}

function select(values, current, onChange) {
  const element = document.createElement("select");
  element.append(...values.map(([value, label]) => option(value, label, String(value) === String(current))));
  element.addEventListener("change", () => onChange(element.value));
  return element;
}

function render() {
  const body = document.getElementById("army-units");
  body.replaceChildren(
    ...builder.units.map((unit) => {
      const sheet = builder.datasheets.get(unit.datasheet) || { name: unit.datasheet, points: [], leads: [] };
      const row = document.createElement("tr");
      const sizes = [...new Set(sheet.points.map((entry) => entry.models))].map((n) => [n, n]);
      const bodyguards = builder.units
        .filter((other) => other !== unit && !other.attached_to && sheet.leads.includes(other.datasheet))
        .map((other) => [other.key, builder.datasheets.get(other.datasheet)?.name || other.key]);
      const enhancements = builder.enhancements.map((e) => [e.slug, `${e.name} (${e.points})`]);
      const warlord = document.createElement("input");
      warlord.type = "radio";
      warlord.name = "warlord";
      warlord.checked = unit.warlord;
      warlord.addEventListener("change", () => {
        builder.units.forEach((other) => { other.warlord = other === unit; });
        changed();
      });
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = WORDS.remove;
      remove.addEventListener("click", () => {
        builder.units = builder.units.filter((other) => other !== unit);
        builder.units.forEach((other) => { if (other.attached_to === unit.key) other.attached_to = null; });
        changed();
      });
      row.append(
        cell(sheet.name),
        cell(select(sizes, unit.models, (value) => { unit.models = Number(value); changed(); })),
        cell(bodyguards.length
          ? select([["", "—"], ...bodyguards], unit.attached_to || "", (value) => {
              unit.attached_to = value || null;
              if (value) unit.role = "leader"; else delete unit.role;
              changed();
            })
          : "—"),
        cell(enhancements.length
          ? select([["", "—"], ...enhancements], unit.enhancements[0] || "", (value) => {
              unit.enhancements = value ? [value] : [];
              changed();
            })
          : "—"),
        cell(wargearEditor(unit, sheet)),
        cell(warlord),
        cell(String(unitPoints(unit))),
        cell(remove),
      );
      return row;
    }),
  );
  document.getElementById("army-points").textContent = builder.units.reduce((sum, u) => sum + unitPoints(u), 0);
}

// The wargear options the server offers for this datasheet (`wargear_choices`): one number per
// choice, how many models take it. The limits shown come from the server; its check decides.
function wargearEditor(unit, sheet) {
  const offered = (sheet.wargear_choices || []).filter((o) => (o.limits[String(unit.models)] || 0) > 0);
  if (!offered.length) return "—";
  const box = document.createElement("div");
  box.className = "wargear-options";
  for (const option of offered) {
    const group = document.createElement("fieldset");
    const legend = document.createElement("legend");
    legend.textContent = WORDS.upTo(option.text, option.limits[String(unit.models)]);
    group.append(legend);
    for (const choice of option.choices) {
      const taken = unit.wargear.find((w) => w.option === option.option && w.choice === choice.choice);
      const input = document.createElement("input");
      input.type = "number";
      input.min = "0";
      input.max = String(option.limits[String(unit.models)]);
      input.value = String(taken ? taken.models : 0);
      input.dataset.option = String(option.option);
      input.dataset.choice = String(choice.choice);
      input.addEventListener("change", () => {
        const models = Math.max(0, Number(input.value) || 0);
        unit.wargear = unit.wargear.filter((w) => !(w.option === option.option && w.choice === choice.choice));
        if (models) unit.wargear.push({ option: option.option, choice: choice.choice, models });
        changed();
      });
      const label = document.createElement("label");
      label.append(input, ` ${choice.label}`);
      group.append(label);
    }
    box.append(group);
  }
  return box;
}

let checkTimer = null;
function changed() {
  render();
  clearTimeout(checkTimer);
  checkTimer = setTimeout(check, 250);
}

async function check() {
  const target = document.getElementById("army-check");
  try {
    const report = await api("/api/armies/validate/", { method: "POST", body: JSON.stringify(armyData()) });
    const heading = document.createElement("p");
    heading.textContent = `${report.points} of ${report.limit} points — ${report.valid ? "ready to play" : "not valid yet"}`;
    const list = document.createElement("ul");
    list.append(...report.problems.map((problem) => {
      const item = document.createElement("li");
      item.textContent = `${problem.message} (${problem.rule})`;
      return item;
    }));
    target.replaceChildren(heading, list);
    showNotEnforced(report.not_enforced || []);
  } catch (error) {
    target.textContent = JSON.stringify(error.body || error.message);
  }
}

// The army's rules the server says the engine does not enforce ("not enforced: apply by
// agreement"), each with the units that carry it.
function showNotEnforced(rules) {
  const section = document.getElementById("not-enforced");
  section.hidden = !rules.length;
  document.getElementById("not-enforced-rules").replaceChildren(
    ...rules.map((rule) => {
      const item = document.createElement("li");
      item.textContent = `${rule.name} (${rule.kind}${rule.units.length ? `: ${rule.units.join(", ")}` : ""}) — ${rule.note}`;
      return item;
    }),
  );
}

// The report of an import: every line of the list the server could not use, with its number and
// the server's reason, and the Leaders it could attach; the player fixes the army before saving.
function showImportReport(result) {
  const lines = [
    ...result.report.map((line) => WORDS.reportLine(line)),
    ...result.proposals.map((proposal) => proposal.message),
  ];
  document.getElementById("import-report").hidden = !lines.length;
  document.getElementById("import-lines").replaceChildren(
    ...lines.map((text) => {
      const item = document.createElement("li");
      item.textContent = text;
      return item;
    }),
  );
}

async function importList() {
  const status = document.getElementById("import-status");
  const file = document.getElementById("import-file").files[0];
  const text = document.getElementById("import-text").value;
  let body;
  let headers = { "X-CSRFToken": csrf };
  if (file) {
    body = new FormData();
    body.append("file", file);
  } else {
    body = JSON.stringify({ text });
    headers = { ...headers, "Content-Type": "application/json" };
  }
  status.textContent = "…";
  const response = await fetch("/api/armies/import/", { method: "POST", credentials: "same-origin", headers, body });
  const result = await response.json();
  if (!response.ok) {
    status.textContent = result.message || JSON.stringify(result);
    return;
  }
  status.textContent = `${result.format}: ${result.army.units.length} units`;
  await openArmy(null, result.army);
  showImportReport(result);
}

async function exportArmy() {
  const result = await api(`/api/armies/${builder.armyId}/export/`);
  const area = document.getElementById("export-text");
  area.value = result.text;
  area.hidden = false;
}

async function loadSaved() {
  const armies = await all("/api/armies/");
  document.getElementById("saved-armies").replaceChildren(
    ...armies.map((army) => {
      const item = document.createElement("li");
      const edit = document.createElement("button");
      edit.type = "button";
      edit.textContent = army.name;
      edit.addEventListener("click", () => openArmy(army));
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = WORDS.delete;
      remove.addEventListener("click", async () => {
        await api(`/api/armies/${army.id}/`, { method: "DELETE" });
        await loadSaved();
      });
      item.append(edit, " ", remove);
      return item;
    }),
  );
}

async function openArmy(saved, imported = null) {
  const army = saved || imported;
  builder.armyId = saved ? saved.id : null;
  document.getElementById("import-report").hidden = true;
  document.getElementById("export-army").hidden = !builder.armyId;
  document.getElementById("export-text").hidden = true;
  document.getElementById("editor-title").textContent = WORDS.title(army);
  form.name.value = army ? army.name : WORDS.defaultName;
  form.battle_size.value = army ? army.battle_size : "incursion";
  form.faction.value = army && army.faction ? army.faction : builder.factions[0].slug;
  builder.units = army ? army.units.map((unit) => ({ enhancements: [], wargear: [], ...unit })) : [];
  builder.nextKey = builder.units.length + 1;
  await loadFaction(army ? army.detachment : "");
  changed();
}

async function save() {
  const status = document.getElementById("save-status");
  const path = builder.armyId ? `/api/armies/${builder.armyId}/` : "/api/armies/";
  try {
    const army = await api(path, { method: builder.armyId ? "PUT" : "POST", body: JSON.stringify(armyData()) });
    builder.armyId = army.id;
    status.textContent = WORDS.saved;
    document.getElementById("export-army").hidden = false;
    await loadSaved();
  } catch (error) {
    status.textContent = WORDS.notSaved(JSON.stringify(error.body || error.message));
  }
}

document.getElementById("add-unit").addEventListener("click", () => {
  const slug = document.getElementById("datasheet-picker").value;
  const sheet = builder.datasheets.get(slug);
  if (!sheet) return;
  while (builder.units.some((unit) => unit.key === `u${builder.nextKey}`)) builder.nextKey += 1;
  builder.units.push({
    key: `u${builder.nextKey}`,
    datasheet: slug,
    models: sheet.points[0] ? sheet.points[0].models : 1,
    wargear: [],
    enhancements: [],
    warlord: false,
  });
  changed();
});
form.faction.addEventListener("change", async () => { builder.units = []; await loadFaction(); changed(); });
form.detachment.addEventListener("change", async () => { await loadEnhancements(); changed(); });
form.battle_size.addEventListener("change", changed);
document.getElementById("save-army").addEventListener("click", save);
document.getElementById("new-army").addEventListener("click", () => openArmy(null));
document.getElementById("import-list").addEventListener("click", importList);
document.getElementById("export-army").addEventListener("click", exportArmy);

builder.factions = await all("/api/rules/factions/");
form.faction.replaceChildren(...builder.factions.map((f) => option(f.slug, f.name)));
await Promise.all([loadSaved(), openArmy(null)]);
