"""Stratagems that inflict mortal wounds: Explosives (11e 15.05) and Grenade (10e Grenade).

Select one EXPLOSIVES/GRENADES model in your unit and one enemy unit within 8" of and visible to
it (11e: an unengaged enemy unit; 10e: one not within Engagement Range of any of your units);
roll six D6: each 4+ is one mortal wound (11e 06.02; 10e Mortal Wounds), allocated by
`casualties.allocate_mortal_wounds`. The option names the enemy unit (`enemy`) and the first
model of the unit (in unit order) that can throw at it (`model`; rulings R-ST-08).
"""

from __future__ import annotations

from typing import Any

from rules.engine.attacks.casualties import allocate_mortal_wounds
from rules.engine.battlefield.placement import is_engaged
from rules.engine.battlefield.sight import visible
from rules.engine.battlefield.state_distances import closest_distances
from rules.engine.core.events import Context
from rules.engine.core.facts import has_flag
from rules.engine.core.rolls import roll
from rules.engine.core.shapes import Model, Unit
from rules.engine.core.standing_rules import GRENADE_CHOICES
from rules.engine.core.state import State, alive_models, on_battlefield
from rules.engine.phases import shooting as shooting_phase
from rules.engine.stratagems.effects.base import Use, implements
from rules.engine.stratagems.effects.targeting import own_units

THROWING_KEYWORDS = {"EXPLOSIVES", "GRENADES"}
REACH = 8.0
DICE = 6
WOUNDS_ON = 4


def _throwing_models(state: State, unit: Unit) -> list[Model]:
    """The unit's EXPLOSIVES/GRENADES models: those of the parts whose datasheet has it."""
    parts = [
        index
        for index, part in enumerate(unit["parts"])
        if THROWING_KEYWORDS & set(state["datasheets"][part["datasheet"]]["keywords"])
    ]
    return [m for m in alive_models(unit) if m["part"] in parts]


def _eligible_11e(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    """11e: "One friendly unengaged EXPLOSIVES/GRENADES unit that is eligible to shoot and did
    not make an advance move this turn" (an engaged unit eligible for close-quarters shooting
    is not unengaged)."""
    return (
        not is_engaged(state, unit)
        and shooting_phase.ineligibility(state, unit) is None
        and not has_flag(state, unit["id"], "advanced")
        and bool(_throwing_models(state, unit))
    )


def _eligible_10e(state: State, unit: Unit, _window: dict[str, Any]) -> bool:
    """10e: not engaged; did not Advance, Fall Back or shoot this turn."""
    return (
        not is_engaged(state, unit)
        and not any(has_flag(state, unit["id"], f) for f in ("advanced", "fell_back", "shot"))
        and bool(_throwing_models(state, unit))
    )


def _enemy_allowed(state: State, enemy: Unit) -> bool:
    """11e "unengaged enemy unit"; 10e "not within Engagement Range of any units from your army":
    with two armies, the same test."""
    return not is_engaged(state, enemy)


def _choices(state: State, player: int, window: dict[str, Any], target: str) -> list[dict]:
    """The enemy units within 8" of a throwing model, then those other rules add (Gheistskull:
    `standing_rules.GRENADE_CHOICES`)."""
    found = _within_reach(state, player, target)
    for rule in GRENADE_CHOICES:
        found += rule(state, player, window, target, found)
    return found


def _within_reach(state: State, player: int, target: str) -> list[dict]:
    unit = state["units"][target]
    found = []
    for enemy in sorted(
        (u for u in state["units"].values() if u["player"] != player and on_battlefield(u)),
        key=lambda u: u["id"],
    ):
        if not _enemy_allowed(state, enemy):
            continue
        throwing = _throwing_models(state, unit)
        gaps = closest_distances(throwing, alive_models(enemy), within=REACH)
        for model, gap in zip(throwing, gaps, strict=True):
            if gap <= REACH and visible(state, unit, enemy, {model["id"]}):
                found.append({"enemy": enemy["id"], "model": model["id"]})
                break
    return found


def _throw(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    enemy = use.extra["enemy"]
    record = roll(ctx, DICE, "explosives", use.slug, use.player, use.target)
    wounds = sum(1 for value in record["values"] if value >= WOUNDS_ON)
    ctx.emit(
        "explosives_thrown",
        unit=use.target,
        model=use.extra["model"],
        enemy=enemy,
        mortal_wounds=wounds,
        **({"rule": use.extra["rule"]} if "rule" in use.extra else {}),
    )
    allocate_mortal_wounds(ctx, enemy, wounds, use.slug, then or {"step": "stratagem_resolved"})


implements("explosives-11e", targets=own_units(_eligible_11e), choices=_choices)(_throw)
implements("grenade-10e", targets=own_units(_eligible_10e), choices=_choices)(_throw)
