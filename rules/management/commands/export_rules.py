import json

from django.core.management.base import BaseCommand

from rules.loader import export_rules


class Command(BaseCommand):
    help = "Write the rules data in the database as JSON to standard output."

    def handle(self, *args, **options) -> None:
        self.stdout.write(json.dumps(export_rules(), indent=2, ensure_ascii=False))
