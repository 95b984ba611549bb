"""Nothing anyone sends over the game's websocket hurts a game (issue 18): every bad frame is
answered with an `error` and a code, the socket stays open, the game does not change; unexpected
failures are logged and answered `server_error`; a failed broadcast after a commit still answers
`accepted`; revoked spectators are cut off; chat is rate-limited and `hello` stays small.

Runs on whichever deployment the environment names (SQLite + in-memory layer, or PostgreSQL +
Redis in `.ci/run`)."""

from __future__ import annotations

import json
import logging

import pytest
from asgiref.sync import sync_to_async

from games import selectors, services
from games.models import ChatMessage, Game, GameEvent
from rules.engine import Refusal
from rules.engine.stratagems import windows
from tests.match_world import (
    TIMEOUT,
    connect_as,
    load_rules,
    mustering_game,
    open_socket,
    players,
    started_world,
)

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def started_game():
    game, alice, bob, _ = started_world()
    return game, alice, bob


@sync_to_async
def fingerprint(game: Game) -> tuple:
    game = Game.objects.get(pk=game.pk)
    return (
        game.version,
        json.dumps(game.state, sort_keys=True),
        GameEvent.objects.filter(game=game).count(),
        ChatMessage.objects.filter(game=game).count(),
    )


def action(version: int, body: dict, client_id: str = "fuzz-1") -> str:
    return json.dumps(
        {"type": "action", "version": version, "client_id": client_id, "action": body}
    )


# The frames of the fuzzing campaign that closed the socket or changed the game, and their codes.
# `{v}` is replaced by the game's current version, so the action would otherwise be considered.
HOSTILE_FRAMES = [
    pytest.param("[" * 1000 + "]" * 1000, "too_deep", id="json-nested-1000-deep-list"),
    pytest.param(
        '{"type": "sync", "since": ' + "[" * 5000 + "]" * 5000 + "}",
        "too_deep",
        id="json-nested-5000-deep",
    ),
    pytest.param(
        '{"type": "action", "version": 0, "client_id": "deep", "action": {"type": "move", "x": '
        + '{"a": ' * 50
        + "1"
        + "}" * 50
        + "}}",
        "too_deep",
        id="object-nested-50-deep",
    ),
    pytest.param(
        '{"type": "chat", "text": "hi \\ud800 there"}', "invalid_text", id="chat-lone-surrogate"
    ),
    pytest.param('{"type": "chat", "text": "nul \\u0000 byte"}', "invalid_text", id="chat-nul"),
    pytest.param(
        action(0, {"type": "end_phase"}, client_id="id\u0000x"), "invalid_text", id="client-id-nul"
    ),
    pytest.param(
        '{"type": "action", "version": {v}, "client_id": "\\udfff", '
        '"action": {"type": "end_phase"}}',
        "invalid_text",
        id="client-id-surrogate",
    ),
    pytest.param(
        action(0, {"type": "set_window_preferences", "never_offer": "abc"}),
        "invalid_field",
        id="never-offer-a-string",
    ),
    pytest.param(
        action(0, {"type": "set_window_preferences", "never_reroll": 7}),
        "invalid_field",
        id="never-reroll-a-number",
    ),
    pytest.param(
        action(0, {"type": "set_window_preferences", "reroll_every_roll": "yes"}),
        "invalid_field",
        id="reroll-every-roll-a-string",
    ),
    pytest.param(
        action(0, {"type": "set_window_preferences", "never_offer": [{"a": 1}]}),
        "invalid_field",
        id="never-offer-objects",
    ),
    pytest.param(
        action(0, {"type": "set_window_preferences", "never_offer": [], "x": 1}),
        "unknown_field",
        id="preferences-unknown-field",
    ),
    pytest.param(
        '{"type": "action", "version": {v}, "client_id": "big", '
        '"action": {"type": "end_phase", "n": 18446744073709551616}}',
        "out_of_range",
        id="integer-2-64",
    ),
    pytest.param(
        '{"type": "sync", "since": 99999999999999999999999}', "out_of_range", id="since-huge"
    ),
    pytest.param(
        '{"type": "action", "version": 1e400, "client_id": "inf", "action": {"type": "end_phase"}}',
        "not_finite",
        id="float-overflow",
    ),
    pytest.param(
        action(0, {"type": "end_phase", "junk": "x" * 20000}),
        "too_large",
        id="action-with-20k-of-junk",
    ),
    pytest.param(
        '{"type": "sync", "since": 0, "padding": "x"}',
        "unknown_field",
        id="unknown-top-level-field",
    ),
    pytest.param('{"type": "\\ud800"}', "invalid_text", id="type-surrogate"),
    pytest.param('{"type": "chat"}', "missing_field", id="chat-without-text"),
    pytest.param(b"\x00\xff binary", "not_json", id="binary-frame"),
]


