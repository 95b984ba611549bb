"""Measure: every datasheet in the database, at each of its first two sizes, exported as the
app's text and imported back. Counts the clean round trips and the reasons of the others.

    DJANGO_SETTINGS_MODULE=tabletop.settings .venv/bin/python bench/army_list_round_trip.py

Run it after `manage.py import_wahapedia <export> --faction all` to measure every faction.
"""

from __future__ import annotations

import os
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")

import django  # noqa: E402

django.setup()

from games.army_lists.app_text import read_app_text  # noqa: E402
from games.army_lists.export import export_app_text  # noqa: E402
from games.army_lists.matching import match_list  # noqa: E402
from rules.models import Faction  # noqa: E402
from rules.snapshot import bundle_for, default_ruleset_slug  # noqa: E402


def outcome(sheet: dict, models: int, matched) -> str:
    units = matched.army["units"]
    if len(units) != 1 or units[0]["datasheet"] != sheet["slug"]:
        return "matched another datasheet of the same name"
    if units[0]["models"] != models:
        return "another size"
    if units[0]["wargear"]:
        return "wargear chosen that was not"
    return f"reported: {matched.report[0]['code']}" if matched.report else "clean"


def main() -> None:
    results: Counter[str] = Counter()
    edition = default_ruleset_slug()
    for faction in Faction.objects.order_by("slug"):
        bundle = bundle_for(edition, [faction.slug])
        detachment = next(
            (d["slug"] for d in bundle.get("detachments", []) if d["faction"] == faction.slug), ""
        )
        for sheet in bundle["datasheets"]:
            if sheet["faction"] != faction.slug:
                continue
            for entry in sheet.get("points", [])[:2]:
                army = {
                    "name": "Round trip",
                    "faction": faction.slug,
                    "detachment": detachment,
                    "battle_size": "onslaught",
                    "units": [{"key": "u1", "datasheet": sheet["slug"], "models": entry["models"]}],
                }
                matched = match_list(read_app_text(export_app_text(army, bundle)), bundle)
                results[outcome(sheet, entry["models"], matched)] += 1
    total = sum(results.values())
    for reason, count in results.most_common():
        print(f"{count:5d} {count / total:6.1%}  {reason}")
    print(f"{total:5d} datasheet sizes")


if __name__ == "__main__":
    main()
