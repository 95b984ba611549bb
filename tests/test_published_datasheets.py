"""The published datasheets beside the seed units: valid records, and an army for each faction."""

import json

import pytest

from rules.engine.core.notation import parse_dice, parse_weapon_abilities
from rules.loader import DATA_DIR

FACTIONS = ["imperial-agents", "astra-militarum", "grey-knights"]
SEED_DATASHEETS = {"inquisitor", "death-rider-commissar", "strike-squad"}


def published(faction: str) -> dict:
    path = DATA_DIR / "factions" / faction / "published.json"
    return json.loads(path.read_text(encoding="utf-8"))


def datasheets(faction: str) -> list[dict]:
    return published(faction)["datasheets"]


@pytest.mark.parametrize("faction", FACTIONS)
def test_published_files_hold_only_datasheets_of_their_faction(faction):
    bundle = published(faction)
    assert list(bundle) == ["datasheets"]  # the faction record and army rules are the seed's
    for sheet in bundle["datasheets"]:
        assert sheet["faction"] == faction
        assert sheet["slug"] not in SEED_DATASHEETS
        assert sheet["source"].startswith("Wahapedia export 2026-02-14, datasheet ")


@pytest.mark.parametrize("faction", FACTIONS)
def test_every_characteristic_parses(faction):
    for sheet in datasheets(faction):
        assert sheet["points"], sheet["slug"]
        for model in sheet["models"]:
            for characteristic in ("T", "Sv", "W", "Ld", "OC", "M"):
                assert isinstance(model[characteristic], int), (sheet["slug"], characteristic)
            assert model["min"] >= 1 and model["max"] >= model["min"]
            assert model["base"]["shape"] in {"round", "oval", "hull"}
        for weapon in sheet["weapons"]:
            parse_dice(weapon["A"])
            parse_dice(weapon["D"])
            parse_weapon_abilities(weapon["abilities"])
            assert (weapon["range"] is None) == (weapon["type"] == "melee")
        for ability in sheet["abilities"]:
            assert ability["kind"] in {"core", "faction", "datasheet", "wargear"}
            if ability["kind"] in {"datasheet", "wargear"}:
                assert ability["text"]


def test_slugs_are_unique_across_the_published_files():
    slugs = [sheet["slug"] for faction in FACTIONS for sheet in datasheets(faction)]
    assert len(slugs) == len(set(slugs))


def test_leads_name_published_or_seed_datasheets():
    known = SEED_DATASHEETS | {s["slug"] for f in FACTIONS for s in datasheets(f)}
    for faction in FACTIONS:
        for sheet in datasheets(faction):
            assert set(sheet["leads"]) <= known, sheet["slug"]


def kinds(faction: str) -> dict[str, list[str]]:
    sheets = datasheets(faction)

    def having(keyword: str) -> list[str]:
        return [s["slug"] for s in sheets if keyword in s["keywords"]]

    return {
        "leaders": [s["slug"] for s in sheets if "CHARACTER" in s["keywords"] and s["leads"]],
        "infantry": [
            s["slug"]
            for s in sheets
            if "BATTLELINE" in s["keywords"]
            or ("INFANTRY" in s["keywords"] and "CHARACTER" not in s["keywords"])
        ],
        "vehicles": having("VEHICLE"),
        "transports": having("TRANSPORT"),
    }


@pytest.mark.parametrize("faction", FACTIONS)
def test_each_faction_has_a_leader_infantry_a_vehicle_and_a_transport(faction):
    found = kinds(faction)
    assert all(found.values()), found


def test_the_units_the_seed_armies_were_promised():
    slugs = {f: {s["slug"] for s in datasheets(f)} for f in FACTIONS}
    assert {"brotherhood-terminator-squad", "interceptor-squad", "brother-captain", "rhino"} <= (
        slugs["grey-knights"]
    )
    assert {
        "cadian-shock-troops",
        "leman-russ-battle-tank",
        "chimera",
        "cadian-castellan",
        "death-riders",
    } <= slugs["astra-militarum"]
    assert {"inquisitorial-agents", "vindicare-assassin", "inquisitorial-chimera"} <= (
        slugs["imperial-agents"]
    )


@pytest.mark.parametrize("faction", FACTIONS)
def test_a_1000_point_incursion_army_can_be_built_from_the_published_units(faction):
    """One of each at its smallest size fits in 1000 points, and taking each datasheet up to
    three times (an EPIC HERO once) can fill 1000 points without the seed unit."""
    sheets = datasheets(faction)
    smallest = sum(min(p["points"] for p in s["points"]) for s in sheets)
    fullest = sum(
        max(p["points"] for p in s["points"]) * (1 if "EPIC HERO" in s["keywords"] else 3)
        for s in sheets
    )
    assert smallest <= 1000 <= fullest
