"""Every rule of the rules data that the engine must implement, as `hooks.IMPLEMENTED` keys."""

from __future__ import annotations

import json
from typing import Any

from rules.engine.core.hooks import datasheet_ability_key
from tests.engine_world import ROOT

RULES_FILES = sorted((ROOT / "rules" / "data" / "core").glob("*.json")) + sorted(
    (ROOT / "rules" / "data" / "factions").glob("*/*.json")
)


def rule_keys() -> dict[tuple[str, str], dict[str, Any]]:
    """(kind, key) -> the record: abilities (core, faction, Orders), the abilities and wargear
    abilities printed on datasheets, detachments that print a rule, enhancements."""
    keys: dict[tuple[str, str], dict[str, Any]] = {}
    for path in RULES_FILES:
        data = json.loads(path.read_text("utf-8"))
        for ability in data.get("abilities", []):
            keys[("ability", ability["slug"])] = ability
        for detachment in data.get("detachments", []):
            if detachment.get("rules"):
                keys[("detachment-rule", detachment["slug"])] = detachment
        for enhancement in data.get("enhancements", []):
            keys[("enhancement", enhancement["slug"])] = enhancement
        for sheet in data.get("datasheets", []):
            for ability in sheet.get("abilities", []):
                if ability.get("kind") in ("datasheet", "wargear"):
                    key = datasheet_ability_key(sheet["slug"], ability["name"])
                    keys[("datasheet-ability", key)] = ability
    return keys
