"""The Grey Knights detachments' stratagems.

Attack stratagems (Truesilver Armour, Death from the Warp, Radiant Strike, Sanctified Slaughter,
Hexbane Wards, Aegis Eternal, Sanctified Kill Zone) are attack-modifier effects
(`stratagems/effects/attacks.py` primitives); Repelling Sphere a charge-roll effect read by the
Charge phase (`charge_roll_when_targeted`); Breach-Shock a pile-in and consolidation distance;
Mists of Deimos a Normal move or Strategic Reserves (`out_of_sequence_moves.offer_normal_move`);
Hallowed Beacon, Haloed in Soulfire and Prognisticated Arrival arrivals from reserves.

Stratagems whose effect reacts to enemy units being set up or ending moves (`reactions`):

- Fires of Covenant (Grey Knights, Warpbane Task Force): start of the opponent's Movement phase;
  one INFANTRY unit. Until the end of the phase, each time an enemy unit is set up or ends a
  Normal, Advance or Fall Back move within 6" of it, roll one D6 (+2 if the unit is wholly within
  its army's Hallowed Ground): on a 4+ that enemy unit suffers D3 mortal wounds.

The stratagem leaves an effect `{"reaction": "fires-of-covenant"}` on its unit for the phase; the
reaction below reads it whenever a unit is set up or ends a move.
"""

from __future__ import annotations

from typing import Any

from rules.engine.army.attached_units import every_part_has
from rules.engine.attacks.casualties import allocate_mortal_wounds
from rules.engine.battlefield.board import EPSILON
from rules.engine.battlefield.state_distances import unit_distance
from rules.engine.core import standing_rules
from rules.engine.core.citations import add_sections, cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import add_effect, effects_on_unit, forbid_charge_this_turn
from rules.engine.core.events import Context
from rules.engine.core.facts import has_flag
from rules.engine.core.reactions import ReactionPoint, enemy_units_of, reacts_to
from rules.engine.core.rolls import roll
from rules.engine.core.sequencing import carry_on, continuation, resume
from rules.engine.core.shapes import Unit
from rules.engine.core.standing_rules import in_army_area
from rules.engine.core.state import State, on_battlefield, unit_keywords
from rules.engine.factions.grey_knights import hallowed_ground
from rules.engine.phases import movement as movement_phase
from rules.engine.phases.out_of_sequence_moves import offer_normal_move
from rules.engine.stratagems.effects.attacks import (
    MELEE,
    RANGED,
    Grant,
    against_the_attacker,
    attack_modifier,
    on_attacker,
    register_attack_effects,
)
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.reserves import ARRIVAL_KIND
from rules.engine.stratagems.effects.targeting import (
    any_of,
    flag,
    has_keywords,
    lacks_keyword,
    not_selected_this_phase,
    own_units,
    selected_as_target,
    unengaged,
)

add_sections(
    {"prognisticated_arrival": "Prognisticated Arrival", "hallowed_beacon": "Hallowed Beacon"}
)


FIRES_OF_COVENANT = "fires-of-covenant"
FIRES_RANGE = 6.0
FIRES_HALLOWED_BONUS = 2
FIRES_SUCCESS = 4


