"""The game websocket: who may connect, typed errors for bad input, chat, catching up."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from games.models import Game, GameEvent
from tests.match_world import connect_as, mustering_world, open_socket

pytestmark = pytest.mark.django_db(transaction=True)
make_game = sync_to_async(mustering_world)


async def expect_refusal(communicator: WebsocketCommunicator, code: str) -> None:
    """Refused connections are accepted, told why, then closed with 4403 (docs/protocol.md), so
    the browser can tell a refusal from a dropped network."""
    connected, _ = await communicator.connect()
    assert connected
    error = await communicator.receive_json_from(timeout=5)
    assert (error["type"], error["code"]) == ("error", code)
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4403, "reason": code}


async def test_players_and_spectators_connect_and_strangers_are_refused():
    game, alice, bob, stranger = await make_game()
    seat1, seat2 = connect_as(game, alice), connect_as(game, bob)
    watcher = connect_as(game, spectate=game.spectator_token)
    assert (await open_socket(seat1))["seat"] == 1
    assert (await open_socket(seat2))["seat"] == 2
    hello = await open_socket(watcher)
    assert hello["seat"] is None and hello["game"]["dice_seed"] is None
    for refused in (connect_as(game, stranger), connect_as(game, spectate="wrong-token")):
        await expect_refusal(refused, "forbidden")
    for communicator in (seat1, seat2, watcher):
        await communicator.disconnect()


async def test_chat_reaches_both_players_and_spectators_and_spectators_cannot_talk():
    game, alice, bob, _ = await make_game()
    seat1, seat2 = connect_as(game, alice), connect_as(game, bob)
    watcher = connect_as(game, spectate=game.spectator_token)
    for communicator in (seat1, seat2, watcher):
        await open_socket(communicator)
    await seat1.send_json_to({"type": "chat", "text": "Good luck!"})
    for communicator in (seat1, seat2, watcher):
        message = await communicator.receive_json_from(timeout=5)
        assert message["type"] == "chat"
        assert (message["message"]["author"], message["message"]["text"]) == ("alice", "Good luck!")
    await watcher.send_json_to({"type": "chat", "text": "psst"})
    assert (await watcher.receive_json_from(timeout=5))["code"] == "spectators_read_only"
    assert await seat1.receive_nothing(timeout=0.2)
    for communicator in (seat1, seat2, watcher):
        await communicator.disconnect()


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("not json", "not_json"),
        ("[1, 2]", "not_an_object"),
        ('{"type": "teleport"}', "unknown_type"),
        ('{"type": "sync"}', "missing_field"),
        ('{"type": "sync", "since": "three"}', "invalid_field"),
        ('{"type": "sync", "since": true}', "invalid_field"),
        ('{"type": "sync", "since": NaN}', "not_finite"),
        ("x" * 70000, "too_large"),
    ],
)
async def test_bad_input_gets_a_typed_error_and_the_connection_stays_usable(frame, code):
    game, alice, _, _ = await make_game()
    seat1 = connect_as(game, alice)
    await open_socket(seat1)
    await seat1.send_to(text_data=frame)
    error = await seat1.receive_json_from(timeout=5)
    assert (error["type"], error["code"]) == ("error", code)
    await seat1.send_json_to({"type": "sync", "since": 0})
    assert (await seat1.receive_json_from(timeout=5))["type"] == "events"
    await seat1.disconnect()


async def test_a_reconnecting_client_receives_exactly_the_events_it_missed():
    game, alice, _, _ = await make_game()

    @sync_to_async
    def append_events(count: int) -> None:
        for sequence in range(1, count + 1):
            GameEvent.objects.create(
                game=game, sequence=sequence, kind="test", payload={"n": sequence}
            )
        Game.objects.filter(pk=game.pk).update(version=count)

    await append_events(5)
    seat1 = connect_as(game, alice)
    assert (await open_socket(seat1))["game"]["version"] == 5
    await seat1.send_json_to({"type": "sync", "since": 2})
    reply = await seat1.receive_json_from(timeout=5)
    assert reply["version"] == 5
    assert [event["sequence"] for event in reply["events"]] == [3, 4, 5]
    await seat1.disconnect()
