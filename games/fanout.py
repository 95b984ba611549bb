"""How a broadcast reaches this process's sockets: one channel-layer message per process and game,
not one per socket.

Each daphne process keeps a registry of its open game sockets (`Fanout.sockets`: game → socket →
audience) and one channel of the channel layer, a member of the group `game.<id>` (`game_group`)
of every game it holds a socket of. A broadcast (games/services.py) is one `group_send` to that
group carrying the text of each audience (spectators, seat 1, seat 2), encoded once; each
process's receiver task hands each of its sockets the text of its audience as it is. The process
that publishes it (`publish`) hands its own sockets their texts first and drops the copy that
comes back.

Before, every socket was a member of its audience's group with a channel of its own: an action
cost three `group_send`s, a channel-layer message per socket (with channels-redis one Redis entry
per process but a decode, a hand-off between coroutines and a hop to Channels' database thread
per socket) and, in the in-memory layer, a deep copy per socket (docs/performance.md, "Fourth
pass").

The registry is the truth about who hears a game here: a socket leaves it synchronously when its
connection ends, whatever happened (`GameConsumer.__call__`), so nothing is sent to a closed
socket; the process leaves the game's group once its last socket of the game is gone, and a
broadcast that finds no socket here (a failed leave) makes it try again. One lock per game orders
joining and leaving the group, so a leave that was late cannot undo a newer join.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import secrets
import weakref
from typing import Any, Protocol

from channels.layers import get_channel_layer

log = logging.getLogger(__name__)

# Seconds the receiver waits before reading again after the channel layer failed (Redis down).
RETRY_AFTER = 1.0
# The message that asks this process's receiver to stop, and how long a leave waits for it to.
STOP = "fanout.stop"
STOP_WAIT = 5.0


class Socket(Protocol):
    """What the registry needs of a connection (games.consumers.GameConsumer)."""

    async def deliver(self, text: str) -> None: ...

    async def spectator_link_changed(self) -> None: ...


def game_group(game_id: int) -> str:
    """The channel-layer group of a game: the processes holding a socket of it."""
    return f"game.{game_id}"


def broadcast_message(game_id: int, texts: dict[int, str], **clock: Any) -> dict[str, Any]:
    """The one channel-layer message of a broadcast: each audience's text, or one text when
    they are the same (lobby news, chat), and `window` (the clock) when the message has one."""
    distinct = set(texts.values())
    message: dict[str, Any] = {"type": "game.broadcast", "game": game_id, **clock}
    if len(distinct) == 1:
        message["text"] = distinct.pop()
    else:
        # Keys of a msgpack map must be text for channels-redis: the audiences go by position.
        message["texts"] = [texts[0], texts[1], texts[2]]
    return message


def notice_message(game_id: int, kind: str) -> dict[str, Any]:
    """A control message to the game's sockets (not relayed to clients)."""
    return {"type": f"game.{kind}", "game": game_id}


