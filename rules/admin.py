"""The admin for rules data: edit what the files hold; refusals carry the parsers' messages.

Only staff reach it (Django's default). Edits change the next game created, never one under way.
"""

from __future__ import annotations

import json
from dataclasses import fields as dataclass_fields
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet

from rules.engine import Edition, EditionError, parameter_choices
from rules.fields import ParagraphListFormField
from rules.models import (
    EDITION_PARAMETERS,
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
    RuleSetParameter,
    Stratagem,
    UnitSize,
    WeaponProfile,
)
from rules.previews import describe_dice, describe_weapon_abilities
from rules.records import RulesDataError
from rules.wahapedia import ExportError, UnknownName
from rules.wahapedia_load import ALL_FACTIONS, import_factions

PARAMETER_KINDS = {field.name: field.type for field in dataclass_fields(Edition)}


def allowed_values(name: str) -> str:
    """What a parameter accepts, as `Edition.from_parameters` checks it."""
    choices = parameter_choices(name)
    if choices is not None:
        return "one of: " + ", ".join(sorted(choices))
    return {
        "float": "a distance or size, 0 or more",
        "int": "a whole number, 0 or more",
        "bool": "true or false",
    }.get(PARAMETER_KINDS.get(name, ""), "a value")


# --- rule sets ------------------------------------------------------------------------------


class ParameterValueField(forms.CharField):
    """A JSON value (`2`, `2.5`, `true`) or a bare strategy name (`dash`)."""

    def to_python(self, value: Any) -> Any:
        text = (super().to_python(value) or "").strip()
        try:
            return json.loads(text)
        except ValueError:
            return text

    def prepare_value(self, value: Any) -> Any:
        return value if isinstance(value, str) else json.dumps(value)


class RuleSetParameterForm(forms.ModelForm):
    value = ParameterValueField(help_text="A number, true/false, or one of the allowed names.")

    class Meta:
        model = RuleSetParameter
        fields = ["ruleset", "name", "value"]

    def has_changed(self) -> bool:
        # A prefilled row of a new rule set is saved even when left as it was.
        return self.instance.pk is None or super().has_changed()


class ParameterFormSet(BaseInlineFormSet):
    def clean(self) -> None:
        """The whole set must make an `Edition`: no parameter missing, unknown or mistyped."""
        super().clean()
        if any(self.errors):
            return
        values = {
            form.cleaned_data["name"]: form.cleaned_data["value"]
            for form in self.forms
            if form.cleaned_data and not form.cleaned_data.get("DELETE")
        }
        try:
            Edition.from_parameters(self.instance.slug or "new rule set", values)
        except EditionError as error:
            raise ValidationError(str(error)) from error


class RuleSetParameterInline(admin.TabularInline):
    model = RuleSetParameter
    form = RuleSetParameterForm
    formset = ParameterFormSet
    fields = ["name", "value", "allowed"]
    readonly_fields = ["allowed"]
    max_num = len(EDITION_PARAMETERS)

    def get_extra(self, request, obj: RuleSet | None = None, **kwargs: Any) -> int:
        return len(_missing_parameters(obj))

    @admin.display(description="allowed values")
    def allowed(self, parameter: RuleSetParameter) -> str:
        return allowed_values(parameter.name) if parameter.name else "-"


def _missing_parameters(ruleset: RuleSet | None) -> list[str]:
    present = set(ruleset.parameters.values_list("name", flat=True)) if ruleset else set()
    return [name for name in EDITION_PARAMETERS if name not in present]


@admin.register(RuleSet)
class RuleSetAdmin(admin.ModelAdmin):
    list_display = ["slug", "name", "is_default", "source"]
    list_filter = ["is_default"]
    search_fields = ["slug", "name"]
    inlines = [RuleSetParameterInline]

    def get_formset_kwargs(self, request, obj, inline, prefix) -> dict:
        kwargs = super().get_formset_kwargs(request, obj, inline, prefix)
        if isinstance(inline, RuleSetParameterInline):
            # A new rule set starts as a copy of the default one's parameters.
            default = RuleSet.objects.filter(is_default=True).first()
            start = default.parameter_values() if default else {}
            kwargs["initial"] = [
                {"name": name, "value": start.get(name)}
                for name in _missing_parameters(obj if obj and obj.pk else None)
            ]
        return kwargs


