"""Timing points when a unit is set up or starts or ends a move, and the rules that react to them.

"Just after an enemy unit is set up", "when an enemy unit starts or ends a Normal, Advance or
Fall Back move" (10e Fire Overwatch, Fires of Covenant, Screening Line, Mists of Deimos, On My
Signal, Reactive Command, ...). The rule making the move or the set-up calls
`announce(ctx, moment, unit_id, move, then)`:

- `moment`: `set_up` (just after the unit is set up on the battlefield: Deep Strike and strategic
  reserves arrivals, Rapid Ingress), `move_started` (the move is declared and checked, no model
  has moved yet) or `move_ended` (the models stand at their new positions);
- `move`: `normal`, `advance`, `fall_back` for moves; the arrival method for set-ups;
- `then`: the continuation that carries on (for `move_started`, the move itself).

What happens at the point, in order (rulings R-OW-03):

1. every subscribed rule (`@reacts_to(name, *moments)`), in name order, each given the
   `ReactionPoint` (the unit, its owner, the moment, the move and the positions of its models)
   and a continuation it must resume when it has resolved (it may roll dice, ask decisions,
   inflict mortal wounds, make a move);
2. the stratagem window of the point (`enemy_unit_set_up` / `enemy_move_started_or_ended`,
   `about`: the unit, `moment`, `move`), offered to the players in order, active player first;
3. `then`.

Moves other than Normal, Advance and Fall Back moves (charge, pile-in, consolidation, scout) are
not announced: no seed rule reacts to them. When the unit is destroyed on the way (by a reaction
or by shooting at the start of its move) the remaining reactions and the window are skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rules.engine.core.events import Context
from rules.engine.core.sequencing import carry_on, continuation
from rules.engine.core.shapes import Unit
from rules.engine.core.state import State, alive_models
from rules.engine.core.timing import stratagem_window

MOMENTS = ("set_up", "move_started", "move_ended")
ANNOUNCED_MOVES = frozenset({"normal", "advance", "fall_back"})
WINDOW_TRIGGERS = {
    "set_up": "enemy_unit_set_up",
    "move_started": "enemy_move_started_or_ended",
    "move_ended": "enemy_move_started_or_ended",
}


@dataclass(frozen=True)
class ReactionPoint:
    """One announced point: which unit, whose, what happened, and where its models stand."""

    unit: str
    player: int
    moment: str
    move: str
    positions: dict[str, list[float | None]]

    def as_dict(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "player": self.player,
            "moment": self.moment,
            "move": self.move,
            "positions": self.positions,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReactionPoint:
        return cls(data["unit"], data["player"], data["moment"], data["move"], data["positions"])

    def ended_a_move(self) -> bool:
        return self.moment == "move_ended" and self.move in ANNOUNCED_MOVES


React = Callable[[Context, ReactionPoint, dict[str, Any]], None]


@dataclass(frozen=True)
class Reaction:
    name: str
    moments: frozenset[str]
    react: React


REACTIONS: dict[str, Reaction] = {}


def reacts_to(name: str, *moments: str) -> Callable[[React], React]:
    """Subscribe `react(ctx, point, then)` to these moments; it must resume `then`."""
    unknown = set(moments) - set(MOMENTS)
    if unknown:
        raise ValueError(f"unknown moments {sorted(unknown)}; moments: {MOMENTS}")

    def register(react: React) -> React:
        if name in REACTIONS:
            raise ValueError(f"reaction {name!r} registered twice")
        REACTIONS[name] = Reaction(name, frozenset(moments), react)
        return react

    return register


def announce(
    ctx: Context, moment: str, unit_id: str, move: str, then: dict[str, Any] | None
) -> None:
    """The unit was set up / starts / ended a move: the reactions, the window, then `then`."""
    if moment not in MOMENTS:
        raise ValueError(f"unknown moment {moment!r}")
    unit = ctx.state["units"][unit_id]
    point = ReactionPoint(
        unit_id,
        unit["player"],
        moment,
        move,
        {m["id"]: [m["x"], m["y"]] for m in alive_models(unit)},
    )
    _next(ctx, point, 0, then)


def _subscribed(moment: str) -> list[str]:
    return sorted(name for name, r in REACTIONS.items() if moment in r.moments)


def _next(ctx: Context, point: ReactionPoint, index: int, then: dict[str, Any] | None) -> None:
    names = _subscribed(point.moment)
    if not alive_models(ctx.state["units"][point.unit]):
        carry_on(ctx, then)
        return
    if index < len(names):
        REACTIONS[names[index]].react(
            ctx,
            point,
            {
                "step": "reaction_resolved",
                "point": point.as_dict(),
                "index": index + 1,
                "then": then,
            },
        )
        return
    stratagem_window(
        ctx,
        WINDOW_TRIGGERS[point.moment],
        {"unit": point.unit, "moment": point.moment, "move": point.move},
        then,
    )


@continuation("reaction_resolved")
def _reaction_resolved(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    _next(ctx, ReactionPoint.from_dict(data["point"]), data["index"], data["then"])


def enemy_units_of(state: State, point: ReactionPoint) -> list[Unit]:
    """The units of the other player, in id order (the reacting rules' candidates)."""
    return [
        unit
        for _, unit in sorted(state["units"].items())
        if unit["player"] != point.player and alive_models(unit)
    ]
