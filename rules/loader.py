"""Load the versioned rules data files under rules/data/ into the database, and write them back."""

import json
from pathlib import Path

from django.db import transaction

from rules.models import RuleSet

DATA_DIR = Path(__file__).resolve().parent / "data"
RULESET_FIELDS = [
    "slug",
    "name",
    "is_default",
    "source",
]  # parameters: see rules/engine/editions.py


def read_rulesets(data_dir: Path = DATA_DIR) -> list[dict]:
    return json.loads((data_dir / "rulesets.json").read_text(encoding="utf-8"))


@transaction.atomic
def load_rules(data_dir: Path = DATA_DIR) -> dict[str, int]:
    """Upsert every record; returns how many rows were created and changed (0 and 0 on a re-run)."""
    created = changed = 0
    for record in read_rulesets(data_dir):
        values = {field: record[field] for field in RULESET_FIELDS if field != "slug"}
        ruleset, was_created = RuleSet.objects.get_or_create(slug=record["slug"], defaults=values)
        if was_created:
            created += 1
            continue
        if any(getattr(ruleset, field) != value for field, value in values.items()):
            for field, value in values.items():
                setattr(ruleset, field, value)
            ruleset.save()
            changed += 1
    return {"created": created, "changed": changed}


def export_rules() -> dict:
    return {
        "rulesets": [
            {field: getattr(ruleset, field) for field in RULESET_FIELDS}
            for ruleset in RuleSet.objects.order_by("slug")
        ]
    }
