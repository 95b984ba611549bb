from django.urls import path

from games import views
from tabletop import converters  # noqa: F401 - registers <id:> and <token:>

urlpatterns = [
    path("accounts/sign-up/", views.sign_up, name="sign-up"),
    path("games/", views.lobby, name="lobby"),
    path("games/practice/", views.practice_game, name="game-practice"),
    path("games/<id:game_id>/", views.game_detail, name="game-detail"),
    path("games/<id:game_id>/watch/<token:token>/", views.spectate, name="game-spectate"),
    path("games/join/<token:token>/", views.join, name="game-join"),
    path(
        "games/<id:game_id>/spectators/revoke/",
        views.revoke_spectators,
        name="game-revoke-spectators",
    ),
    path(
        "games/<id:game_id>/spectators/renew/",
        views.renew_spectators,
        name="game-renew-spectators",
    ),
    path("games/<id:game_id>/cancel/", views.cancel, name="game-cancel"),
    path("games/<id:game_id>/army/", views.pick_army, name="game-pick-army"),
    path("armies/", views.army_builder, name="army-builder"),
    path("games/<id:game_id>/log/", views.game_log, name="game-log"),
    path("games/<id:game_id>/result/", views.game_result, name="game-result"),
    path("games/<id:game_id>/verify-dice/", views.verify_dice, name="game-verify-dice"),
    path("games/<id:game_id>/replay/", views.replay, name="game-replay"),
    path("games/<id:game_id>/replay/state/", views.replay_state, name="game-replay-state"),
    path("games/<id:game_id>/concede/", views.concede, name="game-concede"),
]