@pytest.mark.parametrize(("frame", "code"), HOSTILE_FRAMES)
async def test_a_hostile_frame_is_answered_and_changes_nothing(frame, code):
    game, alice, _ = await started_game()
    before = await fingerprint(game)
    seat1 = connect_as(game, alice)
    hello = await open_socket(seat1)
    if isinstance(frame, bytes):
        await seat1.send_to(bytes_data=frame)
    else:
        await seat1.send_to(text_data=frame.replace("{v}", str(hello["version"])))
    error = await seat1.receive_json_from(timeout=TIMEOUT)
    assert (error["type"], error["code"]) == ("error", code)
    # The socket is still open and answers, and the game is as it was.
    await seat1.send_json_to({"type": "sync", "since": hello["version"]})
    assert (await seat1.receive_json_from(timeout=TIMEOUT))["type"] == "events"
    assert await fingerprint(game) == before
    await seat1.disconnect()


def test_the_engine_refuses_preferences_of_the_wrong_type():
    """11e windows: `never_offer` and `never_reroll` are lists of names; a string is no longer
    split into letters and a number no longer raises TypeError."""
    for wrong in ("abc", 7, None, [1], {"a": 1}):
        ctx = type("Ctx", (), {"state": {}, "emit": lambda *a, **k: None})()
        with pytest.raises(Refusal) as refused:
            windows.set_window_preferences(
                ctx, {"type": "set_window_preferences", "player": 1, "never_offer": wrong}
            )
        assert refused.value.code == "invalid_preferences"


async def test_an_unexpected_failure_is_logged_and_answered_without_closing(monkeypatch, caplog):
    game, alice, _ = await started_game()
    seat1 = connect_as(game, alice)
    hello = await open_socket(seat1)

    def broken(*args, **kwargs):
        raise RuntimeError("the selector broke")

    monkeypatch.setattr(selectors, "catch_up", broken)
    with caplog.at_level(logging.ERROR, logger="games.consumers"):
        await seat1.send_json_to({"type": "sync", "since": 0})
        error = await seat1.receive_json_from(timeout=TIMEOUT)
    assert (error["type"], error["code"]) == ("error", "server_error")
    (record,) = [r for r in caplog.records if r.name == "games.consumers"]
    assert (record.game_id, record.seat, record.message_type) == (game.pk, 1, "sync")
    monkeypatch.undo()
    await seat1.send_json_to({"type": "sync", "since": hello["version"]})
    assert (await seat1.receive_json_from(timeout=TIMEOUT))["type"] == "events"
    await seat1.disconnect()


def _broken_channel_layer(monkeypatch):
    """The channel layer down (Redis restarting): every group_send raises."""
    from channels.layers import get_channel_layer

    layer = get_channel_layer()

    async def refuse(*args, **kwargs):
        raise ConnectionError("channel layer down")

    monkeypatch.setattr(layer, "group_send", refuse)


async def test_after_a_commit_a_failed_broadcast_still_answers_accepted(monkeypatch, caplog):
    game, alice, _ = await started_game()
    seat1 = connect_as(game, alice)
    hello = await open_socket(seat1)
    legal = hello["legal_actions"]
    assert legal, "the game waits for seat 1"
    chosen = next(a for a in legal if isinstance(a.get("units"), list) or "positions" not in a)
    chosen = {k: v for k, v in chosen.items() if k != "player"}
    if chosen.get("units") == "subset":
        chosen["units"] = []
    _broken_channel_layer(monkeypatch)
    with caplog.at_level(logging.ERROR, logger="games.services"):
        await seat1.send_json_to(
            {"type": "action", "version": hello["version"], "client_id": "c1", "action": chosen}
        )
        reply = await seat1.receive_json_from(timeout=TIMEOUT)
        if reply["type"] == "events":
            # This process's own sockets were handed the events before the channel layer
            # failed (games.fanout.publish); `accepted` and `events` come in either order.
            reply = await seat1.receive_json_from(timeout=TIMEOUT)
    assert reply["type"] == "accepted", reply
    assert any(r.message == "broadcast failed after commit" for r in caplog.records)
    assert (await fingerprint(game))[0] == reply["version"]
    await seat1.disconnect()


