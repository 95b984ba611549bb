"""Every weapon profile printed in a seed's RANGED / MELEE WEAPONS table is in the data files with
exactly the printed values (seed 000 L2-13, seed 003 L2-9, seed 004 L2-15).

The tables are read from the seed texts themselves, so a wrong or missing profile in the data
files fails here. Seeds 000 and 003 print a weapon's abilities after its name without brackets
(`Bolt pistol pistol`); seed 004 brackets them (`Storm bolter [rapid fire 2]`).
"""

import re

import pytest

from rules.engine.core.notation import (
    ABILITIES_WITH_VALUE,
    ABILITIES_WITHOUT_VALUE,
    format_weapon_abilities,
    parse_dice,
    parse_weapon_abilities,
)
from tests.rules_data_files import datasheet_named, seed_lines

SEEDS = ("000", "003", "004")
_ROW = re.compile(
    r"^\| (?P<label>[^|]+?) \| (?P<range>[^|]+) \| (?P<A>[^|]+) \| (?P<skill>[^|]+) "
    r"\| (?P<S>[^|]+) \| (?P<AP>[^|]+) \| (?P<D>[^|]+) \| \|$"
)
_UNBRACKETED_ABILITY = "|".join(
    [r"anti-[a-z]+ [2-6]\+"]
    + [rf"{re.escape(name.lower())} [0-9d+]+" for name in ABILITIES_WITH_VALUE]
    + [re.escape(name.lower()) for name in ABILITIES_WITHOUT_VALUE]
)
_UNBRACKETED_ABILITIES = re.compile(rf"(?:{_UNBRACKETED_ABILITY})(?: (?:{_UNBRACKETED_ABILITY}))*")


def seed_datasheet_name(seed: str) -> str:
    """Line 1 reads `Faction – Datasheet`."""
    return seed_lines(seed)[0].split(" – ", 1)[1].strip()


def seed_weapon_rows(seed: str) -> list[tuple[str, dict]]:
    """(weapon type, printed row) for each profile row of the seed's datasheet tables."""
    rows, kind = [], None
    for line in seed_lines(seed):
        if line.startswith("RANGED WEAPONS"):
            kind = "ranged"
        elif line.startswith("MELEE WEAPONS"):
            kind = "melee"
        elif line.startswith("WARGEAR OPTIONS"):
            break
        elif kind and (row := _ROW.match(line)):
            rows.append((kind, row.groupdict()))
    return rows


def split_label(label: str, known_names: list[str]) -> tuple[str, list[str]]:
    """Name and canonical abilities of a printed label."""
    if "[" in label:
        name, bracket = label.split(" [", 1)
        return name, format_weapon_abilities(parse_weapon_abilities("[" + bracket))
    # Unbracketed: the name is the data's weapon name the label starts with; everything after
    # it must read as abilities, so a wrong name or a missing ability cannot pass unnoticed.
    candidates = [n for n in known_names if label == n or label.startswith(n + " ")]
    assert candidates, f"no weapon in the data files is named like the seed row {label!r}"
    name = max(candidates, key=len)
    rest = label[len(name) :].strip()
    if not rest:
        return name, []
    assert _UNBRACKETED_ABILITIES.fullmatch(rest), f"{label!r}: cannot read {rest!r} as abilities"
    abilities = [m.group(0) for m in re.finditer(_UNBRACKETED_ABILITY, rest)]
    return name, format_weapon_abilities(parse_weapon_abilities(abilities))


def expected_profile(kind: str, row: dict) -> dict:
    printed_range = row["range"].strip()
    return {
        "type": kind,
        "range": None if printed_range == "Melee" else int(printed_range.rstrip('"')),
        "A": row["A"],
        "skill": None if row["skill"] == "N/A" else int(row["skill"].rstrip("+")),
        "S": int(row["S"]),
        "AP": int(row["AP"]),
        "D": row["D"],
    }


def test_the_seed_tables_are_read():
    counts = {seed: len(seed_weapon_rows(seed)) for seed in SEEDS}
    assert counts == {"000": 5, "003": 3, "004": 6}


def test_a_label_with_abilities_glued_to_the_name_is_split_at_the_weapon_name():
    assert split_label("Bolt pistol pistol", ["Bolt pistol"]) == ("Bolt pistol", ["pistol"])
    assert split_label(
        "Combi-weapon anti-infantry 4+ devastating wounds rapid fire 1", ["Combi-weapon"]
    ) == ("Combi-weapon", ["anti-infantry 4+", "devastating wounds", "rapid fire 1"])
    with pytest.raises(AssertionError):
        split_label("Bolt pistol pistl", ["Bolt pistol"])


@pytest.mark.parametrize("seed", SEEDS)
def test_every_seed_weapon_profile_is_in_the_data_with_the_printed_values(seed):
    datasheet = datasheet_named(seed_datasheet_name(seed))
    in_data = {weapon["name"]: weapon for weapon in datasheet["weapons"]}
    printed_names = []
    for kind, row in seed_weapon_rows(seed):
        name, abilities = split_label(row["label"], list(in_data))
        printed_names.append(name)
        weapon = in_data[name]
        assert {key: weapon[key] for key in ("type", "range", "A", "skill", "S", "AP", "D")} == (
            expected_profile(kind, row)
        ), f"seed {seed}: {name}"
        assert weapon["abilities"] == abilities, f"seed {seed}: {name}"
        assert parse_dice(weapon["A"]) == parse_dice(row["A"])
        assert parse_dice(weapon["D"]) == parse_dice(row["D"])
    assert sorted(printed_names) == sorted(in_data), "the data lists a weapon the seed does not"
