"""Persisting rules effects (01.02.02): effects with a duration, kept as data, that expire.

An effect is `{id, source, selector, modifier, duration, started_at}`:

- `selector`: what it applies to, `{"unit": id}`, `{"player": n}` or `{"objective": id}`;
- `modifier`: what it does, e.g. `{"status": "battle_shocked"}`,
  `{"characteristic": "OC", "set": 0}`, `{"characteristic": "Ld", "add": 1}`,
  `{"characteristic": "invulnerable_save", "best": 4}` (the better of the two),
  `{"objective_held_by": 1, "released_when": "..."}`;
- `duration`: one of `DURATIONS`;
- `started_at`: battle round, active player, phase and the player whose rule created it.

Characteristics are recomputed from the datasheet value plus the active effects in creation order;
nothing is patched and undone. A modifier with `benefits` (a faction keyword) changes only the
models whose datasheet has that keyword ("Only ASTRA MILITARUM models gain the benefit of an
Order", seed 003 L162); one with `models` only those models (Epic Challenge's CHARACTER); one
with `model_in_area` only the models wholly within that army area where they stand now
(`standing_rules.in_army_area`: Aegis Eternal's Hallowed Ground); one with
`ends_when_battle_shocked` ends when its unit becomes
battle-shocked (an Order, seed 003 L161). Effects follow a unit wherever it is (strategic
reserves, embarked), since they are keyed by unit id, which is what 01.02.02 asks for.
"""

from __future__ import annotations

from typing import Any, Literal, overload

from rules.engine.core.events import Context
from rules.engine.core.shapes import Characteristic, Effect, Model, Unit
from rules.engine.core.standing_rules import CHARACTERISTIC_RULES, in_army_area
from rules.engine.core.state import State

DURATIONS = frozenset(
    {
        "end_of_phase",
        "end_of_turn",
        "end_of_battle_round",
        # "until the start of your next Command phase": yours = the player who started it.
        "start_of_next_command_phase",
        # "until the start of your next Movement phase" (Haloed in Soulfire), the same way.
        "start_of_next_movement_phase",
        "end_of_battle",
        # Removed by the rule that ends it, e.g. a passed battle-shock roll (11e 08.03) or an
        # objective that stops being held (14.03, Sanctifying Ritual).
        "until_removed",
    }
)

# What a modifier may say: each key is read by a rule (`tests/test_engine_vocabularies.py` checks
# that every one is read somewhere). An effect naming another fails when it is created, instead
# of sitting in the state doing nothing.
MODIFIER_KINDS = frozenset(
    {
        # what it changes
        "attack",  # an attack pipeline modifier (attacks/modifiers.py), with `as`, `against`
        "battle_shock",  # automatic_pass (Insane Bravery)
        "characteristic",  # with `add`, `set` or `best`
        "charge_bonus",
        "charge_roll",
        "charge_roll_when_targeted",  # with `in_area`
        "close_combat_move_distance",
        "eligibility",
        "exemplar_attacks",  # with `part`
        "keyword",
        "led_for",  # with `leader` (Battlefield Command)
        "normal_move_after_attacks",
        "order",  # with `benefits`, `ends_when_battle_shocked`, `issued_by`
        "order_recipients",
        "ranged_targetable_within",
        "reaction",
        "reroll",
        "shieldbreaker",
        "status",
        "stratagem_cost",
        "acquire_at_all_costs",
        "eliminate_at_all_costs",
        "held_by",  # an objective held (with `released_when`)
        # what qualifies it
        "add",
        "set",
        "best",  # the better of the value and this one (a save: Aegis Eternal)
        "models",  # only these models (Epic Challenge's CHARACTER model)
        "model_in_area",  # only models wholly within this army area (Aegis Eternal)
        "as",
        "against",
        "only_if",
        "part",
        "leader",
        "benefits",
        "ends_when_battle_shocked",
        "issued_by",
        "in_area",  # {area: value}: the value instead while the unit is wholly within that area
        "released_when",
    }
)
# The conditions an `only_if` may set on where the units stand when an attack is made (read by
# `attacks.effect_modifiers`), checked the same way.
ONLY_IF_KINDS = frozenset(
    {
        "target_on_objective",
        "target_within",
        "target_visible",
        "target_in_area",
        "attacker_keyword",
        "target_is_closest_visible",
    }
)


def add_effect(
    ctx: Context,
    source: str,
    selector: dict[str, Any],
    modifier: dict[str, Any],
    duration: str,
    player: int,
) -> Effect:
    if duration not in DURATIONS:
        raise ValueError(f"unknown effect duration {duration!r}")
    unread = sorted(set(modifier) - MODIFIER_KINDS) + sorted(
        f"only_if.{kind}" for kind in set(modifier.get("only_if") or {}) - ONLY_IF_KINDS
    )
    if unread:
        raise ValueError(f"effect {source!r}: no rule reads the modifier kinds {unread}")
    state = ctx.state
    effect: Effect = {
        "id": f"e{state['next_effect_id']}",
        "source": source,
        "selector": selector,
        "modifier": modifier,
        "duration": duration,
        "started_at": {
            "battle_round": state["battle_round"],
            "active_player": state["active_player"],
            "phase": state["phase"],
            "player": player,
        },
    }
    state["next_effect_id"] += 1
    state["effects"].append(effect)
    ctx.emit("effect_started", effect=effect)
    return effect


