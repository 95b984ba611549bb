from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rules.loader import DATA_DIR, RulesDataError, load_rules


class Command(BaseCommand):
    help = "Load the rules data files under rules/data/ into the database (idempotent)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--data-dir", type=Path, default=DATA_DIR, help="Load the *.json files under this one."
        )

    def handle(self, *args, **options) -> None:
        try:
            counts = load_rules(options["data_dir"])
        except RulesDataError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            f"rules data loaded: {counts['created']} created, {counts['changed']} changed, "
            f"{counts['unchanged']} unchanged"
        )
