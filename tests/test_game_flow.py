"""Around the battle (issue 16): status changes for every page, the paged log for a reload or a
spectator, a concession in the log, the result and the dice verified, replays from snapshots,
missions to choose, the invite through sign-up, the games list and the home page."""

from __future__ import annotations

import asyncio
import datetime
import json

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.urls import reverse
from django.utils import timezone

from games import matches, replays, results, selectors, services, window_clock
from games.models import Game, GameEvent, GameSnapshot
from tests.browser.flow_fixtures import play_on
from tests.match_world import cadians, grey_knights, load_rules, players, saved, started_world

pytestmark = pytest.mark.django_db(transaction=True)


def started(**options) -> tuple[Game, tuple]:
    game, *people = started_world(**options)
    return game, tuple(people)


def broadcasts(monkeypatch) -> list[dict]:
    """What the game's pages are sent, as seat 1 reads it (broadcasts are one text per audience,
    games/messages.py)."""
    sent: list[dict] = []

    def record(game_id, message):
        sent.append(message)

    def record_texts(game_id, build_texts, kind="events", **clock):
        sent.append(json.loads(build_texts()[1]))

    monkeypatch.setattr(services, "broadcast_on_commit", record)
    monkeypatch.setattr(services, "broadcast_texts_on_commit", record_texts)
    monkeypatch.setattr(matches, "broadcast_texts_on_commit", record_texts)
    return sent


def test_every_status_change_reaches_every_page_with_the_whole_game(monkeypatch):
    sent = broadcasts(monkeypatch)
    load_rules()
    alice, bob, _ = players()
    game = services.create_game(alice)
    services.join_by_invite(game.invite_token, bob)
    joined = sent[-1]
    assert joined["type"] == "lobby" and joined["status"] == "mustering"
    assert joined["game"]["players"] == {"1": "alice", "2": "bob"}
    assert joined["game"]["status_label"] == "Mustering"
    matches.pick_army(game.pk, alice, saved(alice, grey_knights()).pk)
    assert sent[-1]["game"]["armies_picked"] == [1]
    assert sent[-1]["game"]["armies"] == {"1": grey_knights()["name"], "2": None}
    matches.pick_army(game.pk, bob, saved(bob, cadians()).pk)
    # The game starts: its first events, then the new status for the header.
    assert [m["type"] for m in sent[-2:]] == ["events", "lobby"]
    assert sent[-1]["game"]["status"] == "deployment"
    assert sent[-1]["game"]["mission_name"] == Game.objects.get(pk=game.pk).setup["mission"]["name"]


def test_a_concession_is_the_last_entry_of_the_log_and_ends_the_game_for_everyone(monkeypatch):
    game, (alice, bob, _) = started()
    sent = broadcasts(monkeypatch)
    version = game.version
    services.concede(game, bob)
    game = Game.objects.get(pk=game.pk)
    assert game.status == "finished" and game.winner == 1 and game.version == version + 1
    last = GameEvent.objects.get(game=game, sequence=game.version)
    assert (last.kind, last.payload) == ("game_conceded", {"player": 2, "winner": 1})
    events, lobby = sent[-2:]
    assert events["type"] == "events" and events["events"][0]["kind"] == "game_conceded"
    assert lobby["type"] == "lobby" and lobby["dice_seed"] == game.dice_seed
    assert lobby["legal_actions"] == []
    # Nothing is offered in a finished game, though the engine was mid-set-up.
    assert selectors.game_state(game, 1)["legal_actions"] == []
    summary = results.summary(game)
    assert (summary["winner"], summary["ended_by"], summary["conceded_by"]) == (
        1,
        "concession",
        2,
    )