@admin.register(RuleSetParameter)
class RuleSetParameterAdmin(admin.ModelAdmin):
    form = RuleSetParameterForm
    list_display = ["name", "ruleset", "value", "allowed"]
    list_filter = ["ruleset"]
    search_fields = ["name"]
    readonly_fields = ["allowed"]

    @admin.display(description="allowed values")
    def allowed(self, parameter: RuleSetParameter) -> str:
        return allowed_values(parameter.name) if parameter.name else "-"


# --- factions, abilities, detachments ----------------------------------------------------------


def _import_wahapedia(modeladmin, request, factions: list[str]) -> None:
    """Load factions from settings.WAHAPEDIA_EXPORT_DIR as `import_wahapedia` does: idempotent,
    every row left out reported (the full report is the command's)."""
    directory = settings.WAHAPEDIA_EXPORT_DIR
    try:
        result = import_factions(directory, factions)
    except (ExportError, UnknownName, RulesDataError) as error:
        modeladmin.message_user(request, f"Not imported: {error}", messages.ERROR)
        return
    modeladmin.message_user(
        request,
        f"{result.summary()} from {directory}; {len(result.report)} rows or fields left out "
        "(manage.py import_wahapedia lists them).",
        messages.SUCCESS,
    )
    for faction in result.coverage:
        if faction.skipped:
            modeladmin.message_user(
                request,
                f"{faction.name}: not loaded: {', '.join(faction.skipped)}",
                messages.WARNING,
            )


@admin.register(Faction)
class FactionAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "faction_keyword", "wahapedia_id", "source"]
    search_fields = ["name", "slug", "faction_keyword"]
    actions = ["import_selected_from_wahapedia", "import_every_faction_from_wahapedia"]

    @admin.action(description="Import the selected factions again from the Wahapedia export")
    def import_selected_from_wahapedia(self, request, queryset):
        wanted = [faction.wahapedia_id for faction in queryset if faction.wahapedia_id]
        if not wanted:
            self.message_user(request, "None of these factions has a Wahapedia id.", messages.ERROR)
            return
        _import_wahapedia(self, request, wanted)

    @admin.action(description="Import every faction of the Wahapedia export (any selection)")
    def import_every_faction_from_wahapedia(self, request, queryset):
        _import_wahapedia(self, request, [ALL_FACTIONS])


@admin.register(Ability)
class AbilityAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "kind", "edition", "faction", "catalogue_id"]
    list_filter = ["kind", "edition", "faction"]
    search_fields = ["name", "slug", "text", "catalogue_id"]


class DetachmentRuleInline(admin.StackedInline):
    model = DetachmentRule
    extra = 0


class StratagemInline(admin.StackedInline):
    model = Stratagem
    extra = 0
    fields = [
        ("name", "slug", "cp_cost", "category"),
        ("edition", "scope", "limit"),
        ("phase", "turn", "trigger"),
        "additional_windows",
        "when_text",
        "target_text",
        "effect_text",
        "restrictions_text",
        ("section", "catalogue_id", "source"),
    ]


class EnhancementInline(admin.StackedInline):
    model = Enhancement
    extra = 0


@admin.register(Detachment)
class DetachmentAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "faction", "catalogue_id"]
    list_filter = ["faction"]
    search_fields = ["name", "slug", "catalogue_id"]
    inlines = [DetachmentRuleInline, StratagemInline, EnhancementInline]


@admin.register(DetachmentRule)
class DetachmentRuleAdmin(admin.ModelAdmin):
    list_display = ["name", "detachment"]
    list_filter = ["detachment__faction", "detachment"]
    search_fields = ["name", "text"]


