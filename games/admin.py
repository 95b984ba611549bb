from django.contrib import admin

from games.models import Army, ChatMessage, Game, GameEvent, GameSnapshot


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["pk", "creator", "opponent", "ruleset", "battle_size", "status", "version"]
    list_filter = ["status", "ruleset", "battle_size"]
    search_fields = ["creator__username", "opponent__username"]
    readonly_fields = [
        "dice_seed",
        "seed_commitment",
        "version",
        "state",
        "army_snapshots",
        "setup",
        "window_decision",
        "window_deadline",
    ]


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ["game", "sequence", "kind", "created"]
    list_filter = ["kind"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # the log is append-only


@admin.register(GameSnapshot)
class GameSnapshotAdmin(admin.ModelAdmin):
    list_display = ["game", "version", "created"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # a snapshot is the state the log produced


@admin.register(Army)
class ArmyAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "faction", "detachment", "battle_size"]
    list_filter = ["faction", "battle_size"]


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["game", "seat", "author", "text", "created"]
