from django.core.management.base import BaseCommand

from rules.loader import load_rules


class Command(BaseCommand):
    help = "Load the rules data files under rules/data/ into the database (idempotent)."

    def handle(self, *args, **options) -> None:
        counts = load_rules()
        self.stdout.write(
            f"rules data loaded: {counts['created']} created, {counts['changed']} changed"
        )
