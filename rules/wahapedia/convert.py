"""The conversion: chosen factions of an export -> one bundle and the report of skipped rows."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from rules.wahapedia import army_rules
from rules.wahapedia.datasheets import DatasheetSkipped, convert_datasheet, gather
from rules.wahapedia.export import Export, Row, SkippedRow, read_export
from rules.wahapedia.stats import Unreadable
from rules.wahapedia.text import clean_text, slugify, upper_keyword

BUNDLE_KINDS = (
    "factions",
    "abilities",
    "detachments",
    "stratagems",
    "enhancements",
    "datasheets",
)


class UnknownName(ValueError):
    """A faction or datasheet name the export does not hold; the message lists the valid ones."""


@dataclass
class Conversion:
    bundle: dict[str, list[dict]]
    report: list[SkippedRow] = field(default_factory=list)


@dataclass(frozen=True)
class Named:
    """A record to be given a slug: its printed name, its owner (faction or detachment), its id."""

    id: str
    name: str
    owner: str
    fallbacks: tuple[str, ...] = ()


def assign_slugs(items: list[Named], taken: dict[str, str] | None = None) -> dict[str, str]:
    """id -> slug. A name shared within the kind, or a slug another owner already holds in the
    database, is suffixed with its owner's slug (then with the fallbacks, e.g. the detachment)."""
    taken = taken or {}
    counts = Counter(slugify(item.name) for item in items)
    slugs: dict[str, str] = {}
    for item in items:
        base = slugify(item.name)
        # The owner's own record in the database (a seed datasheet) keeps its slug even when
        # another faction of the bundle prints the same name (Brood Brothers' Cadian Castellan).
        if taken.get(base) == item.owner or (
            counts[base] == 1 and taken.get(base, item.owner) == item.owner
        ):
            slugs[item.id] = base
            continue
        slugs[item.id] = f"{base}-{item.owner}"
    # Still shared (two records of one owner with the same name): suffix with the fallbacks.
    shared = Counter(slugs.values())
    for item in items:
        if shared[slugs[item.id]] > 1:
            slugs[item.id] = "-".join([slugs[item.id], *item.fallbacks, item.id])
    return slugs


def _choose(rows: list[Row], wanted: list[str], id_column: str, what: str) -> list[Row]:
    chosen: list[Row] = []
    for name in wanted:
        key = name.strip().lower()
        match = [
            row
            for row in rows
            if key in {row[id_column].strip().lower(), clean_text(row["name"]).lower()}
        ]
        if not match:
            valid = ", ".join(sorted({clean_text(row["name"]) for row in rows}))
            raise UnknownName(f"no {what} {name!r} in the export; valid names: {valid}")
        chosen.extend(row for row in match if row not in chosen)
    return chosen


def convert_export(
    directory: str | Path,
    factions: list[str],
    *,
    datasheets: list[str] | None = None,
    known_datasheets: tuple[str, ...] | list[str] = (),
    taken_slugs: dict[str, dict[str, str]] | None = None,
) -> Conversion:
    """Convert the chosen factions (by name or id, any case) of the export in `directory`.

    `datasheets` limits the datasheets to those names and leaves out the faction's abilities,
    detachments, stratagems and enhancements. `known_datasheets` are slugs defined elsewhere (a
    seed file) that `leads` may name. `taken_slugs` (kind -> slug -> owner) are slugs already in
    the database, so a record of another faction never takes them over.
    """
    export = read_export(directory)
    taken_slugs = taken_slugs or {}
    converter = _Converter(export, taken_slugs)
    faction_rows = _choose(export.rows("Factions.csv"), factions, "id", "faction")
    return converter.run(faction_rows, datasheets, set(known_datasheets))


