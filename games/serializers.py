from rest_framework import serializers

from games.models import BattleSize, ChatMessage, Game, GameEvent


class GameSerializer(serializers.ModelSerializer):
    edition = serializers.SlugRelatedField(source="ruleset", slug_field="slug", read_only=True)
    creator = serializers.CharField(source="creator.username", read_only=True)
    opponent = serializers.CharField(source="opponent.username", read_only=True, default=None)
    dice_seed = serializers.SerializerMethodField()

    class Meta:
        model = Game
        fields = [
            "id",
            "edition",
            "battle_size",
            "mission",
            "window_time_limit",
            "status",
            "creator",
            "opponent",
            "version",
            "seed_commitment",
            "dice_seed",
            "winner",
            "created",
            "updated",
        ]
        read_only_fields = fields

    def get_dice_seed(self, game: Game) -> str | None:
        return game.dice_seed if game.is_over else None


class GameLinksSerializer(GameSerializer):
    invite_token = serializers.CharField(read_only=True)
    spectator_token = serializers.CharField(read_only=True, allow_null=True)

    class Meta(GameSerializer.Meta):
        fields = [*GameSerializer.Meta.fields, "invite_token", "spectator_token"]
        read_only_fields = fields


class NewGameSerializer(serializers.Serializer):
    edition = serializers.SlugField(
        required=False, help_text="Rule set slug; the default if empty."
    )
    battle_size = serializers.ChoiceField(choices=BattleSize.choices, default=BattleSize.INCURSION)
    mission = serializers.SlugField(required=False, allow_blank=True, default="")
    window_time_limit = serializers.IntegerField(required=False, allow_null=True, min_value=5)


class JoinSerializer(serializers.Serializer):
    invite_token = serializers.CharField()


class GameEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = GameEvent
        fields = ["sequence", "kind", "payload", "created"]


class ChatMessageSerializer(serializers.ModelSerializer):
    author = serializers.CharField(source="author.username", read_only=True)

    class Meta:
        model = ChatMessage
        fields = ["id", "seat", "author", "text", "created"]
