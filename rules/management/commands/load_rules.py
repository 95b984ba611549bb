from django.core.management.base import BaseCommand, CommandError

from rules.loader import RulesDataError, load_rules


class Command(BaseCommand):
    help = "Load the rules data files under rules/data/ into the database (idempotent)."

    def handle(self, *args, **options) -> None:
        try:
            counts = load_rules()
        except RulesDataError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            f"rules data loaded: {counts['created']} created, {counts['changed']} changed, "
            f"{counts['unchanged']} unchanged"
        )
