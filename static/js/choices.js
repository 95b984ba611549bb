// What the player is picking among, read from what the server offers: the Officer, Order and unit
// of the `issue_order` actions, and the units a pending decision lets the player pick. No rule is
// decided here: every list is a projection of `legal_actions`.

const unique = (values) => [...new Set(values)];

// The `issue_order` actions narrowed step by step: Officers, the Orders of the picked Officer, the
// units that Order can go to. Picks no longer offered fall back to the first offered.
export function issueOrderChoices(actions, pick = {}) {
  const officers = unique(actions.map((a) => a.officer));
  const officer = officers.includes(pick.officer) ? pick.officer : officers[0];
  const mine = actions.filter((a) => a.officer === officer);
  const orders = unique(mine.map((a) => a.order));
  const order = orders.includes(pick.order) ? pick.order : orders[0];
  const units = unique(mine.filter((a) => a.order === order).map((a) => a.unit));
  const unit = units.includes(pick.unit) ? pick.unit : units[0];
  return { officers, orders, units, chosen: { officer, order, unit } };
}

// The options of the pending decision that are units on the table (select_units, Teleport
// Assault, Artillery Support, a unit-choosing ability).
export function unitOptions(state, decisions) {
  return decisions.map((d) => d.choice).filter((c) => typeof c === "string" && state?.units?.[c]);
}

// The unit an option is about: a unit id, or a one-key option naming one ({"eliminate": id},
// {"rally": id}, {"test": id}); null for anything else.
export function optionUnit(state, choice) {
  if (typeof choice === "string") return state?.units?.[choice] ? choice : null;
  if (choice && typeof choice === "object" && !Array.isArray(choice)) {
    const values = Object.values(choice);
    if (values.length === 1 && typeof values[0] === "string" && state?.units?.[values[0]]) return values[0];
  }
  return null;
}

// The units to ring on the board: those the pending decision offers, or those the picked Order
// can go to. `pickFor(unitId)` is what clicking one of them does (null when nothing is picked).
export function boardPicks(state, legalActions, pick) {
  const decisions = legalActions.filter((a) => a.type === "decide");
  if (decisions.length) {
    const units = [...new Set(decisions.map((d) => optionUnit(state, d.choice)).filter(Boolean))];
    return { units, action: (unitId) => decisions.find((d) => optionUnit(state, d.choice) === unitId) || null };
  }
  const orders = legalActions.filter((a) => a.type === "issue_order");
  if (orders.length) {
    const { units, chosen } = issueOrderChoices(orders, pick);
    return { units, order: (unitId) => ({ ...chosen, unit: unitId }) };
  }
  return { units: [] };
}
