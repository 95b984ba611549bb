"""Events: what happened, in order, as plain dicts. The game is its event log.

Every event has a `type`, the state `version` it belongs to and whatever the type needs. A
`Context` collects the events of one action while the rules change the (copied) state.
"""

from __future__ import annotations

from typing import Unpack

from rules.engine.core.dice import DiceStream
from rules.engine.core.shapes import Event, EventFields
from rules.engine.core.state import State


class Context:
    """One action being applied: the working copy of the state, its dice and its events."""

    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[Event] = []
        self.dice = DiceStream(state["dice"]["seed"], state["dice"]["next_index"])

    def emit(self, event_type: str, **fields: Unpack[EventFields]) -> Event:
        event: Event = {"type": event_type, "version": self.state["version"], **fields}
        self.events.append(event)
        return event

    def sync_dice(self) -> None:
        self.state["dice"]["next_index"] = self.dice.next_index