class _Converter:
    def __init__(self, export: Export, taken_slugs: dict[str, dict[str, str]]) -> None:
        self.export = export
        self.taken = taken_slugs
        self.report: list[SkippedRow] = list(export.report)
        self.prefix = f"Wahapedia export {export.date}"

    def source(self, kind: str, identity: str) -> str:
        return f"{self.prefix}, {kind} {identity}"

    def run(
        self, faction_rows: list[Row], datasheet_names: list[str] | None, known: set[str]
    ) -> Conversion:
        faction_ids = {row["id"] for row in faction_rows}
        sheets = [
            row for row in self.export.rows("Datasheets.csv") if row["faction_id"] in faction_ids
        ]
        factions = {row["id"]: self._faction(row, sheets) for row in faction_rows}
        sheet_slugs = assign_slugs(
            [
                Named(r["id"], clean_text(r["name"]), factions[r["faction_id"]]["slug"])
                for r in sheets
            ],
            self.taken.get("datasheets"),
        )
        chosen_sheets = (
            _choose(sheets, datasheet_names, "id", "datasheet") if datasheet_names else sheets
        )
        bundle: dict[str, list[dict]] = {"factions": sorted(factions.values(), key=_slug)}
        bundle["datasheets"] = self._datasheets(chosen_sheets, factions, sheet_slugs, known)
        if not datasheet_names:
            bundle["abilities"] = self._faction_abilities(factions)
            detachments, detachment_slugs = self._detachments(factions)
            bundle["detachments"] = detachments
            bundle["stratagems"] = self._detachment_records(
                "Stratagems.csv", "stratagem", army_rules.stratagem, factions, detachment_slugs
            )
            bundle["enhancements"] = self._detachment_records(
                "Enhancements.csv",
                "enhancement",
                army_rules.enhancement,
                factions,
                detachment_slugs,
            )
        ordered = {kind: bundle[kind] for kind in BUNDLE_KINDS if kind in bundle}
        return Conversion(ordered, sorted(self.report))

    def _faction(self, row: Row, sheets: list[Row]) -> dict:
        own = {sheet["id"] for sheet in sheets if sheet["faction_id"] == row["id"]}
        keywords = Counter(
            upper_keyword(keyword["keyword"])
            for keyword in self.export.rows("Datasheets_keywords.csv")
            if keyword["datasheet_id"] in own and keyword["is_faction_keyword"].strip() == "true"
        )
        name = clean_text(row["name"])
        return {
            "slug": slugify(name),
            "name": name,
            "faction_keyword": keywords.most_common(1)[0][0] if keywords else name.upper(),
            "wahapedia_id": row["id"],
            "source": self.source("faction", row["id"]),
        }

    def _ability_names(self) -> tuple[dict[str, str], dict[str, str]]:
        core: dict[str, str] = {}
        faction: dict[str, str] = {}
        for row in self.export.rows("Abilities.csv"):
            target = faction if row["faction_id"].strip() else core
            target[row["id"].strip()] = clean_text(row["name"])
        return core, faction

    def _datasheets(
        self,
        sheets: list[Row],
        factions: dict[str, dict],
        slugs: dict[str, str],
        known: set[str],
    ) -> list[dict]:
        core, faction_abilities = self._ability_names()
        records: dict[str, dict] = {}
        for rows in gather(self.export, sheets):
            sheet = rows.sheet
            try:
                records[sheet["id"]] = convert_datasheet(
                    rows,
                    slug=slugs[sheet["id"]],
                    faction=factions[sheet["faction_id"]],
                    source=self.source("datasheet", sheet["id"]),
                    core_abilities=core,
                    faction_abilities=faction_abilities,
                    report=self.report,
                )
            except DatasheetSkipped as skipped:
                self.report.append(skipped.skipped)
        self._leads(records, slugs, known)
        return sorted(records.values(), key=_slug)

    def _leads(self, records: dict[str, dict], slugs: dict[str, str], known: set[str]) -> None:
        for row in self.export.rows("Datasheets_leader.csv"):
            leader = records.get(row["leader_id"])
            if leader is None:
                continue
            target = row["attached_id"]
            if target in records:
                slug = records[target]["slug"]
            elif slugs.get(target) in known:
                slug = slugs[target]
            else:
                name = slugs.get(target) or self._describe(target)
                self.report.append(
                    row.skip(
                        f"{leader['slug']} leads {name}, which is not in this bundle "
                        "(name it with --known-datasheet if it is defined elsewhere)",
                        "leader_id",
                    )
                )
                continue
            if slug not in leader["leads"]:
                leader["leads"].append(slug)
        for record in records.values():
            record["leads"].sort()

    def _describe(self, datasheet_id: str) -> str:
        for sheet in self.export.rows("Datasheets.csv"):
            if sheet["id"] == datasheet_id:
                return f"{clean_text(sheet['name'])} ({sheet['faction_id']}, {datasheet_id})"
        return f"datasheet {datasheet_id} (not in Datasheets.csv)"

    def _faction_abilities(self, factions: dict[str, dict]) -> list[dict]:
        rows = [row for row in self.export.rows("Abilities.csv") if row["faction_id"] in factions]
        # One ability id may be printed for several factions (Assigned Agents): one record each.
        slugs = assign_slugs(
            [
                Named(
                    f"{r['id']}/{r['faction_id']}",
                    clean_text(r["name"]),
                    factions[r["faction_id"]]["slug"],
                )
                for r in rows
            ],
            self.taken.get("abilities"),
        )
        return sorted(
            (
                army_rules.faction_ability(
                    row,
                    slug=slugs[f"{row['id']}/{row['faction_id']}"],
                    faction=factions[row["faction_id"]]["slug"],
                    source=self.source("ability", row["id"]),
                )
                for row in rows
            ),
            key=_slug,
        )

    def _detachments(self, factions: dict[str, dict]) -> tuple[list[dict], dict[str, str]]:
        rows = [row for row in self.export.rows("Detachments.csv") if row["faction_id"] in factions]
        slugs = assign_slugs(
            [
                Named(r["id"], clean_text(r["name"]), factions[r["faction_id"]]["slug"])
                for r in rows
            ],
            self.taken.get("detachments"),
        )
        rules: dict[str, list[Row]] = defaultdict(list)
        for rule in self.export.rows("Detachment_abilities.csv"):
            rules[rule["detachment_id"]].append(rule)
        records = [
            army_rules.detachment(
                row,
                rules[row["id"]],
                slug=slugs[row["id"]],
                faction=factions[row["faction_id"]]["slug"],
                source=self.source("detachment", row["id"]),
            )
            for row in rows
        ]
        return sorted(records, key=_slug), slugs

    def _detachment_rows(
        self, file: str, factions: dict[str, dict], detachment_slugs: dict[str, str], kind: str
    ) -> tuple[list[Row], dict[str, str]]:
        rows = []
        for row in self.export.rows(file):
            if row["faction_id"] not in factions:
                continue
            if row["detachment_id"] not in detachment_slugs:
                self.report.append(
                    row.skip(
                        f"{kind} {clean_text(row['name'])!r} belongs to no detachment of the export"
                    )
                )
                continue
            rows.append(row)
        slugs = assign_slugs(
            [
                Named(
                    r["id"],
                    clean_text(r["name"]),
                    factions[r["faction_id"]]["slug"],
                    (detachment_slugs[r["detachment_id"]],),
                )
                for r in rows
            ],
            self.taken.get(f"{kind}s"),
        )
        return rows, slugs

    def _detachment_records(
        self,
        file: str,
        kind: str,
        convert: Callable[..., dict],
        factions: dict[str, dict],
        detachment_slugs: dict[str, str],
    ) -> list[dict]:
        """Stratagems or enhancements (one `convert` per row); unreadable rows are reported."""
        rows, slugs = self._detachment_rows(file, factions, detachment_slugs, kind)
        records = []
        for row in rows:
            try:
                records.append(
                    convert(
                        row,
                        slug=slugs[row["id"]],
                        detachment=detachment_slugs[row["detachment_id"]],
                        source=self.source(kind, row["id"]),
                    )
                )
            except Unreadable as error:
                self.report.append(army_rules.skipped(row, kind, error))
        return sorted(records, key=_slug)