def test_the_result_counts_from_the_log_and_every_die_is_verified(monkeypatch):
    monkeypatch.setattr(matches, "SNAPSHOT_EVERY", 40)
    game, (alice, bob, _) = started()
    play_on(game.pk, events=260, attack=True)
    game = Game.objects.get(pk=game.pk)
    assert results.verify_dice(game)["available"] is False  # the seed is still secret
    services.concede(game, alice)
    game = Game.objects.get(pk=game.pk)
    summary = results.summary(game)
    spent = sum(e.payload["amount"] for e in game.events.filter(kind="command_points_spent"))
    assert sum(summary["cp_spent"].values()) == spent
    destroyed = game.events.filter(kind="unit_destroyed").count()
    assert sum(summary["units_destroyed"].values()) == destroyed
    assert len(summary["vp_by_round"]["1"]) == len(summary["rounds"]) >= 1
    for seat in ("1", "2"):
        assert sum(summary["vp_by_round"][seat]) == game.state["players"][seat]["vp"]
    chart = results.vp_chart(summary)
    assert len(chart["lines"]) == 2
    assert len(chart["lines"][0]["points"].split()) == len(summary["rounds"]) + 1

    checked = results.verify_dice(game)
    assert checked["dice"] > 0 and checked["matched"] == checked["dice"]
    assert checked["all_match"] and checked["commitment_matches"] and checked["in_order"]
    assert checked["message"].startswith(f"{checked['dice']} of {checked['dice']} dice match")
    # A die changed in the log is caught.
    rolled = game.events.filter(kind="dice_rolled").first()
    rolled.payload["values"][0] = 7 - rolled.payload["values"][0]
    rolled.save()
    tampered = results.verify_dice(game)
    assert tampered["matched"] == checked["dice"] - 1 and not tampered["all_match"]
    assert tampered["mismatches"][0]["sequence"] == rolled.sequence

    # The replay reaches every recorded state, from the set-up or from a snapshot.
    snapshots = list(GameSnapshot.objects.filter(game=game))
    assert snapshots
    for snapshot in snapshots[:2]:
        assert replays.state_after(game, snapshot.version) == snapshot.state
        later = replays.state_after(game, snapshot.version + 1)
        assert later["version"] >= snapshot.state["version"]
    first_action = game.events.filter(kind="action_applied").first().sequence
    assert replays.state_after(game, first_action - 1)["version"] == 0
    assert replays.state_after(game, game.version)["version"] == game.state["version"]
    with pytest.raises(services.GameError):
        replays.state_after(game, game.version + 1)
    # Stepping forward from a state replayed lately gives the state replayed from afar.
    starts = list(game.events.filter(kind="action_applied").values_list("sequence", flat=True))
    steps = starts[5:8]
    replays._RECENT.clear()
    afar = replays.state_after(game, steps[-1])
    replays._RECENT.clear()
    for version in steps[:-1]:
        replays.state_after(game, version)
    assert replays.state_after(game, steps[-1]) == afar


def test_the_log_is_read_in_pages_by_players_and_spectators_with_the_link(client):
    game, (alice, bob, mallory) = started()
    play_on(game.pk, events=10)
    game = Game.objects.get(pk=game.pk)
    url = reverse("game-log", args=[game.pk])
    assert client.get(url).status_code == 404  # nobody
    client.force_login(mallory)
    assert client.get(url).status_code == 404  # not a player, no link
    client.logout()
    first = client.get(url, {"spectate": game.spectator_token, "limit": 2}).json()
    assert [e["sequence"] for e in first["events"]] == [1, 2]
    assert first["next"] == 2 and first["version"] == game.version
    rest = client.get(url, {"spectate": game.spectator_token, "since": 2, "limit": 500}).json()
    assert rest["events"][-1]["sequence"] == game.version and rest["next"] is None
    assert client.get(url, {"spectate": "wrong"}).status_code == 404
    client.force_login(alice)
    assert client.get(url, {"since": -1}).status_code == 400
    assert client.get(url, {"limit": 0}).status_code == 400
    assert client.get(url, {"since": "x"}).status_code == 400
    assert len(client.get(url, {"limit": 10_000}).json()["events"]) <= selectors.LOG_PAGE_LIMIT
    assert client.get(reverse("game-result", args=[game.pk])).status_code == 204
    replay = client.get(reverse("game-replay", args=[game.pk]))
    assert replay.status_code == 200 and b"data-replay" in replay.content


@pytest.mark.asyncio
async def test_the_process_clock_fires_once_at_the_deadline_and_can_be_moved_or_stopped():
    fired: list[int] = []
    clock = window_clock.ProcessClock(lambda game_id: fired.append(game_id) or True)
    soon = (timezone.now() + datetime.timedelta(seconds=0.2)).isoformat()
    clock.arm(1, {"decision": "d1", "deadline": soon})
    clock.arm(1, {"decision": "d1", "deadline": soon})  # a second connection: one timer
    past = (timezone.now() - datetime.timedelta(seconds=60)).isoformat()
    clock.arm(2, {"decision": "d9", "deadline": past})  # passed while down: fires at once
    clock.arm(3, {"decision": "d5", "deadline": soon})
    clock.arm(3, None)  # answered: the timer stops
    assert set(clock.pending()) == {1, 2}
    await asyncio.sleep(0.5)
    assert sorted(fired) == [1, 2]
    assert clock.pending() == {}


@pytest.mark.asyncio
async def test_a_late_hello_read_before_the_window_opened_does_not_stop_its_clock():
    """A connection's `hello` is read in a thread; an action's broadcast can reach the event loop
    first. The hello's older "no window" must leave the newer window's timer running."""
    fired: list[int] = []
    clock = window_clock.ProcessClock(lambda game_id: fired.append(game_id) or True)
    soon = (timezone.now() + datetime.timedelta(seconds=0.2)).isoformat()
    clock.arm(1, {"decision": "d1", "deadline": soon}, version=8)  # the action's broadcast
    clock.arm(1, None, version=7)  # the hello read before it
    assert clock.pending() == {1: soon}
    clock.arm(1, None, version=9)  # the window answered: the timer stops
    assert clock.pending() == {}
    await asyncio.sleep(0.3)
    assert fired == []


