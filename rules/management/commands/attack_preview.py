import json

from django.core.management.base import BaseCommand, CommandError

from rules.engine import AttackInputError, Refusal, preview
from rules.rulesets import edition_for


class Command(BaseCommand):
    help = (
        "Distribution of attacks, hits, wounds, unsaved, damage and models destroyed for one "
        "weapon profile against one target unit (see docs/attacks.md for SPEC)."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--json", dest="spec", required=True, help="the SPEC as a JSON string")

    def handle(self, *args, **options) -> None:
        try:
            spec = json.loads(options["spec"])
        except json.JSONDecodeError as error:
            raise CommandError(f"spec: not valid JSON ({error})") from error
        try:
            result = preview(spec, edition_for)
        except AttackInputError as error:
            raise CommandError(str(error)) from error
        except Refusal as refusal:
            raise CommandError(f"{refusal.code}: {refusal}") from refusal
        self.stdout.write(json.dumps(result))
