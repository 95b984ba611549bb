"""How a broadcast reaches a process's sockets (games/fanout.py): one channel-layer message per
process and game, handed to every socket of the game; the registry and the group membership
cleaned however a connection ends; broadcasts that come before `hello` follow it."""

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer

from games import fanout, messages, selectors, services
from games.consumers import GameConsumer
from games.models import Game
from tests.match_world import TIMEOUT, connect_as, mustering_world, open_socket

pytestmark = pytest.mark.django_db(transaction=True)
make_game = sync_to_async(mustering_world)


async def group_members(game_id: int) -> int:
    layer = get_channel_layer()
    group = fanout.game_group(game_id)
    if hasattr(layer, "groups"):  # the in-memory layer
        return len(layer.groups.get(group, {}))
    connection = layer.connection(layer.consistent_hash(group))
    return await connection.zcard(layer._group_key(group))


async def wait_for(condition, seconds: float = TIMEOUT) -> None:
    for _ in range(int(seconds / 0.05)):
        if await condition():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the condition never held")


async def test_a_broadcast_is_one_message_for_the_process_whatever_the_sockets(monkeypatch):
    game, alice, bob, _ = await make_game()
    sockets = [connect_as(game, alice), connect_as(game, bob)]
    sockets += [connect_as(game, spectate=game.spectator_token) for _ in range(4)]
    for communicator in sockets:
        await open_socket(communicator)
    assert await group_members(game.pk) == 1  # the process, not its six sockets
    handed: list[dict] = []
    dispatch = fanout.Fanout.dispatch

    async def counted(self, message):
        handed.append(message)
        await dispatch(self, message)

    monkeypatch.setattr(fanout.Fanout, "dispatch", counted)
    await sockets[0].send_json_to({"type": "chat", "text": "Good luck!"})
    for communicator in sockets:
        message = await communicator.receive_json_from(timeout=TIMEOUT)
        assert (message["type"], message["message"]["text"]) == ("chat", "Good luck!")
    assert [m["type"] for m in handed] == ["game.broadcast"]
    for communicator in sockets:
        await communicator.disconnect()
    assert fanout.here().sockets.get(game.pk) is None
    await wait_for(lambda: _no_members(game.pk))


async def _no_members(game_id: int) -> bool:
    return await group_members(game_id) == 0


async def test_each_audience_gets_its_own_text():
    game, alice, bob, _ = await make_game()
    seat1, seat2 = connect_as(game, alice), connect_as(game, bob)
    watcher = connect_as(game, spectate=game.spectator_token)
    for communicator in (seat1, seat2, watcher):
        await open_socket(communicator)
    texts = {
        audience: messages.encode(messages.chat({"text": f"to {audience}"}))
        for audience in messages.AUDIENCES
    }
    await get_channel_layer().group_send(
        fanout.game_group(game.pk), fanout.broadcast_message(game.pk, texts)
    )
    for communicator, audience in ((seat1, 1), (seat2, 2), (watcher, 0)):
        message = await communicator.receive_json_from(timeout=TIMEOUT)
        assert message["message"]["text"] == f"to {audience}"
    for communicator in (seat1, seat2, watcher):
        await communicator.disconnect()


async def test_a_connection_that_fails_leaves_the_registry_and_the_group(monkeypatch):
    game, alice, bob, _ = await make_game()
    seat1 = connect_as(game, alice)
    await open_socket(seat1)
    assert await group_members(game.pk) == 1

    async def broken(self, text_data=None, bytes_data=None):
        raise RuntimeError("a handler that escapes the consumer's own error handling")

    monkeypatch.setattr(GameConsumer, "receive", broken)
    await seat1.send_json_to({"type": "chat", "text": "boom"})
    with pytest.raises(RuntimeError):
        await seat1.receive_output(timeout=TIMEOUT)
    assert fanout.here().sockets.get(game.pk) is None
    await wait_for(lambda: _no_members(game.pk))
    # The game's broadcasts go on reaching the sockets opened afterwards.
    monkeypatch.undo()
    seat2 = connect_as(game, bob)
    await open_socket(seat2)
    await sync_to_async(_chat)(game.pk, bob, "still here")
    assert (await seat2.receive_json_from(timeout=TIMEOUT))["message"]["text"] == "still here"
    await seat2.disconnect()


def _chat(game_id: int, user, text: str) -> None:
    services.post_chat(Game.objects.get(pk=game_id), user, text)


async def test_own_sockets_have_a_broadcast_before_the_channel_layer_brings_it_back(monkeypatch):
    """A broadcast published in this process is handed to its sockets of the game at once; the
    copy the channel layer brings back (for the other processes) is not handed to them again."""
    game, alice, bob, _ = await make_game()
    seat1, watcher = connect_as(game, alice), connect_as(game, spectate=game.spectator_token)
    for communicator in (seat1, watcher):
        await open_socket(communicator)
    layer = get_channel_layer()
    group_send = layer.group_send
    round_trip = asyncio.Event()

    async def slow_group_send(group, message):
        await asyncio.sleep(1.5)  # a busy Redis
        await group_send(group, message)
        round_trip.set()

    monkeypatch.setattr(layer, "group_send", slow_group_send)
    posting = asyncio.ensure_future(sync_to_async(_chat)(game.pk, bob, "quick"))
    for communicator in (seat1, watcher):
        message = await communicator.receive_json_from(timeout=1.0)
        assert message["message"]["text"] == "quick"
    await asyncio.wait_for(round_trip.wait(), TIMEOUT)
    await posting
    await asyncio.sleep(0.3)  # the receiver has read the copy that came back
    for communicator in (seat1, watcher):
        assert await communicator.receive_nothing(timeout=0.3)
    # A broadcast published by another process still reaches them through the channel layer.
    monkeypatch.undo()
    text = messages.encode(messages.chat({"text": "from elsewhere"}))
    await group_send(
        fanout.game_group(game.pk), fanout.broadcast_message(game.pk, {0: text, 1: text, 2: text})
    )
    for communicator in (seat1, watcher):
        message = await communicator.receive_json_from(timeout=TIMEOUT)
        assert message["message"]["text"] == "from elsewhere"
    for communicator in (seat1, watcher):
        await communicator.disconnect()