def _slug(record: dict) -> str:
    return record["slug"]


def keep_existing_texts(
    bundle: dict[str, list[dict]], existing: dict[str, dict[str, str]]
) -> list[SkippedRow]:
    """Leave out records whose slug the database holds from another source (a seed file): where
    the export and a seed text disagree, the seed text wins. `existing` is kind -> slug -> source.
    Returns the report lines, and removes the records from `bundle` in place."""
    report = []
    for kind, records in bundle.items():
        held = existing.get(kind, {})
        kept = []
        for record in records:
            source = held.get(record["slug"])
            if source is not None and not source.startswith("Wahapedia export"):
                report.append(
                    SkippedRow(
                        "database",
                        0,
                        record["slug"],
                        f"{kind[:-1]} {record['slug']!r} kept as loaded from {source!r}",
                    )
                )
                continue
            kept.append(record)
        bundle[kind] = kept
    return report


def database_owners(exported: dict[str, list[dict]]) -> dict[str, dict[str, str]]:
    """kind -> slug -> owning faction, from a bundle of the whole database (`export_rules()`)."""
    detachment_factions = {
        record["slug"]: record.get("faction") or "" for record in exported.get("detachments", [])
    }
    owners: dict[str, dict[str, str]] = {}
    for kind in BUNDLE_KINDS:
        owners[kind] = {}
        for record in exported.get(kind, []):
            if kind in {"stratagems", "enhancements"}:
                owner = detachment_factions.get(record.get("detachment") or "", "")
            elif kind == "factions":
                owner = record["slug"]
            else:
                owner = record.get("faction") or ""
            owners[kind][record["slug"]] = owner
    return owners


