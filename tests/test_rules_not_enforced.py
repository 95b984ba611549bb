"""Rules the engine does not implement are never ignored silently: the builder's check, the list
import and the start of a game list them as "not enforced: apply by agreement" (the engine's
registry, rules/engine/rule_registry.py, says what it implements)."""

import pytest
from django.contrib.auth import get_user_model

from games import armies, matches, selectors
from games.not_enforced import NOT_ENFORCED, not_enforced
from tests.match_world import cadians, grey_knights, load_rules, mustering_game, saved


def test_an_ability_no_engine_code_implements_is_listed_once_with_its_units():
    sheet = {
        "slug": "sword-brethren",
        "name": "Sword Brethren",
        "abilities": [
            {"name": "Oath of the Order", "kind": "datasheet", "text": "Re-roll hit rolls."},
            {"name": "Oath of the Order", "kind": "datasheet", "text": "Re-roll hit rolls."},
        ],
    }
    army = {
        "units": [
            {"key": "a", "datasheet": "sword-brethren", "models": 5},
            {"key": "b", "datasheet": "sword-brethren", "models": 5},
        ]
    }
    assert not_enforced(army, {"datasheets": [sheet]}) == [
        {
            "kind": "datasheet ability",
            "name": "Oath of the Order",
            "units": ["Sword Brethren"],
            "note": NOT_ENFORCED,
        }
    ]


@pytest.mark.django_db
def test_the_seed_armies_carry_only_enforced_rules():
    load_rules()
    for army in (grey_knights(), cadians()):
        assert armies.check_with_rules_not_enforced(army)["not_enforced"] == []


@pytest.mark.django_db
def test_a_game_lists_them_once_at_the_start_in_hello():
    load_rules()
    users = get_user_model().objects
    alice, bob = users.create_user("alice"), users.create_user("bob")
    game = mustering_game(alice, bob)
    matches.pick_army(game.pk, alice, saved(alice, grey_knights()).pk)
    matches.pick_army(game.pk, bob, saved(bob, cadians()).pk)
    hello = selectors.hello(game.pk, 1)
    assert hello["game"]["not_enforced"] == {"1": [], "2": []}
