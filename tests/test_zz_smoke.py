import pytest
from games import matches, armies
from tests.match_world import *

pytestmark = pytest.mark.django_db

def test_smoke():
    load_rules()
    alice, bob, _ = players()
    print(armies.check(grey_knights()).as_dict())
    print(armies.check(cadians()).as_dict())
    game = mustering_game(alice, bob)
    matches.pick_army(game.pk, alice, saved(alice, grey_knights()).pk)
    game = matches.pick_army(game.pk, bob, saved(bob, cadians()).pk)
    print(game.status, game.version, game.state["stage"], game.state["awaiting"])
    from games.selectors import legal_actions_for
    print(legal_actions_for(game.state, 1))
    print([e.as_message() for e in game.events.all()])
