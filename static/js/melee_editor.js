// The fight panel's weapons (issue 15). The fight template carries the engine's default
// (`default_assignments`: which melee weapons of which models at which enemy unit), the models that
// have a choice (`weapon_choices`: the weapons each may fight with) and each weapon's targets
// (`weapons`). The player picks a weapon per such model and, when the unit is engaged with more
// than one enemy unit, a target per weapon; the rows as they stand are previewed and sent as the
// fight's `assignments`, and the engine checks them. Nothing here knows a rule.
import { TABLE_WORDS, modelOf, unitName } from "./describe.js";

// The rows the player's picks make of the default: [{weapon, models, target, targets}].
export function meleeRows(action, picks) {
  const rows = (action.default_assignments || []).map((row) => ({ ...row, models: [...row.models] }));
  const targets = Object.fromEntries((action.weapons || []).map((w) => [w.weapon, w.targets]));
  for (const choice of action.weapon_choices || []) {
    const weapon = picks.weapons[choice.model];
    if (!weapon || !choice.weapons.includes(weapon)) continue;
    for (const row of rows) {
      if (choice.weapons.includes(row.weapon)) row.models = row.models.filter((m) => m !== choice.model);
    }
    let row = rows.find((r) => r.weapon === weapon);
    if (!row) {
      row = { weapon, models: [], target: rows[0]?.target || targets[weapon]?.[0] || "" };
      rows.push(row);
    }
    row.models.push(choice.model);
  }
  for (const row of rows) {
    const chosen = picks.targets[row.weapon];
    if (chosen && (targets[row.weapon] || []).includes(chosen)) row.target = chosen;
    row.targets = targets[row.weapon] || [row.target];
  }
  return rows.filter((row) => row.models.length);
}

export function meleeAssignments(rows) {
  return rows.map(({ weapon, models, target }) => ({ weapon, models, target }));
}

function modelLabel(state, id) {
  const model = modelOf(state, id)?.model;
  return model?.label || model?.name || id;
}

// The fieldset: a weapon list per model with a choice, a target list per weapon when there is a
// choice of target, and what the unit fights with. `changed()` is called after each pick.
export function meleeEditor(state, action, picks, changed) {
  const form = document.createElement("fieldset");
  form.className = "targets melee";
  form.dataset.meleeFor = action.unit;
  const legend = document.createElement("legend");
  legend.textContent = TABLE_WORDS.meleeWeapons;
  form.append(legend);
  const rows = meleeRows(action, picks);
  for (const choice of action.weapon_choices || []) {
    const line = document.createElement("label");
    line.className = "assignment";
    const select = document.createElement("select");
    select.dataset.meleeModel = choice.model;
    for (const weapon of choice.weapons) select.append(new Option(weapon, weapon));
    select.value = rows.find((r) => choice.weapons.includes(r.weapon) && r.models.includes(choice.model))?.weapon || choice.weapons[0];
    select.addEventListener("change", () => {
      picks.weapons[choice.model] = select.value;
      changed();
    });
    line.append(`${modelLabel(state, choice.model)}:`, select);
    form.append(line);
  }
  const choosing = rows.some((row) => row.targets.length > 1);
  for (const row of rows) {
    const line = document.createElement(choosing ? "label" : "p");
    line.className = choosing ? "assignment" : "hint";
    line.dataset.meleeWeapon = row.weapon;
    const count = row.models.length > 1 ? ` ×${row.models.length}` : "";
    if (!choosing) {
      line.textContent = `${row.weapon}${count} at ${unitName(state, row.target)}`;
    } else {
      const select = document.createElement("select");
      select.dataset.meleeTarget = row.weapon;
      for (const target of row.targets) select.append(new Option(unitName(state, target), target));
      select.value = row.target;
      select.addEventListener("change", () => {
        picks.targets[row.weapon] = select.value;
        changed();
      });
      line.append(`${row.weapon}${count} at `, select);
    }
    form.append(line);
  }
  return { form, rows };
}
