"""A shared test world for matches: two players, their armies from the project's rules data, and
the game's websocket as the tests open it (the ASGI application, in process)."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games import armies, matches, services
from games.models import Army, Game

ORIGIN = [(b"origin", b"http://127.0.0.1:8000")]
TIMEOUT = 10


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


def pick_armies(game: Game, alice, bob) -> Game:
    """Alice picks the Grey Knights, Bob the Cadians: the game starts."""
    matches.pick_army(game.pk, alice, saved(alice, grey_knights()).pk)
    return matches.pick_army(game.pk, bob, saved(bob, cadians()).pk)


def mustering_world(**options) -> tuple:
    """The rules data loaded, alice, bob and mallory, and alice's game that bob joined."""
    load_rules()
    alice, bob, mallory = players()
    return mustering_game(alice, bob, **options), alice, bob, mallory


def started_world(**options) -> tuple:
    """As `mustering_world`, with both armies picked: the game (read again) has started."""
    game, alice, bob, mallory = mustering_world(**options)
    pick_armies(game, alice, bob)
    return Game.objects.get(pk=game.pk), alice, bob, mallory


# --- the game's websocket -------------------------------------------------------------------


def connect_as(game: Game, user=None, spectate: str | None = None) -> WebsocketCommunicator:
    """A socket to the game as `user` (signed in), or as a spectator with the link's token."""
    from tabletop.asgi import application  # not at import: the bench scripts import this module

    path = f"/ws/games/{game.pk}/" + (f"?spectate={spectate}" if spectate else "")
    communicator = WebsocketCommunicator(application, path, headers=ORIGIN)
    if user is not None:
        communicator.scope["user"] = user
    return communicator


async def open_socket(communicator: WebsocketCommunicator) -> dict:
    """Connect and read the `hello`."""
    connected, _ = await communicator.connect()
    assert connected
    hello = await communicator.receive_json_from(timeout=TIMEOUT)
    assert hello["type"] == "hello"
    return hello


async def next_of(communicator: WebsocketCommunicator, *kinds: str) -> dict:
    """The next message of one of these types, skipping others (lobby news, chat)."""
    while True:
        message = await communicator.receive_json_from(timeout=TIMEOUT)
        if message["type"] in kinds:
            return message
