"""A shared test world for matches: two players, their armies from the project's rules data."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management import call_command

from games import armies, services
from games.models import Army, Game


def grey_knights(**changes) -> dict:
    """335 points: a Strike Squad led by a Brotherhood Champion, the Warlord."""
    army = {
        "name": "Castellans",
        "faction": "grey-knights",
        "detachment": "teleport-strike-force",
        "battle_size": "incursion",
        "units": [
            {"key": "ss1", "datasheet": "strike-squad", "models": 5, "warlord": False},
            {
                "key": "champ",
                "datasheet": "brotherhood-champion",
                "models": 1,
                "warlord": True,
                "attached_to": "ss1",
                "role": "leader",
            },
        ],
    }
    army.update(changes)
    return army


def cadians(**changes) -> dict:
    """140 points: Cadian Shock Troops led by a Cadian Castellan with Drill Commander."""
    army = {
        "name": "Cadia stands",
        "faction": "astra-militarum",
        "detachment": "combined-arms",
        "battle_size": "incursion",
        "units": [
            {"key": "cst", "datasheet": "cadian-shock-troops", "models": 10},
            {
                "key": "cas",
                "datasheet": "cadian-castellan",
                "models": 1,
                "warlord": True,
                "enhancements": ["drill-commander"],
                "attached_to": "cst",
                "role": "leader",
            },
        ],
    }
    army.update(changes)
    return army


def players() -> tuple:
    users = get_user_model().objects
    return (
        users.create_user("alice", password="x-long-password"),
        users.create_user("bob", password="x-long-password"),
        users.create_user("mallory", password="x-long-password"),
    )


def mustering_game(alice, bob, **options) -> Game:
    game = services.create_game(alice, **options)
    return services.join_by_invite(game.invite_token, bob)


def saved(owner, army: dict) -> Army:
    return armies.create_army(owner, army)


def load_rules() -> None:
    call_command("load_rules", verbosity=0)
