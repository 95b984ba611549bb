"""The rules data as Django models: what `rules/data/*.json` holds (`docs/rules-data-format.md`).

The files are the source of truth; the admin edits the same rows, `manage.py export_rules` writes
them back. Games never read these rows while under way: they freeze a bundle when they start.
"""

from __future__ import annotations

from dataclasses import fields as dataclass_fields

from django.core.exceptions import ValidationError
from django.db import models, transaction

from rules.engine import (
    DiceExpression,
    Edition,
    EditionError,
    WeaponAbility,
    parse_dice,
    parse_weapon_abilities,
)
from rules.fields import DiceField, TextListField, WeaponAbilitiesField
from rules.missions import MissionLayoutError, check_layout
from rules.vocabulary import (
    ABILITY_KINDS,
    BASE_SHAPES,
    DATASHEET_ABILITY_KINDS,
    STRATAGEM_LIMITS,
    STRATAGEM_PHASES,
    STRATAGEM_SCOPES,
    STRATAGEM_TRIGGERS,
    STRATAGEM_TURNS,
    WEAPON_TYPES,
    choices,
)

EDITION_PARAMETERS = tuple(
    field.name for field in dataclass_fields(Edition) if field.name != "slug"
)


class Record(models.Model):
    """What every top-level record of a bundle has: its identity, catalogue ID and source."""

    slug = models.SlugField(max_length=100, unique=True)
    name = models.CharField(max_length=200)
    catalogue_id = models.CharField(
        max_length=50, blank=True, help_text="Stable ID in shared/rules/CATALOGUE.md, if any."
    )
    source = models.CharField(max_length=500, blank=True)

    class Meta:
        abstract = True
        ordering = ["slug"]

    def __str__(self) -> str:
        return self.name


class RuleSet(Record):
    """An edition of the core rules, chosen per game; its parameters are the numbers that differ."""

    is_default = models.BooleanField(
        default=False, help_text="New games use this rule set unless the creator picks another."
    )

    class Meta(Record.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["is_default"],
                condition=models.Q(is_default=True),
                name="one_default_ruleset",
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.slug})"

    def save(self, *args, **kwargs) -> None:
        # Exactly one default: choosing this one un-chooses the previous one.
        with transaction.atomic():
            if self.is_default:
                RuleSet.objects.filter(is_default=True).exclude(pk=self.pk).update(is_default=False)
            super().save(*args, **kwargs)

    def clean(self) -> None:
        others_default = RuleSet.objects.filter(is_default=True).exclude(pk=self.pk).exists()
        if not self.is_default and not others_default:
            raise ValidationError(
                {"is_default": "One rule set must be the default: make another one the default."}
            )

    def parameter_values(self) -> dict:
        return {parameter.name: parameter.value for parameter in self.parameters.all()}

    def edition(self) -> Edition:
        return Edition.from_parameters(self.slug, self.parameter_values())


def edition_parameter_choices() -> list[tuple[str, str]]:
    """A callable, so adding a parameter to `Edition` needs no migration."""
    return choices(EDITION_PARAMETERS)


class RuleSetParameter(models.Model):
    """One parameter of a rule set (a field of `rules.engine.editions.Edition`)."""

    ruleset = models.ForeignKey(RuleSet, on_delete=models.CASCADE, related_name="parameters")
    name = models.CharField(max_length=60, choices=edition_parameter_choices)
    value = models.JSONField(help_text="A number, true/false, or one of the allowed names.")

    class Meta:
        ordering = ["ruleset", "name"]
        constraints = [
            models.UniqueConstraint(fields=["ruleset", "name"], name="one_value_per_parameter")
        ]

    def __str__(self) -> str:
        return f"{self.ruleset.slug}.{self.name} = {self.value!r}"

    def clean(self) -> None:
        """The whole set must still make an `Edition` with this value in it."""
        if self.ruleset_id is None or self.ruleset.pk is None:
            return  # a new rule set: its inline form set checks the whole set
        values = {
            parameter.name: parameter.value
            for parameter in self.ruleset.parameters.exclude(pk=self.pk)
        }
        values[self.name] = self.value
        try:
            Edition.from_parameters(self.ruleset.slug, values)
        except EditionError as error:
            raise ValidationError({"value": str(error)}) from error


