"""Every faction of a Wahapedia export is ready: one bad row never refuses a faction. The importer
reads what the export means (a missing minimum is the unit's size, a blank model name is the
datasheet's, an aircraft's `20+"` is 20"), estimates hull footprints it is not given, skips and
reports what it cannot read, and loads the rest."""

import shutil
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from rules import loader
from rules.models import Datasheet
from rules.wahapedia import convert_export, estimate_hull_sizes, read_export
from rules.wahapedia.composition import fallback_counts, model_counts
from rules.wahapedia.text import clean_text
from tests.rules_data_files import shared_dir

EXCERPT = Path(__file__).parent / "data" / "wahapedia"
EXPORT = "wahapedia-export-2026-02-14"


def full_export() -> Path:
    try:
        directory = shared_dir() / "data" / EXPORT
    except FileNotFoundError:
        directory = None
    if directory is None or not (directory / "Datasheets.csv").is_file():
        pytest.skip(f"../shared/data/{EXPORT} is missing: the whole export is not in this checkout")
    return directory


def excerpt_with(tmp_path: Path, file: str, old: str, new: str) -> Path:
    copy = tmp_path / "export"
    shutil.copytree(EXCERPT, copy)
    path = copy / file
    text = path.read_text("utf-8-sig")
    assert old in text
    path.write_text("\ufeff" + text.replace(old, new, 1), "utf-8")
    return copy


def sheet(conversion, name: str) -> dict:
    return next(s for s in conversion.bundle["datasheets"] if s["name"] == name)


def test_a_blank_model_name_is_the_datasheets_name(tmp_path):
    export = excerpt_with(
        tmp_path, "Datasheets_models.csv", "000000376|1|Brother-captain|", "000000376|1||"
    )
    captain = sheet(convert_export(export, ["Grey Knights"]), "Brother-captain")
    assert [model["name"] for model in captain["models"]] == ["Brother-captain"]


def test_an_aircraft_move_is_read_and_its_minimum_reported(tmp_path):
    export = excerpt_with(
        tmp_path,
        "Datasheets_models.csv",
        '000000376|1|Brother-captain|5"|',
        '000000376|1|Brother-captain|20+"|',
    )
    conversion = convert_export(export, ["Grey Knights"])
    assert sheet(conversion, "Brother-captain")["models"][0]["M"] == 20
    assert any("minimum move of an aircraft" in line.reason for line in conversion.report)


def test_counts_missing_from_the_composition_are_the_unit_sizes():
    assert fallback_counts(["Beast Snagga Boy"], [10, 20]) == {"Beast Snagga Boy": (10, 20)}
    assert fallback_counts(["Leader", "Follower"], [5]) == {"Leader": (1, 5), "Follower": (0, 4)}
    # Upper-case stat lines and plurals in the composition name the same models.
    alternatives = [[_item(1, 1, "Beast Snagga Nob"), _item(9, 19, "Beast Snagga Boyz")]]
    assert model_counts(["BEAST SNAGGA BOY", "BEAST SNAGGA NOB"], alternatives) == {
        "BEAST SNAGGA BOY": (9, 19),
        "BEAST SNAGGA NOB": (1, 1),
    }


def _item(low, high, name):
    from rules.wahapedia.composition import CompositionItem

    return CompositionItem(low, high, name)


def test_hulls_without_a_size_get_a_footprint_from_their_wounds_reported():
    bundle = {
        "datasheets": [
            {
                "slug": "tank",
                "name": "Tank",
                "models": [{"name": "Tank", "W": 13, "base": {"shape": "hull"}}],
            }
        ]
    }
    report = estimate_hull_sizes(bundle)
    assert bundle["datasheets"][0]["models"][0]["base"] == {
        "shape": "hull",
        "length_mm": 140.0,
        "width_mm": 105.0,
    }
    assert report == [
        "tank: hull footprint of Tank estimated 140 x 105 mm from its 13 wounds; measure it "
        'with --hull "Tank=LENGTHxWIDTH" or in the admin'
    ]


@pytest.mark.django_db
def test_a_record_the_format_refuses_is_left_out_and_reported_the_rest_loads():
    call_command("load_rules", stdout=StringIO())
    good = {"slug": "good-sheet", "name": "Good", "faction": "grey-knights"}
    bad = {"slug": "bad-sheet", "name": "Bad", "faction": "grey-knights", "models": [{"name": ""}]}
    refused = []
    counts = loader.load_bundle({"datasheets": [bad, good]}, origin="test", refused=refused)
    assert counts["created"] == 1
    assert Datasheet.objects.filter(slug="good-sheet").exists()
    assert not Datasheet.objects.filter(slug="bad-sheet").exists()
    assert [error.slug for error in refused] == ["bad-sheet"]
    with pytest.raises(loader.RulesDataError):
        loader.load_bundle({"datasheets": [bad]}, origin="test")


def test_every_faction_of_the_export_converts_with_95_percent_of_its_datasheets():
    directory = full_export()
    export = read_export(directory)
    factions = [clean_text(row["name"]) for row in export.rows("Factions.csv")]
    conversion = convert_export(directory, factions)
    converted = {
        record["source"].rsplit("datasheet ", 1)[1] for record in conversion.bundle["datasheets"]
    }
    fieldable = [
        row for row in export.rows("Datasheets.csv") if row["virtual"].strip().lower() != "true"
    ]
    missing = [row for row in fieldable if row["id"] not in converted]
    assert len(factions) == 26
    assert len(converted) / len(fieldable) >= 0.95, [clean_text(r["name"]) for r in missing]
    # Every datasheet left out is in the report, by its export id.
    reported = {line.id for line in conversion.report}
    assert [row["id"] for row in missing if row["id"] not in reported] == []


@pytest.mark.django_db
def test_the_admin_action_imports_every_faction_idempotently(client, staff_user, settings):
    call_command("load_rules", stdout=StringIO())
    settings.WAHAPEDIA_EXPORT_DIR = str(EXCERPT)
    client.force_login(staff_user)
    from rules.models import Faction

    for attempt in range(2):
        response = client.post(
            "/admin/rules/faction/",
            {
                "action": "import_every_faction_from_wahapedia",
                "_selected_action": [Faction.objects.first().pk],
            },
            follow=True,
        )
        assert response.status_code == 200
        shown = [str(message) for message in response.context["messages"]]
        assert any("8 of 8 datasheets of 4 factions loaded" in text for text in shown), shown
        counts = Datasheet.objects.count()
        if attempt == 0:
            first = counts
    assert counts == first
