"""Bring factions in from a Wahapedia CSV export, as one bundle of `docs/rules-data-format.md`.

Pure Python (no Django): `convert_export(directory, ["Grey Knights"])` returns the bundle and the
report of every row, or field, it left out and why. `manage.py import_wahapedia` loads it.
"""

from rules.wahapedia.convert import (
    BUNDLE_KINDS,
    Conversion,
    UnknownName,
    assign_slugs,
    convert_export,
    database_owners,
    database_sources,
    drop_unmeasured_hulls,
    estimate_hull_sizes,
    keep_existing_texts,
    rename_abilities,
    set_hull_sizes,
)
from rules.wahapedia.export import ExportError, SkippedRow, read_export
from rules.wahapedia.text import clean_text, slugify

__all__ = [
    "BUNDLE_KINDS",
    "Conversion",
    "ExportError",
    "SkippedRow",
    "UnknownName",
    "assign_slugs",
    "clean_text",
    "convert_export",
    "drop_unmeasured_hulls",
    "estimate_hull_sizes",
    "database_owners",
    "database_sources",
    "keep_existing_texts",
    "read_export",
    "rename_abilities",
    "set_hull_sizes",
    "slugify",
]
