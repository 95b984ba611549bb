import json

from django.contrib import admin

from games.models import Army, ChatMessage, Game, GameEvent, GameSnapshot
from rules.engine import public_state

HIDDEN_SEED = "hidden until the game ends"


class SecretSeedMixin:
    """Nobody, staff included, reads a game's dice seed while it is played: an organiser who plays
    could foresee every die. The seed and the state holding it are shown once the game is over."""

    @admin.display(description="dice seed")
    def revealed_dice_seed(self, obj) -> str:
        game = obj if isinstance(obj, Game) else obj.game
        return game.dice_seed if game.is_over else HIDDEN_SEED

    @admin.display(description="state")
    def visible_state(self, obj) -> str:
        game = obj if isinstance(obj, Game) else obj.game
        if obj.state is None:
            return "-"
        shown = obj.state if game.is_over else public_state(obj.state)
        return json.dumps(shown, indent=1, sort_keys=True)


@admin.register(Game)
class GameAdmin(SecretSeedMixin, admin.ModelAdmin):
    list_display = ["pk", "creator", "opponent", "ruleset", "battle_size", "status", "version"]
    list_filter = ["status", "ruleset", "battle_size"]
    search_fields = ["creator__username", "opponent__username"]
    exclude = ["dice_seed", "stored_state", "state_version"]
    readonly_fields = [
        "revealed_dice_seed",
        "seed_commitment",
        "version",
        "visible_state",
        "army_snapshots",
        "setup",
        "window_decision",
        "window_deadline",
    ]


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ["game", "sequence", "kind", "created"]
    list_filter = ["kind"]
    exclude = ["state_patch"]  # a change of the state, hidden as the state is

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # the log is append-only


@admin.register(GameSnapshot)
class GameSnapshotAdmin(SecretSeedMixin, admin.ModelAdmin):
    list_display = ["game", "version", "created"]
    exclude = ["state"]
    readonly_fields = ["visible_state"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # a snapshot is the state the log produced


@admin.register(Army)
class ArmyAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "faction", "detachment", "battle_size"]
    list_filter = ["faction", "battle_size"]


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["game", "seat", "author", "text", "created"]
