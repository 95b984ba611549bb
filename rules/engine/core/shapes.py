"""Typed shapes of what the state stores, for mypy (`make test`): a pending decision and a
persisting effect. At run time they are plain dicts, so saved games and the JSON log are
unchanged. The state, its units and models are still `dict[str, Any]` (`State`); their keys are
documented in docs/engine.md ("State")."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict


class Decision(TypedDict):
    """A pending decision (`core/decisions.py`): only the top one of `state["pending"]` answers."""

    id: str
    player: int
    kind: str
    options: list[Any] | dict[str, Any]
    resume: dict[str, Any]
    rule: str
    prompt: str
    time_limit_seconds: NotRequired[int]


class EffectStart(TypedDict):
    battle_round: int
    active_player: int | None
    phase: str | None
    player: int


class Effect(TypedDict):
    """A persisting effect (`core/effects.py`, 01.02.02)."""

    id: str
    source: str
    selector: dict[str, Any]
    modifier: dict[str, Any]
    duration: str
    started_at: EffectStart
