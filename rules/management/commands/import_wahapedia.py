import json
import sys

from django.core.management.base import BaseCommand, CommandError

from rules.wahapedia import (
    BUNDLE_KINDS,
    ExportError,
    UnknownName,
    convert_export,
    rename_abilities,
    set_hull_sizes,
)
from rules.wahapedia_load import ALL_FACTIONS, faction_names, import_factions


class Command(BaseCommand):
    help = (
        "Bring factions in from a Wahapedia CSV export: convert them to one rules-data bundle "
        "and load it (or print it with --json). Rows that cannot be read are reported and left "
        "out; the rest loads. Idempotent."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("directory", help="the export directory (holds Datasheets.csv)")
        parser.add_argument(
            "--faction",
            action="append",
            required=True,
            metavar="NAME",
            help='faction name or Wahapedia id, any case (repeat for several); "all" for every one',
        )
        parser.add_argument(
            "--datasheet",
            action="append",
            metavar="NAME",
            help="only these datasheets (then no abilities, detachments, stratagems, enhancements)",
        )
        parser.add_argument(
            "--known-datasheet",
            action="append",
            default=[],
            metavar="SLUG",
            help="a datasheet defined elsewhere (e.g. a seed file) that `leads` may name",
        )
        parser.add_argument(
            "--only",
            action="append",
            choices=BUNDLE_KINDS,
            metavar="KIND",
            help=f"keep only these kinds in the bundle ({', '.join(BUNDLE_KINDS)})",
        )
        parser.add_argument(
            "--rename-ability",
            action="append",
            default=[],
            metavar="OLD=NEW",
            help="name a datasheet ability as another source prints it (the seed text wins)",
        )
        parser.add_argument(
            "--hull",
            action="append",
            default=[],
            metavar="NAME=LENGTHxWIDTH",
            help='hull footprint in mm for a datasheet measured by its hull, e.g. "Rhino=117x85"',
        )
        parser.add_argument(
            "--skip-unmeasured-hulls",
            action="store_true",
            help="leave out vehicles without a hull size instead of estimating it from wounds",
        )
        parser.add_argument(
            "--json",
            action="store_true",
            help="print the bundle as JSON (the report goes to stderr) instead of loading it",
        )

    def handle(self, *args, **options) -> None:
        renames = {}
        for pair in options["rename_ability"]:
            old, sep, new = pair.partition("=")
            if not sep or not old.strip() or not new.strip():
                raise CommandError(f"--rename-ability takes OLD=NEW, not {pair!r}")
            renames[old.strip()] = new.strip()
        hulls = {}
        for pair in options["hull"]:
            name, sep, size = pair.partition("=")
            length, x, width = size.lower().partition("x")
            try:
                hulls[name.strip()] = (float(length), float(width))
            except ValueError:
                raise CommandError(f"--hull takes NAME=LENGTHxWIDTH in mm, not {pair!r}") from None
            if not sep or not x:
                raise CommandError(f"--hull takes NAME=LENGTHxWIDTH in mm, not {pair!r}")
        factions = options["faction"]
        if options["json"]:
            self._print_json(options, factions, renames, hulls)
            return
        try:
            result = import_factions(
                options["directory"],
                factions,
                datasheets=options["datasheet"],
                known_datasheets=options["known_datasheet"],
                only=options["only"],
                renames=renames,
                hulls=hulls,
                estimate_hulls=not options["skip_unmeasured_hulls"],
            )
        except (ExportError, UnknownName) as error:
            raise CommandError(str(error)) from error
        summary = ", ".join(f"{key} {value}" for key, value in result.counts.items())
        self.stdout.write(f"Wahapedia import loaded: {summary}")
        for line in result.report:
            self.stdout.write(f"skipped: {line}")
        self.stdout.write(f"{len(result.report)} rows or fields skipped")
        for faction in result.coverage:
            self.stdout.write(
                f"{faction.name}: {faction.loaded} of {faction.in_export} datasheets loaded"
                + (f"; not loaded: {', '.join(faction.skipped)}" if faction.skipped else "")
            )
        self.stdout.write(result.summary())

    def _print_json(self, options, factions, renames, hulls) -> None:
        if [name.lower() for name in factions] == [ALL_FACTIONS]:
            factions = faction_names(options["directory"])
        try:
            conversion = convert_export(
                options["directory"],
                factions,
                datasheets=options["datasheet"],
                known_datasheets=options["known_datasheet"],
            )
        except (ExportError, UnknownName) as error:
            raise CommandError(str(error)) from error
        bundle = conversion.bundle
        if options["only"]:
            bundle = {kind: records for kind, records in bundle.items() if kind in options["only"]}
        report = [
            *conversion.report,
            *rename_abilities(bundle, renames),
            *set_hull_sizes(bundle, hulls),
        ]
        self.stdout.write(json.dumps(bundle, indent=2, ensure_ascii=False))
        for line in report:
            sys.stderr.write(f"skipped: {line}\n")
        sys.stderr.write(f"{len(report)} rows or fields skipped\n")