def test_cancel_and_concede_answer_during_a_channel_layer_outage(monkeypatch, client):
    load_rules()
    alice, bob, _ = players()
    game = mustering_game(alice, bob)
    _broken_channel_layer(monkeypatch)
    client.force_login(alice)
    assert client.post(f"/api/games/{game.pk}/concede/").status_code == 200
    other = mustering_game(alice, bob)
    assert client.post(f"/api/games/{other.pk}/cancel/").status_code == 200
    assert client.post(f"/games/{other.pk}/spectators/renew/").status_code == 302


async def test_revoking_the_spectator_link_closes_the_open_spectator_sockets():
    game, alice, bob = await started_game()
    watcher = connect_as(game, spectate=game.spectator_token)
    seat2 = connect_as(game, bob)
    await open_socket(watcher)
    await open_socket(seat2)
    await sync_to_async(services.revoke_spectator_link)(game, alice)
    error = await watcher.receive_json_from(timeout=TIMEOUT)
    assert (error["type"], error["code"]) == ("error", "spectator_link_revoked")
    closed = await watcher.receive_output(timeout=TIMEOUT)
    assert (closed["type"], closed["code"]) == ("websocket.close", 4403)
    # The players stay connected.
    await seat2.send_json_to({"type": "sync", "since": 0})
    assert (await seat2.receive_json_from(timeout=TIMEOUT))["type"] in ("events", "snapshot")
    await seat2.disconnect()


async def test_renewing_the_spectator_link_closes_sockets_of_the_old_link_only():
    game, alice, _ = await started_game()
    old = connect_as(game, spectate=game.spectator_token)
    await open_socket(old)
    renewed = await sync_to_async(services.renew_spectator_link)(game, alice)
    assert (await old.receive_json_from(timeout=TIMEOUT))["code"] == "spectator_link_revoked"
    assert (await old.receive_output(timeout=TIMEOUT))["code"] == 4403
    new = connect_as(game, spectate=renewed.spectator_token)
    await open_socket(new)
    await sync_to_async(services.renew_spectator_link)(game, alice)
    assert (await new.receive_json_from(timeout=TIMEOUT))["code"] == "spectator_link_revoked"


async def test_a_chat_flood_is_refused_after_the_burst():
    game, alice, _ = await started_game()
    seat1 = connect_as(game, alice)
    await open_socket(seat1)
    answers = []
    for number in range(12):
        await seat1.send_json_to({"type": "chat", "text": f"spam {number}"})
        answers.append(await seat1.receive_json_from(timeout=TIMEOUT))
    delivered = [a for a in answers if a["type"] == "chat"]
    limited = [a for a in answers if a.get("code") == "chat_rate_limited"]
    assert len(delivered) == 5 and len(limited) == 7
    assert (await fingerprint(game))[3] == 5


def test_a_players_chat_budget_is_shared_by_all_their_connections(monkeypatch):
    # The clock stands still: a slow run must not let the first messages leave the window.
    monkeypatch.setattr(services.time, "time", lambda: 1_000_000 * services.CHAT_PERIOD + 1.0)
    load_rules()
    alice, bob, _ = players()
    game = mustering_game(alice, bob)
    for number in range(services.CHAT_BURST):
        services.post_chat(game, alice, f"message {number}")
    with pytest.raises(services.GameError) as refused:
        services.post_chat(game, alice, "one too many")
    assert refused.value.code == "chat_rate_limited"
    services.post_chat(game, bob, "bob still talks")


