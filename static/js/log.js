// The game log: every event the server sends as a line in words with its rule citation.
import { describe, eventKind } from "./describe.js";

export class GameLog {
  constructor(list) {
    this.list = list;
  }

  add(events, state) {
    const stick = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    for (const event of events) {
      const { text, rule } = describe(event, state);
      if (!text) continue;
      const item = document.createElement("li");
      item.dataset.sequence = event.sequence ?? "";
      item.dataset.kind = eventKind(event);
      item.append(document.createTextNode(text));
      if (rule) {
        const cite = document.createElement("cite");
        cite.textContent = rule;
        item.append(" ", cite);
      }
      this.list.append(item);
    }
    if (stick) this.list.scrollTop = this.list.scrollHeight;
  }
}
