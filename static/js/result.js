// The result screen of a finished game: the server renders it (winner and how, the VP chart,
// primary VP by round, units destroyed, CP spent, the revealed seed); this module fetches it when
// the game is over and asks the server to re-derive every die of the log ("Verify the dice").

export class ResultScreen {
  constructor(element, { url, verifyUrl, spectatorToken = null }) {
    this.element = element;
    this.url = url;
    this.verifyUrl = verifyUrl;
    this.spectatorToken = spectatorToken;
    this.shownFor = null;
  }

  withToken(url) {
    return this.spectatorToken ? `${url}?spectate=${encodeURIComponent(this.spectatorToken)}` : url;
  }

  async show(version) {
    if (!this.element || this.shownFor === version) return;
    this.shownFor = version;
    const response = await fetch(this.withToken(this.url), { credentials: "same-origin" });
    if (response.status !== 200) return;
    this.element.innerHTML = await response.text(); // the server's own markup
    this.element.hidden = false;
    this.element.querySelector("[data-verify-dice]")?.addEventListener("click", () => this.verify());
  }

  async verify() {
    const line = this.element.querySelector("[data-verify-result]");
    const response = await fetch(this.withToken(this.verifyUrl), { credentials: "same-origin" });
    const answer = await response.json();
    line.textContent = answer.message;
    line.dataset.matched = String(answer.matched ?? "");
    line.dataset.dice = String(answer.dice ?? "");
    line.dataset.allMatch = String(Boolean(answer.all_match));
  }
}
