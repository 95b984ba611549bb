"""The Imperial Agents detachments' stratagems: attack-modifier effects (Will-Sapping Salvo,
Hyperstimms, Prime Target, Violent Acquisition, Rites of Exorcism), Emperor's Will (eligible to
shoot after advancing or falling back), Ritual of Warding (the marker stays under control,
`sequence.objectives.hold_objective`, R-ST-15), Orbital Oversight (`ranged_targetable_within`,
read by `shooting_targets.check_target`, R-ST-21), Blind Grenades (a charge-roll effect),
Ensnaring Trap (a charge at the end of the opponent's Charge phase with no Charge bonus,
R-ST-25), Displacer Field (a 4+ invulnerable save, then a Normal move), Exact Punishment
(shooting out of turn) and Rapid Tactical Relocation (reserves). Each uses the generic
primitives of `stratagems/effects/`.
"""

from __future__ import annotations

from typing import Any

from rules.engine.battlefield.objective_range import units_within_range
from rules.engine.battlefield.sight import enemies_in_sight
from rules.engine.battlefield.state_distances import model_distance, unit_distance
from rules.engine.core import standing_rules
from rules.engine.core.citations import add_sections
from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.facts import has_flag
from rules.engine.core.sequencing import carry_on, continuation
from rules.engine.core.shapes import Objective, Unit
from rules.engine.core.state import State, unit_keywords
from rules.engine.phases import movement as movement_phase
from rules.engine.phases import shooting as shooting_phase
from rules.engine.phases.battle_shock import battle_shock_roll
from rules.engine.phases.charge import ineligibility
from rules.engine.phases.fight import NO_CHARGE_BONUS
from rules.engine.phases.out_of_sequence_moves import MOVE_AFTER_ATTACKS
from rules.engine.sequence.objectives import RITUAL, hold_objective
from rules.engine.stratagems.effects.attacks import (
    RANGED,
    Grant,
    attack_modifier,
    on_attacker,
    register_attack_effects,
)
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.charges_out_of_phase import (
    INTO_THE_FRAY_REACH,
    declare_and_roll_charge,
    enemy_units_of,
)
from rules.engine.stratagems.effects.targeting import (
    has_any_keyword,
    has_keywords,
    lacks_keyword,
    not_selected_this_phase,
    own_units,
    selected_as_target,
    unengaged,
)

add_sections({"rapid_tactical_relocation": "Rapid Tactical Relocation"})


AGENTS = "AGENTS OF THE IMPERIUM"


def _will_sapping_grants(state: State, use: Use) -> list[Grant]:
    grants: list[Grant] = [
        (
            use.target,
            "attacker",
            attack_modifier("ability", "grant", "sustained hits 1", **RANGED),
            None,
        )
    ]
    if "CULEXUS ASSASSIN" in unit_keywords(state, state["units"][use.target_unit]):
        grants.append((use.target, "attacker", attack_modifier("damage", "set", 3, **RANGED), None))
    return grants


register_attack_effects(
    "will-sapping-salvo",
    own_units(has_keywords(AGENTS, "INFANTRY"), not_selected_this_phase),
    _will_sapping_grants,
)


def _hyperstimms_grants(state: State, use: Use) -> list[Grant]:
    grants: list[Grant] = [(use.target, "defender", attack_modifier("toughness", "add", 1), None)]
    if "EVERSOR ASSASSIN" in unit_keywords(state, state["units"][use.target_unit]):
        grants.append((use.target, "defender", attack_modifier("feel_no_pain", "set", 4), None))
    return grants


register_attack_effects(
    "hyperstimms",
    own_units(has_keywords(AGENTS, "CHARACTER"), selected_as_target),
    _hyperstimms_grants,
)


def _enemy_warlord(state: State, player: int) -> str | None:
    return next(
        (u["id"] for u in state["units"].values() if u["player"] != player and u["warlord"]),
        None,
    )


def _prime_target_grants(state: State, use: Use) -> list[Grant]:
    """Re-roll wound rolls of 1 against CHARACTER units; an OFFICIO ASSASSINORUM unit re-rolls the
    wound roll against the unit holding the enemy WARLORD (the best grant is used)."""
    grants: list[Grant] = [
        (
            use.target,
            "attacker",
            attack_modifier("wound", "reroll", "ones", target_keyword="CHARACTER"),
            None,
        )
    ]
    warlord = _enemy_warlord(state, use.player)
    assassin = "OFFICIO ASSASSINORUM" in unit_keywords(state, state["units"][use.target_unit])
    if assassin and warlord is not None:
        grants.append((use.target, "attacker", attack_modifier("wound", "reroll", "any"), warlord))
    return grants


register_attack_effects(
    "prime-target",
    own_units(has_keywords(AGENTS), not_selected_this_phase),
    _prime_target_grants,
)


