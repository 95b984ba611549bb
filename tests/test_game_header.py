"""The game's header (`selectors.public_game`), as every page and every `lobby` message shows it,
read from a game row whose JSON columns were left out, as an action reads it."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import matches, selectors, services
from games.models import Game
from tests.match_world import grey_knights, load_rules, players, saved

pytestmark = pytest.mark.django_db


def as_an_action_reads_it(game: Game) -> Game:
    return Game.objects.defer("stored_state", "setup", "army_snapshots").get(pk=game.pk)


def headers(game: Game) -> tuple[dict, dict]:
    return selectors.public_game(Game.objects.get(pk=game.pk)), selectors.public_game(
        as_an_action_reads_it(game)
    )


def test_the_header_is_the_same_whether_the_row_was_read_whole_or_without_its_json():
    load_rules()
    alice, bob, _ = players()
    game = services.create_game(alice, mission="")
    whole, lean = headers(game)
    assert lean == whole
    assert whole["players"] == {"1": "alice", "2": None}
    assert whole["armies_picked"] == [] and whole["armies"] == {"1": None, "2": None}

    game = services.join_by_invite(game.invite_token, bob)
    matches.pick_army(game.pk, alice, saved(alice, grey_knights()).pk)
    whole, lean = headers(game)
    assert lean == whole
    assert whole["players"] == {"1": "alice", "2": "bob"}
    assert whole["armies_picked"] == [1] and whole["armies"] == {"1": "Castellans", "2": None}

    matches.pick_army(game.pk, bob, saved(bob, grey_knights(name="Second wave")).pk)
    whole, lean = headers(game)
    assert lean == whole
    assert whole["armies"] == {"1": "Castellans", "2": "Second wave"}
    assert whole["mission_name"] and whole["edition"] == "11e"


def test_a_header_read_without_the_json_columns_costs_one_small_query():
    """A status change broadcasts the header from the row the action read: its few keys of the
    setup and the army lists come from the database, not the columns (about 100 KB of JSON each
    in a Strike Force game), with the players' and rule set's names in the same query."""
    load_rules()
    alice, bob, _ = players()
    game = services.create_game(alice)
    game = services.join_by_invite(game.invite_token, bob)
    matches.pick_army(game.pk, alice, saved(alice, grey_knights()).pk)
    lean = as_an_action_reads_it(game)
    with CaptureQueriesContext(connection) as queries:
        selectors.public_game(lean)
    assert len(queries) == 1
    assert '"setup"' in queries[0]["sql"] and '"army_snapshots"' in queries[0]["sql"]
    assert lean.get_deferred_fields() >= {"setup", "army_snapshots"}
