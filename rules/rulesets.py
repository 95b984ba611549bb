"""Where the attack preview gets an edition's parameters: the one place to switch to the database.

On this branch the rule-set rows carry no parameters yet, so this reads `rules/data/rulesets.json`.
When the rulesdata branch lands, replace the body of `edition_for` with the DB selector
`rules.snapshot.edition(slug)`; callers do not change.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from rules.engine.editions import Edition

RULESETS_FILE = Path(__file__).resolve().parent / "data" / "rulesets.json"


@lru_cache(maxsize=8)
def edition_for(slug: str) -> Edition:
    """The `Edition` of rule set `slug`; `LookupError` when there is no such rule set."""
    for record in json.loads(RULESETS_FILE.read_text(encoding="utf-8")):
        if record["slug"] == slug:
            return Edition.from_parameters(slug, record["parameters"])
    raise LookupError(f"no rule set {slug!r}")
