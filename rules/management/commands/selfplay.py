"""`manage.py selfplay --seed N --edition SLUG [--log FILE]`: one complete random game.

Thin: the rules data comes from `rules.loader.export_rules()`, the game from
`rules.engine.selfplay`. Prints one JSON object (seed, edition, events, battle_rounds,
victory_points, winner, state_hash).
"""

import json

from django.core.management.base import BaseCommand, CommandError

from rules.engine import SelfplayError, selfplay
from rules.loader import export_rules


class Command(BaseCommand):
    help = "Play one complete game between two random agents and print its summary as JSON."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--seed", type=int, required=True)
        parser.add_argument("--edition", default="11e")
        parser.add_argument("--log", help="write the game log (JSON) to this file")

    def handle(self, *args, **options) -> None:
        bundle = export_rules()
        if not bundle.get("datasheets"):
            raise CommandError(
                "The rules database has no datasheets: load the rules data (manage.py load_rules, "
                "with datasheets of two factions) before self-play."
            )
        try:
            result, log = selfplay(bundle, options["seed"], options["edition"])
        except SelfplayError as error:
            raise CommandError(str(error)) from error
        if options["log"]:
            with open(options["log"], "w", encoding="utf-8") as handle:
                json.dump(log, handle, sort_keys=True, separators=(",", ":"))
        self.stdout.write(json.dumps(result, sort_keys=True))
