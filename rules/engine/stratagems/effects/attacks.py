"""Stratagems that change attacks: persisting effects carrying attack-pipeline modifiers.

Each use adds effects `{"attack": MODIFIER, "as": "attacker"|"defender", "against": unit|None}`
(MODIFIER in the pipeline's `{step, kind, value, condition}` shape, docs/attacks.md) to a unit.
The attack sequence reads them through `attacks.effect_modifiers.attack_modifiers`. No attack
code knows any stratagem.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine.attacks.modifiers import Modifier
from rules.engine.battlefield.sight import enemies_in_sight
from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on
from rules.engine.core.standing_rules import in_army_area
from rules.engine.core.state import (
    State,
    alive_models,
    unit_keywords,
)
from rules.engine.phases.battle_shock import battle_shock_roll
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import (
    any_of,
    flag,
    has_any_keyword,
    has_keywords,
    is_trigger_unit,
    not_selected_this_phase,
    own_units,
    selected_as_target,
)

RANGED = {"weapon_type": "ranged"}
MELEE = {"weapon_type": "melee"}
# (unit it is on, "attacker" or "defender", modifier, only against this unit or None)
Grant = tuple[str | None, str, dict[str, Any], str | None]


def _mod(step: str, kind: str, value: Any = None, **condition: Any) -> dict[str, Any]:
    return {"step": step, "kind": kind, "value": value, "condition": condition}


def _register(
    slug: str,
    targets: Callable[[State, int, dict[str, Any]], list[str]],
    grants: Callable[[State, Use], list[Grant]],
    duration: str = "end_of_phase",
    only_if: dict[str, Any] | None = None,
    choices: Callable[[State, int, dict[str, Any], str], list[dict[str, Any]]] | None = None,
) -> None:
    """`choices`: the stratagem's extra choices; a chosen `model` limits the effect to that
    model's attacks (`effects.benefits`: Epic Challenge)."""

    def resolve(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
        for unit_id, role, modifier, against in grants(ctx.state, use):
            Modifier.from_dict(modifier)  # a malformed modifier fails here, not mid-attack
            effect: dict[str, Any] = {"attack": modifier, "as": role, "against": against}
            if only_if:
                effect["only_if"] = only_if
            if "model" in use.extra:
                effect["models"] = [use.extra["model"]]
            add_effect(ctx, slug, {"unit": unit_id}, effect, duration, use.player)
        carry_on(ctx, then)

    if choices is None:
        implements(slug, targets=targets)(resolve)
    else:
        implements(slug, targets=targets, choices=choices)(resolve)


def _on_attacker(*modifiers: dict[str, Any]) -> Callable[[State, Use], list[Grant]]:
    return lambda _state, use: [(use.target, "attacker", m, None) for m in modifiers]


def _on_defender(*modifiers: dict[str, Any]) -> Callable[[State, Use], list[Grant]]:
    return lambda _state, use: [(use.target, "defender", m, None) for m in modifiers]


def _against_the_attacker(*modifiers: dict[str, Any]) -> Callable[[State, Use], list[Grant]]:
    """ "Until the attacking unit has finished making its attacks": only against that unit, for
    the phase (a unit attacks once per phase; rulings R-ST-05)."""
    return lambda _state, use: [
        (use.target, "defender", m, use.window.get("unit")) for m in modifiers
    ]


AM = "ASTRA MILITARUM"
AGENTS = "AGENTS OF THE IMPERIUM"

# --- core -------------------------------------------------------------------------------------

_register(
    "go-to-ground-10e",
    own_units(has_keywords("INFANTRY"), selected_as_target),
    _on_defender(_mod("invulnerable", "set", 6), _mod("cover", "grant")),
)


def _epic_challenge_targets(state: State, player: int, window: dict[str, Any]) -> list[str]:
    return own_units(is_trigger_unit, has_keywords("CHARACTER"))(state, player, window)


def _epic_challenge_models(
    state: State, _player: int, _window: dict[str, Any], target: str
) -> list[dict[str, Any]]:
    """ "Select one CHARACTER model in your unit": one option per living CHARACTER model."""
    return [{"model": m["id"]} for m in alive_models(state["units"][target]) if m.get("character")]


_register(
    "epic-challenge-11e",
    _epic_challenge_targets,
    # Only the selected CHARACTER model's melee weapons (rulings R-ST-06).
    _on_attacker(_mod("ability", "grant", "precision", **MELEE)),
    choices=_epic_challenge_models,
)

# --- Astra Militarum --------------------------------------------------------------------------

_register(
    "veteran-sharpshooters",
    own_units(has_keywords(AM), not_selected_this_phase),
    _on_attacker(_mod("ability", "grant", "ignores cover", **RANGED)),
)
_register(
    "accuracy-under-pressure",
    own_units(has_keywords(AM), not_selected_this_phase),
    _on_attacker(_mod("hit", "reroll", "any")),
)
_register(
    "opening-salvo",
    own_units(has_keywords(AM), flag("disembarked"), not_selected_this_phase),
    _on_attacker(_mod("wound", "add", 1)),
)
_register(
    "additional-armour",
    own_units(has_keywords(AM), selected_as_target),
    _against_the_attacker(_mod("ap", "worsen", 1)),
)

# --- Grey Knights -----------------------------------------------------------------------------

_register(
    "truesilver-armour",
    own_units(selected_as_target),
    _against_the_attacker(_mod("ap", "worsen", 1)),
)
_register(
    "death-from-the-warp",
    # "arrived using Deep Strike or Teleport Assault" this turn (rulings R-ST-07, R-GK-02).
    own_units(
        has_keywords("PSYKER"),
        any_of(flag("advanced"), flag("arrived_by_deep_strike_or_teleport_assault")),
    ),
    _on_attacker(_mod("ability", "grant", "assault", **RANGED), _mod("hit", "add", 1)),
    duration="end_of_turn",
)
_register(
    "radiant-strike",
    own_units(has_keywords("PSYKER")),
    _on_attacker(
        _mod(
            "ability", "grant", "devastating wounds", weapon_type="melee", weapon_ability="PSYCHIC"
        )
    ),
)
_register(
    "sanctified-slaughter",
    own_units(flag("charged")),
    _on_attacker(
        _mod("ability", "grant", "sustained hits 1", **MELEE),
        # "If such a weapon already has that ability": its printed [SUSTAINED HITS], not the
        # one this stratagem grants (issue 14 defect 10).
        _mod("hit", "critical", 5, weapon_type="melee", printed_weapon_ability="SUSTAINED HITS"),
    ),
)


def _hexbane_grants(_state: State, use: Use) -> list[Grant]:
    """The enemy unit's melee weapons gain [HAZARDOUS] (the effect is on that enemy unit)."""
    return [(use.window["unit"], "attacker", _mod("ability", "grant", "hazardous", **MELEE), None)]


_register("hexbane-wards", own_units(selected_as_target), _hexbane_grants)

# --- Imperial Agents --------------------------------------------------------------------------


def _will_sapping_grants(state: State, use: Use) -> list[Grant]:
    grants: list[Grant] = [
        (use.target, "attacker", _mod("ability", "grant", "sustained hits 1", **RANGED), None)
    ]
    if "CULEXUS ASSASSIN" in unit_keywords(state, state["units"][use.target]):
        grants.append((use.target, "attacker", _mod("damage", "set", 3, **RANGED), None))
    return grants


_register(
    "will-sapping-salvo",
    own_units(has_keywords(AGENTS, "INFANTRY"), not_selected_this_phase),
    _will_sapping_grants,
)


def _hyperstimms_grants(state: State, use: Use) -> list[Grant]:
    grants: list[Grant] = [(use.target, "defender", _mod("toughness", "add", 1), None)]
    if "EVERSOR ASSASSIN" in unit_keywords(state, state["units"][use.target]):
        grants.append((use.target, "defender", _mod("feel_no_pain", "set", 4), None))
    return grants


_register(
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
        (use.target, "attacker", _mod("wound", "reroll", "ones", target_keyword="CHARACTER"), None)
    ]
    warlord = _enemy_warlord(state, use.player)
    assassin = "OFFICIO ASSASSINORUM" in unit_keywords(state, state["units"][use.target])
    if assassin and warlord is not None:
        grants.append((use.target, "attacker", _mod("wound", "reroll", "any"), warlord))
    return grants


_register(
    "prime-target",
    own_units(has_keywords(AGENTS), not_selected_this_phase),
    _prime_target_grants,
)


_register(
    "violent-acquisition",
    own_units(has_keywords(AGENTS)),
    _on_attacker(
        _mod("ability", "grant", "sustained hits 1"),
        _mod("ability", "grant", "lance"),
        _mod("ability", "grant", "ignores cover"),
    ),
    only_if={"target_on_objective": True},
)
_register(
    "flare-burst",
    own_units(has_keywords(AM, "CHARACTER"), not_selected_this_phase),
    _on_attacker(_mod("hit", "reroll", "any")),
    only_if={"target_within": 12.0, "target_visible": True},
)


def _in_hallowed_ground(state: State, unit: dict[str, Any], _window: dict[str, Any]) -> bool:
    return in_army_area(state, "hallowed_ground", unit)


def _kill_zone_grants(state: State, use: Use) -> list[Grant]:
    purifiers = "PURIFIER SQUAD" in unit_keywords(state, state["units"][use.target])
    return [(use.target, "attacker", _mod("wound", "reroll", "any" if purifiers else "ones"), None)]


_register(
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


# --- Rites of Exorcism (Imperial Agents, Ordo Malleus) ----------------------------------------

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
                "attack": _mod("ability", "grant", "devastating wounds"),
                "as": "defender",
                "against": None,
                "only_if": {"attacker_keyword": AGENTS},
            },
            "end_of_phase",
            use.player,
        )
    carry_on(ctx, then)


@implements(
    "courageous-diversion",
    targets=own_units(has_any_keyword((AM, "INFANTRY"), (AM, "MOUNTED"))),
)
def _courageous_diversion(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    """Until the end of the phase: Feel No Pain 6+; -1 to the hit roll of attacks against the unit
    while it is the attacker's closest eligible target (R-ST-22)."""
    for modifier, only_if in (
        (_mod("feel_no_pain", "set", 6), None),
        (_mod("hit", "add", -1), {"target_is_closest_visible": True}),
    ):
        effect = {"attack": modifier, "as": "defender", "against": None}
        if only_if:
            effect["only_if"] = only_if
        add_effect(ctx, use.slug, {"unit": use.target}, effect, "end_of_phase", use.player)
    carry_on(ctx, then)
