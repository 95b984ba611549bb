"""Named timing points of the battle sequence and the rules subscribed to them, in explicit order.

"At the start of the battle round", "at the start of any phase", "at the end of the phase",
"at the end of your opponent's turn"...: the sequence reaches a point with `reach(ctx, POINT,
data, then)`; every subscriber runs in ascending `order` (ties refused), then `then` resumes.
A subscriber is either

- immediate, `@at(POINT, order)`: `(ctx, data) -> None`, it records or changes something and
  returns; or
- resuming, `@at(POINT, order, resumes=True)`: `(ctx, data, then) -> None`, it may roll dice or
  ask decisions and must resume `then` (or leave it to the decision it pushed) exactly once.

The last subscriber is handed the caller's `then` itself; earlier resuming subscribers are handed
`{"step": "timing_point_next", ...}`, which carries on with the next. Where a rule needs the
timing point of a move or a set-up, `core/reactions.py` announces it; the stratagem windows of a
point are the window module's subscription (`stratagems/windows.py`). Subscribers and their order
are pinned by `tests/test_engine_snapshot.py`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.engine.core.events import Context
from rules.engine.core.hooks import qualified_name
from rules.engine.core.sequencing import carry_on, continuation, resume


@dataclass(frozen=True)
class Subscriber:
    order: int
    name: str
    function: Callable[..., None]
    resumes: bool


@dataclass
class TimingPoint:
    name: str
    description: str
    subscribers: list[Subscriber] = field(default_factory=list)

    def order(self) -> list[str]:
        return [f"{s.order} {s.name}" for s in self.subscribers]


POINTS: dict[str, TimingPoint] = {}


def timing_point(name: str, description: str) -> TimingPoint:
    if name in POINTS:
        raise ValueError(f"timing point {name!r} declared twice")
    declared = POINTS[name] = TimingPoint(name, description)
    return declared


def at(point: TimingPoint, order: int, resumes: bool = False) -> Callable[[Any], Any]:
    """Subscribe the decorated rule to `point` at `order`."""

    def register(function: Callable[..., None]) -> Callable[..., None]:
        if any(s.order == order for s in point.subscribers):
            raise ValueError(f"timing point {point.name}: order {order} is taken")
        point.subscribers.append(Subscriber(order, qualified_name(function), function, resumes))
        point.subscribers.sort(key=lambda s: s.order)
        return function

    return register


def reach(
    ctx: Context, point: TimingPoint, data: dict[str, Any], then: dict[str, Any] | None
) -> None:
    """Run the point's subscribers in order, then resume `then` (when it is not None)."""
    _run(ctx, point, 0, data, then)


def _run(
    ctx: Context,
    point: TimingPoint,
    index: int,
    data: dict[str, Any],
    then: dict[str, Any] | None,
) -> None:
    subscribers = point.subscribers
    while index < len(subscribers):
        subscriber = subscribers[index]
        index += 1
        if not subscriber.resumes:
            subscriber.function(ctx, data)
            continue
        if index == len(subscribers):
            subscriber.function(ctx, data, then)
            return
        following = {
            "step": "timing_point_next",
            "point": point.name,
            "index": index,
            "data": data,
            "then": then,
        }
        subscriber.function(ctx, data, following)
        return
    carry_on(ctx, then)


@continuation("timing_point_next")
def _timing_point_next(ctx: Context, data: dict[str, Any], _choice: Any) -> None:
    _run(ctx, POINTS[data["point"]], data["index"], data["data"], data["then"])


def timing_order() -> dict[str, list[str]]:
    """Every timing point and its subscribers in the order they run (resuming ones marked)."""
    return {
        name: [f"{s.order} {s.name}" + (" (resumes)" if s.resumes else "") for s in p.subscribers]
        for name, p in sorted(POINTS.items())
    }


# --- the points of the battle sequence ---------------------------------------------------------

