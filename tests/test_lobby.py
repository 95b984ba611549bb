"""Accounts, the lobby, invite and spectator links, and the game lifecycle outside the battle."""

import pytest
from django.core.management import call_command

from games import services
from games.models import Game
from rules.engine.core.dice import seed_commitment

PASSWORD = "a-long-test-password"


@pytest.fixture(autouse=True)
def rules_data(db):
    call_command("load_rules", verbosity=0)


@pytest.fixture
def bob(django_user_model):
    return django_user_model.objects.create_user("bob", password=PASSWORD)


@pytest.fixture
def carol(django_user_model):
    return django_user_model.objects.create_user("carol", password=PASSWORD)


def test_sign_up_logs_the_new_player_in(client):
    response = client.post(
        "/accounts/sign-up/",
        {"username": "dana", "password1": "tabletop-dice-9", "password2": "tabletop-dice-9"},
    )
    assert response.status_code == 302
    assert client.get("/games/").status_code == 200


def test_log_in_log_out_and_password_change(client, player):
    assert (
        client.post("/accounts/login/", {"username": "alice", "password": PASSWORD}).status_code
        == 302
    )
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": PASSWORD,
            "new_password1": "new-dice-tray-77",
            "new_password2": "new-dice-tray-77",
        },
    )
    assert response.status_code == 302
    client.post("/accounts/logout/")
    assert client.get("/games/").status_code == 302  # back to the login page
    logged_in = client.post(
        "/accounts/login/", {"username": "alice", "password": "new-dice-tray-77"}
    )
    assert logged_in.status_code == 302


def test_creating_a_game_gives_invite_and_spectator_links(client, player):
    client.force_login(player)
    response = client.post("/games/", {"ruleset": "10e", "battle_size": "incursion"})
    game = Game.objects.get()
    assert response.url == f"/games/{game.pk}/"
    assert game.ruleset.slug == "10e" and game.status == Game.Status.WAITING
    assert game.seed_commitment == seed_commitment(game.dice_seed)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f"/games/join/{game.invite_token}/" in page
    assert f"/games/{game.pk}/watch/{game.spectator_token}/" in page
    assert game.dice_seed not in page  # secret until the end


def test_new_games_use_the_default_edition(player):
    assert services.create_game(player).ruleset.slug == "11e"


def test_the_invite_link_seats_the_first_person_and_then_is_refused(client, player, bob, carol):
    game = services.create_game(player)
    client.force_login(bob)
    assert client.get(f"/games/join/{game.invite_token}/").status_code == 302
    game.refresh_from_db()
    assert game.opponent == bob and game.status == Game.Status.MUSTERING
    client.force_login(carol)
    refused = client.get(f"/games/join/{game.invite_token}/")
    assert refused.status_code == 409
    assert "already been used" in refused.content.decode()
    game.refresh_from_db()
    assert game.opponent == bob


def test_the_creator_cannot_join_their_own_game(player):
    game = services.create_game(player)
    with pytest.raises(services.GameError) as error:
        services.join_by_invite(game.invite_token, player)
    assert error.value.code == "invite_own_game"


def test_the_spectator_link_is_read_only_for_anyone_and_revocable(client, player, bob):
    game = services.create_game(player)
    watch = f"/games/{game.pk}/watch/{game.spectator_token}/"
    assert client.get(watch).status_code == 200  # no account needed
    with pytest.raises(services.GameError):
        services.revoke_spectator_link(game, bob)
    client.force_login(player)
    client.post(f"/games/{game.pk}/spectators/revoke/")
    client.logout()
    assert client.get(watch).status_code == 404


def test_the_lobby_lists_my_games_and_their_state(client, player, bob, carol):
    mine = services.create_game(player)
    services.join_by_invite(mine.invite_token, bob)
    services.create_game(carol)
    client.force_login(bob)
    page = client.get("/games/").content.decode()
    assert f"Game {mine.pk}" in page and "Mustering" in page
    assert page.count("/games/") >= 1 and "carol" not in page


def test_cancel_before_the_battle_and_concede(player, bob):
    game = services.create_game(player)
    with pytest.raises(services.GameError):
        services.cancel_game(game, bob)
    assert services.cancel_game(game, player).status == Game.Status.ABANDONED

    game = services.create_game(player)
    services.join_by_invite(game.invite_token, bob)
    conceded = services.concede(game, bob)
    assert (conceded.status, conceded.winner) == (Game.Status.FINISHED, 1)
    assert services.revealed_seed(conceded) == conceded.dice_seed


def test_strangers_cannot_see_a_game_page(client, player, carol):
    game = services.create_game(player)
    client.force_login(carol)
    assert client.get(f"/games/{game.pk}/").status_code == 404
