"""`manage.py replay FILE`: replay a game log and print `{"events": n, "state_hash": "..."}`."""

import json

from django.core.management.base import BaseCommand, CommandError

from rules.engine import ReplayMismatch, replay, state_hash


class Command(BaseCommand):
    help = "Replay a game log from the start and print the number of events and the state hash."

    def add_arguments(self, parser) -> None:
        parser.add_argument("file")

    def handle(self, *args, **options) -> None:
        with open(options["file"], encoding="utf-8") as handle:
            log = json.load(handle)
        try:
            state, events = replay(log)
            if log.get("events") and events != log["events"]:
                raise ReplayMismatch("replayed events differ from the logged events")
        except ReplayMismatch as error:
            raise CommandError(str(error)) from error
        self.stdout.write(json.dumps({"events": len(events), "state_hash": state_hash(state)}))
