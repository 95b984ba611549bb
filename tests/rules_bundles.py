"""Helpers for tests of rules data: read data directories and put bundles in canonical form.

The canonical form is written here from the format document, independently of the loader, so a
test comparing the loader's export with it checks the loader rather than repeating it.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from rules.engine.core.notation import format_weapon_abilities, parse_dice, parse_weapon_abilities

TEST_DATA_DIR = Path(__file__).resolve().parent / "data" / "rules_bundles"

# The value of every key a record may leave out (catalogue_id is left out when empty).
DEFAULTS = {
    "rulesets": {"is_default": False, "source": ""},
    "factions": {"faction_keyword": "", "wahapedia_id": "", "source": ""},
    "abilities": {"edition": None, "faction": None, "text": "", "source": ""},
    "detachments": {"rules": [], "source": ""},
    "stratagems": {
        "edition": None,
        "detachment": None,
        "category": "",
        "section": "",
        "when_text": "",
        "target_text": "",
        "effect_text": "",
        "restrictions_text": "",
        "limit": "none",
        "source": "",
    },
    "enhancements": {
        "eligible_keywords": [],
        "excluded_keywords": [],
        "restrictions_text": "",
        "effect_text": "",
        "source": "",
    },
    "datasheets": {
        "role": "",
        "source": "",
        "keywords": [],
        "faction_keywords": [],
        "models": [],
        "weapons": [],
        "abilities": [],
        "composition": [],
        "loadout": "",
        "wargear_options": [],
        "points": [],
        "leads": [],
    },
    "missions": {"edition": None, "source": ""},
}
PART_DEFAULTS = {
    "rules": {"text": "", "source": ""},
    "models": {"invulnerable_save": None, "base": None, "min": 1, "max": 1},
    "weapons": {"range": None, "skill": None, "abilities": []},
    "abilities": {"parameter": None, "text": ""},
}


def read_dir(data_dir: Path) -> list[dict]:
    return [json.loads(path.read_text()) for path in sorted(Path(data_dir).rglob("*.json"))]


def merge(*bundles: dict) -> dict[str, list[dict]]:
    merged: dict[str, list[dict]] = {}
    for bundle in bundles:
        for key, records in bundle.items():
            merged.setdefault(key, []).extend(copy.deepcopy(records))
    return merged


def _with_defaults(defaults: dict, record: dict) -> dict:
    """Missing keys take their default; null for a text or list key means empty too."""
    result = {**defaults, **copy.deepcopy(record)}
    for key, default in defaults.items():
        if result[key] is None and isinstance(default, str | list):
            result[key] = copy.deepcopy(default)
    return result


def canonical(bundle: dict[str, list[dict]]) -> dict[str, list[dict]]:
    """Defaults filled in, notations in canonical spelling, `leaders` derived, sorted by slug."""
    result = {}
    for key, records in bundle.items():
        done = []
        for record in records:
            record = _with_defaults(DEFAULTS[key], record)
            if not record.get("catalogue_id"):
                record.pop("catalogue_id", None)
            for part, defaults in PART_DEFAULTS.items():
                if key in ("datasheets", "detachments") and part in record:
                    record[part] = [_with_defaults(defaults, item) for item in record[part]]
            for weapon in record.get("weapons", []) if key == "datasheets" else []:
                weapon["A"], weapon["D"] = (
                    str(parse_dice(weapon["A"])),
                    str(parse_dice(weapon["D"])),
                )
                weapon["abilities"] = format_weapon_abilities(
                    parse_weapon_abilities(weapon["abilities"])
                )
            if key == "datasheets":
                record["leads"] = sorted(set(record["leads"]))
            done.append(record)
        result[key] = sorted(done, key=lambda record: record["slug"])
    for datasheet in result.get("datasheets", []):
        datasheet["leaders"] = sorted(
            other["slug"] for other in result["datasheets"] if datasheet["slug"] in other["leads"]
        )
    return {key: records for key, records in result.items() if records}
