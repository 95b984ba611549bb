"""Pass stratagem windows whose time is up: run once, or with --every N as a small periodic task."""

import time

from django.core.management.base import BaseCommand

from games.matches import expire_due_windows


class Command(BaseCommand):
    help = "Pass for players whose stratagem window's time limit has run out."

    def add_arguments(self, parser):
        parser.add_argument(
            "--every", type=float, default=0, help="Seconds between checks; 0 checks once."
        )

    def handle(self, *args, every: float = 0, **options):
        while True:
            passed = expire_due_windows()
            if passed:
                self.stdout.write(f"{passed} window(s) passed")
            if not every:
                return
            time.sleep(every)
