"""Editions for tests that need no database: built from the rule-set data files as shipped."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from rules.engine.core.editions import Edition

# The project's data files (rules.loader.DATA_DIR, without importing Django).
DATA_DIR = Path(__file__).resolve().parent.parent / "rules" / "data"


@lru_cache(maxsize=8)
def edition_for(slug: str) -> Edition:
    bundle = json.loads((DATA_DIR / "rulesets.json").read_text(encoding="utf-8"))
    for record in bundle["rulesets"]:
        if record["slug"] == slug:
            return Edition.from_parameters(slug, record["parameters"])
    raise LookupError(f"no rule set {slug!r}")