class Faction(Record):
    faction_keyword = models.CharField(max_length=100, blank=True)
    wahapedia_id = models.CharField(max_length=20, blank=True)


class Ability(Record):
    """A core or faction ability; datasheet and wargear abilities live in their datasheet."""

    kind = models.CharField(max_length=10, choices=choices(ABILITY_KINDS))
    edition = models.ForeignKey(
        RuleSet,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        help_text="Only when the text differs per edition.",
    )
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, null=True, blank=True)
    text = models.TextField(blank=True)

    class Meta(Record.Meta):
        verbose_name_plural = "abilities"

    def clean(self) -> None:
        if self.kind == "faction" and self.faction_id is None:
            raise ValidationError({"faction": "A faction ability names its faction."})
        if self.kind == "core" and self.faction_id is not None:
            raise ValidationError({"faction": "A core ability belongs to no faction."})


class Detachment(Record):
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="detachments")


class DetachmentRule(models.Model):
    detachment = models.ForeignKey(Detachment, on_delete=models.CASCADE, related_name="rules")
    order = models.PositiveSmallIntegerField(default=0)
    name = models.CharField(max_length=200)
    text = models.TextField(blank=True)
    catalogue_id = models.CharField(max_length=50, blank=True)
    source = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["detachment", "order", "id"]

    def __str__(self) -> str:
        return self.name


class Stratagem(Record):
    edition = models.ForeignKey(
        RuleSet,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        help_text="Empty when the stratagem is used in both editions.",
    )
    scope = models.CharField(max_length=20, choices=choices(STRATAGEM_SCOPES))
    detachment = models.ForeignKey(
        Detachment, on_delete=models.CASCADE, null=True, blank=True, related_name="stratagems"
    )
    category = models.CharField(max_length=100, blank=True)
    section = models.CharField(max_length=100, blank=True, help_text="e.g. 15.02")
    cp_cost = models.PositiveSmallIntegerField("CP cost")
    phase = models.CharField(max_length=20, choices=choices(STRATAGEM_PHASES))
    turn = models.CharField(max_length=10, choices=choices(STRATAGEM_TURNS))
    trigger = models.CharField(max_length=40, choices=choices(STRATAGEM_TRIGGERS))
    additional_windows = models.JSONField(
        default=list,
        blank=True,
        help_text=(
            "Further windows when the stratagem prints several timings, each "
            '{"phase": ..., "turn": ..., "trigger": ...} (rulings SD-03).'
        ),
    )
    when_text = models.TextField(blank=True)
    target_text = models.TextField(blank=True)
    effect_text = models.TextField(blank=True)
    restrictions_text = models.TextField(blank=True)
    limit = models.CharField(max_length=20, choices=choices(STRATAGEM_LIMITS), default="none")

    @property
    def windows(self) -> list[dict[str, str]]:
        """Every window that opens this stratagem: the main one first."""
        main = {"phase": self.phase, "turn": self.turn, "trigger": self.trigger}
        return [main, *self.additional_windows]

    def clean(self) -> None:
        problem = window_problem(self.additional_windows)
        if problem:
            raise ValidationError({"additional_windows": problem})
        if self.scope == "detachment" and self.detachment_id is None:
            raise ValidationError({"detachment": "A detachment stratagem names its detachment."})
        if self.scope != "detachment" and self.detachment_id is not None:
            raise ValidationError(
                {"detachment": f"A {self.scope} stratagem belongs to no detachment."}
            )


