"""Stratagems that change attacks: persisting effects carrying attack-pipeline modifiers.

Each use adds effects `{"attack": MODIFIER, "as": "attacker"|"defender", "against": unit|None}`
(MODIFIER in the pipeline's `{step, kind, value, condition}` shape, docs/attacks.md) to a unit.
The attack sequence reads them through `attacks.effect_modifiers.attack_modifiers`. No attack
code knows any stratagem. `register_attack_effects(slug, targets, grants)` with the primitives
`attack_modifier`, `on_attacker`, `on_defender` and `against_the_attacker` is how the core
stratagems here and the faction stratagems (`factions/<faction>/stratagems.py`) are written.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine.attacks.modifiers import Modifier
from rules.engine.core.effects import add_effect
from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on
from rules.engine.core.state import (
    State,
    alive_models,
)
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import (
    has_keywords,
    is_trigger_unit,
    own_units,
    selected_as_target,
)

RANGED = {"weapon_type": "ranged"}
MELEE = {"weapon_type": "melee"}
# (unit it is on, "attacker" or "defender", modifier, only against this unit or None)
Grant = tuple[str | None, str, dict[str, Any], str | None]


def attack_modifier(step: str, kind: str, value: Any = None, **condition: Any) -> dict[str, Any]:
    return {"step": step, "kind": kind, "value": value, "condition": condition}


def register_attack_effects(
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


def on_attacker(*modifiers: dict[str, Any]) -> Callable[[State, Use], list[Grant]]:
    return lambda _state, use: [(use.target, "attacker", m, None) for m in modifiers]


def on_defender(*modifiers: dict[str, Any]) -> Callable[[State, Use], list[Grant]]:
    return lambda _state, use: [(use.target, "defender", m, None) for m in modifiers]


def against_the_attacker(*modifiers: dict[str, Any]) -> Callable[[State, Use], list[Grant]]:
    """ "Until the attacking unit has finished making its attacks": only against that unit, for
    the phase (a unit attacks once per phase; rulings R-ST-05)."""
    return lambda _state, use: [
        (use.target, "defender", m, use.window.get("unit")) for m in modifiers
    ]


# --- core -------------------------------------------------------------------------------------

register_attack_effects(
    "go-to-ground-10e",
    own_units(has_keywords("INFANTRY"), selected_as_target),
    on_defender(attack_modifier("invulnerable", "set", 6), attack_modifier("cover", "grant")),
)


def _epic_challenge_targets(state: State, player: int, window: dict[str, Any]) -> list[str]:
    return own_units(is_trigger_unit, has_keywords("CHARACTER"))(state, player, window)


def _epic_challenge_models(
    state: State, _player: int, _window: dict[str, Any], target: str
) -> list[dict[str, Any]]:
    """ "Select one CHARACTER model in your unit": one option per living CHARACTER model."""
    return [{"model": m["id"]} for m in alive_models(state["units"][target]) if m.get("character")]


register_attack_effects(
    "epic-challenge-11e",
    _epic_challenge_targets,
    # Only the selected CHARACTER model's melee weapons (rulings R-ST-06).
    on_attacker(attack_modifier("ability", "grant", "precision", **MELEE)),
    choices=_epic_challenge_models,
)
