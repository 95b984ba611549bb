"""Time loading a Wahapedia-sized bundle (1,700 datasheets) into a scratch SQLite database.

Run: `.venv/bin/python tests/bench_rules_load.py` (not collected by pytest; takes ~10 s).
"""

import copy
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
scratch = Path(tempfile.mkdtemp()) / "bench.sqlite3"
os.environ["DATABASE_URL"] = f"sqlite:///{scratch}"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tabletop.settings")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from rules.loader import export_rules, load_bundle, load_rules  # noqa: E402
from tests.rules_bundles import TEST_DATA_DIR  # noqa: E402


def main() -> None:
    call_command("migrate", verbosity=0)
    load_rules()
    load_rules(TEST_DATA_DIR)
    seed = json.loads((TEST_DATA_DIR / "factions/grey-knights/seed.json").read_text())
    squad = seed["datasheets"][0]
    sheets = []
    for index in range(1700):
        sheet = copy.deepcopy(squad)
        sheet.pop("leaders")
        sheet["slug"] = f"bench-{index}"
        sheet["weapons"] = (sheet["weapons"] * 2)[:5]
        sheet["leads"] = [f"bench-{index + 1}"] if index < 1699 else []
        sheets.append(sheet)
    for run in ("first load", "second load"):
        start = time.perf_counter()
        counts = load_bundle({"datasheets": sheets}, origin="bench")
        print(f"{run}: {counts} in {time.perf_counter() - start:.1f} s")
    start = time.perf_counter()
    exported = export_rules()
    print(
        f"export: {len(exported['datasheets'])} datasheets in {time.perf_counter() - start:.1f} s"
    )


if __name__ == "__main__":
    main()
