"""Teleport Assault (Grey Knights faction ability; seed 004 L135-139, UA-TELEPORT-ASSAULT).

"If your Army Faction is GREY KNIGHTS (AMB-43), at the end of your opponent's turn, you can select
a number of units from your army with this ability (excluding units that are within Engagement
Range of one or more enemy units). [...] remove those units from the battlefield. In the
Reinforcements step of your next Movement phase, set each of those units up anywhere on the
battlefield that is more than 9" horizontally away from all enemy models. Any units that are not
on the battlefield at the end of the battle count as destroyed."

At the end of each turn (after the end-of-turn coherency and objective control, before the
end-of-turn effects expire; rulings R-GK-03) the other player, when their army is Grey Knights,
is asked one unit at a time (`teleport_assault` decision: a unit id or `"done"`) up to the
battle size's number (the seed's table is lost, AMB-21: the published table, rulings R-GK-01).
A selected unit is removed (`movement_phase.remove_to_arrive_later`) and arrives by the
`teleport_assault` method of `movement_phase.arrive`.
"""

from __future__ import annotations

from typing import Any

from rules.engine.army.attached_units import part_has
from rules.engine.battlefield.placement import is_engaged, position_settled
from rules.engine.core import display_names, standing_rules
from rules.engine.core.citations import add_sections, cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.events import Context
from rules.engine.core.hooks import implements
from rules.engine.core.sequencing import continuation, resume
from rules.engine.core.state import State, on_battlefield, player_key, units_of
from rules.engine.core.timing import TURN_ENDING, at
from rules.engine.phases.movement import remove_to_arrive_later

add_sections({"teleport_assault": "Teleport Assault"})


FACTION = "grey-knights"
ABILITY = "Teleport Assault"
DECISION_KIND = "teleport_assault"
# Seed 004 L138 lost the battle-size table (AMB-21); the published one (Wahapedia export
# Abilities.csv 000010345), rulings R-GK-01.
UNITS_PER_BATTLE_SIZE = {"incursion": 2, "strike-force": 3, "onslaught": 4}
# Set up "more than 9\" horizontally away from all enemy models" (seed 004 L139).
ENEMY_DISTANCE = 9.0


def candidates(state: State, player: int) -> list[str]:
    """The player's units on the battlefield with the ability, not within Engagement Range."""
    with position_settled(state):  # it only reads the state: one position for every unit
        return [
            unit["id"]
            for unit in units_of(state, player)
            if on_battlefield(unit)
            and all(part_has(state, part, ABILITY) for part in unit["parts"])
            and not is_engaged(state, unit)
        ]


def limit(state: State) -> int:
    return UNITS_PER_BATTLE_SIZE.get(state["mission"].get("battle_size", "strike-force"), 0)


@implements("ability", "teleport-assault")
@at(TURN_ENDING, 10, resumes=True)
def at_end_of_opponents_turn(ctx: Context, data: dict[str, Any], then: dict[str, Any]) -> None:
    """Ask `data["player"]` (whose opponent's turn is ending) for the units to remove; then
    `then`."""
    _ask(ctx, data["player"], 0, then)


def _ask(ctx: Context, player: int, selected: int, then: dict[str, Any]) -> None:
    state = ctx.state
    options = candidates(state, player)
    if (
        state["players"][player_key(player)].get("faction") != FACTION
        or selected >= limit(state)
        or not options
    ):
        resume(ctx, then)
        return
    push_decision(
        ctx,
        player,
        DECISION_KIND,
        [*options, "done"],
        {"step": "teleport_assault_selected", "player": player, "selected": selected, "then": then},
        cite(state, "teleport_assault"),
        f"Teleport Assault: select a unit to remove from the battlefield "
        f"({limit(state) - selected} more at most), or done.",
    )


@continuation("teleport_assault_selected")
def _selected(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    if choice == "done":
        resume(ctx, data["then"])
        return
    unit = ctx.state["units"][choice]
    remove_to_arrive_later(ctx, unit, "teleport_assault", "Teleport Assault")
    _ask(ctx, data["player"], data["selected"] + 1, data["then"])


# Teleport Assault (seed 004 L139): set up "more than 9" horizontally away from all enemy models",
# an arrival using that ability (Haloed in Soulfire's TARGET, R-GK-02).
standing_rules.ARRIVAL_METHODS.add("teleport_assault", (ENEMY_DISTANCE, "ability"))


def reason(state: State) -> dict[str, str]:
    """Why the `teleport_assault` decision is asked, for the player deciding: the ability's gist
    in this game's numbers (the units per battle size, the distance)."""
    return {
        "rule": cite(state, "teleport_assault"),
        "text": (
            f"Teleport Assault (Grey Knights): each unit removed now ({limit(state)} at most) is "
            "set up again in the Reinforcements step of your next Movement phase, more than "
            f'{ENEMY_DISTANCE:g}" horizontally from all enemy models.'
        ),
    }


display_names.explain(DECISION_KIND, reason)
