"""Loading factions of a Wahapedia export into the database in one step (the command
`import_wahapedia` and the admin action both call `import_factions`).

The conversion (`rules.wahapedia`, pure Python) reports every row it cannot read; loading then
leaves out any record the data format still refuses, reported by name, so one bad row never
refuses a faction. Loading twice changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from rules import loader
from rules.models import Datasheet
from rules.wahapedia import (
    convert_export,
    database_owners,
    database_sources,
    drop_unmeasured_hulls,
    estimate_hull_sizes,
    keep_existing_texts,
    read_export,
    rename_abilities,
    set_hull_sizes,
)
from rules.wahapedia.text import clean_text

ALL_FACTIONS = "all"


@dataclass
class FactionCoverage:
    name: str
    in_export: int
    loaded: int
    skipped: list[str] = field(default_factory=list)  # names of datasheets not loaded

    @property
    def share(self) -> float:
        return self.loaded / self.in_export if self.in_export else 1.0


@dataclass
class ImportResult:
    counts: dict[str, int]
    report: list[str]
    coverage: list[FactionCoverage]

    @property
    def datasheets_in_export(self) -> int:
        return sum(faction.in_export for faction in self.coverage)

    @property
    def datasheets_loaded(self) -> int:
        return sum(faction.loaded for faction in self.coverage)

    def summary(self) -> str:
        share = self.datasheets_loaded / max(self.datasheets_in_export, 1)
        return (
            f"{self.datasheets_loaded} of {self.datasheets_in_export} datasheets of "
            f"{len(self.coverage)} factions loaded ({share:.1%})"
        )


def faction_names(directory: str | Path) -> list[str]:
    return [clean_text(row["name"]) for row in read_export(directory).rows("Factions.csv")]


def import_factions(
    directory: str | Path,
    factions: list[str],
    *,
    datasheets: list[str] | None = None,
    known_datasheets: list[str] | tuple[str, ...] = (),
    only: list[str] | None = None,
    renames: dict[str, str] | None = None,
    hulls: dict[str, tuple[float, float]] | None = None,
    estimate_hulls: bool = True,
) -> ImportResult:
    """Convert and load `factions` (names or Wahapedia ids; `["all"]` for every faction)."""
    if [name.lower() for name in factions] == [ALL_FACTIONS]:
        factions = faction_names(directory)
    in_database = loader.export_rules()
    conversion = convert_export(
        directory,
        factions,
        datasheets=datasheets,
        known_datasheets=known_datasheets,
        taken_slugs=database_owners(in_database),
    )
    bundle = conversion.bundle
    if only:
        bundle = {kind: records for kind, records in bundle.items() if kind in only}
    report = [
        *(str(line) for line in conversion.report),
        *rename_abilities(bundle, renames or {}),
        *set_hull_sizes(bundle, hulls or {}),
    ]
    report.extend(estimate_hull_sizes(bundle) if estimate_hulls else drop_unmeasured_hulls(bundle))
    report.extend(str(line) for line in keep_existing_texts(bundle, database_sources(in_database)))
    refused: list[loader.RulesDataError] = []
    origin = f"{directory} ({', '.join(factions)})"
    counts = loader.load_bundle(bundle, origin=origin, refused=refused)
    report.extend(f"refused by the data format, not loaded: {error}" for error in refused)
    return ImportResult(counts, report, _coverage(directory, factions, datasheets))


def _coverage(
    directory: str | Path, factions: list[str], datasheets: list[str] | None
) -> list[FactionCoverage]:
    """Per faction: the export's fieldable datasheets and how many are in the database now (by
    the source the importer writes, or a seed file's record naming that export datasheet)."""
    export = read_export(directory)
    wanted = {name.strip().lower() for name in factions}
    loaded_ids = set()
    for source in Datasheet.objects.values_list("source", flat=True):
        for part in source.split("datasheet ")[1:]:
            loaded_ids.add(part.split(";")[0].split(",")[0].strip())
    coverage = []
    for faction in export.rows("Factions.csv"):
        if not wanted & {faction["id"].lower(), clean_text(faction["name"]).lower()}:
            continue
        sheets = [
            row
            for row in export.rows("Datasheets.csv")
            if row["faction_id"] == faction["id"]
            and row["virtual"].strip().lower() != "true"
            and (not datasheets or clean_text(row["name"]) in datasheets)
        ]
        missing = [clean_text(row["name"]) for row in sheets if row["id"] not in loaded_ids]
        coverage.append(
            FactionCoverage(
                clean_text(faction["name"]), len(sheets), len(sheets) - len(missing), missing
            )
        )
    return coverage
