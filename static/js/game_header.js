// The game's header follows the game's status by itself (hello and lobby messages): the status,
// the players' names, the mission, the revealed seed, and which controls are offered (the army
// picker when it is time, Cancel until the battle starts, Concede while the game goes on).
// Every word comes from the server: the status label, names, or the page's own markup.

function showWhen(element, status) {
  const statuses = element.dataset.showWhen.split(/\s+/);
  element.hidden = !statuses.includes(status);
}

export function renderHeader(game, seat) {
  const header = document.querySelector("[data-game-header]");
  if (!header || !game) return;
  const status = game.status;
  header.dataset.status = status;
  const label = header.querySelector("[data-status-label]");
  if (label && game.status_label) {
    label.textContent = game.status_label;
    label.className = `status status-${status}`;
  }
  for (const [player, name] of Object.entries(game.players || {})) {
    const slot = header.querySelector(`[data-player-name="${player}"]`);
    if (slot && name) slot.textContent = name;
  }
  const mission = header.querySelector("[data-mission-name]");
  if (mission && game.mission_name) mission.textContent = game.mission_name;
  const seed = header.querySelector("[data-dice-seed]");
  if (seed && game.dice_seed) seed.textContent = game.dice_seed;
  document.querySelectorAll("[data-show-when]").forEach((element) => showWhen(element, status));
  const picked = (game.armies_picked || []).map(Number);
  const mine = seat && picked.includes(Number(seat));
  const muster = header.querySelector("[data-muster]");
  if (muster && mine) muster.hidden = true;
  const waiting = header.querySelector("[data-muster-waiting]");
  if (waiting) waiting.hidden = !(status === "mustering" && mine && picked.length < 2);
  document.body.dataset.gameStatus = status;
}

export function isOver(game) {
  return game?.status === "finished" || game?.status === "abandoned";
}
