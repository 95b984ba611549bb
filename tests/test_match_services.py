"""The match services without the websocket: racing actions, snapshots, the window clock."""

from __future__ import annotations

import datetime
import random
import re
import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import compiled, live_states, matches, selectors, window_clock
from games.models import ClientAction, Game, GameEvent, GameSnapshot
from rules.engine import FROZEN_KEYS, acting_player
from rules.engine.core.state import canonical_json
from rules.engine.sequence.game import apply as apply_engine
from rules.engine.tools import selfplay
from tests.match_world import started_world

pytestmark = pytest.mark.django_db(transaction=True)
RESERVES = {"type": "declare_reserves", "units": []}


def started_game(**options) -> Game:
    return started_world(**options)[0]


def race(game_id: int, seat: int, version: int, action: dict, threads: int) -> list[dict]:
    """`threads` connections send the same action at the same version at the same moment."""
    barrier = threading.Barrier(threads)
    answers: list[dict] = []

    def send(number: int) -> None:
        try:
            barrier.wait()
            answers.append(
                matches.apply_action(game_id, seat, version, f"racer-{version}-{number}", action)
            )
        finally:
            connection.close()

    workers = [threading.Thread(target=send, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return answers


def test_racing_actions_are_applied_one_after_the_other_leaving_a_log_without_gaps():
    game = started_game()
    for seat in (1, 2):
        version = Game.objects.get(pk=game.pk).version
        answers = race(game.pk, seat, version, RESERVES, threads=4)
        assert sorted(a["type"] for a in answers) == ["accepted", "refused", "refused", "refused"]
        assert {a["code"] for a in answers if a["type"] == "refused"} == {"stale_version"}
    game = Game.objects.get(pk=game.pk)
    sequences = list(GameEvent.objects.filter(game=game).values_list("sequence", flat=True))
    assert sequences == list(range(1, game.version + 1))
    applied = GameEvent.objects.filter(game=game, kind="action_applied").count()
    assert applied == game.state["version"] == 2
    assert game.state["stage"] == "deployment"


def statements(queries: CaptureQueriesContext) -> list[str]:
    """Each statement sent, as its verb and the tables it names (`BEGIN IMMEDIATE` is SQLite's
    `BEGIN`)."""
    named = []
    for query in queries.captured_queries:
        tables = re.findall(r'(?:FROM|INTO|UPDATE|JOIN) "(\w+)"', query["sql"])
        named.append(" ".join([query["sql"].split()[0], *tables]))
    return named


def test_an_action_sends_these_statements_and_no_more(monkeypatch):
    """The database work of one action, each statement with its reason (docs/performance.md,
    "Seventh pass"): one read locks the game row and finds the answer already given to the
    action's id, if any (the state comes from the worker's memory); the log rows in one insert;
    the row's new version; the answer under the action's id. A resent action is answered from
    the read; every SNAPSHOT_EVERY events the row stores the state whole and the database copies
    it into a GameSnapshot. The broadcast after the commit reads nothing."""
    game = started_game()
    action = ["BEGIN", "SELECT games_game games_clientaction"]
    answer = ["INSERT games_clientaction", "COMMIT"]

    version = Game.objects.get(pk=game.pk).version
    with CaptureQueriesContext(connection) as queries:
        accepted = matches.apply_action(game.pk, 1, version, "q1", RESERVES)
    assert accepted["type"] == "accepted"
    assert statements(queries) == [
        *action,
        "INSERT games_gameevent",
        "UPDATE games_game",
        *answer,
    ]

    with CaptureQueriesContext(connection) as queries:
        assert matches.apply_action(game.pk, 1, version, "q1", RESERVES) == accepted
    assert statements(queries) == [*action, "COMMIT"]

    with CaptureQueriesContext(connection) as queries:
        refused = matches.apply_action(game.pk, 1, version, "q2", RESERVES)
    assert refused["code"] == "stale_version"
    assert statements(queries) == [*action, *answer]

    version = accepted["version"]
    monkeypatch.setattr(matches, "SNAPSHOT_EVERY", version + 1)
    with CaptureQueriesContext(connection) as queries:
        accepted = matches.apply_action(game.pk, 2, version, "q3", RESERVES)
    assert accepted["type"] == "accepted"
    assert statements(queries) == [
        *action,
        "INSERT games_gameevent",
        "UPDATE games_game",
        "INSERT games_gamesnapshot games_game",
        *answer,
    ]
    snapshot = GameSnapshot.objects.get(game=game)
    game = Game.objects.get(pk=game.pk)
    assert snapshot.version == game.state_version == game.version
    assert snapshot.state == game.stored_state == live_states.engine_state(game)


def test_compiled_writes_store_what_the_orm_stores(monkeypatch):
    """`compiled.insert` and `compiled.save_fields` write the rows `bulk_create` and
    `save(update_fields=...)` write (the time fields set as `auto_now` sets them), and an insert
    of more rows than the database takes in one statement is split."""
    game = started_game()
    monkeypatch.setattr(connection.ops, "bulk_batch_size", lambda fields, objs: 2)
    answers = [{"type": "accepted", "client_id": f"b{n}", "version": n} for n in range(5)]
    with CaptureQueriesContext(connection) as queries:
        compiled.insert(
            [
                ClientAction(game=game, seat=1, client_id=f"b{n}", response=answers[n])
                for n in range(5)
            ]
        )
    assert len(queries) == 3
    ClientAction.objects.bulk_create(
        [ClientAction(game=game, seat=2, client_id=f"b{n}", response=answers[n]) for n in range(5)]
    )
    rows = ClientAction.objects.filter(game=game, client_id__startswith="b")
    for seat in (1, 2):
        assert [(r.client_id, r.response) for r in rows.filter(seat=seat).order_by("id")] == [
            (f"b{n}", answers[n]) for n in range(5)
        ]
        assert all(r.created is not None for r in rows.filter(seat=seat))

    before = Game.objects.get(pk=game.pk)
    game = Game.objects.get(pk=game.pk)
    game.status, game.window_decision = Game.Status.BATTLE, "d9"
    compiled.save_fields(game, ["status", "window_decision", "updated"])
    after = Game.objects.get(pk=game.pk)
    assert (after.status, after.window_decision, after.updated) == (
        "battle",
        "d9",
        game.updated,
    )
    assert after.updated > before.updated and after.version == before.version


def test_the_state_is_kept_every_few_events(monkeypatch):
    monkeypatch.setattr(matches, "SNAPSHOT_EVERY", 3)
    game = started_game()
    for seat in (1, 2):
        version = Game.objects.get(pk=game.pk).version
        assert matches.apply_action(game.pk, seat, version, f"s{seat}", RESERVES)["type"] == (
            "accepted"
        )
    game = Game.objects.get(pk=game.pk)
    snapshots = list(GameSnapshot.objects.filter(game=game))
    assert snapshots, "the log crossed a multiple of 3"
    for snapshot in snapshots:
        actions = GameEvent.objects.filter(
            game=game, kind="action_applied", sequence__lte=snapshot.version
        ).count()
        assert snapshot.state["version"] == actions
    assert snapshots[-1].state == game.state


def test_actions_write_a_patch_and_the_state_read_back_is_the_engine_s(monkeypatch):
    """Between the states stored whole (every SNAPSHOT_EVERY events), an action writes its log
    rows, the last with the patch of the whole state, and not the state: the state read back
    from the rows (as a worker that never saw the game reads it) is the engine's, to the byte,
    after every action of a self-played game."""
    monkeypatch.setattr(matches, "SNAPSHOT_EVERY", 40)
    game = started_game()
    rng = random.Random(3)
    written = {"whole": [], "patch": []}
    for _ in range(40):
        state = live_states.engine_state(Game.objects.get(pk=game.pk))
        seat = acting_player(state)
        for tried, candidate in enumerate(selfplay.choose_action(rng, state, seat)):
            body = {key: value for key, value in candidate.items() if key != "player"}
            version = Game.objects.get(pk=game.pk).version
            # Each try its own client id: a message sent again under one gets the first answer.
            with CaptureQueriesContext(connection) as queries:
                answer = matches.apply_action(game.pk, seat, version, f"a{version}-{tried}", body)
            if answer["type"] == "accepted":
                break
        else:
            raise AssertionError(f"no legal action of seat {seat} was accepted: {answer}")
        game = Game.objects.get(pk=game.pk)
        engine_state = live_states.engine_state(game)  # the worker's copy: what `apply` gave
        assert canonical_json(live_states.from_rows(game)) == canonical_json(engine_state)
        writes = sum(
            len(query["sql"])
            for query in queries.captured_queries
            if query["sql"].startswith(("INSERT", "UPDATE"))
        )
        written["whole" if game.state_version == game.version else "patch"].append(writes)
    assert len(written["patch"]) > len(written["whole"]) > 0
    # The row holds the state whole (a GameSnapshot copies it within the database: no second
    # copy is sent); a patch action writes a small part of it.
    assert min(written["whole"]) > len(canonical_json(engine_state))
    assert max(written["patch"]) < min(written["whole"]) / 4


def test_a_stratagem_window_passes_for_the_player_when_its_time_is_up(monkeypatch):
    """The clock starts when a `stratagem_window` decision is on top of the stack; once it runs
    out, the next message (or `manage.py expire_windows`) asks the engine to pass for the player."""
    game = started_game(window_time_limit=30)
    state = dict(game.state)
    window = {
        "id": "d77",
        "player": 2,
        "kind": "stratagem_window",
        "options": ["pass"],
        "rule": "Stratagems",
        "prompt": "Use a stratagem or pass.",
        "resume": {"step": "stratagem_window_closed"},
    }
    state["pending"] = [window]
    window_clock.set_clock(game, state)
    game.state = state
    game.save()
    assert game.window_decision == "d77"
    remaining = (game.window_deadline - timezone.now()).total_seconds()
    assert 25 < remaining <= 30

    asked: list[dict] = []
    real_apply = matches.apply

    def engine(state, action):
        asked.append(action)
        return real_apply(state, action)

    monkeypatch.setattr(matches, "apply", engine)
    assert not matches.expire_window(game.pk, timezone.now())
    assert asked == []


def test_an_open_stratagem_window_is_passed_by_the_engine_when_its_time_is_up():
    from tests.engine_world import place_unit
    from tests.stratagem_world import CADIANS, SQUAD, stratagem_game, to_phase

    game = started_game(window_time_limit=30)
    # A real window: at the end of player 2's Charge phase player 1 may intervene heroically.
    state = stratagem_game("11e", first=2)
    place_unit(state, SQUAD, 20.0, 20.0)
    place_unit(state, CADIANS, 20.0, 24.5)
    state = to_phase(state, 2, "charge")
    state["players"]["1"]["cp"] = 3
    state, _ = apply_engine(state, {"type": "end_phase", "player": 2})
    window = state["pending"][-1]
    assert window["kind"] == "stratagem_window" and window["player"] == 1
    window_clock.set_clock(game, state)
    game.state = state
    game.save()
    version = game.version

    assert matches.expire_due_windows(timezone.now() + datetime.timedelta(seconds=31)) == 1
    game = Game.objects.get(pk=game.pk)
    assert game.version > version
    assert not any(d["id"] == window["id"] for d in game.state["pending"])
    kinds = [e.kind for e in game.events.filter(sequence__gt=version)]
    assert "window_timed_out" in kinds


def test_a_far_behind_client_gets_a_snapshot_without_the_dice_seed(monkeypatch):
    game = started_game()
    monkeypatch.setattr(selectors, "SNAPSHOT_AFTER_MISSED_EVENTS", 0)
    reply = selectors.catch_up(game.pk, 0, 1)
    assert reply["type"] == "snapshot" and reply["version"] == game.version
    assert reply["state"]["dice"] == {"next_index": game.state["dice"]["next_index"]}
    assert game.dice_seed not in str(reply)
    assert reply["legal_actions"][0]["type"] == "declare_reserves"


def test_a_game_of_every_battle_size_starts_on_its_own_battlefield():
    for battle_size, width in (("incursion", 60), ("strike-force", 60), ("onslaught", 90)):
        Game.objects.all().delete()
        get_user_model().objects.all().delete()
        game = started_game(battle_size=battle_size)
        assert game.status == Game.Status.DEPLOYMENT
        assert game.state["mission"]["battle_size"] == battle_size
        assert game.state["mission"]["battlefield"]["width"] == width


def test_every_stage_the_engine_enters_has_a_game_status():
    """A stage without a status stopped the online game at the first action in it (the
    redeployment stage of Grand Strategist and Liber Heresius, the scouts stage)."""
    import re
    from pathlib import Path

    engine = Path(matches.__file__).resolve().parents[1] / "rules" / "engine"
    stages = {
        stage
        for path in engine.rglob("*.py")
        for stage in re.findall(r'\["stage"\] = "([a-z_]+)"', path.read_text())
    }
    assert {"redeployment", "scouts", "battle"} <= stages
    assert stages <= set(matches.STAGE_STATUS)


def test_the_worker_s_copy_of_the_state_is_used_only_while_the_row_is_unchanged():
    """games.live_states keeps the engine state between actions; a row changed behind the
    worker's back (another worker, an admin) is read again: the database stays the truth."""
    game = started_game()
    answer = matches.apply_action(game.pk, 1, game.version, "first", RESERVES)
    assert answer["type"] == "accepted"
    game = Game.objects.get(pk=game.pk)
    assert live_states.engine_state(game) is live_states.engine_state(game)  # remembered

    # Someone else gives player 2 command points and saves the row, same version.
    changed = dict(game.state)
    changed["players"] = {**changed["players"], "2": {**changed["players"]["2"], "cp": 9}}
    game.state = changed
    game.save()
    answer = matches.apply_action(game.pk, 2, game.version, "second", RESERVES)
    assert answer["type"] == "accepted"
    game = Game.objects.get(pk=game.pk)
    assert game.state["players"]["2"]["cp"] == 9
    assert live_states.engine_state(game)["players"]["2"]["cp"] == 9


def test_a_worker_holding_an_older_version_catches_up_from_the_patches_logged_since(monkeypatch):
    """Two workers serving one game (a seat on each) take turns moving it on: the one that held
    the state before the other's actions applies the patches logged since to its copy, without
    reading the state stored whole, and gets the state the rows hold, to the byte; its own copy
    is left as it was (it may still be in use)."""
    game = started_game()
    answer = matches.apply_action(game.pk, 1, game.version, "first", RESERVES)
    assert answer["type"] == "accepted"
    game = Game.objects.get(pk=game.pk)
    held_key, held = live_states.row_key(game), live_states.engine_state(game)
    held_text = canonical_json(held)
    answer = matches.apply_action(game.pk, 2, game.version, "second", RESERVES)  # the other
    assert answer["type"] == "accepted"
    live_states.remember(game.pk, held_key, held)  # this worker still holds the older state

    def not_whole(_game):
        raise AssertionError("read the state stored whole")

    monkeypatch.setattr(live_states, "from_rows", not_whole)
    game = Game.objects.get(pk=game.pk)
    assert game.state_version < game.version
    caught_up = live_states.engine_state(game)
    monkeypatch.undo()
    assert canonical_json(caught_up) == canonical_json(live_states.from_rows(game))
    assert all(caught_up[name] is held[name] for name in FROZEN_KEYS)
    assert canonical_json(held) == held_text


def test_a_game_read_again_keeps_the_frozen_rules_data_the_worker_already_holds():
    """Another worker moved the game on: this worker reads the state from the rows, but keeps
    the datasheets, stratagems, edition and mission objects it had (the engine's geometry and
    sight caches are keyed by them), and only where they are equal."""
    game = started_game()
    before = live_states.engine_state(Game.objects.get(pk=game.pk))
    live_states.remember(game.pk, ("another worker's",), before)
    read = live_states.engine_state(Game.objects.get(pk=game.pk))
    assert read is not before and read == before
    assert all(read[name] is before[name] for name in FROZEN_KEYS)

    changed = {**before, "mission": {**before["mission"], "name": "Changed in the admin"}}
    assert live_states.with_frozen_data_of(changed, dict(read))["mission"] is read["mission"]
