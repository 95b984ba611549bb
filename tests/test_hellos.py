"""The `hello` text a socket is sent (games/hellos.py), built once per game, version and audience:
byte for byte what `messages.encode` gives of the message built whole (`selectors.hello`), over
the recorded games of both editions and through a game played on the database; never an older
version's text; built again when the row, a player's name or the chat changes what it says."""

from __future__ import annotations

import json
import random

import pytest
from django.contrib.auth import get_user_model

from games import hellos, matches, messages, selectors, services
from games.models import ChatMessage, Game
from rules.engine import FROZEN_KEYS, acting_player
from rules.engine.tools import selfplay
from tests.compat_games import load, replayed_states
from tests.match_world import started_world

pytestmark = pytest.mark.django_db
RECORDED = load()
AUDIENCES = (selectors.SPECTATOR, 1, 2)


class Entry:
    """What `hellos._members` uses of an entry."""

    def __init__(self, frozen: dict) -> None:
        self.frozen = frozen
        self.values: dict = {}


@pytest.mark.parametrize("number", range(len(RECORDED["games"])))
def test_the_state_in_pieces_is_the_state_encoded_over_the_recorded_games(number):
    """Every audience's state, encoded member by member with the texts kept from the versions and
    audiences before (the frozen rules data by identity), is the whole state encoded."""
    entry = Entry(frozen={})
    for index, state in replayed_states(RECORDED, number, every=3):
        if index % 9 == 0:  # a new version: the next entry inherits the frozen texts only
            entry = Entry(frozen=entry.frozen)
        for seat in (None, 1, 2):
            whole = messages.encode(selectors.state_for(state, seat))
            assert "".join(hellos._members(hellos._visible(state, seat), entry)) == whole
    assert set(entry.frozen) == {name for name in FROZEN_KEYS if name in state}


def play(game: Game, actions: int, rng: random.Random) -> Game:
    """`actions` self-played actions applied through the match service, as the players would."""
    for _ in range(actions):
        game = Game.objects.get(pk=game.pk)
        if game.is_over:
            break
        player = acting_player(game.state)
        for candidate in selfplay.choose_action(rng, game.state, player):
            fields = {k: v for k, v in candidate.items() if k != "player"}
            answer = matches.apply_action(game.pk, player, game.version, f"c{rng.random()}", fields)
            if answer["type"] == "accepted":
                break
    return Game.objects.get(pk=game.pk)


def assert_same_as_built_whole(game_id: int) -> None:
    for seat in AUDIENCES:
        built = hellos.hello(game_id, seat)
        whole = selectors.hello(game_id, seat)
        assert built.text == messages.encode(whole)
        assert (built.version, built.window) == (whole["version"], whole["window"])


def test_every_hello_is_the_message_built_whole_at_every_version():
    game, alice, bob, _ = started_world()
    rng = random.Random(5)
    assert_same_as_built_whole(game.pk)
    matches.apply_action(
        game.pk,
        1,
        game.version,
        "prefs",
        {"type": "set_window_preferences", "never_offer": ["secret-preference-slug"]},
    )
    assert_same_as_built_whole(game.pk)
    assert "secret-preference-slug" in hellos.hello(game.pk, 1).text
    for seat in (2, selectors.SPECTATOR):
        assert "secret-preference-slug" not in hellos.hello(game.pk, seat).text
    for step in range(12):
        game = play(game, 3, rng)
        if step == 4:
            services.post_chat(game, alice, "Good luck!")
        if step == 6:
            ChatMessage.objects.bulk_create(
                ChatMessage(game=game, author=bob, seat=2, text=f"message {number}")
                for number in range(selectors.HELLO_CHAT_MESSAGES)
            )
        assert_same_as_built_whole(game.pk)
    assert json.loads(hellos.hello(game.pk, 1).text)["chat_more"] is True


def test_a_hello_is_built_once_per_version_and_audience(monkeypatch):
    game, alice, bob, _ = started_world()
    built: list[int] = []
    build = hellos._current

    def counted(entry, audience):
        built.append(audience)
        return build(entry, audience)

    monkeypatch.setattr(hellos, "_current", counted)
    for _ in range(3):
        for seat in AUDIENCES:
            hellos.hello(game.pk, seat)
    assert built == [selectors.SPECTATOR, 1, 2]

    # A chat message is read with every hello: nothing is built again.
    services.post_chat(game, alice, "Good luck!")
    assert "Good luck!" in hellos.hello(game.pk, selectors.SPECTATOR).text
    assert len(built) == 3

    # A new version: the text of the older one is never served.
    old = hellos.hello(game.pk, selectors.SPECTATOR)
    game = play(game, 1, random.Random(1))
    new = hellos.hello(game.pk, selectors.SPECTATOR)
    assert old.version < new.version == game.version
    assert new.text == messages.encode(selectors.hello(game.pk, selectors.SPECTATOR))
    assert len(built) == 4

    # A player renamed: the row is the same, the header is not.
    get_user_model().objects.filter(pk=bob.pk).update(username="robert")
    renamed = json.loads(hellos.hello(game.pk, 1).text)
    assert renamed["game"]["players"] == {"1": "alice", "2": "robert"}
    assert len(built) == 5

    # A save of the row (the window clock, a status) that keeps the version builds again.
    game = Game.objects.get(pk=game.pk)
    game.save(update_fields=["updated"])
    hellos.hello(game.pk, 1)
    assert len(built) == 6


def test_the_cache_keeps_at_most_its_capacity(monkeypatch):
    game, _, _, _ = started_world()
    monkeypatch.setattr(hellos, "CAPACITY", 1)
    hellos.hello(game.pk, 1)
    other = services.join_by_invite(services.create_game(game.creator).invite_token, game.opponent)
    hellos.hello(other.pk, selectors.SPECTATOR)
    assert list(hellos._entries) == [other.pk]


def test_a_game_that_does_not_exist_raises():
    with pytest.raises(Game.DoesNotExist):
        hellos.hello(2_000_000_000, 1)