def remove_effect(ctx: Context, effect_id: str, reason: str) -> None:
    ctx.state["effects"] = [e for e in ctx.state["effects"] if e["id"] != effect_id]
    ctx.emit("effect_ended", effect=effect_id, reason=reason)


def expire(ctx: Context, boundary: str, player: int | None = None) -> None:
    """End every effect whose duration ends at this boundary (and, for Command phases, player)."""
    for effect in list(ctx.state["effects"]):
        if effect["duration"] != boundary:
            continue
        if boundary.startswith("start_of_next_") and effect["started_at"]["player"] != player:
            continue
        remove_effect(ctx, effect["id"], boundary)


def effects_on_unit(state: State, unit_id: str) -> list[Effect]:
    return [e for e in state["effects"] if e["selector"].get("unit") == unit_id]


def has_status(state: State, unit_id: str, status: str) -> bool:
    return any(e["modifier"].get("status") == status for e in effects_on_unit(state, unit_id))


def model_has_keyword(state: State, unit_id: str, model: Model, keyword: str) -> bool:
    """The model's own datasheet (its part of an attached unit) has the (faction) keyword."""
    part = state["units"][unit_id]["parts"][model.get("part", 0)]
    sheet = state["datasheets"].get(part["datasheet"], {})
    return keyword in sheet.get("keywords", []) or keyword in sheet.get("faction_keywords", [])


def benefits(state: State, unit_id: str, model: Model, modifier: dict[str, Any]) -> bool:
    """Whether the model gains the modifier (see `benefits` in the module doc)."""
    models = modifier.get("models")
    if models is not None and model["id"] not in models:
        return False  # an effect for one selected model only (Epic Challenge)
    area = modifier.get("model_in_area")
    if area is not None and not in_army_area(
        state, area, {**state["units"][unit_id], "models": [model]}
    ):
        return False  # "models in your unit that are wholly within ..." (Aegis Eternal)
    keyword = modifier.get("benefits")
    return keyword is None or model_has_keyword(state, unit_id, model, keyword)


def end_effects_lost_on_battle_shock(ctx: Context, unit_id: str) -> None:
    """The unit has just become battle-shocked: effects that cease then end (Orders)."""
    for effect in effects_on_unit(ctx.state, unit_id):
        if effect["modifier"].get("ends_when_battle_shocked"):
            remove_effect(ctx, effect["id"], "battle-shocked")


@overload
def characteristic(
    state: State, unit_id: str, model: Model, name: Literal["invulnerable_save"]
) -> int | None: ...
@overload
def characteristic(state: State, unit_id: str, model: Model, name: Characteristic) -> int: ...
def characteristic(
    state: State,
    unit_id: str,
    model: Model,
    name: Literal["M", "T", "Sv", "W", "Ld", "OC", "invulnerable_save"],
) -> int | None:
    """A model's characteristic now: the datasheet value, then each effect in creation order,
    then the standing rules (auras; `standing_rules.CHARACTERISTIC_RULES`)."""
    value: Any = model[name]
    for effect in effects_on_unit(state, unit_id):
        modifier = effect["modifier"]
        if modifier.get("characteristic") != name or not benefits(state, unit_id, model, modifier):
            continue
        if "set" in modifier:
            value = modifier["set"]
        elif "best" in modifier:  # a save of at least this value (the better one counts)
            value = modifier["best"] if value is None else min(value, modifier["best"])
        else:
            value += modifier.get("add", 0)
    for rule in CHARACTERISTIC_RULES:
        value = rule(state, unit_id, model, name, value)
    return value


def granted_keywords(state: State, unit: Unit) -> frozenset[str]:
    """Keywords effects give the unit now (`{"keyword": "FLY"}`: Teleport Shunt)."""
    return frozenset(
        e["modifier"]["keyword"]
        for e in effects_on_unit(state, unit["id"])
        if "keyword" in e["modifier"]
    )


# The effect modifier of rules that make a unit "eligible to shoot in a turn in which it Advanced
# or Fell Back" (Emperor's Will).
SHOOT_AFTER_ADVANCE_OR_FALL_BACK = "shoot_after_advance_or_fall_back"


def may_shoot_after_moving(state: State, unit_id: str) -> bool:
    """An effect lifts the advance and fall-back limits on shooting this turn."""
    return any(
        e["modifier"].get("eligibility") == SHOOT_AFTER_ADVANCE_OR_FALL_BACK
        for e in effects_on_unit(state, unit_id)
    )


CANNOT_CHARGE = "cannot_charge"  # the status "not eligible to declare a charge this turn"


def forbid_charge_this_turn(ctx: Context, unit_id: str, source: str, player: int) -> None:
    """ "Not eligible to declare a charge this turn" (disembarking 11e 18.04-18.05 / 10e,
    Prognisticated Arrival, Personal Teleporters): a status until the end of the turn, read by
    the Charge phase's `ineligibility`."""
    add_effect(ctx, source, {"unit": unit_id}, {"status": CANNOT_CHARGE}, "end_of_turn", player)
