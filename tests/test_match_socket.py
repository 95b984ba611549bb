"""Online matches over the game websocket: from mustering to the first move, with both players and
a spectator seeing the same events; stale, foreign and resent actions; reconnection; a restart."""

from __future__ import annotations

import itertools

import jsonpatch
import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator

from games import hellos as hello_texts
from games import live_states
from games.models import ClientAction, Game, GameEvent
from rules.engine.core.state import state_hash
from rules.engine.sequence.replay import game_log, replay
from tests import match_world
from tests.match_world import TIMEOUT, connect_as, next_of, open_socket

pytestmark = pytest.mark.django_db(transaction=True)
_ids = itertools.count(1)
world = sync_to_async(match_world.mustering_world)
pick_armies = sync_to_async(match_world.pick_armies)


@sync_to_async
def reload(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


class Table:
    """Two players and a spectator at one game, and what each has seen."""

    def __init__(self, game: Game, alice, bob) -> None:
        self.game = game
        self.seats = {1: connect_as(game, alice), 2: connect_as(game, bob)}
        self.spectator = connect_as(game, spectate=game.spectator_token)
        self.version = 0
        self.state: dict | None = None
        self.legal: dict[int, list] = {1: [], 2: []}

    @property
    def everyone(self) -> list[WebsocketCommunicator]:
        return [self.seats[1], self.seats[2], self.spectator]

    async def open(self) -> list[dict]:
        return [await open_socket(communicator) for communicator in self.everyone]

    async def close(self) -> None:
        for communicator in self.everyone:
            await communicator.disconnect()

    async def receive_events(self, sender: int | None = None) -> dict:
        """The `events` broadcast, the same for all three apart from each seat's legal actions;
        the sender's `accepted` (which may come before or after it) is kept in `self.answer`.
        Its patch is applied to the state the table had (the state at `since`)."""
        received = []
        for seat, communicator in zip((1, 2, None), self.everyone, strict=True):
            if seat is not None and seat == sender:
                first = await next_of(communicator, "events", "accepted")
                second = await next_of(
                    communicator, "accepted" if first["type"] == "events" else "events"
                )
                events, self.answer = (
                    (first, second) if first["type"] == "events" else (second, first)
                )
                received.append(events)
            else:
                received.append(await next_of(communicator, "events"))
        shared = [{k: v for k, v in m.items() if k != "legal_actions"} for m in received]
        assert shared[0] == shared[1] == shared[2]
        assert "legal_actions" not in received[2]
        assert received[0]["since"] == self.version
        assert "state" not in received[0]
        self.state = jsonpatch.apply_patch(self.state, received[0]["patch"])
        assert self.state["dice"].keys() == {"next_index"}
        self.version = received[0]["version"]
        self.legal = {1: received[0]["legal_actions"], 2: received[1]["legal_actions"]}
        return received[0]

    def acting_seat(self) -> int:
        acting = [seat for seat in (1, 2) if self.legal[seat]]
        assert len(acting) == 1, self.legal
        return acting[0]

    async def send(self, seat: int, action: dict, version: int | None = None) -> dict:
        client_id = f"c{next(_ids)}"
        await self.seats[seat].send_json_to(
            {
                "type": "action",
                "version": self.version if version is None else version,
                "client_id": client_id,
                "action": action,
            }
        )
        return await next_of(self.seats[seat], "accepted", "refused")

    async def act(self, seat: int, action: dict) -> dict:
        """An accepted action: the sender's `accepted` and everyone's `events`."""
        client_id = f"c{next(_ids)}"
        message = {"type": "action", "version": self.version, "client_id": client_id}
        await self.seats[seat].send_json_to({**message, "action": action})
        before = self.version
        events = await self.receive_events(sender=seat)
        assert self.answer == {"type": "accepted", "client_id": client_id, "version": self.version}
        assert events["since"] == before and events["version"] > before
        return events


def formation(state: dict, unit_id: str, x: float, y: float, dy: float) -> dict:
    models = [m for m in state["units"][unit_id]["models"] if m["wounds_left"] > 0]
    return {m["id"]: [x + (i % 5) * 2.0, y + (i // 5) * dy, 0.0] for i, m in enumerate(models)}


def deployment_positions(state: dict, seat: int, unit_id: str) -> dict:
    return formation(state, unit_id, 20.0, 4.0 if seat == 1 else 40.0, 2.0 if seat == 1 else -2.0)


def moved_forward(state: dict, seat: int, unit_id: str, inches: float) -> dict:
    step = inches if seat == 1 else -inches
    return {
        m["id"]: [m["x"], m["y"] + step, m["facing"]]
        for m in state["units"][unit_id]["models"]
        if m["wounds_left"] > 0
    }


async def play_to_deployment(table: Table) -> None:
    """Both declare no reserves (Declare Reserves, player 1 then 2)."""
    for seat in (1, 2):
        assert table.acting_seat() == seat
        await table.act(seat, {"type": "declare_reserves", "units": []})
    assert table.state["stage"] == "deployment"


async def deploy_all(table: Table) -> None:
    while table.state["stage"] == "deployment":
        seat = table.acting_seat()
        template = table.legal[seat][0]
        assert template["type"] == "deploy"
        unit = template["unit"]
        positions = deployment_positions(table.state, seat, unit)
        await table.act(seat, {"type": "deploy", "unit": unit, "positions": positions})


async def pass_the_windows(table: Table) -> None:
    """Pass every stratagem window open now (Inspired Command, 11e Fire Overwatch, ...)."""
    while table.state["pending"] and table.state["pending"][-1]["kind"] == "stratagem_window":
        seat = table.acting_seat()
        (passing,) = [a for a in table.legal[seat] if a.get("choice") == "pass"]
        await table.act(seat, {k: v for k, v in passing.items() if k != "player"})


async def test_the_opening_from_mustering_to_the_first_move_seen_alike_by_all():
    game, alice, bob, _ = await world()
    table = Table(game, alice, bob)
    hellos = await table.open()
    assert [h["status"] for h in hellos] == ["mustering"] * 3
    assert hellos[0]["state"] is None and hellos[0]["legal_actions"] == []

    await pick_armies(game, alice, bob)
    created = await table.receive_events()
    assert [e["kind"] for e in created["events"]] == ["game_created"]
    assert created["status"] == "deployment"
    assert (await reload(game)).status == "deployment"
    assert table.state["stage"] == "declare_reserves"

    await play_to_deployment(table)
    await deploy_all(table)
    # Determine First Turn: the roll-off winner chooses (the roll is in the log).
    assert table.state["stage"] == "first_turn"
    winner = table.acting_seat()
    (choice,) = [a for a in table.legal[winner] if a["choice"] == "first"]
    decided = await table.act(winner, {k: v for k, v in choice.items() if k != "player"})
    assert "first_turn_decided" in [e["kind"] for e in decided["events"]]
    assert decided["status"] == "battle"
    assert (await reload(game)).status == "battle"

    # The opponent may be asked first: a stratagem window at the start of the Command phase
    # (Inspired Command); they pass.
    await pass_the_windows(table)
    # The first player ends the Command phase and moves a unit 3" forward.
    first = table.acting_seat()
    assert first == winner and table.state["phase"] == "command"
    await table.act(first, {"type": "end_phase"})
    await pass_the_windows(table)
    assert table.state["phase"] == "movement"
    unit = next(a["unit"] for a in table.legal[first] if a["type"] == "move")
    positions = moved_forward(table.state, first, unit, 3.0)
    moved = await table.act(first, {"type": "move", "unit": unit, "positions": positions})
    assert "unit_moved" in [e["kind"] for e in moved["events"]]

    stored = await sync_to_async(list)(
        GameEvent.objects.filter(game=game).values_list("sequence", flat=True)
    )
    assert stored == list(range(1, table.version + 1))
    await table.close()


async def test_stale_foreign_and_spectator_actions_are_refused_to_the_sender_alone():
    game, alice, bob, mallory = await world()
    table = Table(game, alice, bob)
    await table.open()
    await pick_armies(game, alice, bob)
    await table.receive_events()
    reserves = {"type": "declare_reserves", "units": []}

    stale = await table.send(1, reserves, version=table.version - 1)
    assert (stale["code"], stale["version"]) == ("stale_version", table.version)
    wrong_seat = await table.send(2, reserves)
    assert wrong_seat["code"] == "not_your_turn" and wrong_seat["rule"]
    # The seat comes from the connection: naming another player in the action changes nothing.
    posing = await table.send(2, {**reserves, "player": 1})
    assert posing["code"] == "not_your_turn"
    await table.spectator.send_json_to(
        {"type": "action", "version": table.version, "client_id": "s1", "action": reserves}
    )
    spectator = await next_of(table.spectator, "refused")
    assert (spectator["code"], spectator["client_id"]) == ("spectators_read_only", "s1")
    engine_refusal = await table.send(1, {"type": "declare_reserves", "units": ["p9-u9"]})
    assert engine_refusal["type"] == "refused" and engine_refusal["rule"]
    for communicator in table.everyone:
        assert await communicator.receive_nothing(timeout=0.2)
    stranger = connect_as(game, mallory)
    connected, _ = await stranger.connect()
    assert connected  # accepted, told why, then closed with 4403 (docs/protocol.md)
    assert (await stranger.receive_json_from(timeout=TIMEOUT))["code"] == "forbidden"
    assert (await stranger.receive_output(timeout=TIMEOUT))["code"] == 4403
    assert (await reload(game)).version == table.version
    await table.close()


async def test_a_message_sent_twice_is_applied_once_and_answered_alike():
    game, alice, bob, _ = await world()
    table = Table(game, alice, bob)
    await table.open()
    await pick_armies(game, alice, bob)
    await table.receive_events()
    message = {
        "type": "action",
        "version": table.version,
        "client_id": "twice",
        "action": {"type": "declare_reserves", "units": []},
    }
    await table.seats[1].send_json_to(message)
    await table.receive_events(sender=1)
    first = table.answer
    await table.seats[1].send_json_to(message)
    assert await table.seats[1].receive_json_from(timeout=TIMEOUT) == first
    for communicator in table.everyone:
        assert await communicator.receive_nothing(timeout=0.2)
    game = await reload(game)
    assert game.version == first["version"]
    assert await sync_to_async(ClientAction.objects.filter(game=game).count)() == 1
    await table.close()


async def test_a_reconnecting_player_catches_up_with_exactly_the_missed_events():
    game, alice, bob, _ = await world()
    table = Table(game, alice, bob)
    await table.open()
    await pick_armies(game, alice, bob)
    await table.receive_events()
    seen_by_bob = table.version
    await table.seats[2].disconnect()
    table.seats[2] = connect_as(game, bob)
    await table.seats[1].send_json_to(
        {
            "type": "action",
            "version": table.version,
            "client_id": "r1",
            "action": {"type": "declare_reserves", "units": []},
        }
    )
    broadcast = await next_of(table.seats[1], "events")
    await next_of(table.spectator, "events")
    hello = await open_socket(table.seats[2])
    assert hello["game"]["version"] == broadcast["version"] > seen_by_bob
    assert hello["state"] == jsonpatch.apply_patch(table.state, broadcast["patch"])
    assert hello["legal_actions"][0]["type"] == "declare_reserves"
    await table.seats[2].send_json_to({"type": "sync", "since": seen_by_bob})
    caught_up = await next_of(table.seats[2], "events")
    assert caught_up["events"] == broadcast["events"]
    assert (caught_up["since"], caught_up["version"]) == (seen_by_bob, broadcast["version"])
    assert caught_up["legal_actions"] == hello["legal_actions"]
    await table.seats[1].disconnect()
    await table.seats[2].disconnect()
    await table.spectator.disconnect()


async def test_after_a_restart_every_game_continues_from_the_database():
    game, alice, bob, _ = await world()
    table = Table(game, alice, bob)
    await table.open()
    await pick_armies(game, alice, bob)
    await table.receive_events()
    await play_to_deployment(table)
    await table.close()
    # A restart: every connection gone, the channel layer new and empty, nothing in memory.
    channel_layers.backends.clear()
    live_states.clear()
    hello_texts.clear()

    table = Table(game, alice, bob)
    hellos = await table.open()
    table.version = hellos[0]["game"]["version"]
    table.state = hellos[0]["state"]
    table.legal = {1: hellos[0]["legal_actions"], 2: hellos[1]["legal_actions"]}
    assert "legal_actions" not in hellos[2]
    await deploy_all(table)
    assert table.state["stage"] == "first_turn"
    await table.close()

    stored = await reload(game)
    actions = await sync_to_async(list)(
        GameEvent.objects.filter(game=game, kind="action_applied").order_by("sequence")
    )
    log = game_log(stored.setup, stored.dice_seed, [e.payload["action"] for e in actions], [])
    replayed, _ = replay(log)
    assert state_hash(replayed) == state_hash(stored.state)