def _fires_of_covenant(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    effect = {"reaction": FIRES_OF_COVENANT}
    add_effect(ctx, use.slug, {"unit": use.target}, effect, "end_of_phase", use.player)
    carry_on(ctx, then)


implements(FIRES_OF_COVENANT, targets=own_units(has_keywords("INFANTRY")))(_fires_of_covenant)


def _covenant_units(state: State, point: ReactionPoint) -> list[str]:
    """The enemy units under Fires of Covenant within 6" of the unit (one roll each)."""
    moved = state["units"][point.unit]
    return [
        unit["id"]
        for unit in enemy_units_of(state, point)
        if on_battlefield(unit)
        and any(
            e["modifier"].get("reaction") == FIRES_OF_COVENANT
            for e in effects_on_unit(state, unit["id"])
        )
        and unit_distance(unit, moved) <= FIRES_RANGE
    ]


@reacts_to(FIRES_OF_COVENANT, "set_up", "move_ended")
def _fires_of_covenant_reaction(ctx: Context, point: ReactionPoint, then: dict[str, Any]) -> None:
    if point.moment == "move_ended" and not point.ended_a_move():
        resume(ctx, then)
        return
    _next_fire(ctx, point.unit, _covenant_units(ctx.state, point), then)


def _next_fire(ctx: Context, target: str, burning: list[str], then: dict[str, Any]) -> None:
    state = ctx.state
    if not burning or not on_battlefield(state["units"][target]):
        resume(ctx, then)
        return
    unit = state["units"][burning[0]]
    rule = state["stratagems"][FIRES_OF_COVENANT]["name"]
    bonus = (
        FIRES_HALLOWED_BONUS
        if hallowed_ground.unit_wholly_within(state, unit["player"], unit)
        else 0
    )
    record = roll(ctx, 1, "fires_of_covenant", rule, unit["player"], unit["id"], modifier=bonus)
    rest = {
        "step": "fires_of_covenant_next",
        "target": target,
        "burning": burning[1:],
        "then": then,
    }
    if record["total"] < FIRES_SUCCESS:
        resume(ctx, rest)
        return
    wounds = roll(ctx, 1, "mortal_wounds", rule, unit["player"], unit["id"], sides=3)
    allocate_mortal_wounds(ctx, target, wounds["total"], rule, rest)


@continuation("fires_of_covenant_next")
def _fires_next(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    _next_fire(ctx, data["target"], data["burning"], data["then"])


register_attack_effects(
    "truesilver-armour",
    own_units(selected_as_target),
    against_the_attacker(attack_modifier("ap", "worsen", 1)),
)


register_attack_effects(
    "death-from-the-warp",
    # "arrived using Deep Strike or Teleport Assault" this turn (rulings R-ST-07, R-GK-02).
    own_units(
        has_keywords("PSYKER"),
        any_of(flag("advanced"), flag("arrived_by_deep_strike_or_teleport_assault")),
    ),
    on_attacker(
        attack_modifier("ability", "grant", "assault", **RANGED), attack_modifier("hit", "add", 1)
    ),
    duration="end_of_turn",
)


register_attack_effects(
    "radiant-strike",
    own_units(has_keywords("PSYKER")),
    on_attacker(
        attack_modifier(
            "ability", "grant", "devastating wounds", weapon_type="melee", weapon_ability="PSYCHIC"
        )
    ),
)


register_attack_effects(
    "sanctified-slaughter",
    own_units(flag("charged")),
    on_attacker(
        attack_modifier("ability", "grant", "sustained hits 1", **MELEE),
        # "If such a weapon already has that ability": its printed [SUSTAINED HITS], not the
        # one this stratagem grants (issue 14 defect 10).
        attack_modifier(
            "hit", "critical", 5, weapon_type="melee", printed_weapon_ability="SUSTAINED HITS"
        ),
    ),
)


def _hexbane_grants(_state: State, use: Use) -> list[Grant]:
    """The enemy unit's melee weapons gain [HAZARDOUS] (the effect is on that enemy unit)."""
    return [
        (
            use.window["unit"],
            "attacker",
            attack_modifier("ability", "grant", "hazardous", **MELEE),
            None,
        )
    ]


register_attack_effects("hexbane-wards", own_units(selected_as_target), _hexbane_grants)


def _in_hallowed_ground(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    return in_army_area(state, "hallowed_ground", unit)


def _kill_zone_grants(state: State, use: Use) -> list[Grant]:
    purifiers = "PURIFIER SQUAD" in unit_keywords(state, state["units"][use.target_unit])
    return [
        (
            use.target,
            "attacker",
            attack_modifier("wound", "reroll", "any" if purifiers else "ones"),
            None,
        )
    ]


register_attack_effects(
    "sanctified-kill-zone",
    own_units(not_selected_this_phase, _in_hallowed_ground),
    _kill_zone_grants,
)


@implements("aegis-eternal", targets=own_units(has_keywords("INFANTRY"), selected_as_target))
def _aegis_eternal(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """ "Models in your unit that are wholly within your Hallowed Ground have a 4+ invulnerable
    save": model by model, wherever each stands when it is attacked (rulings R-ST-20)."""
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {"characteristic": "invulnerable_save", "best": 4, "model_in_area": "hallowed_ground"},
        "end_of_phase",
        use.player,
    )
    carry_on(ctx, then)


@implements("repelling-sphere", targets=own_units(has_keywords("INFANTRY")))
def _repelling_sphere(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Until the end of the phase: -1 to the charge roll of each enemy unit that declares a charge
    targeting your unit, -2 if your unit is wholly within your Hallowed Ground (then)."""
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {"charge_roll_when_targeted": -1, "in_area": {"hallowed_ground": -2}},
        "end_of_phase",
        use.player,
    )
    carry_on(ctx, then)


BREACH_SHOCK_DISTANCE = 6.0


@implements("breach-shock", targets=own_units(not_selected_this_phase))
def _breach_shock(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {"close_combat_move_distance": BREACH_SHOCK_DISTANCE},
        "end_of_phase",
        use.player,
    )
    carry_on(ctx, then)


MISTS_RANGE = 9.0


# --- Mists of Deimos (Grey Knights, Teleport Strike Force) -------------------------------------

MISTS_OF_DEIMOS_RULE = "Mists of Deimos"
MISTS_DISTANCE = 6.0


def _mists_move(ctx: Context, unit_id: str, source: str, then: dict[str, Any] | None) -> None:
    offer_normal_move(
        ctx, unit_id, MISTS_DISTANCE, source=source, rule=MISTS_OF_DEIMOS_RULE, then=then
    )


@continuation("mists_of_deimos_chosen")
def _mists_of_deimos_chosen(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    if choice == "normal_move":
        _mists_move(ctx, data["unit"], data["source"], data["then"])
        return
    movement_phase.place_into_strategic_reserves(
        ctx, ctx.state["units"][data["unit"]], data["source"]
    )
    carry_on(ctx, data["then"])


MISTS_KIND = "mists_of_deimos"


def _near_the_unit_that_ended_a_move(state: State, unit: Unit, window: dict[str, Any]) -> bool:
    """'Just after an enemy unit ends a Normal, Advance or Fall Back move': within 9" of it."""
    if window.get("moment") != "move_ended" or window.get("move") not in ENEMY_MOVES:
        return False
    enemy = state["units"].get(window.get("unit", ""))
    return enemy is not None and unit_distance(unit, enemy) <= MISTS_RANGE + EPSILON


ENEMY_MOVES = ("normal", "advance", "fall_back")


@implements(
    "mists-of-deimos",
    targets=own_units(has_keywords("PSYKER"), unengaged, _near_the_unit_that_ended_a_move),
)
def _mists_of_deimos(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Seed 004 L426-436: a Normal move of up to 6" as if it were your Movement phase or, for a
    unit with Deep Strike, into Strategic Reserves (its controller chooses; rulings R-MV-18)."""
    state = ctx.state
    unit = state["units"][use.target_unit]
    if not every_part_has(state, unit, "Deep Strike"):
        _mists_move(ctx, use.target_unit, use.slug, then)
        return
    push_decision(
        ctx,
        use.player,
        MISTS_KIND,
        ["normal_move", "strategic_reserves"],
        {"step": "mists_of_deimos_chosen", "unit": use.target, "source": use.slug, "then": then},
        MISTS_OF_DEIMOS_RULE,
        f'{unit["name"]}: a Normal move of up to 6" ("normal_move"), or into Strategic Reserves '
        '("strategic_reserves")?',
    )


def _arriving_by_deep_strike_or_teleport(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    return movement_phase.arrives_by_deep_strike_or_teleport(state, unit)


def _ask_set_up_by(method: str, prompt: str):
    """The unit is set up at once by the stratagem's own rule (`method`); `null` keeps it waiting
    (rulings R-GK-02)."""

    def resolve(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
        unit = ctx.state["units"][use.target_unit]
        push_decision(
            ctx,
            use.player,
            ARRIVAL_KIND,
            {"unit": unit["id"], "stratagem": use.slug, "method": method},
            {
                "step": "stratagem_arrival",
                "unit": unit["id"],
                "player": use.player,
                "method": method,
                "then": then,
            },
            cite(ctx.state, method),
            f"Set up {unit['name']} {prompt} (or null to stay off the battlefield).",
        )

    return resolve


_prognisticated = _ask_set_up_by(
    "prognisticated_arrival", 'anywhere more than 6" horizontally away from all enemy models'
)


@implements(
    "prognisticated-arrival",
    targets=own_units(has_keywords("PSYKER"), _arriving_by_deep_strike_or_teleport, on_table=False),
)
def _prognisticated_arrival(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Seed 004 L415-425: set up more than 6" away; not eligible to declare a charge this turn."""
    forbid_charge_this_turn(ctx, use.target_unit, use.slug, use.player)
    _prognisticated(ctx, use, then)


implements(
    "hallowed-beacon",
    targets=own_units(
        has_keywords("INFANTRY"),
        lacks_keyword("TERMINATOR"),
        _arriving_by_deep_strike_or_teleport,
        on_table=False,
    ),
)(
    _ask_set_up_by(
        "hallowed_beacon",
        "wholly within your army's Hallowed Ground and more than 6\" away from all enemy units",
    )
)


def _arrived_this_phase(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    """Arrived using the Deep Strike or Teleport Assault abilities in this Movement phase (the
    flag is the turn's; only the own Movement phase opens this stratagem)."""
    return has_flag(state, unit["id"], "arrived_by_deep_strike_or_teleport_assault")


@implements("haloed-in-soulfire", targets=own_units(has_keywords("PSYKER"), _arrived_this_phase))
def _haloed_in_soulfire(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Seed 004 L394-402: until the start of your next Movement phase, the unit can only be
    selected as the target of a ranged attack if the attacking model is within 18" (the
    targeting restriction of `targeting_restrictions.may_be_targeted`; rulings R-ST-21)."""
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {"ranged_targetable_within": 18.0},
        "start_of_next_movement_phase",
        use.player,
    )
    carry_on(ctx, then)


# Prognisticated Arrival (seed 004 L415-425) and Hallowed Beacon (L550-558, and wholly within
# Hallowed Ground: `hallowed_ground`): more than 6" from every enemy model; both count as set-ups
# using the Deep Strike or Teleport Assault abilities (R-GK-02).
standing_rules.ARRIVAL_METHODS.add("prognisticated_arrival", (6.0, "stratagem"))
standing_rules.ARRIVAL_METHODS.add("hallowed_beacon", (6.0, "stratagem"))
