"""Rules the engine does not implement are never ignored silently: the builder's check, the list
import and the start of a game list them as "not enforced: apply by agreement" (the engine's
registry, rules/engine/rule_registry.py, says what it implements)."""

import pytest
from django.contrib.auth import get_user_model

from games import armies, matches, selectors
from games.not_enforced import NOT_ENFORCED, not_enforced
from rules.serializers import NO_PRINTED_DETACHMENT_RULE
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


COMBINED_ARMS = {
    "kind": "detachment rule",
    "name": "Combined Arms",
    "units": [],
    "note": NO_PRINTED_DETACHMENT_RULE,
}


@pytest.mark.django_db
def test_the_seed_armies_carry_only_enforced_rules_and_say_when_a_detachment_prints_none():
    """Rulings SD-16 (issue 14 defect 25): Combined Arms has stratagems and enhancements but no
    printed detachment rule; it is selectable, and labelled so, never silently inert."""
    load_rules()
    assert armies.check_with_rules_not_enforced(grey_knights())["not_enforced"] == []
    assert armies.check_with_rules_not_enforced(cadians())["not_enforced"] == [COMBINED_ARMS]


@pytest.mark.django_db
def test_the_builder_labels_each_detachment_without_a_printed_rule(client):
    """SD-16: the detachments the seeds print no rule for, as the builder's list shows them."""
    load_rules()
    labelled = set()
    for faction in ("astra-militarum", "imperial-agents", "grey-knights"):
        for record in client.get(f"/api/rules/detachments/?faction={faction}").json()["results"]:
            if record["note"]:
                assert record["note"] == NO_PRINTED_DETACHMENT_RULE and record["rules"] == []
                labelled.add(record["name"])
            else:
                assert record["rules"]
    assert labelled == {
        "Ordo Xenos Alien Hunters",
        "Veiled Blade Elimination Force",
        "Combined Arms",
        "Recon Element",
        "Steel Hammer",
    }


@pytest.mark.django_db
def test_a_game_lists_them_once_at_the_start_in_hello():
    load_rules()
    users = get_user_model().objects
    alice, bob = users.create_user("alice"), users.create_user("bob")
    game = mustering_game(alice, bob)
    matches.pick_army(game.pk, alice, saved(alice, grey_knights()).pk)
    matches.pick_army(game.pk, bob, saved(bob, cadians()).pk)
    hello = selectors.hello(game.pk, 1)
    assert hello["game"]["not_enforced"] == {"1": [], "2": [COMBINED_ARMS]}