class Fanout:
    """One process's sockets by game, on one event loop and one channel layer."""

    def __init__(self, layer: Any, clock: Any = None) -> None:
        self.layer = layer
        self.clock = clock
        self.channel: str | None = None
        self.sockets: dict[int, dict[Socket, int]] = {}
        self._locks: dict[int, tuple[asyncio.Lock, list[int]]] = {}
        self._receiver: asyncio.Task | None = None
        # Marks what this process publishes, so that its receiver knows its own broadcasts when
        # the channel layer brings them back (`publish` handed them to the sockets already).
        self.origin = secrets.token_hex(8)

    # --- membership ------------------------------------------------------------------------

    async def join(self, game_id: int, socket: Socket, audience: int) -> None:
        """From now on `socket` is handed this game's broadcasts for `audience`."""
        self.sockets.setdefault(game_id, {})[socket] = audience
        if self.channel is None:
            channel = await self.layer.new_channel()
            self.channel = self.channel or channel
        self._start()
        async with self._lock(game_id):
            if socket in self.sockets.get(game_id, {}):
                # Every join adds the process again: it refreshes the membership, which
                # channels-redis expires after a day, and restores it after a Redis restart.
                await self.layer.group_add(game_group(game_id), self.channel)

    def forget(self, game_id: int, socket: Socket) -> bool:
        """Nothing more is handed to `socket` (synchronous: it cannot fail). True when it was the
        process's last socket of the game, which should then `leave`."""
        sockets = self.sockets.get(game_id)
        if sockets is None or sockets.pop(socket, None) is None:
            return False
        if sockets:
            return False
        del self.sockets[game_id]
        return True

    async def leave(self, game_id: int) -> None:
        """Leave the game's group if no socket of the game is here any more. Raises what the
        channel layer raised (the caller retries); a later broadcast tries again too."""
        async with self._lock(game_id):
            if game_id in self.sockets or self.channel is None:
                return
            await self.layer.group_discard(game_group(game_id), self.channel)
        if not self.sockets:
            await self._stop()

    async def _leave_quietly(self, game_id: int) -> None:
        try:
            await self.leave(game_id)
        except Exception:  # the layer's own errors vary by backend; the next broadcast retries
            log.warning("leaving game.%s failed", game_id, exc_info=True)

    def _lock(self, game_id: int) -> _GameLock:
        return _GameLock(self._locks, game_id)

    # --- the receiver ----------------------------------------------------------------------

    def _start(self) -> None:
        if self._receiver is None or self._receiver.done():
            self._receiver = asyncio.get_running_loop().create_task(
                self._receive(), name="game-fanout"
            )

    async def _stop(self) -> None:
        """No socket left: the receiver stops (the channel stays, and keeps what arrives
        meanwhile until the next join starts it again), so that the channel layer's receive has
        let go of its locks when the last connection is gone (a test's event loop may close
        right after).

        It is asked to, with a message on its own channel, rather than cancelled: channels-redis
        does not end a receive that is cancelled during its blocking read until the read
        returns, up to the socket timeout later, and the leave (and the socket's refusal after
        it) waited that long. Cancelling stays the last resort, for a layer that cannot take
        the message or a receiver that does not read it."""
        receiver = self._receiver
        if receiver is None or receiver.done() or receiver is asyncio.current_task():
            return
        assert self.channel is not None
        try:
            await self.layer.send(self.channel, {"type": STOP})
            await asyncio.wait({receiver}, timeout=STOP_WAIT)
        except Exception:  # the layer's own errors vary by backend
            log.warning("asking the receiver to stop failed", exc_info=True)
        if receiver.done() or self.sockets:
            return  # stopped, or serving the sockets that joined meanwhile
        receiver.cancel()
        await asyncio.wait({receiver}, timeout=STOP_WAIT)

    async def _receive(self) -> None:
        assert self.channel is not None
        while True:
            try:
                message = await self.layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("reading the channel layer failed", exc_info=True)
                await asyncio.sleep(RETRY_AFTER)
                continue
            if message.get("type") == STOP:
                if not self.sockets:
                    return
                continue  # a socket joined since the last one left
            if message.get("origin") == self.origin:
                continue  # published here: `publish` handed it to this process's sockets
            try:
                await self.dispatch(message)
            except Exception:
                log.exception("handing a broadcast to the sockets failed")

    async def dispatch(self, message: dict[str, Any]) -> None:
        game_id = message["game"]
        sockets = self.sockets.get(game_id)
        if not sockets:
            asyncio.get_running_loop().create_task(self._leave_quietly(game_id))
            return
        kind = message["type"]
        if kind == "game.broadcast":
            if "window" in message and self.clock is not None:
                self.clock.arm(game_id, message["window"], message.get("version"))
            texts = message.get("texts")
            for socket, audience in list(sockets.items()):
                text = message["text"] if texts is None else texts[audience]
                try:
                    await socket.deliver(text)
                except Exception:
                    log.exception("a broadcast to one socket failed", extra={"game_id": game_id})
        elif kind == "game.spectator_link_changed":
            for socket, audience in list(sockets.items()):
                if audience == 0:
                    asyncio.get_running_loop().create_task(socket.spectator_link_changed())
        else:
            log.warning("unknown game message %s", kind)


async def publish(game_id: int, message: dict[str, Any]) -> None:
    """Send a broadcast or a notice to every socket of the game, in every process. This
    process's own sockets of the game are handed it at once, from memory; the game's group on
    the channel layer carries it to the other processes, and back here, where the receiver
    drops it by its `origin`. With channels-redis the way through Redis and back was about 3 ms
    of the 12 ms from an action's frame to its last delivery (docs/performance.md, "Own sockets
    first"). Called on the process's event loop (`async_to_sync` from an action's thread)."""
    layer = get_channel_layer()
    registry = _FANOUTS.get(asyncio.get_running_loop())
    if registry is not None and registry.layer is layer and registry.sockets.get(game_id):
        message = {**message, "origin": registry.origin}
        # In a context of its own, as the receiver's: what the sockets start (a timer, a task)
        # must not inherit the publisher's, which `async_to_sync` marks as inside a blocking call.
        handing = asyncio.get_running_loop().create_task(
            registry.dispatch(message), context=contextvars.Context()
        )
        try:
            await handing
        except Exception:
            log.exception("handing a broadcast to this process's sockets failed")
    await layer.group_send(game_group(game_id), message)


class _GameLock:
    """The lock of one game's membership, dropped from the table once nobody holds or waits for
    it (the table does not grow with every game the process ever served)."""

    def __init__(self, table: dict[int, tuple[asyncio.Lock, list[int]]], game_id: int) -> None:
        self.table = table
        self.game_id = game_id

    async def __aenter__(self) -> None:
        lock, users = self.table.setdefault(self.game_id, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            await lock.acquire()
        except BaseException:
            self._release_user()
            raise

    async def __aexit__(self, *exc: object) -> None:
        self.table[self.game_id][0].release()
        self._release_user()

    def _release_user(self) -> None:
        _, users = self.table[self.game_id]
        users[0] -= 1
        if users[0] == 0:
            del self.table[self.game_id]


# One Fanout per event loop (a daphne process has one; tests open one per test) and per channel
# layer (a test that starts the layer anew gets a new one).
_FANOUTS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Fanout] = weakref.WeakKeyDictionary()


def here(clock: Any = None) -> Fanout:
    """The Fanout of the running event loop and the current channel layer."""
    loop = asyncio.get_running_loop()
    layer = get_channel_layer()
    fanout = _FANOUTS.get(loop)
    if fanout is None or fanout.layer is not layer:
        if fanout is not None and fanout._receiver is not None:
            fanout._receiver.cancel()
        fanout = _FANOUTS[loop] = Fanout(layer, clock)
    return fanout
