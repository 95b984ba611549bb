"""The seed datasheets' keywords, composition, wargear options, points and abilities are in the
data files exactly as printed (seed 000 L1-38, seed 003 L1-28, seed 004 L1-33)."""

import re

import pytest

from tests.rules_data_files import datasheet_named, seed_lines

SEEDS = ("000", "003", "004")
_COST = re.compile(r"^\| (\d+) models? \| (\d+) \|$")


def printed_block(seed: str) -> list[str]:
    """The datasheet part of a seed page: up to the stratagem index."""
    lines = list(seed_lines(seed))
    return lines[: lines.index("STRATAGEMS")]


def section(block: list[str], heading: str) -> list[str]:
    """The "- item" lines under a heading."""
    start = block.index(heading) + 1
    items = []
    for line in block[start:]:
        if not line.startswith("- "):
            break
        items.append(line[2:])
    return items


def datasheet_for(seed: str) -> dict:
    return datasheet_named(seed_lines(seed)[0].split(" – ", 1)[1])


@pytest.mark.parametrize("seed", SEEDS)
def test_keywords_and_faction_keywords_as_printed(seed):
    block, sheet = printed_block(seed), datasheet_for(seed)
    (keywords,) = [line for line in block if line.startswith("KEYWORDS: ")]
    printed = [k.strip() for k in re.split("[;,]", keywords.removeprefix("KEYWORDS: "))]
    assert sheet["keywords"] == printed
    faction_line = block[block.index("FACTION KEYWORDS:") + 1]
    assert sheet["faction_keywords"] == [faction_line]


@pytest.mark.parametrize("seed", SEEDS)
def test_composition_and_wargear_options_as_printed(seed):
    block, sheet = printed_block(seed), datasheet_for(seed)
    assert sheet["composition"] == section(block, "UNIT COMPOSITION")
    options = section(block, "WARGEAR OPTIONS")
    if options == ["None"]:
        assert sheet["wargear_options"] == []
    elif seed == "004":  # one option with its three choices printed as sub-items
        assert sheet["wargear_options"] == ["\n- ".join(options)]
    else:
        assert sheet["wargear_options"] == options


@pytest.mark.parametrize("seed", SEEDS)
def test_points_as_printed(seed):
    block, sheet = printed_block(seed), datasheet_for(seed)
    printed = [tuple(map(int, m.groups())) for m in map(_COST.match, block) if m]
    assert [(cost["models"], cost["points"]) for cost in sheet["points"]] == printed
    model_range = (
        sum(model["min"] for model in sheet["models"]),
        sum(model["max"] for model in sheet["models"]),
    )
    assert {models for models, _ in printed} <= set(range(model_range[0], model_range[1] + 1))


@pytest.mark.parametrize("seed", SEEDS)
def test_abilities_as_printed(seed):
    block, sheet = printed_block(seed), datasheet_for(seed)
    by_kind = {}
    for ability in sheet["abilities"]:
        by_kind.setdefault(ability["kind"], []).append(ability)
    (core_line,) = [line for line in block if line.startswith("CORE: ")]
    printed_core = [item.strip() for item in core_line.removeprefix("CORE: ").split(",")]
    assert [
        f"{a['name']} {a['parameter']}" if a["parameter"] else a["name"] for a in by_kind["core"]
    ] == printed_core
    (faction_line,) = [line for line in block if line.startswith("FACTION: ")]
    assert [a["name"] for a in by_kind["faction"]] == [faction_line.removeprefix("FACTION: ")]
    text = "\n".join(block)
    for ability in by_kind.get("datasheet", []) + by_kind.get("wargear", []):
        assert ability["text"] in text, ability["name"]
        printed_as = f"{ability['name']}: {ability['text']}"
        if ability["name"] not in {"Orders", "Leader: other Leaders"}:  # headed sections
            assert printed_as in text, ability["name"]