@admin.register(Stratagem)
class StratagemAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "cp_cost", "scope", "edition", "detachment", "phase", "turn"]
    list_filter = [
        "edition",
        "scope",
        "phase",
        "turn",
        "trigger",
        "detachment__faction",
        "detachment",
    ]
    search_fields = ["name", "slug", "effect_text", "catalogue_id"]
    fields = StratagemInline.fields + [("detachment",)]


@admin.register(Enhancement)
class EnhancementAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "detachment", "points"]
    list_filter = ["detachment__faction", "detachment"]
    search_fields = ["name", "slug", "effect_text"]


# --- datasheets ---------------------------------------------------------------------------------


class AttacksAndDamagePreviews:
    """Read-only previews of what the parser makes of a weapon's values."""

    @admin.display(description="A parsed")
    def attacks_preview(self, weapon: WeaponProfile) -> str:
        return describe_dice(weapon.attacks)

    @admin.display(description="D parsed")
    def damage_preview(self, weapon: WeaponProfile) -> str:
        return describe_dice(weapon.damage)

    @admin.display(description="abilities parsed")
    def abilities_preview(self, weapon: WeaponProfile) -> str:
        return describe_weapon_abilities(weapon.abilities)


WEAPON_FIELDS = [
    "name",
    "type",
    "range",
    "attacks",
    "attacks_preview",
    "skill",
    "strength",
    "armour_penetration",
    "damage",
    "damage_preview",
    "abilities",
    "abilities_preview",
]
WEAPON_PREVIEWS = ["attacks_preview", "damage_preview", "abilities_preview"]


class ModelProfileInline(admin.TabularInline):
    model = ModelProfile
    extra = 0


class WeaponProfileInline(AttacksAndDamagePreviews, admin.TabularInline):
    model = WeaponProfile
    extra = 0
    fields = WEAPON_FIELDS
    readonly_fields = WEAPON_PREVIEWS


class DatasheetAbilityInline(admin.TabularInline):
    model = DatasheetAbility
    extra = 0


class UnitSizeInline(admin.TabularInline):
    model = UnitSize
    extra = 0


@admin.register(Datasheet)
class DatasheetAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "faction", "role", "catalogue_id"]
    list_filter = ["faction", "role"]
    search_fields = ["name", "slug", "catalogue_id"]
    filter_horizontal = ["leads"]
    inlines = [ModelProfileInline, WeaponProfileInline, DatasheetAbilityInline, UnitSizeInline]

    def formfield_for_dbfield(self, db_field, request, **kwargs):
        # A wargear option holds several lines (the option and its choices): one per paragraph.
        if db_field.name == "wargear_options":
            return ParagraphListFormField(
                required=False,
                help_text="One option per paragraph: leave a blank line between options.",
            )
        return super().formfield_for_dbfield(db_field, request, **kwargs)


@admin.register(ModelProfile)
class ModelProfileAdmin(admin.ModelAdmin):
    list_display = ["name", "datasheet", "movement", "toughness", "save_roll", "wounds"]
    list_filter = ["datasheet__faction"]
    search_fields = ["name", "datasheet__name"]


@admin.register(WeaponProfile)
class WeaponProfileAdmin(AttacksAndDamagePreviews, admin.ModelAdmin):
    list_display = ["name", "datasheet", "type", "attacks", "strength", "armour_penetration"]
    list_filter = ["type", "datasheet__faction"]
    search_fields = ["name", "datasheet__name"]
    fields = ["datasheet", "order", *WEAPON_FIELDS]
    readonly_fields = WEAPON_PREVIEWS


@admin.register(DatasheetAbility)
class DatasheetAbilityAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "parameter", "datasheet"]
    list_filter = ["kind", "datasheet__faction"]
    search_fields = ["name", "text", "datasheet__name"]


@admin.register(UnitSize)
class UnitSizeAdmin(admin.ModelAdmin):
    list_display = ["datasheet", "models_count", "points"]
    list_filter = ["datasheet__faction"]
    search_fields = ["datasheet__name"]


@admin.register(Mission)
class MissionAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "edition", "battle_size"]
    list_filter = ["edition", "battle_size"]
    search_fields = ["name", "slug"]
    readonly_fields = ["battle_size"]
