from django.contrib import admin

from games.models import Army, ChatMessage, Game, GameEvent


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["pk", "creator", "opponent", "ruleset", "battle_size", "status", "version"]
    list_filter = ["status", "ruleset", "battle_size"]
    search_fields = ["creator__username", "opponent__username"]
    readonly_fields = ["dice_seed", "seed_commitment", "version", "state", "army_snapshots"]


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):
    list_display = ["game", "sequence", "kind", "created"]
    list_filter = ["kind"]

    def has_change_permission(self, request, obj=None) -> bool:
        return False  # the log is append-only


@admin.register(Army)
class ArmyAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "faction", "detachment", "battle_size"]
    list_filter = ["faction", "battle_size"]


@admin.register(ChatMessage)
class ChatMessageAdmin(admin.ModelAdmin):
    list_display = ["game", "seat", "author", "text", "created"]