def database_sources(exported: dict[str, list[dict]]) -> dict[str, dict[str, str]]:
    """kind -> slug -> source, from a bundle of the whole database."""
    return {
        kind: {record["slug"]: record.get("source") or "" for record in exported.get(kind, [])}
        for kind in BUNDLE_KINDS
    }


def rename_abilities(bundle: dict[str, list[dict]], renames: dict[str, str]) -> list[str]:
    """Give datasheet abilities the names another source prints for them; report each rename.

    The export may name an ability differently from a seed text (seed 004 prints the Grey Knights
    faction ability as Teleport Assault where the export says Gate of Infinity); the seed wins.
    """
    report = []
    for sheet in bundle.get("datasheets", []):
        for ability in sheet.get("abilities", []):
            new_name = renames.get(ability["name"])
            if new_name:
                report.append(f"{sheet['slug']}: ability {ability['name']!r} renamed {new_name!r}")
                ability["name"] = new_name
    return report


def set_hull_sizes(
    bundle: dict[str, list[dict]], sizes: dict[str, tuple[float, float]]
) -> list[str]:
    """Give hull footprints (length, width in mm) to models the export says to measure by hull.

    The export prints only "Use model" for vehicles without a base; the footprint then comes from
    the organiser (docs/rulings.md records the project's own values and where they come from).
    """
    report = []
    for sheet in bundle.get("datasheets", []):
        for profile in sheet.get("models", []):
            base = profile.get("base") or {}
            size = sizes.get(sheet["name"]) or sizes.get(sheet["slug"])
            if base.get("shape") == "hull" and size:
                base["length_mm"], base["width_mm"] = size
                report.append(f"{sheet['slug']}: hull footprint {size[0]} x {size[1]} mm")
    return report


# Hull footprints by the model's wounds, for vehicles the export prints as "Use model" and nobody
# measured (docs/rulings.md M-04): the classes of the measured ones (Rhino W10 117 x 86, Leman Russ
# W13 140 x 105) and of larger hulls. (most wounds, length mm, width mm)
ESTIMATED_HULLS = ((9, 100.0, 75.0), (11, 117.0, 86.0), (13, 140.0, 105.0), (18, 175.0, 120.0))
LARGEST_HULL = (220.0, 150.0)


def estimate_hull_sizes(bundle: dict[str, list[dict]]) -> list[str]:
    """Give every hull without a size a footprint estimated from the model's wounds, reported
    per datasheet so that an organiser can correct it (`--hull` or the admin)."""
    report = []
    for sheet in bundle.get("datasheets", []):
        for profile in sheet.get("models", []):
            base = profile.get("base") or {}
            if base.get("shape") != "hull" or (base.get("length_mm") and base.get("width_mm")):
                continue
            wounds = profile.get("W") or 0
            length, width = next(
                ((length, width) for most, length, width in ESTIMATED_HULLS if wounds <= most),
                LARGEST_HULL,
            )
            base["length_mm"], base["width_mm"] = length, width
            report.append(
                f"{sheet['slug']}: hull footprint of {profile['name']} estimated {length:g} x "
                f'{width:g} mm from its {wounds} wounds; measure it with --hull "{sheet["name"]}'
                '=LENGTHxWIDTH" or in the admin'
            )
    return report


def drop_unmeasured_hulls(bundle: dict[str, list[dict]]) -> list[str]:
    """Leave out datasheets measured by a hull whose size nobody gave: the referee cannot measure
    to a footprint it does not know. Each is reported with the option that brings it in."""
    report, kept = [], []
    for sheet in bundle.get("datasheets", []):
        unmeasured = [
            profile["name"]
            for profile in sheet.get("models", [])
            if (profile.get("base") or {}).get("shape") == "hull"
            and not (
                (profile["base"].get("length_mm") or 0) and (profile["base"].get("width_mm") or 0)
            )
        ]
        if unmeasured:
            report.append(
                f"{sheet['slug']}: skipped, measured by its hull but the export gives no size; "
                f'add --hull "{sheet["name"]}=LENGTHxWIDTH" (mm)'
            )
        else:
            kept.append(sheet)
    if "datasheets" in bundle:
        bundle["datasheets"] = kept
    return report
