from rest_framework import serializers

from games.models import Army, BattleSize, ChatMessage, Game, GameEvent
from games.services import MAX_WINDOW_TIME_LIMIT


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
    window_time_limit = serializers.IntegerField(
        required=False, allow_null=True, min_value=5, max_value=MAX_WINDOW_TIME_LIMIT
    )


class JoinSerializer(serializers.Serializer):
    invite_token = serializers.RegexField(r"^[A-Za-z0-9_-]{8,64}$", max_length=64)


class GameEventSerializer(serializers.ModelSerializer):
    class Meta:
        model = GameEvent
        fields = ["sequence", "kind", "payload", "created"]


class ChatMessageSerializer(serializers.ModelSerializer):
    author = serializers.CharField(source="author.username", read_only=True)

    class Meta:
        model = ChatMessage
        fields = ["id", "seat", "author", "text", "created"]


class WargearChoiceSerializer(serializers.Serializer):
    """One wargear choice of a unit: `models` models take choice `choice` of the datasheet's
    option `option` (indexes of the datasheet's `wargear_choices`)."""

    option = serializers.IntegerField(min_value=0, max_value=100)
    choice = serializers.IntegerField(min_value=0, max_value=100)
    models = serializers.IntegerField(min_value=1, max_value=100)


class ArmyUnitSerializer(serializers.Serializer):
    """One entry of an army list (the engine's format, docs/engine.md)."""

    key = serializers.CharField(max_length=40)
    datasheet = serializers.SlugField(max_length=100)
    models = serializers.IntegerField(min_value=1, max_value=100)
    wargear = WargearChoiceSerializer(many=True, default=list)
    warlord = serializers.BooleanField(default=False)
    enhancements = serializers.ListField(child=serializers.SlugField(max_length=100), default=list)
    attached_to = serializers.CharField(max_length=40, required=False, allow_null=True)
    role = serializers.ChoiceField(choices=["leader", "support"], required=False)


class ArmySerializer(serializers.ModelSerializer):
    units = ArmyUnitSerializer(many=True)

    class Meta:
        model = Army
        fields = [
            "id",
            "name",
            "faction",
            "detachment",
            "battle_size",
            "units",
            "created",
            "updated",
        ]
        read_only_fields = ["id", "created", "updated"]


class ArmyProblemSerializer(serializers.Serializer):
    code = serializers.CharField()
    rule = serializers.CharField()
    message = serializers.CharField()
    unit = serializers.CharField(required=False, help_text="The key of the entry at fault.")


class NotEnforcedRuleSerializer(serializers.Serializer):
    kind = serializers.CharField()
    name = serializers.CharField()
    units = serializers.ListField(child=serializers.CharField(), help_text="Datasheet names.")
    note = serializers.CharField(help_text='"not enforced: apply by agreement"')


class ArmyCheckSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    points = serializers.IntegerField()
    limit = serializers.IntegerField(allow_null=True)
    unit_points = serializers.DictField(child=serializers.IntegerField())
    problems = ArmyProblemSerializer(many=True)
    not_enforced = NotEnforcedRuleSerializer(
        many=True,
        required=False,
        help_text="The army's rules the engine does not enforce (the builder check and import).",
    )


class ArmyCheckRequestSerializer(ArmySerializer):
    edition = serializers.SlugField(
        required=False, help_text="Rule set slug; the default if empty."
    )

    class Meta(ArmySerializer.Meta):
        fields = [*ArmySerializer.Meta.fields, "edition"]


class PickArmySerializer(serializers.Serializer):
    army = serializers.IntegerField(
        min_value=1, max_value=2**63 - 1, help_text="The id of one of your armies."
    )


class GameStateSerializer(serializers.Serializer):
    version = serializers.IntegerField(help_text="How many events the game's log holds.")
    status = serializers.ChoiceField(choices=Game.Status.choices)
    state = serializers.JSONField(
        allow_null=True, help_text="The engine state without the dice seed (docs/engine.md)."
    )
    window = serializers.JSONField(
        allow_null=True, help_text="The stratagem window on the clock: decision and deadline."
    )
    legal_actions = serializers.ListField(
        child=serializers.JSONField(), required=False, help_text="Only for your own seat."
    )


class ArmyImportRequestSerializer(serializers.Serializer):
    text = serializers.CharField(
        required=False,
        allow_blank=False,
        trim_whitespace=False,
        help_text="A pasted list: the Warhammer 40,000 app's text export or a roster's JSON.",
    )
    file = serializers.FileField(
        required=False, help_text="An uploaded list: .txt, .json, .ros or .rosz (at most 512 KB)."
    )
    edition = serializers.SlugField(
        required=False, help_text="Rule set slug; the default if empty."
    )

    def validate(self, attrs):
        if bool(attrs.get("text")) == bool(attrs.get("file")):
            raise serializers.ValidationError("Send either `text` or `file`.")
        return attrs


class ImportReportLineSerializer(serializers.Serializer):
    line = serializers.IntegerField(help_text="Line number (a roster: its entry number).")
    text = serializers.CharField()
    code = serializers.CharField(
        help_text="unknown_datasheet, unknown_wargear, wargear_not_offered, points_differ, "
        "size_not_offered, unknown_enhancement, enhancement_not_in_detachment, "
        "attachment_unknown, unknown_header_line, battle_size_unknown, unread_line"
    )
    message = serializers.CharField()


class LeaderProposalSerializer(serializers.Serializer):
    leader = serializers.CharField(help_text="The key of a Leader the list does not attach.")
    bodyguards = serializers.ListField(child=serializers.CharField())
    message = serializers.CharField()


class ArmyImportSerializer(serializers.Serializer):
    format = serializers.CharField()
    army = ArmySerializer(help_text="Not saved: fix it in the builder, then save it.")
    report = ImportReportLineSerializer(many=True)
    proposals = LeaderProposalSerializer(many=True)
    check = ArmyCheckSerializer()


class ArmyExportSerializer(serializers.Serializer):
    text = serializers.CharField(help_text="The army in the Warhammer 40,000 app's text format.")


class ShotPreviewRequestSerializer(serializers.Serializer):
    unit = serializers.CharField(max_length=32, help_text="Your unit that would shoot or fight.")
    kind = serializers.ChoiceField(
        choices=["shoot", "fight"], default="shoot", help_text="A shot, or the melee attacks."
    )
    assignments = serializers.ListField(
        child=serializers.JSONField(),
        max_length=40,
        required=False,
        help_text="As the shoot action's: [{weapon, models?, target}]; none: only the reasons.",
    )


class ShotPreviewSerializer(serializers.Serializer):
    trials = serializers.IntegerField()
    targets = serializers.JSONField(
        help_text="Per target unit: models, and damage and models_destroyed as "
        "{mean, distribution} (item k: the probability of exactly k)."
    )
    groups = serializers.JSONField(help_text="Per attack group: weapon, target, expected_damage.")
    unavailable = serializers.JSONField(help_text="Enemy units it cannot shoot, with why not.")
    refusal = serializers.JSONField(
        required=False, help_text="Why these assignments would be refused."
    )


class ActionCheckRequestSerializer(serializers.Serializer):
    action = serializers.DictField(help_text="An engine action as sent over the game socket.")


class ActionCheckSerializer(serializers.Serializer):
    accepted = serializers.BooleanField()
    code = serializers.CharField(required=False)
    rule = serializers.CharField(required=False)
    message = serializers.CharField(required=False)
    costs = serializers.DictField(
        child=serializers.FloatField(), required=False, help_text="Inches moved per model."
    )