async def test_broadcasts_that_come_before_hello_follow_it(monkeypatch):
    game, alice, _, _ = await make_game()
    hello = selectors.hello

    def hello_after_a_broadcast(game_id, seat):
        # A broadcast reaches the process while the socket's hello is being read.
        text = messages.encode(messages.chat({"text": "meanwhile"}))
        async_to_sync(get_channel_layer().group_send)(
            fanout.game_group(game_id),
            fanout.broadcast_message(game_id, dict.fromkeys(messages.AUDIENCES, text)),
        )
        return hello(game_id, seat)

    monkeypatch.setattr(selectors, "hello", hello_after_a_broadcast)
    seat1 = connect_as(game, alice)
    first = await open_socket(seat1)
    assert first["type"] == "hello"
    after = await seat1.receive_json_from(timeout=TIMEOUT)
    assert (after["type"], after["message"]["text"]) == ("chat", "meanwhile")
    await seat1.disconnect()


class SlowToCancelLayer:
    """A channel layer whose receive, like channels-redis's blocking read, does not end when it
    is cancelled until its read returns (`read_seconds` later)."""

    def __init__(self, read_seconds: float) -> None:
        self.read_seconds = read_seconds
        self.queues: dict[str, asyncio.Queue] = {}
        self.groups: dict[str, set[str]] = {}

    def _queue(self, channel: str) -> asyncio.Queue:
        return self.queues.setdefault(channel, asyncio.Queue())

    async def new_channel(self) -> str:
        return "process!one"

    async def group_add(self, group: str, channel: str) -> None:
        self.groups.setdefault(group, set()).add(channel)

    async def group_discard(self, group: str, channel: str) -> None:
        self.groups.get(group, set()).discard(channel)

    async def send(self, channel: str, message: dict) -> None:
        self._queue(channel).put_nowait(message)

    async def group_send(self, group: str, message: dict) -> None:
        for channel in self.groups.get(group, set()):
            self._queue(channel).put_nowait(message)

    async def receive(self, channel: str) -> dict:
        read = asyncio.ensure_future(self._queue(channel).get())
        try:
            return await asyncio.shield(read)
        except asyncio.CancelledError:
            await asyncio.sleep(self.read_seconds)
            read.cancel()
            raise


class Heard:
    def __init__(self) -> None:
        self.texts: list[str] = []

    async def deliver(self, text: str) -> None:
        self.texts.append(text)

    async def spectator_link_changed(self) -> None:
        pass


async def test_the_last_socket_leaving_stops_the_receiver_without_waiting_on_a_blocking_read():
    """channels-redis does not end a cancelled receive until its blocking read returns: the
    process's receiver is asked to stop with a message instead, so a leave (and a spectator's
    refusal after it) does not wait for the read, and the next socket hears the game again."""
    registry = fanout.Fanout(SlowToCancelLayer(read_seconds=30))
    first = Heard()
    await registry.join(7, first, 0)
    assert registry.forget(7, first)
    await asyncio.wait_for(registry.leave(7), 2)
    assert registry._receiver.done()
    second = Heard()
    await registry.join(7, second, 0)
    await registry.layer.group_send(
        fanout.game_group(7), fanout.broadcast_message(7, {0: "a", 1: "a", 2: "a"})
    )
    await wait_for_async(lambda: second.texts == ["a"])
    assert first.texts == []
    assert registry.forget(7, second)
    await asyncio.wait_for(registry.leave(7), 2)


async def test_a_socket_that_joins_while_the_receiver_is_asked_to_stop_keeps_it_running():
    registry = fanout.Fanout(SlowToCancelLayer(read_seconds=30))
    first, second = Heard(), Heard()
    await registry.join(8, first, 0)
    registry.forget(8, first)
    await registry.layer.group_discard(fanout.game_group(8), registry.channel)
    await registry.layer.send(registry.channel, {"type": fanout.STOP})
    await registry.join(8, second, 1)  # before the receiver reads the stop
    await asyncio.sleep(0.05)
    assert not registry._receiver.done()
    await registry.layer.group_send(
        fanout.game_group(8), fanout.broadcast_message(8, {0: "x", 1: "y", 2: "z"})
    )
    await wait_for_async(lambda: second.texts == ["y"])
    registry.forget(8, second)
    await asyncio.wait_for(registry.leave(8), 2)
    assert registry._receiver.done()


async def wait_for_async(condition, seconds: float = TIMEOUT) -> None:
    async def held() -> bool:
        return condition()

    await wait_for(held, seconds)
