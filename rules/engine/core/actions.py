"""Action kinds, declared by the module whose rules they are; the generic dispatcher
(`sequence/game.py`) reads the declarations and names no phase.

- Each phase module declares one `PhaseActions`: its action kinds and their handlers, a player's
  legal actions (templates), why the phase may not end yet, whether `end_phase` is offered, and
  who selects (default: the player whose turn it is). The battle sequence lists the phase modules
  in the order of the turn (`sequence/game.py` `PHASES`).
- The stratagem windows declare the actions of any phase (`declare_anytime`): actions accepted
  whatever decision is waiting (standing choices, a window's timeout), actions of the player the
  game waits for in any phase (`use_stratagem`), the legal actions they add after the phase's and
  the rules' own, and the decision kind that is a stratagem window (`pending_window`).
- Rules of a faction or a detachment add actions to a phase through the keyed hook
  `standing_rules.PHASE_ACTIONS` and legal actions through `standing_rules.LEGAL_ACTIONS`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import State

Handler = Callable[[Context, dict[str, Any]], None]
Legal = Callable[[State, int], list[dict[str, Any]]]


def _may_end(_state: State) -> Refusal | None:
    return None


def _offers_end(_state: State) -> bool:
    return True


@dataclass(frozen=True)
class PhaseActions:
    """What a phase declares: `actions` (kind -> handler), `legal_actions(state, player)` (the
    phase's own templates, before the rules' and the stratagems'), `may_not_end(state)` (the
    refusal of `end_phase` now, or None), `offers_end(state)` (whether `end_phase` is among the
    active player's legal actions) and `selecting_player(state)` (who acts in the phase when it is
    not simply the player whose turn it is; None: nobody is selecting)."""

    phase: str
    actions: Mapping[str, Handler]
    legal_actions: Legal
    may_not_end: Callable[[State], Refusal | None] = _may_end
    offers_end: Callable[[State], bool] = _offers_end
    selecting_player: Callable[[State], int | None] | None = None


@dataclass
class AnytimeActions:
    """The actions the stratagem windows declare (see the module's docstring)."""

    meta: dict[str, Handler] = field(default_factory=dict)
    any_phase: dict[str, Handler] = field(default_factory=dict)
    legal: list[Legal] = field(default_factory=list)
    window_kinds: set[str] = field(default_factory=set)


ANYTIME = AnytimeActions()


def declare_anytime(
    *,
    meta: dict[str, Handler],
    any_phase: dict[str, Handler],
    legal: Legal,
    window_kind: str,
) -> None:
    for name, handler in (*meta.items(), *any_phase.items()):
        if ANYTIME.meta.get(name, handler) is not handler or (
            ANYTIME.any_phase.get(name, handler) is not handler
        ):
            raise ValueError(f"action {name!r} declared twice")
    ANYTIME.meta.update(meta)
    ANYTIME.any_phase.update(any_phase)
    if legal not in ANYTIME.legal:
        ANYTIME.legal.append(legal)
    ANYTIME.window_kinds.add(window_kind)
