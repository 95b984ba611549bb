"""Scripted dice: the test-only dice source (docs/engine.md "Position set-up").

    with scripted_dice(3, 5, 1):
        state, events = play(state, action)

Inside the block every die the engine draws from the game's `DiceStream` is the next scripted
value, in order (the stream's index still advances, so events keep their indices). Rolling more
dice than scripted fails at once; leaving scripted dice unrolled fails when the block ends: a
scenario states exactly the dice it depends on. Games never use this: outside tests the dice are
the committed seed's (`rules.engine.core.dice`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from rules.engine.core.dice import DiceStream


class DiceScriptError(AssertionError):
    pass


@contextmanager
def scripted_dice(*values: int) -> Iterator[list[int]]:
    queue = list(values)

    def roll(self: DiceStream, count: int = 1, sides: int = 6) -> list[int]:
        if len(queue) < count:
            raise DiceScriptError(
                f"the engine rolled {count} D{sides} but only {len(queue)} scripted dice remain"
            )
        taken, queue[:count] = queue[:count], []
        for value in taken:
            if not 1 <= value <= sides:
                raise DiceScriptError(f"a D{sides} cannot show {value}")
        self.next_index += count
        return taken

    with mock.patch.object(DiceStream, "roll", roll):
        yield queue
    if queue:
        raise DiceScriptError(f"scripted dice never rolled: {queue}")
