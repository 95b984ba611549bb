"""What every stratagem implementation provides, and the registry the engine reads.

An implementation names its legal targets for a window (`targets(state, player, window)`: unit
ids; the generic restrictions live in `rules.engine.stratagems`), optionally extra choices per
target (`choices(state, player, window, target)`: dicts merged into the option, e.g. the enemy unit
Explosives throws at), and resolves the stratagem (`resolve(ctx, use, then)`), resuming `then`
(a named continuation, or None) when it is done, possibly after decisions of its own.

`window` is the timing point as data: `trigger`, `phase`, and what the trigger is about
(`unit`: the unit the trigger concerns, `targets`: the targets it selected, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rules.engine.core.events import Context
from rules.engine.core.sequencing import continuation
from rules.engine.core.state import State


@dataclass(frozen=True)
class Use:
    """One use of a stratagem: who, which, on what, at which window, with which extra choices."""

    slug: str
    player: int
    target: str | None
    window: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def target_unit(self) -> str:
        """The target, for a stratagem whose TARGET is a unit (checked when it was offered)."""
        assert self.target is not None
        return self.target

    def as_dict(self) -> dict[str, Any]:
        return {
            "stratagem": self.slug,
            "player": self.player,
            "target": self.target,
            "window": self.window,
            "extra": self.extra,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Use:
        return cls(data["stratagem"], data["player"], data["target"], data["window"], data["extra"])


Targets = Callable[[State, int, dict[str, Any]], list[str]]
Choices = Callable[[State, int, dict[str, Any], str], list[dict[str, Any]]]
Resolve = Callable[[Context, Use, "dict[str, Any] | None"], None]


def no_choices(_state: State, _player: int, _window: dict[str, Any], _target: str) -> list:
    return [{}]


def no_extra_cost(_extra: dict[str, Any]) -> int:
    return 0


@dataclass(frozen=True)
class Implementation:
    slug: str
    targets: Targets
    resolve: Resolve
    choices: Choices = no_choices
    # CP added by an extra choice (Heroic Intervention's Into the Fray: +1CP).
    extra_cost: Callable[[dict[str, Any]], int] = no_extra_cost
    # The stratagem says it may target its controller's battle-shocked unit (e.g. Boarding
    # Actions Insane Bravery).
    ignores_battle_shock: bool = False


IMPLEMENTATIONS: dict[str, Implementation] = {}


def implements(
    *slugs: str,
    targets: Targets,
    choices: Choices = no_choices,
    ignores_battle_shock: bool = False,
    extra_cost: Callable[[dict[str, Any]], int] = no_extra_cost,
) -> Callable[[Resolve], Resolve]:
    """Register `resolve` as the implementation of the stratagems `slugs`."""

    def register(resolve: Resolve) -> Resolve:
        for slug in slugs:
            if slug in IMPLEMENTATIONS:
                raise ValueError(f"stratagem {slug!r} implemented twice")
            IMPLEMENTATIONS[slug] = Implementation(
                slug, targets, resolve, choices, extra_cost, ignores_battle_shock
            )
        return resolve

    return register


@continuation("stratagem_resolved")
def _resolved(_ctx: Context, _data: dict[str, Any], _choice: Any) -> None:
    """Nothing follows: a stratagem used as an action has resolved."""