register_attack_effects(
    "violent-acquisition",
    own_units(has_keywords(AGENTS)),
    on_attacker(
        attack_modifier("ability", "grant", "sustained hits 1"),
        attack_modifier("ability", "grant", "lance"),
        attack_modifier("ability", "grant", "ignores cover"),
    ),
    only_if={"target_on_objective": True},
)


EXORCISM_RANGE = 12.0


def _daemons_in_sight(state: State, player: int, _window: dict[str, Any], target: str) -> list:
    unit = state["units"][target]
    return [
        {"enemy": enemy["id"]}
        for enemy in enemies_in_sight(state, unit, EXORCISM_RANGE, keyword="DAEMON")
    ]


@implements(
    "rites-of-exorcism",
    targets=own_units(has_any_keyword("INQUISITOR", "INQUISITORIAL AGENTS", "ORDO MALLEUS")),
    choices=_daemons_in_sight,
)
def _rites_of_exorcism(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """The DAEMON unit takes a battle-shock test; if it fails, until the end of the phase attacks
    of AGENTS OF THE IMPERIUM units against it have [DEVASTATING WOUNDS]."""
    daemon = ctx.state["units"][use.extra["enemy"]]
    if not battle_shock_roll(ctx, daemon, use.slug):
        add_effect(
            ctx,
            use.slug,
            {"unit": daemon["id"]},
            {
                "attack": attack_modifier("ability", "grant", "devastating wounds"),
                "as": "defender",
                "against": None,
                "only_if": {"attacker_keyword": AGENTS},
            },
            "end_of_phase",
            use.player,
        )
    carry_on(ctx, then)


@implements(
    "blind-grenades",
    targets=own_units(
        has_any_keyword(("AGENTS OF THE IMPERIUM", "GRENADES"), "VINDICARE ASSASSIN"),
        selected_as_target,
        unengaged,
    ),
)
def _blind_grenades(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Just after an enemy unit declared a charge: -1 to its charge rolls this phase (-2 if your
    unit is a VINDICARE ASSASSIN); its roll follows the window."""
    vindicare = "VINDICARE ASSASSIN" in unit_keywords(
        ctx.state, ctx.state["units"][use.target_unit]
    )
    add_effect(
        ctx,
        use.slug,
        {"unit": use.window["unit"]},
        {"charge_roll": -2 if vindicare else -1},
        "end_of_phase",
        use.player,
    )
    carry_on(ctx, then)


MELEE = {"weapon_type": "melee"}


def _may_spring_trap(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    return ineligibility(state, unit) is None and any(
        unit_distance(unit, enemy) <= INTO_THE_FRAY_REACH for enemy in enemy_units_of(state, unit)
    )


@implements(
    "ensnaring-trap",
    targets=own_units(has_keywords("AGENTS OF THE IMPERIUM", "INFANTRY"), _may_spring_trap),
)
def _ensnaring_trap(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    add_effect(ctx, use.slug, {"unit": use.target}, NO_CHARGE_BONUS, "end_of_turn", use.player)
    after = {
        "step": "ensnaring_trap_charged",
        "unit": use.target,
        "player": use.player,
        "then": then,
    }
    declare_and_roll_charge(ctx, use, "ensnaring_trap", [], after)


@continuation("ensnaring_trap_charged")
def _after_the_trap(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    unit = ctx.state["units"][data["unit"]]
    callidus = "CALLIDUS ASSASSIN" in unit_keywords(ctx.state, unit)
    if callidus and has_flag(ctx.state, unit["id"], "charged"):
        add_effect(
            ctx,
            "ensnaring-trap",
            {"unit": unit["id"]},
            {
                "attack": {"step": "wound", "kind": "add", "value": 1, "condition": MELEE},
                "as": "attacker",
                "against": None,
            },
            "end_of_turn",
            data["player"],
        )
    carry_on(ctx, data["then"])


@implements("emperors-will", targets=own_units(has_keywords("AGENTS OF THE IMPERIUM")))
def shoot_after_advancing(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Imperialis Fleet: eligible to shoot in a turn it Advanced or Fell Back. The seed's "until
    the end of the phase" (a Movement phase stratagem) is read as the end of the turn (rulings
    R-ST-04), the shooting phase's eligibility effect (shooting_phase.py)."""
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {"eligibility": "shoot_after_advance_or_fall_back"},
        "end_of_turn",
        use.player,
    )
    carry_on(ctx, then)


DISPLACER_INVULNERABLE = 4


DISPLACER_DISTANCE = 6.0


@implements(
    "displacer-field",
    targets=own_units(
        has_keywords("AGENTS OF THE IMPERIUM", "CHARACTER"),
        lacks_keyword("OFFICIO ASSASSINORUM"),
        selected_as_target,
    ),
)
def _displacer_field(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """The save at once; the move waits for the attacking unit's attacks (its effect is read by
    `out_of_sequence_moves.after_attacks_resolved`; ruling R-MV-15)."""
    invulnerable = {
        "step": "invulnerable",
        "kind": "set",
        "value": DISPLACER_INVULNERABLE,
        "condition": {},
    }
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {"attack": invulnerable, "as": "defender", "against": None},
        "end_of_phase",
        use.player,
    )
    held = {
        "attacker": use.window.get("unit"),
        "max_distance": DISPLACER_DISTANCE,
        "as_if_fly": True,
    }
    add_effect(
        ctx, use.slug, {"unit": use.target}, {MOVE_AFTER_ATTACKS: held}, "end_of_phase", use.player
    )
    carry_on(ctx, then)


@implements(
    "rapid-tactical-relocation",
    targets=own_units(
        has_any_keyword(("INQUISITOR",), ("DEATHWATCH", "INFANTRY")),
        unengaged,
    ),
)
def _rapid_tactical_relocation(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Seed 000 L460-470: remove the unit; in the Reinforcements step of your next Movement phase
    set it up anywhere more than 8" horizontally away from all enemy models."""
    unit = ctx.state["units"][use.target_unit]
    movement_phase.remove_to_arrive_later(
        ctx, unit, "rapid_tactical_relocation", "Rapid Tactical Relocation"
    )
    carry_on(ctx, then)


EXACT_PUNISHMENT_RANGE = 6.0


def _exact_punishment_targets(state: State, player: int, window: dict[str, Any]) -> list[str]:
    destroyed = state["units"].get(window.get("unit", ""))
    attacker = window.get("attacker")
    if destroyed is None or attacker is None:
        return []
    if "part" in window:  # 10e: only that part was destroyed (rulings R-ENG-12)
        parts = [p for p in destroyed["parts"] if p["key"] == window["part"]]
        destroyed = {**destroyed, "keywords": [], "parts": parts}
    if "AGENTS OF THE IMPERIUM" not in unit_keywords(state, destroyed):
        return []
    # Where the destroyed unit stood: its models the attacks destroyed (rulings R-OW-06).
    fallen = [m for m in destroyed["models"] if m["id"] in set(window.get("fallen", []))]

    def near(unit_state: State, unit: Unit, _window: dict[str, Any]) -> bool:
        return any(
            model_distance(mine, theirs) <= EXACT_PUNISHMENT_RANGE
            for mine in unit["models"]
            if mine["wounds_left"] > 0
            for theirs in fallen
        )

    def may_shoot(unit_state: State, unit: Unit, _window: dict[str, Any]) -> bool:
        return shooting_phase.can_shoot_out_of_turn(unit_state, unit, [attacker])

    return own_units(
        has_any_keyword("ADEPTUS ARBITES", "INQUISITORIAL AGENTS", "ORDO HERETICUS"),
        near,
        may_shoot,
    )(state, player, window)


def _exact_punishment(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    shooting_phase.shoot_out_of_turn(
        ctx,
        use.target_unit,
        ctx.state["stratagems"][use.slug]["name"],
        then,
        allowed=[use.window["attacker"]],
    )


implements("exact-punishment", targets=_exact_punishment_targets)(_exact_punishment)


WARDENS = has_any_keyword("INQUISITOR", "INQUISITORIAL AGENTS", "ORDO MALLEUS")


def _markers(state: State, player: int, unit_id: str) -> list[Objective]:
    return [
        m
        for m in state["objectives"]
        if m["controller"] == player and unit_id in units_within_range(state, m, player)
    ]


def _warden_targets(state: State, player: int, window: dict[str, Any]) -> list[str]:
    return [u for u in own_units(WARDENS)(state, player, window) if _markers(state, player, u)]


def _marker_choices(state: State, player: int, _window: dict, target: str) -> list[dict]:
    return [{"objective": m["id"]} for m in _markers(state, player, target)]


@implements("ritual-of-warding", targets=_warden_targets, choices=_marker_choices)
def _ward(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    hold_objective(ctx, use.player, use.extra["objective"], use.slug, RITUAL)
    carry_on(ctx, then)


@implements(
    "orbital-oversight",
    targets=own_units(has_keywords("AGENTS OF THE IMPERIUM", "INFANTRY"), selected_as_target),
)
def _orbital_oversight(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    unit = ctx.state["units"][use.target_unit]
    reach = 6.0 if "Lone Operative" in unit["abilities"] else 18.0
    add_effect(
        ctx,
        use.slug,
        {"unit": use.target},
        {"ranged_targetable_within": reach},
        "end_of_phase",
        use.player,
    )
    carry_on(ctx, then)


# Rapid Tactical Relocation (seed 000 L460-470): set up more than 8" from every enemy model.
standing_rules.ARRIVAL_METHODS.add("rapid_tactical_relocation", (8.0, None))