def window_problem(windows: object) -> str | None:
    """Why a list of stratagem windows is not in the format's vocabulary, or None."""
    if not isinstance(windows, list):
        return "must be a list of windows"
    vocabularies = {
        "phase": STRATAGEM_PHASES,
        "turn": STRATAGEM_TURNS,
        "trigger": STRATAGEM_TRIGGERS,
    }
    for index, window in enumerate(windows):
        if not isinstance(window, dict) or set(window) != set(vocabularies):
            return f"window {index + 1} must have exactly phase, turn and trigger"
        for key, allowed in vocabularies.items():
            if window[key] not in allowed:
                return (
                    f"window {index + 1}: {key} {window[key]!r} is not one of {', '.join(allowed)}"
                )
    return None


class Enhancement(Record):
    detachment = models.ForeignKey(
        Detachment, on_delete=models.CASCADE, related_name="enhancements"
    )
    points = models.PositiveSmallIntegerField()
    eligible_keywords = TextListField()
    excluded_keywords = TextListField()
    restrictions_text = models.TextField(blank=True)
    effect_text = models.TextField(blank=True)


class Datasheet(Record):
    faction = models.ForeignKey(Faction, on_delete=models.CASCADE, related_name="datasheets")
    role = models.CharField(max_length=50, blank=True)
    keywords = TextListField()
    faction_keywords = TextListField()
    composition = TextListField()
    loadout = models.TextField(blank=True)
    wargear_options = TextListField()
    aliases = TextListField(
        help_text=(
            "Other names lists print for this datasheet (a renaming, another app's spelling); "
            "army list imports match them like the name."
        ),
    )
    leads = models.ManyToManyField(
        "self",
        symmetrical=False,
        blank=True,
        related_name="leaders",
        help_text="The datasheets this one can be attached to as a Leader.",
    )
    pending_leads = TextListField(
        help_text=(
            "Slugs in `leads` that name no datasheet loaded yet (a bodyguard of a faction not "
            "imported); each becomes a link as soon as that datasheet is loaded."
        ),
    )


class DatasheetPart(models.Model):
    """A row printed on a datasheet, kept in printed order."""

    datasheet = models.ForeignKey(Datasheet, on_delete=models.CASCADE)
    order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        abstract = True
        ordering = ["datasheet", "order", "id"]


class ModelProfile(DatasheetPart):
    datasheet = models.ForeignKey(Datasheet, on_delete=models.CASCADE, related_name="models")
    name = models.CharField(max_length=200)
    movement = models.PositiveSmallIntegerField("M", null=True, blank=True, help_text="inches")
    toughness = models.PositiveSmallIntegerField("T")
    save_roll = models.PositiveSmallIntegerField("Sv", null=True, blank=True)
    invulnerable_save = models.PositiveSmallIntegerField(null=True, blank=True)
    wounds = models.PositiveSmallIntegerField("W")
    leadership = models.PositiveSmallIntegerField("Ld", null=True, blank=True)
    objective_control = models.PositiveSmallIntegerField("OC", null=True, blank=True)
    base_shape = models.CharField(max_length=10, choices=choices(BASE_SHAPES), blank=True)
    base_diameter_mm = models.FloatField(null=True, blank=True)
    base_length_mm = models.FloatField(null=True, blank=True)
    base_width_mm = models.FloatField(null=True, blank=True)
    min_models = models.PositiveSmallIntegerField("min", default=1)
    max_models = models.PositiveSmallIntegerField("max", default=1)

    class Meta(DatasheetPart.Meta):
        pass

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.min_models > self.max_models:
            raise ValidationError({"min_models": "min is more than max"})
        if self.base_shape == "round":
            if self.base_diameter_mm is None:
                raise ValidationError({"base_diameter_mm": "a round base needs its diameter"})
            if self.base_length_mm is not None or self.base_width_mm is not None:
                raise ValidationError({"base_length_mm": "a round base has only a diameter"})
        elif self.base_shape in ("oval", "hull"):
            if self.base_length_mm is None or self.base_width_mm is None:
                raise ValidationError(
                    {"base_length_mm": f"an {self.base_shape} base needs length and width"}
                )
            if self.base_diameter_mm is not None:
                raise ValidationError(
                    {"base_diameter_mm": f"an {self.base_shape} base has no diameter"}
                )
        elif any(
            size is not None
            for size in (self.base_diameter_mm, self.base_length_mm, self.base_width_mm)
        ):
            raise ValidationError({"base_shape": "give the base's shape with its sizes"})