@pytest.mark.asyncio
async def test_a_timer_whose_attempt_fails_tries_again(monkeypatch):
    monkeypatch.setattr(window_clock, "RETRY_AFTER_SECONDS", 0.05)
    attempts: list[int] = []

    def expire(game_id: int) -> bool:
        attempts.append(game_id)
        if len(attempts) == 1:
            raise RuntimeError("database is locked")
        return True

    clock = window_clock.ProcessClock(expire)
    clock.arm(4, {"decision": "d2", "deadline": timezone.now().isoformat()}, version=3)
    await asyncio.sleep(0.4)
    assert attempts == [4, 4]


@pytest.mark.asyncio
async def test_a_timer_armed_from_a_blocking_call_passes_its_window():
    """The window that follows a window passed by its timer is armed by a broadcast published from
    the database thread (`async_to_sync` inside `database_sync_to_async`): its timer must still
    reach the database thread when it fires (the browser's countdown stayed at 0 once)."""
    fired: list[int] = []
    clock = window_clock.ProcessClock(lambda game_id: fired.append(game_id) or True)
    soon = (timezone.now() + datetime.timedelta(seconds=0.1)).isoformat()

    async def announce() -> None:
        clock.arm(5, {"decision": "d7", "deadline": soon}, version=12)

    def publish_from_the_database_thread() -> None:
        async_to_sync(announce)()

    await database_sync_to_async(publish_from_the_database_thread)()
    await asyncio.sleep(0.5)
    assert fired == [5]


def test_a_mission_is_chosen_by_name_for_its_battle_size(client):
    load_rules()
    alice, _, _ = players()
    offered = {m["slug"]: m for m in services.missions.available()}
    incursion = next(m for m in offered.values() if m["battle_size"] == "incursion")
    strike = next(m for m in offered.values() if m["battle_size"] == "strike-force")
    assert incursion["thumbnail"]["terrain"] and incursion["thumbnail"]["objectives"]
    with pytest.raises(services.GameError) as refused:
        services.create_game(alice, battle_size="incursion", mission=strike["slug"])
    assert refused.value.code == "mission_unfit"
    client.force_login(alice)
    page = client.get(reverse("lobby"))
    assert incursion["name"] in page.content.decode()
    answer = client.post(
        reverse("lobby"),
        {"ruleset": "11e", "battle_size": "incursion", "mission": incursion["slug"]},
    )
    game = Game.objects.get(creator=alice)
    assert answer.status_code == 302 and game.mission == incursion["slug"]
    assert selectors.public_game(game)["mission_name"] == incursion["name"]


def test_an_invite_opened_without_an_account_leads_through_sign_up_into_the_game(client):
    load_rules()
    alice, _, _ = players()
    game = services.create_game(alice)
    invite = reverse("game-join", args=[game.invite_token])
    page = client.get(invite)
    assert page.status_code == 200
    assert f"{reverse('sign-up')}?next={invite}" in page.content.decode()
    signed = client.post(
        reverse("sign-up") + f"?next={invite}",
        {"username": "newcomer", "password1": "a-long-pass-77", "password2": "a-long-pass-77"},
    )
    assert signed.status_code == 302 and signed.url == invite
    joined = client.get(invite)
    assert joined.status_code == 302 and joined.url == reverse("game-detail", args=[game.pk])
    detail = client.get(joined.url).content.decode()
    assert "You are seat 2" in detail and "data-muster" in detail
    # Another site is never a place to go after signing up.
    client.logout()
    away = client.post(
        reverse("sign-up") + "?next=https://elsewhere.example/",
        {"username": "wanderer", "password1": "a-long-pass-77", "password2": "a-long-pass-77"},
    )
    assert away.url == reverse("lobby")


def test_the_games_list_and_the_home_page(client):
    game, (alice, bob, _) = started()
    services.concede(game, bob)
    hidden = services.create_game(alice)
    client.force_login(alice)
    row = next(r for r in selectors.games_list(alice) if r["game"].pk == game.pk)
    assert row["opponent"] == "bob" and row["winner_name"] == "alice" and row["conceded"]
    assert row["armies"] == {"1": grey_knights()["name"], "2": cadians()["name"]}
    page = client.get(reverse("lobby")).content.decode()
    assert "alice won (concession)" in page and 'data-link="replay"' in page
    client.logout()
    Game.objects.filter(pk=game.pk).update(listed=True)
    home = client.get(reverse("home")).content.decode()
    assert 'data-call="play"' in home
    assert f'data-watch-game="{game.pk}"' in home
    assert f'data-watch-game="{hidden.pk}"' not in home
