"""Every file under rules/data/ is a bundle in the format of docs/rules-data-format.md: known
kinds, the documented keys of each kind (plus `catalogue_id`), required fields present, `when`
values from the documented vocabulary, and slugs unique across all files per kind."""

import json
import re
from collections import Counter

import pytest

from rules.engine import STRATAGEM_TRIGGERS
from tests.rules_data_files import BUNDLE_KINDS, bundle, data_files, records

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

# docs/rules-data-format.md, "Records": required keys, then the optional ones.
SCHEMA = {
    "factions": ({"slug", "name", "faction_keyword", "source"}, {"wahapedia_id", "catalogue_id"}),
    "abilities": (
        {"slug", "name", "kind", "edition", "faction", "text", "source"},
        {"catalogue_id"},
    ),
    "detachments": ({"slug", "name", "faction", "rules", "source"}, {"catalogue_id"}),
    "stratagems": (
        {
            "slug",
            "name",
            "edition",
            "scope",
            "detachment",
            "category",
            "section",
            "cp_cost",
            "when",
            "when_text",
            "target_text",
            "effect_text",
            "restrictions_text",
            "limit",
            "source",
        },
        {"catalogue_id"},
    ),
    "enhancements": (
        {
            "slug",
            "name",
            "detachment",
            "points",
            "eligible_keywords",
            "excluded_keywords",
            "restrictions_text",
            "effect_text",
            "source",
        },
        {"catalogue_id"},
    ),
    "datasheets": (
        {
            "slug",
            "name",
            "faction",
            "role",
            "source",
            "keywords",
            "faction_keywords",
            "models",
            "weapons",
            "abilities",
            "composition",
            "loadout",
            "wargear_options",
            "points",
            "leads",
        },
        {"catalogue_id", "leaders"},
    ),
}
MODEL_KEYS = {"name", "M", "T", "Sv", "invulnerable_save", "W", "Ld", "OC", "base", "min", "max"}
WEAPON_KEYS = {"name", "type", "range", "A", "skill", "S", "AP", "D", "abilities"}
DATASHEET_ABILITY_KINDS = {"core", "faction", "datasheet", "wargear"}
PHASES = {"any", "command", "movement", "shooting", "charge", "fight", "battle-shock-step"}
TURNS = {"own", "opponent", "either"}
TRIGGERS = set(STRATAGEM_TRIGGERS)  # the engine's vocabulary (rules.engine)
LIMITS = {"none", "once_per_phase", "once_per_turn", "once_per_battle"}
SCOPES = {"core", "boarding-actions", "detachment"}


def slugs(kind: str) -> set[str]:
    return {record["slug"] for _, record in records(kind)}


def test_every_data_file_is_a_bundle_of_known_kinds():
    assert data_files(), "no rules data files found"
    for path in data_files():
        json.loads(path.read_text(encoding="utf-8"))  # valid JSON, or a readable error
        content = bundle(path)
        assert isinstance(content, dict), f"{path}: a bundle is an object of record lists"
        assert set(content) <= set(BUNDLE_KINDS), f"{path}: unknown kinds {set(content)}"
        assert all(isinstance(items, list) for items in content.values()), path


@pytest.mark.parametrize("kind", sorted(SCHEMA))
def test_records_carry_the_documented_keys(kind):
    required, optional = SCHEMA[kind]
    for path, record in records(kind):
        where = f"{path.name}: {kind} {record.get('slug')!r}"
        assert required <= set(record), f"{where} lacks {sorted(required - set(record))}"
        assert set(record) <= required | optional, (
            f"{where} has {set(record) - required - optional}"
        )
        assert SLUG.match(record["slug"]), f"{where}: slug must be lower-case and hyphenated"
        assert isinstance(record["source"], str) and record["source"], where


@pytest.mark.parametrize("kind", BUNDLE_KINDS)
def test_slugs_are_unique_across_all_files_per_kind(kind):
    counts = Counter(record["slug"] for _, record in records(kind))
    assert not [slug for slug, n in counts.items() if n > 1]


def test_references_name_existing_records():
    editions, factions, detachments = slugs("rulesets"), slugs("factions"), slugs("detachments")
    assert {"10e", "11e"} <= editions
    for _, ability in records("abilities"):
        assert ability["kind"] in {"core", "faction"}, ability["slug"]
        assert ability["edition"] is None or ability["edition"] in editions, ability["slug"]
        if ability["kind"] == "core":
            assert ability["faction"] is None, ability["slug"]
        else:
            assert ability["faction"] in factions, ability["slug"]
        assert isinstance(ability["text"], str) and ability["text"], ability["slug"]
    for _, record in records("detachments"):
        assert record["faction"] in factions, record["slug"]
        for rule in record["rules"]:
            assert set(rule) == {"name", "text", "source"}, record["slug"]
            assert rule["name"] and rule["text"] and rule["source"], record["slug"]
    for _, record in records("enhancements"):
        assert record["detachment"] in detachments, record["slug"]
    for _, record in records("datasheets"):
        assert record["faction"] in factions, record["slug"]


