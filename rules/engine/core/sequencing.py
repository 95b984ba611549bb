"""How a sequence carries on after it stopped for a decision: named continuations.

A pending decision's `resume` is `{"step": name, ...data}`; when the answer arrives the engine
calls the continuation registered under that name with the data and the choice. Names (not
closures) keep the state serialisable and replayable; a renamed one keeps its old name in
`saved_games.CONTINUATION_ALIASES` so games saved before still resume.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine.core.events import Context
from rules.engine.core.saved_games import CONTINUATION_ALIASES

Continuation = Callable[[Context, dict[str, Any], Any], None]
CONTINUATIONS: dict[str, Continuation] = {}


def continuation(name: str) -> Callable[[Continuation], Continuation]:
    def register(function: Continuation) -> Continuation:
        if name in CONTINUATIONS:
            raise ValueError(f"continuation {name!r} registered twice")
        CONTINUATIONS[name] = function
        return function

    return register


def resume(ctx: Context, data: dict[str, Any], choice: Any = None) -> None:
    step = data["step"]
    CONTINUATIONS[CONTINUATION_ALIASES.get(step, step)](ctx, data, choice)


def carry_on(ctx: Context, then: dict[str, Any] | None) -> None:
    """Resume `then`, the continuation a rule was handed, when there is one (None: nothing left
    to do after this rule)."""
    if then is not None:
        resume(ctx, then)