class WeaponProfile(DatasheetPart):
    datasheet = models.ForeignKey(Datasheet, on_delete=models.CASCADE, related_name="weapons")
    name = models.CharField(max_length=200)
    type = models.CharField(max_length=10, choices=choices(WEAPON_TYPES))
    range = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="inches; empty for melee"
    )
    attacks = DiceField("A")
    skill = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="BS/WS: 3 for 3+, empty for N/A"
    )
    strength = models.PositiveSmallIntegerField("S")
    armour_penetration = models.SmallIntegerField("AP", help_text="as printed: -1")
    damage = DiceField("D")
    abilities = WeaponAbilitiesField(
        help_text="As printed between the brackets: rapid fire 2, anti-infantry 4+"
    )

    class Meta(DatasheetPart.Meta):
        pass

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.armour_penetration is not None and self.armour_penetration > 0:
            raise ValidationError({"armour_penetration": "AP is printed as 0 or below (-1)"})

    @property
    def attacks_parsed(self) -> DiceExpression:
        return parse_dice(self.attacks)

    @property
    def damage_parsed(self) -> DiceExpression:
        return parse_dice(self.damage)

    @property
    def abilities_parsed(self) -> tuple[WeaponAbility, ...]:
        return parse_weapon_abilities(self.abilities)


class DatasheetAbility(DatasheetPart):
    datasheet = models.ForeignKey(Datasheet, on_delete=models.CASCADE, related_name="abilities")
    kind = models.CharField(max_length=10, choices=choices(DATASHEET_ABILITY_KINDS))
    name = models.CharField(max_length=200)
    # The format tells "no parameter" (null) from an empty one, so the column is nullable.
    parameter = models.CharField(  # noqa: DJ001
        max_length=50, blank=True, null=True, help_text='e.g. 6" for Scouts 6"'
    )
    text = models.TextField(blank=True)
    catalogue_id = models.CharField(max_length=50, blank=True)

    class Meta(DatasheetPart.Meta):
        verbose_name_plural = "datasheet abilities"

    def __str__(self) -> str:
        return self.name


class UnitSize(DatasheetPart):
    """Points for one unit size."""

    datasheet = models.ForeignKey(Datasheet, on_delete=models.CASCADE, related_name="points")
    models_count = models.PositiveSmallIntegerField("models")
    points = models.PositiveSmallIntegerField()
    label = models.CharField(
        max_length=200, blank=True, help_text="Which price this is, when a size has several."
    )
    condition = models.TextField(blank=True, help_text="When this price applies, as printed.")

    class Meta(DatasheetPart.Meta):
        verbose_name = "unit size and points"
        verbose_name_plural = "unit sizes and points"

    def __str__(self) -> str:
        return f"{self.models_count} models: {self.points} pts"


class Mission(Record):
    """A mission; its battlefield, deployment zones, objectives and terrain are `layout`, whose
    schema the engine owns (`docs/missions.md`)."""

    edition = models.ForeignKey(RuleSet, on_delete=models.PROTECT, null=True, blank=True)
    battle_size = models.CharField(max_length=50, blank=True, editable=False)
    layout = models.JSONField(
        default=dict, help_text="Everything of the mission record but its slug, name, edition."
    )

    def save(self, *args, **kwargs) -> None:
        battle_size = self.layout.get("battle_size") if isinstance(self.layout, dict) else None
        self.battle_size = str(battle_size or "")
        super().save(*args, **kwargs)

    def clean(self) -> None:
        try:
            check_layout(self.layout)
        except MissionLayoutError as error:
            raise ValidationError({"layout": str(error)}) from error