class Clock:
    """time.time() as the test sets it (the in-memory cache's expiry reads it too)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def chat_burst_at(game, user, clock: Clock, at: float) -> list[bool]:
    """Try a whole burst and one more at `at`; whether each went."""
    clock.now = at
    went = []
    for number in range(services.CHAT_BURST + 1):
        try:
            services.post_chat(game, user, f"at {at}: {number}")
        except services.GameError as refused:
            assert refused.code == "chat_rate_limited"
            went.append(False)
        else:
            went.append(True)
    return went


def test_a_chat_burst_just_before_a_ten_second_boundary_leaves_no_budget_just_after_it(monkeypatch):
    """The budget is a sliding window: a full burst at 9.9 s (of a ten-second count) and another
    at 10.2 s would be two bursts in 0.3 s; the second is refused until ten seconds have passed
    since the first, and refused messages use none of the budget."""
    boundary = 1_000_000 * services.CHAT_PERIOD
    clock = Clock(boundary - 0.1)
    monkeypatch.setattr(services.time, "time", clock)
    load_rules()
    alice, bob, _ = players()
    game = mustering_game(alice, bob)
    burst = services.CHAT_BURST
    assert chat_burst_at(game, alice, clock, boundary - 0.1) == [True] * burst + [False]
    assert not any(chat_burst_at(game, alice, clock, boundary + 0.2))
    assert not any(chat_burst_at(game, alice, clock, boundary - 0.1 + services.CHAT_PERIOD - 0.05))
    # Ten seconds (and the second of the counting) after the first burst, a whole burst again:
    # the eighteen refused meanwhile count for nothing.
    later = boundary + services.CHAT_PERIOD + 1
    assert chat_burst_at(game, alice, clock, later) == [True] * burst + [False]
    assert ChatMessage.objects.filter(game=game, author=alice).count() == 2 * burst


def test_the_chat_budget_slides_a_message_at_a_time(monkeypatch):
    """Messages spread over the window: the ninth waits for the first to leave it, not for a
    fixed window to end."""
    start = 1_000_000 * services.CHAT_PERIOD + 5.5
    clock = Clock(start)
    monkeypatch.setattr(services.time, "time", clock)
    load_rules()
    alice, bob, _ = players()
    game = mustering_game(alice, bob)
    for number in range(services.CHAT_BURST):
        clock.now = start + number  # one a second, across the boundary at start + 4.5
        services.post_chat(game, alice, f"message {number}")
    clock.now = start + services.CHAT_BURST
    with pytest.raises(services.GameError):
        services.post_chat(game, alice, "the ninth within ten seconds of the first")
    clock.now = start + services.CHAT_PERIOD + 1  # the first message's second has left the window
    services.post_chat(game, alice, "the first has left the window")
    with pytest.raises(services.GameError):
        services.post_chat(game, alice, "but the second has not")


async def test_hello_carries_the_newest_chat_and_stays_small():
    game, alice, bob = await started_game()

    @sync_to_async
    def long_history() -> None:
        ChatMessage.objects.bulk_create(
            ChatMessage(game=game, author=alice, seat=1, text=f"{n:04d} " + "x" * 490)
            for n in range(2000)
        )

    await long_history()
    seat2 = connect_as(game, bob)
    hello = await open_socket(seat2)
    assert len(hello["chat"]) == selectors.HELLO_CHAT_MESSAGES and hello["chat_more"]
    assert hello["chat"][-1]["text"].startswith("1999 ")
    assert len(json.dumps(hello)) < selectors.MAX_OUTGOING_BYTES
    await seat2.disconnect()


async def test_a_sync_too_large_for_one_message_is_answered_with_a_snapshot():
    game, alice, _ = await started_game()

    @sync_to_async
    def bulky_log() -> int:
        current = Game.objects.get(pk=game.pk)
        rows = [
            GameEvent(
                game=current,
                sequence=current.version + n,
                kind="test",
                payload={"padding": "x" * 15000},
            )
            for n in range(1, 61)
        ]
        GameEvent.objects.bulk_create(rows)
        Game.objects.filter(pk=game.pk).update(version=current.version + 60)
        return current.version + 60

    version = await bulky_log()
    seat1 = connect_as(game, alice)
    await open_socket(seat1)
    await seat1.send_json_to({"type": "sync", "since": 0})
    reply = await seat1.receive_json_from(timeout=TIMEOUT)
    assert (reply["type"], reply["version"]) == ("snapshot", version)
    await seat1.disconnect()
