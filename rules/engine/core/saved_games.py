"""Games saved by an earlier engine stay loadable: the names a saved state stores (a pending
decision's `kind`, the continuation names in its `resume` data and in the `then` it carries)
are renamed through these alias tables before the state is used, and the words of a persisting
effect's modifier that no rule reads any more are rewritten by the rule that owns them
(`standing_rules.SAVED_MODIFIER_WORDS`: a faction's old words stay with the faction).

An entry is added when a name is renamed or merged; it is never removed while saved games may
hold the old name (`tests/test_engine_snapshot.py` fails for a pinned name that neither exists
nor has an alias; `tests/test_engine_compat.py` plays on states saved by the engine before the
package layout).
"""

from __future__ import annotations

from typing import Any

from rules.engine.core.shapes import Decision, Effect
from rules.engine.core.standing_rules import SAVED_MODIFIER_WORDS
from rules.engine.core.state import State

# old continuation name -> the name that resumes it now
CONTINUATION_ALIASES: dict[str, str] = {}
# old decision kind -> the kind now
DECISION_KIND_ALIASES: dict[str, str] = {}
# Edition parameters added since games were first saved, and the value per rule set a saved game
# without them takes: the rule as printed (issue 14: 11e 15.01, 12.04, the rules appendix's
# objective markers; 10e Stratagems, Fight phase, Objective Markers).
ADDED_EDITION_PARAMETERS: dict[str, dict[str, object]] = {
    "one_stratagem_per_unit_per_phase": {"11e": True, "10e": False},
    "fight_order_starts_with": {"11e": "active", "10e": "opponent"},
    "may_end_on_objective_marker": {"11e": True, "10e": False},
    "reroll_summed_dice_in_full": {"11e": False, "10e": True},
    "reserves_points_fraction": {"11e": 0.5, "10e": 0.25},
    "stealth": {"11e": "benefit_of_cover", "10e": "minus_one_to_hit"},
    "precision_needs_attached_unit": {"11e": False, "10e": True},
    "fight_through_base_contact": {"11e": False, "10e": True},
    "attached_abilities_shared": {"11e": True, "10e": False},
    "monster_vehicle_moves_through_models": {"11e": True, "10e": False},
}


def _renamed(data: Any) -> Any:
    if isinstance(data, dict):
        renamed = {key: _renamed(value) for key, value in data.items()}
        step = renamed.get("step")
        if isinstance(step, str) and step in CONTINUATION_ALIASES:
            renamed["step"] = CONTINUATION_ALIASES[step]
        return renamed
    if isinstance(data, list):
        return [_renamed(item) for item in data]
    return data


def _with_added_parameters(state: State) -> State:
    edition = state.get("edition") or {}
    missing = {
        name: values[edition["slug"]]
        for name, values in ADDED_EDITION_PARAMETERS.items()
        if name not in edition and edition.get("slug") in values
    }
    return {**state, "edition": {**edition, **missing}} if missing else state


def _old_words(modifier: dict[str, Any]) -> list[str]:
    words = [*modifier, *(f"only_if.{word}" for word in modifier.get("only_if") or {})]
    return [word for word in words if word in SAVED_MODIFIER_WORDS]


def _with_modifier_words_renamed(state: State) -> State:
    effects = state.get("effects") or []
    if not SAVED_MODIFIER_WORDS.entries or not any(_old_words(e["modifier"]) for e in effects):
        return state
    upgraded: list[Effect] = []
    for effect in effects:
        modifier = effect["modifier"]
        for word in _old_words(modifier):
            modifier = SAVED_MODIFIER_WORDS[word](modifier)
        upgraded.append({**effect, "modifier": modifier})
    return {**state, "effects": upgraded}


def upgrade(state: State) -> State:
    """The state with the edition parameters added since it was saved, the old words of its
    effects rewritten and every aliased name in its pending decisions renamed (the same object
    when nothing needs changing, so the common case costs one look at the edition, the effects
    and the stack)."""
    state = _with_added_parameters(state)
    state = _with_modifier_words_renamed(state)
    pending = state.get("pending") or []
    if not (CONTINUATION_ALIASES or DECISION_KIND_ALIASES) or not pending:
        return state
    upgraded: list[Decision] = []
    for decision in pending:
        decision = {**decision, "resume": _renamed(decision.get("resume"))}
        decision["kind"] = DECISION_KIND_ALIASES.get(decision["kind"], decision["kind"])
        upgraded.append(decision)
    return {**state, "pending": upgraded}
