// The new-game form: only the missions of the chosen battle size (and rule set) are offered; the
// first of them is chosen when the current choice no longer fits.
const form = document.querySelector("[data-new-game]");

function filterMissions() {
  const size = form.querySelector("[name=battle_size]").value;
  const ruleset = form.querySelector("[name=ruleset]").value;
  const choices = [...form.querySelectorAll("[data-mission]")];
  for (const choice of choices) {
    const fits = choice.dataset.battleSize === size && (!choice.dataset.edition || choice.dataset.edition === ruleset);
    choice.hidden = !fits;
    const radio = choice.querySelector("input");
    radio.disabled = !fits;
    if (!fits) radio.checked = false;
  }
  const checked = choices.some((c) => !c.hidden && c.querySelector("input").checked);
  if (!checked) choices.find((c) => !c.hidden)?.querySelector("input").click();
}

if (form) {
  form.querySelector("[name=battle_size]").addEventListener("change", filterMissions);
  form.querySelector("[name=ruleset]").addEventListener("change", filterMissions);
  filterMissions();
}
