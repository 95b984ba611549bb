"""Read-only representations of rules data for the JSON API, with parsed values beside the text.

Keys follow the bundle format (`docs/rules-data-format.md`: `A`, `S`, `AP`, `D`, `when`, `leads`)
so a client reads one vocabulary; `*_parsed` fields show what `rules.engine.notation` makes of them.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from rules.engine import WargearTextError, choices_offered
from rules.models import (
    Ability,
    Datasheet,
    DatasheetAbility,
    Detachment,
    DetachmentRule,
    Enhancement,
    Faction,
    Mission,
    ModelProfile,
    RuleSet,
    Stratagem,
    UnitSize,
    WeaponProfile,
)


def _texts() -> serializers.ListField:
    return serializers.ListField(child=serializers.CharField(), read_only=True)


class DiceSerializer(serializers.Serializer):
    """A parsed dice expression: `count` D`sides` + `modifier`."""

    text = serializers.CharField(source="__str__", read_only=True)
    count = serializers.IntegerField(read_only=True)
    sides = serializers.IntegerField(read_only=True)
    modifier = serializers.IntegerField(read_only=True)
    minimum = serializers.IntegerField(read_only=True)
    maximum = serializers.IntegerField(read_only=True)
    mean = serializers.FloatField(read_only=True)


class WeaponAbilitySerializer(serializers.Serializer):
    """A parsed weapon ability: `value` of RAPID FIRE 2; `keyword`, `threshold` of ANTI-X 4+."""

    name = serializers.CharField(read_only=True)
    value = DiceSerializer(read_only=True, allow_null=True)
    keyword = serializers.CharField(read_only=True, allow_null=True)
    threshold = serializers.IntegerField(read_only=True, allow_null=True)


class WeaponProfileSerializer(serializers.ModelSerializer):
    A = serializers.CharField(source="attacks", read_only=True)
    A_parsed = DiceSerializer(source="attacks_parsed", read_only=True)
    S = serializers.IntegerField(source="strength", read_only=True)
    AP = serializers.IntegerField(source="armour_penetration", read_only=True)
    D = serializers.CharField(source="damage", read_only=True)
    D_parsed = DiceSerializer(source="damage_parsed", read_only=True)
    abilities = _texts()
    abilities_parsed = WeaponAbilitySerializer(many=True, read_only=True)

    class Meta:
        model = WeaponProfile
        fields = [
            "name",
            "type",
            "range",
            "A",
            "A_parsed",
            "skill",
            "S",
            "AP",
            "D",
            "D_parsed",
            "abilities",
            "abilities_parsed",
        ]


class BaseSerializer(serializers.Serializer):
    shape = serializers.CharField(source="base_shape", read_only=True)
    diameter_mm = serializers.FloatField(source="base_diameter_mm", read_only=True, allow_null=True)
    length_mm = serializers.FloatField(source="base_length_mm", read_only=True, allow_null=True)
    width_mm = serializers.FloatField(source="base_width_mm", read_only=True, allow_null=True)


class ModelProfileSerializer(serializers.ModelSerializer):
    M = serializers.IntegerField(source="movement", read_only=True, allow_null=True)
    T = serializers.IntegerField(source="toughness", read_only=True)
    Sv = serializers.IntegerField(source="save_roll", read_only=True, allow_null=True)
    W = serializers.IntegerField(source="wounds", read_only=True)
    Ld = serializers.IntegerField(source="leadership", read_only=True, allow_null=True)
    OC = serializers.IntegerField(source="objective_control", read_only=True, allow_null=True)
    base = BaseSerializer(source="*", read_only=True)
    min = serializers.IntegerField(source="min_models", read_only=True)
    max = serializers.IntegerField(source="max_models", read_only=True)

    class Meta:
        model = ModelProfile
        fields = [
            "name",
            "M",
            "T",
            "Sv",
            "invulnerable_save",
            "W",
            "Ld",
            "OC",
            "base",
            "min",
            "max",
        ]


class DatasheetAbilitySerializer(serializers.ModelSerializer):
    class Meta:
        model = DatasheetAbility
        fields = ["name", "kind", "parameter", "text"]


class UnitSizeSerializer(serializers.ModelSerializer):
    models = serializers.IntegerField(source="models_count", read_only=True)

    class Meta:
        model = UnitSize
        fields = ["models", "points"]


def _slug(**kwargs) -> serializers.SlugRelatedField:
    return serializers.SlugRelatedField(slug_field="slug", read_only=True, **kwargs)


class DatasheetSerializer(serializers.ModelSerializer):
    faction = _slug()
    keywords = _texts()
    faction_keywords = _texts()
    composition = _texts()
    wargear_options = _texts()
    models = ModelProfileSerializer(many=True, read_only=True)
    weapons = WeaponProfileSerializer(many=True, read_only=True)
    abilities = DatasheetAbilitySerializer(many=True, read_only=True)
    points = UnitSizeSerializer(many=True, read_only=True)
    leads = _slug(many=True)
    leaders = _slug(many=True)
    wargear_choices = serializers.SerializerMethodField(
        help_text="The wargear options an army list can choose: `option` and `choice` indexes, "
        "labels, and how many models may take each option per unit size (docs/engine.md)."
    )

    class Meta:
        model = Datasheet
        fields = [
            "slug",
            "name",
            "faction",
            "role",
            "keywords",
            "faction_keywords",
            "models",
            "weapons",
            "abilities",
            "composition",
            "loadout",
            "wargear_options",
            "wargear_choices",
            "points",
            "leads",
            "leaders",
            "catalogue_id",
            "source",
        ]

    @extend_schema_field(serializers.ListField(child=serializers.DictField()))
    def get_wargear_choices(self, datasheet: Datasheet) -> list[dict]:
        record = {
            "name": datasheet.name,
            "composition": list(datasheet.composition),
            "loadout": datasheet.loadout,
            "wargear_options": list(datasheet.wargear_options),
            "weapons": [{"name": w.name} for w in datasheet.weapons.all()],
            "abilities": [{"name": a.name, "kind": a.kind} for a in datasheet.abilities.all()],
            "points": [{"models": size.models_count} for size in datasheet.points.all()],
        }
        try:
            return choices_offered(record)
        except WargearTextError:
            return []  # a text of an unknown shape: an army check names it (wargear_text_unknown)


class FactionSerializer(serializers.ModelSerializer):
    class Meta:
        model = Faction
        fields = ["slug", "name", "faction_keyword", "wahapedia_id", "catalogue_id", "source"]


class AbilitySerializer(serializers.ModelSerializer):
    edition = _slug(allow_null=True)
    faction = _slug(allow_null=True)

    class Meta:
        model = Ability
        fields = ["slug", "name", "kind", "edition", "faction", "text", "catalogue_id", "source"]


class DetachmentRuleSerializer(serializers.ModelSerializer):
    class Meta:
        model = DetachmentRule
        fields = ["name", "text", "catalogue_id", "source"]


# Rulings SD-16 (issue 14 defect 25): a detachment whose rule the seeds do not print is
# selectable for its stratagems and enhancements, and labelled so wherever it is shown.
NO_PRINTED_DETACHMENT_RULE = (
    "no printed detachment rule: only its stratagems and enhancements apply"
)


class DetachmentSerializer(serializers.ModelSerializer):
    faction = _slug()
    rules = DetachmentRuleSerializer(many=True, read_only=True)
    note = serializers.SerializerMethodField()

    class Meta:
        model = Detachment
        fields = ["slug", "name", "faction", "rules", "note", "catalogue_id", "source"]

    def get_note(self, detachment: Detachment) -> str:
        """The label of a detachment without a printed rule (SD-16), else empty."""
        return "" if list(detachment.rules.all()) else NO_PRINTED_DETACHMENT_RULE


class WhenSerializer(serializers.Serializer):
    """When a stratagem may be used: the window the engine opens (`phase`, `turn`, `trigger`)."""

    phase = serializers.CharField(read_only=True)
    turn = serializers.CharField(read_only=True)
    trigger = serializers.CharField(read_only=True)


class StratagemSerializer(serializers.ModelSerializer):
    edition = _slug(allow_null=True)
    detachment = _slug(allow_null=True)
    when = WhenSerializer(source="*", read_only=True)
    windows = WhenSerializer(many=True, read_only=True)

    class Meta:
        model = Stratagem
        fields = [
            "slug",
            "name",
            "edition",
            "scope",
            "detachment",
            "category",
            "section",
            "cp_cost",
            "when",
            "windows",
            "when_text",
            "target_text",
            "effect_text",
            "restrictions_text",
            "limit",
            "catalogue_id",
            "source",
        ]


class EnhancementSerializer(serializers.ModelSerializer):
    detachment = _slug()
    eligible_keywords = _texts()
    excluded_keywords = _texts()

    class Meta:
        model = Enhancement
        fields = [
            "slug",
            "name",
            "detachment",
            "points",
            "eligible_keywords",
            "excluded_keywords",
            "restrictions_text",
            "effect_text",
            "catalogue_id",
            "source",
        ]


class RuleSetSerializer(serializers.ModelSerializer):
    parameters = serializers.DictField(
        source="parameter_values",
        child=serializers.JSONField(),
        read_only=True,
        help_text="Every parameter of rules.engine.editions.Edition and its value.",
    )

    class Meta:
        model = RuleSet
        fields = ["slug", "name", "is_default", "parameters", "catalogue_id", "source"]


class MissionSerializer(serializers.ModelSerializer):
    edition = _slug(allow_null=True)
    layout = serializers.DictField(
        child=serializers.JSONField(), read_only=True, help_text="Schema: docs/missions.md."
    )

    class Meta:
        model = Mission
        fields = ["slug", "name", "edition", "battle_size", "layout", "catalogue_id", "source"]
