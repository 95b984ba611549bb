"""The clock of stratagem windows: when a window's time runs out, and who makes it pass.

A game with a `window_time_limit` stores the deadline of the stratagem window on top of the
engine's decision stack (`Game.window_decision`, `Game.window_deadline`), so the clock survives a
restart. Three things make a window pass when its deadline passes:

1. `ProcessClock`: in every server process that holds a connection to the game, a timer on the
   event loop fires at the deadline and calls `matches.expire_window`, which re-checks the deadline
   under the game's lock, so any number of processes (and connections) may arm a timer for the
   same window: the first passes it, the others find nothing due.
2. At start-up, `tabletop/asgi.py` passes every window already due in a background thread
   (`matches.expire_due_windows_at_start_up`): a deadline that passed while the server was down
   passes when it comes back, whether or not anyone connects.
3. `manage.py expire_windows --every 1` sweeps periodically, for deployments that want a sweeper
   independent of connections; every action message also passes a due window first.
"""

from __future__ import annotations

import asyncio
import contextvars
import datetime
import logging
import weakref
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from games import live_states
from games.models import Game
from rules.engine import pending_window

log = logging.getLogger(__name__)

# A timer fires this long after the deadline, so the check under the lock sees it passed.
LATE_BY_SECONDS = 0.05
# How often a timer tries to pass its window when the attempt fails, and how long it waits between.
FIRE_ATTEMPTS = 3
RETRY_AFTER_SECONDS = 1.0


def set_clock(game: Game, state: dict[str, Any]) -> None:
    """Start the clock when a stratagem window opens on top of the decision stack; stop it when
    the window is answered. The caller saves the game."""
    top = pending_window(state)
    if top is None or not game.window_time_limit:
        game.window_decision = None
        game.window_deadline = None
    elif game.window_decision != top["id"]:
        game.window_decision = top["id"]
        game.window_deadline = timezone.now() + datetime.timedelta(seconds=game.window_time_limit)


def stop_clock(game: Game) -> None:
    game.window_decision = game.window_deadline = None
    game.save(update_fields=["window_decision", "window_deadline", "updated"])


def due_timeout(game: Game, now: datetime.datetime) -> dict[str, Any] | None:
    """The engine's `window_timeout` action for the player whose window's time is up, or None.
    A clock left running for a window no longer on top is stopped."""
    if game.window_deadline is None or game.window_deadline > now:
        return None
    state = live_states.engine_state(game)
    if state is None:
        return None
    top = pending_window(state)
    if top is None or top["id"] != game.window_decision or game.is_over:
        stop_clock(game)
        return None
    return {"type": "window_timeout", "player": top["player"], "decision": top["id"]}


def due_game_ids(now: datetime.datetime) -> list[int]:
    return list(Game.objects.filter(window_deadline__lte=now).values_list("pk", flat=True))


class ProcessClock:
    """The timers of one server process: at most one per game, on the running event loop.

    `expire(game_id)` (a blocking function, run in a worker thread) passes the game's window if
    it is due; the caller gives it, so that this module needs nothing from the match services.
    A deadline already passed (a connection after a restart) fires at once.
    """

    def __init__(self, expire: Callable[[int], bool]) -> None:
        self.expire = expire
        # Each event loop has its own timers (tests run several loops one after the other).
        self._timers: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def arm(self, game_id: int, window: dict[str, Any] | None, version: int | None = None) -> None:
        """Run (or move, or stop) the game's timer for the window the server announced at
        `version`. An announcement older than the one the timer was armed for changes nothing:
        a `hello` read before an action can reach this loop after that action's broadcast, and
        its "no window" must not stop the clock of the window the action opened."""
        loop = asyncio.get_running_loop()
        timers = self._timers.setdefault(loop, {})
        deadline = window.get("deadline") if window else None
        current = timers.get(game_id)
        if current is not None:
            armed_for = current[2]
            if version is not None and armed_for is not None and version < armed_for:
                return
            if current[0] == deadline:
                timers[game_id] = (deadline, current[1], _newer(armed_for, version))
                return
            current[1].cancel()
            del timers[game_id]
        if deadline is None:
            return
        when = parse_datetime(deadline) if isinstance(deadline, str) else deadline
        if when is None:
            return
        delay = max(0.0, (when - timezone.now()).total_seconds()) + LATE_BY_SECONDS
        # The timer belongs to the process, not to what armed it: it runs in a context of its own.
        # Armed by a broadcast published from a blocking call (`fanout.publish` through
        # `async_to_sync`), it would inherit asgiref's mark of that call, and its own call into
        # the database thread would be refused as a deadlock.
        handle = loop.call_later(
            delay,
            lambda: loop.create_task(self._fire(game_id, deadline)),
            context=contextvars.Context(),
        )
        timers[game_id] = (deadline, handle, version)

    async def _fire(self, game_id: int, deadline: str) -> None:
        timers = self._timers.get(asyncio.get_running_loop(), {})
        if timers.get(game_id, (None,))[0] == deadline:
            del timers[game_id]
        # A failure (the database busy or briefly away) is tried again: no other timer of this
        # process would pass the window, and the players would wait for ever.
        for attempt in range(1, FIRE_ATTEMPTS + 1):
            try:
                await database_sync_to_async(self.expire)(game_id)
                return
            except Exception:
                log.exception(
                    "game %s: passing a stratagem window failed (attempt %d of %d)",
                    game_id,
                    attempt,
                    FIRE_ATTEMPTS,
                )
            await asyncio.sleep(RETRY_AFTER_SECONDS)

    def pending(self) -> dict[int, str]:
        """The deadline of each game this event loop's timers wait for (for tests and logs)."""
        timers = self._timers.get(asyncio.get_running_loop(), {})
        return {game_id: entry[0] for game_id, entry in timers.items()}


def _newer(armed_for: int | None, version: int | None) -> int | None:
    if armed_for is None:
        return version
    if version is None:
        return armed_for
    return max(armed_for, version)
