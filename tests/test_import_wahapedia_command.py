"""`manage.py import_wahapedia --json`: the bundle on stdout, the report on stderr (no database)."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

EXCERPT = Path(__file__).parent / "data" / "wahapedia"


def run_json(*arguments: str, capsys) -> tuple[dict, str]:
    out = StringIO()
    call_command("import_wahapedia", str(EXCERPT), "--json", *arguments, stdout=out)
    return json.loads(out.getvalue()), capsys.readouterr().err


def test_json_prints_the_bundle_and_reports_skipped_rows_on_stderr(capsys):
    bundle, report = run_json("--faction", "gk", "--faction", "Astra Militarum", capsys=capsys)
    assert {sheet["slug"] for sheet in bundle["datasheets"]} >= {
        "brother-captain",
        "brotherhood-terminator-squad",
        "chimera",
    }
    assert "skipped: Datasheets_wargear.csv row 21 (000000389)" in report
    assert "Psychic lance" in report


def test_only_and_known_datasheet_give_a_datasheets_only_bundle(capsys):
    bundle, _ = run_json(
        "--faction",
        "GK",
        "--datasheet",
        "Brother-captain",
        "--known-datasheet",
        "brotherhood-terminator-squad",
        "--only",
        "datasheets",
        capsys=capsys,
    )
    assert list(bundle) == ["datasheets"]
    assert bundle["datasheets"][0]["leads"] == ["brotherhood-terminator-squad"]


def test_an_unknown_faction_is_an_error_listing_the_valid_names():
    with pytest.raises(CommandError, match="valid names: Astra Militarum, Grey Knights"):
        call_command("import_wahapedia", str(EXCERPT), "--faction", "Tau", "--json")


def test_a_directory_that_is_no_export_is_an_error(tmp_path):
    with pytest.raises(CommandError, match="no Datasheets.csv"):
        call_command("import_wahapedia", str(tmp_path), "--faction", "GK", "--json")