def when_windows(stratagem: dict) -> list[dict]:
    """`when` is one window, or a list of alternatives ("Your Shooting phase or the Fight
    phase"): docs/rulings.md, "Stratagems printed with two timings"."""
    when = stratagem["when"]
    return when if isinstance(when, list) else [when]


def test_stratagems_use_the_documented_vocabulary():
    editions, detachments = slugs("rulesets"), slugs("detachments")
    for _, strat in records("stratagems"):
        slug = strat["slug"]
        assert strat["edition"] is None or strat["edition"] in editions, slug
        assert strat["scope"] in SCOPES, slug
        if strat["scope"] == "detachment":
            assert strat["detachment"] in detachments, slug
        else:
            assert strat["detachment"] is None, slug
        assert isinstance(strat["cp_cost"], int) and strat["cp_cost"] >= 0, slug
        assert strat["limit"] in LIMITS, slug
        windows = when_windows(strat)
        assert windows, slug
        for window in windows:
            assert set(window) == {"phase", "turn", "trigger"}, slug
            assert window["phase"] in PHASES, slug
            assert window["turn"] in TURNS, slug
            assert window["trigger"] in TRIGGERS, slug
        assert len({json.dumps(w, sort_keys=True) for w in windows}) == len(windows), slug
        for field in ("when_text", "target_text", "effect_text"):
            assert isinstance(strat[field], str) and strat[field], f"{slug}: {field}"
        assert isinstance(strat["restrictions_text"], str), slug
        if strat["section"] is not None:
            assert re.fullmatch(r"\d\d\.\d\d", strat["section"]), slug


def test_printed_limits_match_the_restrictions_text():
    for _, strat in records("stratagems"):
        text = strat["restrictions_text"].lower()
        if "once per battle" in text:
            assert strat["limit"] == "once_per_battle", strat["slug"]
        elif "once per turn" in text:
            assert strat["limit"] == "once_per_turn", strat["slug"]
        else:
            assert strat["limit"] == "none", strat["slug"]


def test_enhancement_keywords_are_derived_from_the_restrictions_text():
    for _, record in records("enhancements"):
        slug, text = record["slug"], record["restrictions_text"]
        assert isinstance(record["points"], int) and record["points"] > 0, slug
        if not text:
            assert record["eligible_keywords"] == [] and record["effect_text"] == "", slug
            continue
        assert text.endswith("model only."), slug
        assert record["eligible_keywords"], slug
        for keyword in record["eligible_keywords"] + record["excluded_keywords"]:
            assert keyword == keyword.upper() and keyword in text, f"{slug}: {keyword}"


def test_datasheets_have_complete_models_weapons_abilities_and_points():
    for _, sheet in records("datasheets"):
        slug = sheet["slug"]
        assert sheet["models"], slug
        for model in sheet["models"]:
            assert set(model) == MODEL_KEYS, slug
            for stat in ("M", "T", "Sv", "W", "Ld", "OC", "min", "max"):
                assert isinstance(model[stat], int) and model[stat] >= 0, f"{slug}: {stat}"
            assert model["min"] <= model["max"], slug
            assert model["invulnerable_save"] is None or 2 <= model["invulnerable_save"] <= 6
            base = model["base"]
            assert base["shape"] in {"round", "oval", "hull"}, slug
        for weapon in sheet["weapons"]:
            assert set(weapon) == WEAPON_KEYS, f"{slug}: {weapon.get('name')}"
            assert weapon["type"] in {"ranged", "melee"}, slug
            assert (weapon["range"] is None) == (weapon["type"] == "melee"), weapon["name"]
            assert isinstance(weapon["A"], str) and isinstance(weapon["D"], str), weapon["name"]
        for ability in sheet["abilities"]:
            assert ability["kind"] in DATASHEET_ABILITY_KINDS, slug
            assert set(ability) <= {"name", "kind", "parameter", "text", "catalogue_id"}, slug
            if ability["kind"] in {"datasheet", "wargear"}:
                assert ability.get("text"), f"{slug}: {ability['name']}"
        for cost in sheet["points"]:
            assert {"models", "points"} <= set(cost) <= {"models", "points", "label", "condition"}
            assert cost["points"] > 0 and cost["models"] > 0, slug
        for led in sheet["leads"]:
            assert SLUG.match(led), f"{slug}: leads {led!r}"
        assert "leaders" not in sheet or all(SLUG.match(s) for s in sheet["leaders"]), slug


def test_abilities_a_datasheet_names_exist_as_core_or_faction_records():
    core = {a["name"] for _, a in records("abilities") if a["kind"] == "core"}
    by_faction = {(a["faction"], a["name"]) for _, a in records("abilities") if a["faction"]}
    for _, sheet in records("datasheets"):
        for ability in sheet["abilities"]:
            if ability["kind"] == "core":
                assert ability["name"] in core, f"{sheet['slug']}: {ability['name']}"
            elif ability["kind"] == "faction":
                assert (sheet["faction"], ability["name"]) in by_faction, ability["name"]