BATTLE_ROUND_STARTED = timing_point(
    "battle_round_started",
    "07.01 the start of the battle round, before the first turn (`data`: {})",
)
PHASE_STARTED = timing_point(
    "phase_started",
    "the start of a phase, just after `phase_started` is emitted (`data`: {phase})",
)
PHASE_START_ABILITIES_RESOLVED = timing_point(
    "phase_start_abilities_resolved",
    "the start of a phase, once the abilities used at its start are chosen, before its stratagem "
    "window (`data`: {phase}; Summary Execution, rulings R-IA-05)",
)
BATTLE_SHOCK_STEP_ENDED = timing_point(
    "battle_shock_step_ended",
    "the active player's Command phase, after the Battle-shock step (`data`: {})",
)
PHASE_ENDING = timing_point(
    "phase_ending",
    "the end of the phase, after its stratagem window, before objective control (`data`: {})",
)
TURN_ENDING = timing_point(
    "turn_ending",
    "the end of a turn, after coherency and objective control, before end-of-turn effects "
    "expire (`data`: {player: the player whose turn it is not})",
)

CHARGE_ENDED = timing_point(
    "charge_ended",
    "a unit's charge in the Charge phase is over: its charge move ended (before the window "
    "after it), or it made none (the charge failed or was declined, or the unit was destroyed "
    "before its roll) (`data`: {unit, moved}; 10e Hazardous after Fire Overwatch, R-ENG-17)",
)

# --- the stratagem windows ---------------------------------------------------------------------

# The stratagem trigger vocabulary: the `when.trigger` of every stratagem of the rules data
# (docs/rules-data-format.md). This is the one list: the public face exports it, and the rules
# data's vocabulary (`rules.vocabulary`) and its tests read it from there. A window opened with
# any other trigger is a bug and fails at once; the order is the one the admin's choices show.
STRATAGEM_TRIGGERS: tuple[str, ...] = (
    "phase_start",
    "phase_end",
    "battle_shock_before_roll",
    "battle_shock_after_fail",
    "unit_selected_to_shoot",
    "unit_selected_to_fight",
    "enemy_unit_selected_targets",
    "enemy_unit_shot",
    "enemy_unit_fought",
    "enemy_unit_resolved_attacks",
    "charge_declared",
    "enemy_charge_declared",
    "charge_move_ended",
    "enemy_move_started_or_ended",
    "enemy_unit_set_up",
    "after_roll",
    "unit_destroyed",
    "unit_targeted",
    "fight_step",
    "reinforcements_step",
    "any_time",
)
WINDOW_TRIGGERS = frozenset(STRATAGEM_TRIGGERS)

STRATAGEM_WINDOW = timing_point(
    "stratagem_window",
    "a point where players may use stratagems (`data`: {triggers, about, players}); the window "
    "module subscribes",
)
AFTER_ROLL = timing_point(
    "after_roll",
    "just after a roll made for a unit (`data`: {roll}); `then` resumes with `roll`, the roll as "
    "it stands after any re-roll",
)
UNITS_DESTROYED_BY_ATTACKS = timing_point(
    "units_destroyed_by_attacks",
    "once an attacking unit has resolved its attacks, for the units they destroyed (`data`: "
    "{destroyed: [{unit, fallen}], attacker})",
)


def check_triggers(triggers: list[str]) -> None:
    unknown = sorted(set(triggers) - WINDOW_TRIGGERS)
    if unknown:
        raise ValueError(f"stratagem window triggers not in the vocabulary: {unknown}")


def stratagem_window(
    ctx: Context,
    triggers: str | list[str],
    about: dict[str, Any] | None = None,
    then: dict[str, Any] | None = None,
    players: list[int] | None = None,
) -> None:
    """The stratagem window(s) of this timing point; `then` resumes once every player passed."""
    triggers = [triggers] if isinstance(triggers, str) else list(triggers)
    check_triggers(triggers)
    reach(ctx, STRATAGEM_WINDOW, {"triggers": triggers, "about": about, "players": players}, then)


def after_roll(ctx: Context, record: dict[str, Any], then: dict[str, Any]) -> None:
    if not AFTER_ROLL.subscribers:
        resume(ctx, {**then, "roll": record})
        return
    reach(ctx, AFTER_ROLL, {"roll": record}, then)


def units_destroyed_by_attacks(
    ctx: Context, destroyed: list[dict[str, Any]], attacker: str, then: dict[str, Any] | None
) -> None:
    reach(ctx, UNITS_DESTROYED_BY_ATTACKS, {"destroyed": destroyed, "attacker": attacker}, then)
