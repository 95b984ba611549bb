"""Practice games against the computer (issue 19, games/practice.py): an ordinary game whose seat
2 the computer holds, acting only through the match service, in a thread of its own, and resuming
after a restart."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.test import override_settings

from games import live_states, matches, practice
from games.models import ClientAction, Game, GameEvent
from rules.engine import acting_player
from rules.engine.tools import tactical
from tests.match_world import grey_knights, load_rules, mustering_game, players, saved

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("no_pause"),
]


@pytest.fixture
def no_pause():
    with override_settings(PRACTICE_PAUSE_SECONDS=0):
        yield


def practice_game(level: str = "tactical", computer: str = "builtin:astra-militarum") -> Game:
    load_rules()
    alice, _, _ = players()
    army = saved(alice, grey_knights())
    return practice.start_practice_game(
        alice, army_id=army.pk, computer_choice=computer, level=level
    )


def computer_actions(game: Game) -> list[dict]:
    rows = GameEvent.objects.filter(game=game, kind="action_applied").order_by("sequence")
    return [r.payload["action"] for r in rows if r.payload["action"]["player"] == 2]


def play_as_player(game_id: int, until: callable, limit: int = 400) -> Game:
    """The player (seat 1) plays the tactical agent's choices through the match service; the
    computer answers by itself in its thread."""
    for _ in range(limit):
        assert practice.wait_idle(game_id)
        game = Game.objects.get(pk=game_id)
        if until(game) or game.is_over:
            return game
        state = live_states.engine_state(game)
        assert acting_player(state) == 1, "the computer left its turn undone"
        action = tactical.choose(state, 1)
        answer = matches.apply_action(game_id, 1, game.version, f"p1-{game.version}", action)
        assert answer["type"] == "accepted", answer
    raise AssertionError("the game did not get there")


def test_a_practice_game_is_an_ordinary_game_with_the_computer_in_seat_2():
    game = practice_game()
    assert game.opponent.username == practice.COMPUTER_USERNAME
    assert not game.opponent.has_usable_password()
    assert game.computer == "tactical"
    assert game.status == Game.Status.DEPLOYMENT
    assert game.spectator_token and game.seed_commitment
    assert game.army_snapshots["2"]["faction"] == "astra-militarum"
    # The roster names the built-in list by its faction's name, not by its slug.
    assert game.army_snapshots["2"]["name"] == "Astra Militarum (built-in list)"
    assert GameEvent.objects.filter(game=game).exists()


def test_the_computer_deploys_moves_and_shoots_through_the_match_service():
    game = practice_game()

    def shot(game):
        return any(a["type"] == "shoot" for a in computer_actions(game))

    game = play_as_player(game.pk, shot)
    kinds = {a["type"] for a in computer_actions(game)}
    assert {"deploy", "shoot"} <= kinds
    # Every computer action was a seat-2 message answered by matches.apply_action.
    answered = ClientAction.objects.filter(game=game, seat=2, response__type="accepted")
    assert answered.count() == len(computer_actions(game))


def test_the_random_level_plays_too():
    game = practice_game(level="random")
    game = play_as_player(game.pk, lambda g: g.status == Game.Status.BATTLE)
    assert any(a["type"] == "deploy" for a in computer_actions(game))


def test_the_computer_can_field_one_of_the_players_saved_armies():
    load_rules()
    alice, _, _ = players()
    mine = saved(alice, grey_knights())
    game = practice.start_practice_game(
        alice, army_id=mine.pk, computer_choice=f"army:{mine.pk}", level="tactical"
    )
    assert game.army_snapshots["2"]["name"] == "Castellans"


@pytest.mark.parametrize(
    ("choice", "level", "code"),
    [
        ("builtin:orks", "tactical", "army_unknown"),
        ("army:999999", "tactical", "army_unknown"),
        ("anything", "tactical", "army_unknown"),
        ("builtin:astra-militarum", "grandmaster", "unknown_level"),
    ],
)
def test_a_refused_practice_game_leaves_nothing_behind(choice, level, code):
    load_rules()
    alice, _, _ = players()
    army = saved(alice, grey_knights())
    with pytest.raises(practice.PracticeError) as refused:
        practice.start_practice_game(alice, army_id=army.pk, computer_choice=choice, level=level)
    assert refused.value.code == code
    assert not Game.objects.exists()


def test_the_computer_thinks_in_a_thread_while_the_caller_goes_on(monkeypatch):
    monkeypatch.setattr(practice, "wake", lambda game_id: None)
    game = practice_game()
    game = play_as_player(game.pk, lambda g: acting_player(g.state) == 2)
    monkeypatch.undo()
    with override_settings(PRACTICE_PAUSE_SECONDS=0.3):
        practice.wake(game.pk)
        # Waking returned while the computer still plays (it pauses between its actions).
        assert practice.thinking(game.pk)
        assert practice.wait_idle(game.pk)
    assert Game.objects.get(pk=game.pk).version > game.version


def test_a_game_left_with_the_computer_to_move_resumes_after_a_restart(monkeypatch):
    # The server stops just as the computer is to act: no thread picks the game up.
    monkeypatch.setattr(practice, "wake", lambda game_id: None)
    game = practice_game()
    game = play_as_player(game.pk, lambda g: acting_player(g.state) == 2)
    version = game.version
    monkeypatch.undo()
    live_states.clear()  # a new process remembers nothing
    practice.resume_at_start_up()
    assert practice.wait_idle(game.pk)
    game = Game.objects.get(pk=game.pk)
    assert game.version > version
    assert game.status == Game.Status.FINISHED or acting_player(game.state) == 1


def test_a_player_connecting_wakes_a_computer_left_to_move(monkeypatch):
    monkeypatch.setattr(practice, "wake", lambda game_id: None)
    game = practice_game()
    game = play_as_player(game.pk, lambda g: acting_player(g.state) == 2)
    version = game.version
    monkeypatch.undo()
    practice.wake_if_to_move(game.pk)
    assert practice.wait_idle(game.pk)
    assert Game.objects.get(pk=game.pk).version > version


def test_the_lobby_offers_practice_and_starts_the_game(client):
    load_rules()
    alice, _, _ = players()
    army = saved(alice, grey_knights())
    client.force_login(alice)
    page = client.get("/games/").content.decode()
    assert "Practice against the computer" in page
    assert "builtin:astra-militarum" in page and f"army:{army.pk}" in page
    answer = client.post(
        "/games/practice/",
        {
            "ruleset": "11e",
            "mission": "",
            "army": army.pk,
            "computer_army": "builtin:grey-knights",
            "level": "random",
        },
    )
    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == f"/games/{game.pk}/"
    assert game.computer == "random" and game.status == Game.Status.DEPLOYMENT
    practice.wait_idle(game.pk)


def test_the_game_is_played_at_the_battle_size_of_the_players_army():
    load_rules()
    alice, _, _ = players()
    army = saved(alice, grey_knights(battle_size="strike-force"))
    game = practice.start_practice_game(
        alice, army_id=army.pk, computer_choice="builtin:astra-militarum", level="random"
    )
    assert game.battle_size == "strike-force"
    assert game.army_snapshots["2"]["battle_size"] == "strike-force"
    practice.wait_idle(game.pk)


def test_a_computer_army_of_another_battle_size_is_refused_naming_both_armies_and_sizes():
    load_rules()
    alice, _, _ = players()
    mine = saved(alice, grey_knights())
    theirs = saved(alice, grey_knights(name="Paladin host", battle_size="strike-force"))
    with pytest.raises(practice.PracticeError) as refused:
        practice.start_practice_game(
            alice, army_id=mine.pk, computer_choice=f"army:{theirs.pk}", level="tactical"
        )
    assert refused.value.code == "battle_size_mismatch"
    assert refused.value.message == (
        "Your army Castellans is Incursion (1000 points) but the computer's army Paladin host "
        "is Strike Force (2000 points): choose a computer's army of your army's battle size, "
        "or a built-in list."
    )
    assert not Game.objects.exists()


def test_the_practice_form_groups_armies_and_missions_by_battle_size_and_asks_no_size(client):
    load_rules()
    alice, _, _ = players()
    small = saved(alice, grey_knights())
    big = saved(alice, grey_knights(name="Paladin host", battle_size="strike-force"))
    client.force_login(alice)
    page = client.get("/games/").content.decode()
    form = page[
        page.index("data-practice-game") : page.index("</form>", page.index("data-practice-game"))
    ]
    assert 'name="battle_size"' not in form
    assert (
        form.index('<optgroup label="Incursion (1000 points)">')
        < form.index(f'<option value="{small.pk}"')
        < form.index('<optgroup label="Strike Force (2000 points)">')
        < form.index(f'<option value="{big.pk}"')
    )
    assert '<optgroup label="Built-in lists">' in form
    assert (
        form.index('<optgroup label="Your armies: Incursion (1000 points)">')
        < form.index(f'value="army:{small.pk}"')
        < form.index('<optgroup label="Your armies: Strike Force (2000 points)">')
        < form.index(f'value="army:{big.pk}"')
    )
    assert form.index('Strike Force (2000 points)">') < form.index(
        'value="take-and-hold-strike-force"'
    )
    assert "The game is played at your army&#x27;s battle size." in form


def test_the_lobby_pick_list_of_an_ordinary_game_groups_the_armies_by_battle_size(client):
    """The Pick list of a game waiting for your army, in the lobby and on the game's page, reads
    like the practice form: one <optgroup> a battle size, smallest first (a game is played at
    one size)."""
    load_rules()
    alice, bob, _ = players()
    small = saved(alice, grey_knights())
    big = saved(alice, grey_knights(name="Paladin host", battle_size="strike-force"))
    game = mustering_game(alice, bob)
    client.force_login(alice)
    page = client.get("/games/").content.decode()
    start = page.index(f'action="/games/{game.pk}/army/"')
    form = page[start : page.index("</form>", start)]
    assert (
        form.index('<optgroup label="Incursion (1000 points)">')
        < form.index(f'<option value="{small.pk}">Castellans</option>')
        < form.index('<optgroup label="Strike Force (2000 points)">')
        < form.index(f'<option value="{big.pk}">Paladin host</option>')
    )
    # The game's own page offers the same list, grouped alike.
    page = client.get(f"/games/{game.pk}/").content.decode()
    start = page.index("data-muster")
    form = page[start : page.index("</form>", start)]
    assert (
        form.index('<optgroup label="Incursion (1000 points)">')
        < form.index(f'<option value="{small.pk}">Castellans</option>')
        < form.index('<optgroup label="Strike Force (2000 points)">')
        < form.index(f'<option value="{big.pk}">Paladin host</option>')
    )


def test_a_mission_of_another_battle_size_is_refused_naming_both_sizes(client):
    load_rules()
    alice, _, _ = players()
    army = saved(alice, grey_knights())
    client.force_login(alice)
    answer = client.post(
        "/games/practice/",
        {
            "ruleset": "11e",
            "mission": "take-and-hold-strike-force",
            "army": army.pk,
            "computer_army": "builtin:grey-knights",
            "level": "tactical",
        },
    )
    assert answer.status_code == 200 and not Game.objects.exists()
    assert "is played at Strike Force (2000 points), not Incursion (1000 points)." in (
        answer.content.decode()
    )


def test_a_practice_form_with_an_army_of_someone_else_is_refused(client):
    load_rules()
    alice, bob, _ = players()
    theirs = saved(bob, grey_knights())
    client.force_login(alice)
    answer = client.post(
        "/games/practice/",
        {
            "ruleset": "11e",
            "army": theirs.pk,
            "computer_army": "builtin:grey-knights",
            "level": "tactical",
        },
    )
    assert answer.status_code == 200
    assert not Game.objects.exists()


def test_the_websocket_keeps_answering_while_the_computer_thinks(monkeypatch):
    """A player connecting to a game left with the computer to move wakes it; while its thread
    plays (pausing between actions), the socket answers at once."""
    import asyncio

    from asgiref.sync import sync_to_async
    from channels.testing import WebsocketCommunicator

    from tabletop.asgi import application

    monkeypatch.setattr(practice, "wake", lambda game_id: None)
    game = practice_game()
    game = play_as_player(game.pk, lambda g: acting_player(g.state) == 2)
    monkeypatch.undo()
    player = game.creator

    async def visit() -> tuple[bool, float]:
        socket = WebsocketCommunicator(
            application, f"/ws/games/{game.pk}/", headers=[(b"origin", b"http://127.0.0.1:8000")]
        )
        socket.scope["user"] = player
        connected, _ = await socket.connect()
        assert connected
        hello = await socket.receive_json_from(timeout=10)
        assert hello["type"] == "hello"
        await asyncio.sleep(0.1)
        busy = await sync_to_async(practice.thinking)(game.pk)
        started = time.perf_counter()
        await socket.send_json_to({"type": "sync", "since": hello["version"]})
        while (await socket.receive_json_from(timeout=10))["type"] not in ("events", "snapshot"):
            pass
        answered = time.perf_counter() - started
        await socket.disconnect()
        return busy, answered

    with override_settings(PRACTICE_PAUSE_SECONDS=0.5):
        # The loop runs in a thread of its own (Playwright may keep the main thread's running).
        with ThreadPoolExecutor(max_workers=1) as thread:
            busy, answered = thread.submit(asyncio.run, visit()).result()
        assert busy
        assert answered < 0.5
        assert practice.wait_idle(game.pk)
    assert Game.objects.get(pk=game.pk).version > game.version
