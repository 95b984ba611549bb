// The game's header follows the game's status by itself (hello and lobby messages): the status,
// the players' names, the mission, the revealed seed, and which controls are offered (the army
// picker when it is time, Cancel until the battle starts, Concede while the game goes on).
// Every word comes from the server: the status label, names, or the page's own markup.

function showWhen(element, status) {
  const statuses = element.dataset.showWhen.split(/\s+/);
  element.hidden = !statuses.includes(status);
}

// A box the page opens while it matters (the links to share while the game is set up) and
// closes once the game is played, so that it does not push the board down all battle; once the
// player opens or closes it themselves, it stays as they left it.
const followed = new WeakSet();

function openWhen(element, status) {
  if (!followed.has(element)) {
    followed.add(element);
    element.addEventListener("toggle", () => {
      if (String(element.open) !== element.dataset.openAsStatus) element.dataset.openedByPlayer = "";
    });
  }
  if ("openedByPlayer" in element.dataset) return;
  const open = element.dataset.openWhen.split(/\s+/).includes(status);
  element.dataset.openAsStatus = String(open);
  element.open = open;
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
  document.querySelectorAll("[data-open-when]").forEach((element) => openWhen(element, status));
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
