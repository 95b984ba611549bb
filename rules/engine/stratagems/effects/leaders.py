"""Stratagems that lend Leader abilities: Battlefield Command (Boarding Actions; seed 000
L474-484, seed 003 L656-666).

"TARGET: One Leader unit from your army and one friendly Bodyguard unit within 6" of it that it
could normally be attached to. EFFECT: Select one of your Leader unit's Leader abilities. Until
the start of your next Command phase, that Bodyguard unit is treated as being led by that Leader
unit for the purposes of that Leader ability. RESTRICTIONS: Once you target a unit with this
Stratagem, that unit cannot be targeted with it again until your next Command phase."

Leader abilities are data: the datasheet abilities whose text begins "While this model is
leading a unit" (`leader_abilities`). The target is a unit on the battlefield holding a Leader
unit: a Leader unit on its own or an attached unit it leads ("one Leader unit from your army"
asks no more); each option names the Bodyguard unit (`bodyguard`: its datasheet in the Leader's
`leads`, no Leader attached, within 6") and the ability (`ability`). Only the Leader
abilities whose effect the engine reads through `attached_units.is_led_with` are offered
(`attached_units.LENDABLE`; rulings R-GK-08). The lent ability is an effect
`{"led_for": ability, "leader": unit}` on the Bodyguard unit, read by
`attached_units.is_led_with`; both units carry a `battlefield_command_targeted` status until
the start of their player's next Command phase.
"""

from __future__ import annotations

from typing import Any

from rules.engine.army.attached_units import LENDABLE, alive_part
from rules.engine.battlefield.state_distances import unit_distance
from rules.engine.core.effects import add_effect, has_status
from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on
from rules.engine.core.shapes import Part, Unit
from rules.engine.core.state import State, on_battlefield, units_of
from rules.engine.stratagems.effects.base import Use, implements

LEADING = "while this model is leading a unit"
REACH = 6.0
TARGETED = "battlefield_command_targeted"


def leader_abilities(state: State, datasheet: str) -> list[str]:
    """The datasheet's Leader abilities: those that hold while its model is leading a unit."""
    sheet = state["datasheets"].get(datasheet, {})
    return [
        a["name"]
        for a in sheet.get("abilities", [])
        if str(a.get("text") or "").lower().startswith(LEADING)
    ]


def _leader_parts(unit: Unit) -> list[Part]:
    """The Leader units in the unit with a model left: the unit itself when it stands alone,
    else the parts that lead it (R-GK-08: an attached Leader unit is still "one Leader unit from
    your army")."""
    if len(unit["parts"]) == 1:
        return unit["parts"]
    return [
        part
        for index, part in enumerate(unit["parts"])
        if part["role"] == "leader" and alive_part(unit, index)
    ]


def _lendable(state: State, part: Part) -> list[str]:
    names = leader_abilities(state, part["datasheet"])
    return [name for name in names if name in LENDABLE]


def _bodyguards(state: State, player: int, leader: Unit, part: Part) -> list[Unit]:
    """The Bodyguard units within 6" of the unit that the Leader unit `part` "could normally be
    attached to": of a datasheet it leads, with no Leader attached (11e 19.01 "each bodyguard
    unit can only have one leader unit ... attached to it"; 10e Leader)."""
    leads = state["datasheets"][part["datasheet"]].get("leads", [])
    return [
        unit
        for unit in units_of(state, player)
        if unit["id"] != leader["id"]
        and on_battlefield(unit)
        and not any(p["role"] == "leader" for p in unit["parts"])
        and unit["parts"][0]["datasheet"] in leads
        and not has_status(state, unit["id"], TARGETED)
        and unit_distance(unit, leader) <= REACH
    ]


def _leaders(state: State, player: int, _window: dict[str, Any]) -> list[str]:
    return [
        unit["id"]
        for unit in units_of(state, player)
        if on_battlefield(unit)
        and not has_status(state, unit["id"], TARGETED)
        and _choices(state, player, _window, unit["id"])
    ]


def _choices(state: State, player: int, _window: dict[str, Any], target: str) -> list[dict]:
    leader = state["units"][target]
    options: list[dict] = []
    for part in _leader_parts(leader):
        for bodyguard in _bodyguards(state, player, leader, part):
            for ability in _lendable(state, part):
                option = {"bodyguard": bodyguard["id"], "ability": ability}
                if option not in options:  # two Leaders with the same ability: one option
                    options.append(option)
    return options


@implements("battlefield-command-boarding-actions", targets=_leaders, choices=_choices)
def _battlefield_command(ctx: Context, use: Use, then: dict[str, Any] | None) -> None:
    bodyguard, ability = use.extra["bodyguard"], use.extra["ability"]
    until = "start_of_next_command_phase"
    add_effect(
        ctx,
        use.slug,
        {"unit": bodyguard},
        {"led_for": ability, "leader": use.target},
        until,
        use.player,
    )
    for unit_id in (use.target, bodyguard):
        add_effect(ctx, use.slug, {"unit": unit_id}, {"status": TARGETED}, until, use.player)
    carry_on(ctx, then)
