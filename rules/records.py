"""Each kind of bundle record (`docs/rules-data-format.md`) read into model rows and written back.

Reading checks a record the way the format states it (keys, types, closed vocabularies) and runs
the models' own validation (`clean_fields` and `clean`, where dice and weapon abilities are parsed
and put into canonical spelling), so the loader, the admin and the API refuse the same values with
the same messages. Writing is the inverse; a record read and written back equals its canonical form.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.core.exceptions import NON_FIELD_ERRORS, ValidationError
from django.db import models

from rules.engine import Edition, EditionError
from rules.missions import RESERVED_KEYS
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

SLUG = re.compile(r"^[a-z0-9]+(?:-+[a-z0-9]+)*$")


class RulesDataError(ValueError):
    """A record that breaks the format, or a reference to a record that does not exist."""

    def __init__(
        self, message: str, *, kind: str = "", slug: Any = "", field: str = "", origin: str = ""
    ) -> None:
        self.message, self.kind, self.slug, self.field, self.origin = (
            message,
            kind,
            slug,
            field,
            origin,
        )
        self.problems: list[RulesDataError] = [self]
        record = (f"{kind} {slug!r}" if slug else f"{kind} record") if kind else ""
        where = [f"{origin}:" if origin else "", record]
        where.append(f"field {field}:" if field else (":" if kind else ""))
        prefix = " ".join(part for part in where if part).replace(" :", ":")
        super().__init__(f"{prefix} {message}" if prefix else message)


class Resolver:
    """Finds records by slug among those already in the database (this load's are saved first)."""

    def __init__(self) -> None:
        self._cache: dict[type[models.Model], dict[str, models.Model]] = {}

    def get(self, model: type[models.Model], slug: str) -> models.Model | None:
        known = self._cache.setdefault(model, {})
        if slug not in known:
            found = model.objects.filter(slug=slug).first()
            if found is None:
                return None
            known[slug] = found
        return known[slug]

    def remember(self, obj: models.Model) -> None:
        self._cache.setdefault(type(obj), {})[obj.slug] = obj


class Reader:
    """Reads one record's values, naming the record and field in every refusal."""

    def __init__(self, kind: str, record: Any, origin: str, resolver: Resolver) -> None:
        self.kind, self.record, self.origin, self.resolver = kind, record, origin, resolver
        self.slug = record.get("slug", "?") if isinstance(record, dict) else "?"

    def error(self, field: str, message: str) -> RulesDataError:
        return RulesDataError(
            message, kind=self.kind, slug=self.slug, field=field, origin=self.origin
        )

    def keys(
        self, values: Any, allowed: Iterable[str], required: Iterable[str], path: str = ""
    ) -> dict:
        if not isinstance(values, dict):
            raise self.error(path or "(record)", f"must be an object, not {values!r}")
        unknown = sorted(set(values) - set(allowed))
        if unknown:
            raise self.error(
                path + unknown[0], f"is not a key of this record (allowed: {', '.join(allowed)})"
            )
        for key in required:
            if key not in values:
                raise self.error(path + key, "is required")
        return values

    def text(self, values: dict, key: str, path: str = "", *, nullable: bool = False) -> Any:
        value = values.get(key)
        if value is None:
            return None if nullable else ""
        if not isinstance(value, str):
            raise self.error(path + key, f"must be a text, not {value!r}")
        return value

    def integer(self, values: dict, key: str, path: str = "", *, default: Any = None) -> Any:
        value = values.get(key, default)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise self.error(path + key, f"must be a whole number or null, not {value!r}")
        return value

    def number(self, values: dict, key: str, path: str = "") -> Any:
        value = values.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise self.error(path + key, f"must be a number, not {value!r}")
        return value

    def boolean(self, values: dict, key: str, path: str = "") -> bool:
        value = values.get(key, False)
        if not isinstance(value, bool):
            raise self.error(path + key, f"must be true or false, not {value!r}")
        return value

    def texts(self, values: dict, key: str, path: str = "") -> list[str]:
        value = values.get(key) or []
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.error(path + key, f"must be a list of texts, not {value!r}")
        return value

    def objects(self, values: dict, key: str) -> list:
        value = values.get(key) or []
        if not isinstance(value, list):
            raise self.error(key, f"must be a list, not {value!r}")
        return value

    def reference(
        self, values: dict, key: str, model: type[models.Model], *, required: bool = False
    ) -> Any:
        slug = values.get(key)
        if slug is None:
            if required:
                raise self.error(key, "is required")
            return None
        if not isinstance(slug, str):
            raise self.error(key, f"must be a slug, not {slug!r}")
        found = self.resolver.get(model, slug)
        if found is None:
            raise self.error(
                key,
                f"names {model._meta.verbose_name} {slug!r}, which is neither in this load "
                "nor in the database",
            )
        return found

    def validate(
        self, obj: models.Model, names: dict[str, str], path: str = "", *, clean: bool = True
    ) -> None:
        """Run the model's own field validators and `clean()`; refusals name the record key."""
        exclude = [f.name for f in obj._meta.concrete_fields if f.is_relation]
        try:
            obj.clean_fields(exclude=exclude)
            if clean:
                obj.clean()
        except ValidationError as error:
            problems = error.message_dict if hasattr(error, "error_dict") else None
            if not problems:
                raise self.error(
                    path.rstrip(".") or "(record)", " ".join(error.messages)
                ) from error
            attribute, messages = next(iter(problems.items()))
            key = "(record)" if attribute == NON_FIELD_ERRORS else names.get(attribute, attribute)
            raise self.error(path + key, " ".join(messages)) from error


@dataclass
class Draft:
    """A record read and checked: its unsaved row, child rows and canonical form."""

    obj: models.Model
    parts: dict[str, list] = field(default_factory=dict)
    record: dict = field(default_factory=dict)


def _number(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


def _identity(obj: models.Model, record: dict) -> dict:
    result = {"slug": obj.slug, "name": obj.name, **record, "source": obj.source}
    if obj.catalogue_id:
        result["catalogue_id"] = obj.catalogue_id
    return result


def _slug(obj: models.Model | None) -> str | None:
    return obj.slug if obj is not None else None


IDENTITY = ("slug", "name", "source", "catalogue_id")


def _base(reader: Reader, values: dict, model: type[models.Model]) -> models.Model:
    slug, name = values["slug"], values["name"]
    if not isinstance(slug, str) or not SLUG.match(slug):
        raise reader.error("slug", "must be lower-case letters, digits and hyphens")
    if not isinstance(name, str):
        raise reader.error("name", f"must be a text, not {name!r}")
    return model(
        slug=slug,
        name=name,
        source=reader.text(values, "source"),
        catalogue_id=reader.text(values, "catalogue_id"),
    )


# --- rulesets -------------------------------------------------------------------------------


def read_ruleset(reader: Reader) -> Draft:
    values = reader.keys(
        reader.record, (*IDENTITY, "is_default", "parameters"), ("slug", "name", "parameters")
    )
    ruleset = _base(reader, values, RuleSet)
    ruleset.is_default = reader.boolean(values, "is_default")
    parameters = values["parameters"]
    if not isinstance(parameters, dict):
        raise reader.error("parameters", "must be an object of parameter names and values")
    try:
        Edition.from_parameters(ruleset.slug, parameters)
    except EditionError as error:
        raise reader.error("parameters", str(error)) from error
    reader.validate(ruleset, {}, clean=False)  # one default is checked over the whole load
    rows = [RuleSetParameter(name=name, value=parameters[name]) for name in EDITION_PARAMETERS]
    return Draft(ruleset, {"parameters": rows})


def ruleset_record(ruleset: RuleSet, parts: dict) -> dict:
    order = {name: index for index, name in enumerate(EDITION_PARAMETERS)}
    rows = sorted(parts["parameters"], key=lambda row: order.get(row.name, len(order)))
    return _identity(
        ruleset,
        {"is_default": ruleset.is_default, "parameters": {row.name: row.value for row in rows}},
    )


# --- factions and abilities ------------------------------------------------------------------


def read_faction(reader: Reader) -> Draft:
    values = reader.keys(
        reader.record, (*IDENTITY, "faction_keyword", "wahapedia_id"), ("slug", "name")
    )
    faction = _base(reader, values, Faction)
    faction.faction_keyword = reader.text(values, "faction_keyword")
    faction.wahapedia_id = reader.text(values, "wahapedia_id")
    reader.validate(faction, {})
    return Draft(faction)


def faction_record(faction: Faction, parts: dict) -> dict:
    return _identity(
        faction, {"faction_keyword": faction.faction_keyword, "wahapedia_id": faction.wahapedia_id}
    )


def read_ability(reader: Reader) -> Draft:
    values = reader.keys(
        reader.record, (*IDENTITY, "kind", "edition", "faction", "text"), ("slug", "name", "kind")
    )
    ability = _base(reader, values, Ability)
    ability.kind = reader.text(values, "kind")
    ability.edition = reader.reference(values, "edition", RuleSet)
    ability.faction = reader.reference(values, "faction", Faction)
    ability.text = reader.text(values, "text")
    reader.validate(ability, {})
    return Draft(ability)


def ability_record(ability: Ability, parts: dict) -> dict:
    return _identity(
        ability,
        {
            "kind": ability.kind,
            "edition": _slug(ability.edition),
            "faction": _slug(ability.faction),
            "text": ability.text,
        },
    )


# --- detachments, stratagems, enhancements ---------------------------------------------------


def read_detachment(reader: Reader) -> Draft:
    values = reader.keys(
        reader.record, (*IDENTITY, "faction", "rules"), ("slug", "name", "faction")
    )
    detachment = _base(reader, values, Detachment)
    detachment.faction = reader.reference(values, "faction", Faction, required=True)
    reader.validate(detachment, {})
    rules = []
    for index, rule_values in enumerate(reader.objects(values, "rules")):
        path = f"rules[{index}]."
        reader.keys(rule_values, ("name", "text", "source", "catalogue_id"), ("name",), path)
        rule = DetachmentRule(
            name=reader.text(rule_values, "name", path),
            text=reader.text(rule_values, "text", path),
            source=reader.text(rule_values, "source", path),
            catalogue_id=reader.text(rule_values, "catalogue_id", path),
        )
        reader.validate(rule, {}, path)
        rules.append(rule)
    return Draft(detachment, {"rules": rules})


def detachment_record(detachment: Detachment, parts: dict) -> dict:
    rules = []
    for rule in parts["rules"]:
        rule_record = {"name": rule.name, "text": rule.text, "source": rule.source}
        if rule.catalogue_id:
            rule_record["catalogue_id"] = rule.catalogue_id
        rules.append(rule_record)
    return _identity(detachment, {"faction": detachment.faction.slug, "rules": rules})


STRATAGEM_TEXTS = (
    "category",
    "section",
    "when_text",
    "target_text",
    "effect_text",
    "restrictions_text",
)
WHEN_KEYS = ("phase", "turn", "trigger")


def read_stratagem(reader: Reader) -> Draft:
    values = reader.keys(
        reader.record,
        (*IDENTITY, "edition", "scope", "detachment", "cp_cost", "when", "limit", *STRATAGEM_TEXTS),
        ("slug", "name", "scope", "cp_cost", "when"),
    )
    stratagem = _base(reader, values, Stratagem)
    stratagem.edition = reader.reference(values, "edition", RuleSet)
    stratagem.detachment = reader.reference(values, "detachment", Detachment)
    stratagem.scope = reader.text(values, "scope")
    stratagem.cp_cost = reader.integer(values, "cp_cost")
    stratagem.limit = reader.text(values, "limit") or "none"
    for key in STRATAGEM_TEXTS:
        setattr(stratagem, key, reader.text(values, key))
    # `when` is one window, or a list of them when the stratagem prints several (SD-03).
    windows = values["when"] if isinstance(values["when"], list) else [values["when"]]
    if not windows:
        raise reader.error("when", "must name at least one window")
    read_windows = []
    for index, window in enumerate(windows):
        path = f"when[{index}]." if isinstance(values["when"], list) else "when."
        reader.keys(window, WHEN_KEYS, WHEN_KEYS, path)
        read_windows.append({key: reader.text(window, key, path) for key in WHEN_KEYS})
    for key in WHEN_KEYS:
        setattr(stratagem, key, read_windows[0][key])
    stratagem.additional_windows = read_windows[1:]
    names = {key: f"when.{key}" for key in WHEN_KEYS}
    reader.validate(stratagem, {**names, "additional_windows": "when"})
    return Draft(stratagem)


def stratagem_record(stratagem: Stratagem, parts: dict) -> dict:
    return _identity(
        stratagem,
        {
            "edition": _slug(stratagem.edition),
            "scope": stratagem.scope,
            "detachment": _slug(stratagem.detachment),
            "cp_cost": stratagem.cp_cost,
            "when": stratagem.windows if stratagem.additional_windows else stratagem.windows[0],
            "limit": stratagem.limit,
            **{key: getattr(stratagem, key) for key in STRATAGEM_TEXTS},
        },
    )


ENHANCEMENT_TEXTS = ("restrictions_text", "effect_text")
ENHANCEMENT_LISTS = ("eligible_keywords", "excluded_keywords")


def read_enhancement(reader: Reader) -> Draft:
    values = reader.keys(
        reader.record,
        (*IDENTITY, "detachment", "points", *ENHANCEMENT_LISTS, *ENHANCEMENT_TEXTS),
        ("slug", "name", "detachment", "points"),
    )
    enhancement = _base(reader, values, Enhancement)
    enhancement.detachment = reader.reference(values, "detachment", Detachment, required=True)
    enhancement.points = reader.integer(values, "points")
    for key in ENHANCEMENT_LISTS:
        setattr(enhancement, key, reader.texts(values, key))
    for key in ENHANCEMENT_TEXTS:
        setattr(enhancement, key, reader.text(values, key))
    reader.validate(enhancement, {})
    return Draft(enhancement)


def enhancement_record(enhancement: Enhancement, parts: dict) -> dict:
    return _identity(
        enhancement,
        {
            "detachment": enhancement.detachment.slug,
            "points": enhancement.points,
            **{key: list(getattr(enhancement, key)) for key in ENHANCEMENT_LISTS},
            **{key: getattr(enhancement, key) for key in ENHANCEMENT_TEXTS},
        },
    )


# --- datasheets ------------------------------------------------------------------------------

MODEL_KEYS = {
    "M": "movement",
    "T": "toughness",
    "Sv": "save_roll",
    "invulnerable_save": "invulnerable_save",
    "W": "wounds",
    "Ld": "leadership",
    "OC": "objective_control",
    "min": "min_models",
    "max": "max_models",
}
MODEL_NAMES = {
    **{attribute: key for key, attribute in MODEL_KEYS.items()},
    "base_shape": "base.shape",
    "base_diameter_mm": "base.diameter_mm",
    "base_length_mm": "base.length_mm",
    "base_width_mm": "base.width_mm",
}
WEAPON_NAMES = {
    "attacks": "A",
    "strength": "S",
    "armour_penetration": "AP",
    "damage": "D",
}
DATASHEET_TEXTS = ("role", "loadout")
DATASHEET_LISTS = ("keywords", "faction_keywords", "composition", "wargear_options")
DATASHEET_PARTS = ("models", "weapons", "abilities", "points", "leads", "leaders")


def _read_model(reader: Reader, values: Any, path: str) -> ModelProfile:
    reader.keys(
        values,
        ("name", "base", *MODEL_KEYS),
        ("name", "M", "T", "Sv", "W", "Ld", "OC"),
        path,
    )
    profile = ModelProfile(name=reader.text(values, "name", path))
    for key, attribute in MODEL_KEYS.items():
        default = 1 if key in ("min", "max") else None
        setattr(profile, attribute, reader.integer(values, key, path, default=default))
    base = values.get("base")
    if base is not None:
        sizes = ("diameter_mm", "length_mm", "width_mm")
        reader.keys(base, ("shape", *sizes), ("shape",), path + "base.")
        profile.base_shape = reader.text(base, "shape", path + "base.")
        for size in sizes:
            setattr(profile, f"base_{size}", reader.number(base, size, path + "base."))
    reader.validate(profile, MODEL_NAMES, path)
    return profile


def _model_record(profile: ModelProfile) -> dict:
    record = {"name": profile.name}
    record.update({key: getattr(profile, attribute) for key, attribute in MODEL_KEYS.items()})
    base = None
    if profile.base_shape:
        base = {"shape": profile.base_shape}
        for size in ("diameter_mm", "length_mm", "width_mm"):
            value = getattr(profile, f"base_{size}")
            if value is not None:
                base[size] = _number(value)
    record["base"] = base
    return record


def _read_weapon(reader: Reader, values: Any, path: str) -> WeaponProfile:
    reader.keys(
        values,
        ("name", "type", "range", "A", "skill", "S", "AP", "D", "abilities"),
        ("name", "type", "A", "S", "AP", "D"),
        path,
    )
    weapon = WeaponProfile(
        name=reader.text(values, "name", path),
        type=reader.text(values, "type", path),
        range=reader.integer(values, "range", path),
        skill=reader.integer(values, "skill", path),
        strength=reader.integer(values, "S", path),
        armour_penetration=reader.integer(values, "AP", path),
        abilities=reader.texts(values, "abilities", path),
    )
    for key, attribute in (("A", "attacks"), ("D", "damage")):
        value = values[key]
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise reader.error(
                path + key, f'must be a dice expression such as "D6+2", not {value!r}'
            )
        setattr(weapon, attribute, value)
    reader.validate(weapon, WEAPON_NAMES, path)
    return weapon


def _weapon_record(weapon: WeaponProfile) -> dict:
    return {
        "name": weapon.name,
        "type": weapon.type,
        "range": weapon.range,
        "A": weapon.attacks,
        "skill": weapon.skill,
        "S": weapon.strength,
        "AP": weapon.armour_penetration,
        "D": weapon.damage,
        "abilities": list(weapon.abilities),
    }


def _read_ability(reader: Reader, values: Any, path: str) -> DatasheetAbility:
    reader.keys(
        values, ("name", "kind", "parameter", "text", "catalogue_id"), ("name", "kind"), path
    )
    ability = DatasheetAbility(
        name=reader.text(values, "name", path),
        kind=reader.text(values, "kind", path),
        parameter=reader.text(values, "parameter", path, nullable=True),
        text=reader.text(values, "text", path),
        catalogue_id=reader.text(values, "catalogue_id", path),
    )
    reader.validate(ability, {}, path)
    return ability


def _ability_record(ability: DatasheetAbility) -> dict:
    record = {
        "name": ability.name,
        "kind": ability.kind,
        "parameter": ability.parameter,
        "text": ability.text,
    }
    if ability.catalogue_id:
        record["catalogue_id"] = ability.catalogue_id
    return record


def _read_points(reader: Reader, values: Any, path: str) -> UnitSize:
    reader.keys(values, ("models", "points", "label", "condition"), ("models", "points"), path)
    size = UnitSize(
        models_count=reader.integer(values, "models", path),
        points=reader.integer(values, "points", path),
        label=reader.text(values, "label", path),
        condition=reader.text(values, "condition", path),
    )
    reader.validate(size, {"models_count": "models"}, path)
    return size


def _points_record(size: UnitSize) -> dict:
    record = {"models": size.models_count, "points": size.points}
    if size.label or size.condition:
        record.update(label=size.label, condition=size.condition)
    return record


def _slugs(reader: Reader, values: dict, key: str) -> list[str]:
    slugs = reader.texts(values, key)
    for slug in slugs:
        if not SLUG.match(slug):
            raise reader.error(key, f"{slug!r} is not a slug")
    return sorted(set(slugs))


def read_datasheet(reader: Reader) -> Draft:
    values = reader.keys(
        reader.record,
        (*IDENTITY, "faction", *DATASHEET_TEXTS, *DATASHEET_LISTS, "aliases", *DATASHEET_PARTS),
        ("slug", "name", "faction"),
    )
    datasheet = _base(reader, values, Datasheet)
    datasheet.faction = reader.reference(values, "faction", Faction, required=True)
    for key in DATASHEET_TEXTS:
        setattr(datasheet, key, reader.text(values, key))
    for key in DATASHEET_LISTS:
        setattr(datasheet, key, reader.texts(values, key))
    datasheet.aliases = reader.texts(values, "aliases")
    reader.validate(datasheet, {})
    readers: dict[str, Callable] = {
        "models": _read_model,
        "weapons": _read_weapon,
        "abilities": _read_ability,
        "points": _read_points,
    }
    parts: dict[str, list] = {
        key: [
            read(reader, item, f"{key}[{i}].") for i, item in enumerate(reader.objects(values, key))
        ]
        for key, read in readers.items()
    }
    parts["leads"] = _slugs(reader, values, "leads")
    parts["leaders"] = _slugs(reader, values, "leaders")
    return Draft(datasheet, parts)


def datasheet_record(datasheet: Datasheet, parts: dict) -> dict:
    # `aliases` is written only when there are some, so that records without stay as they were.
    aliases = {"aliases": list(datasheet.aliases)} if datasheet.aliases else {}
    return _identity(
        datasheet,
        {
            "faction": datasheet.faction.slug,
            **{key: getattr(datasheet, key) for key in DATASHEET_TEXTS},
            **{key: list(getattr(datasheet, key)) for key in DATASHEET_LISTS},
            "models": [_model_record(profile) for profile in parts["models"]],
            "weapons": [_weapon_record(weapon) for weapon in parts["weapons"]],
            "abilities": [_ability_record(ability) for ability in parts["abilities"]],
            "points": [_points_record(size) for size in parts["points"]],
            "leaders": list(parts["leaders"]),
            "leads": list(parts["leads"]),
            **aliases,
        },
    )


# --- missions --------------------------------------------------------------------------------


def read_mission(reader: Reader) -> Draft:
    values = reader.keys(reader.record, set(reader.record or ()) | set(IDENTITY), ("slug", "name"))
    mission = _base(reader, values, Mission)
    mission.edition = reader.reference(values, "edition", RuleSet)
    mission.layout = {key: value for key, value in values.items() if key not in RESERVED_KEYS}
    reader.validate(mission, {})
    return Draft(mission)


def mission_record(mission: Mission, parts: dict) -> dict:
    return _identity(mission, {"edition": _slug(mission.edition), **mission.layout})


# --- the kinds, in the order a load saves them -----------------------------------------------


@dataclass(frozen=True)
class Kind:
    key: str
    model: type[models.Model]
    read: Callable[[Reader], Draft]
    write: Callable[[Any, dict], dict]
    parts: tuple[str, ...] = ()
    select: tuple[str, ...] = ()

    def parts_of(self, obj: models.Model) -> dict[str, list]:
        parts = {name: list(getattr(obj, name).all()) for name in self.parts}
        if self.model is Datasheet:
            linked = [lead.slug for lead in obj.leads.all()]
            parts["leads"] = sorted({*linked, *obj.pending_leads})
            parts["leaders"] = sorted(leader.slug for leader in obj.leaders.all())
        return parts

    def queryset(self) -> models.QuerySet:
        prefetch = list(self.parts)
        if self.model is Datasheet:
            prefetch += ["leads", "leaders"]
        return self.model.objects.select_related(*self.select).prefetch_related(*prefetch)

    def record_of(self, obj: models.Model) -> dict:
        return self.write(obj, self.parts_of(obj))


KINDS: dict[str, Kind] = {
    kind.key: kind
    for kind in (
        Kind("rulesets", RuleSet, read_ruleset, ruleset_record, ("parameters",)),
        Kind("factions", Faction, read_faction, faction_record),
        Kind("abilities", Ability, read_ability, ability_record, (), ("edition", "faction")),
        Kind(
            "detachments", Detachment, read_detachment, detachment_record, ("rules",), ("faction",)
        ),
        Kind(
            "stratagems", Stratagem, read_stratagem, stratagem_record, (), ("edition", "detachment")
        ),
        Kind(
            "enhancements", Enhancement, read_enhancement, enhancement_record, (), ("detachment",)
        ),
        Kind(
            "datasheets",
            Datasheet,
            read_datasheet,
            datasheet_record,
            ("models", "weapons", "abilities", "points"),
            ("faction",),
        ),
        Kind("missions", Mission, read_mission, mission_record, (), ("edition",)),
    )
}
