"""The read-only rules API under /api/rules/ and its OpenAPI schema."""

import json

import pytest
from django.core.management import call_command

from rules.loader import DATA_DIR, load_bundle, load_rules
from tests.rules_bundles import TEST_DATA_DIR

pytestmark = pytest.mark.django_db


@pytest.fixture
def rules_loaded():
    load_bundle(json.loads((DATA_DIR / "rulesets.json").read_text()), origin="rulesets.json")
    load_rules(TEST_DATA_DIR)


def _results(client, url: str) -> list[dict]:
    response = client.get(url)
    assert response.status_code == 200, response.content
    return response.json()["results"]


def test_a_datasheet_shows_profiles_weapons_abilities_points_and_parsed_values(
    rules_loaded, client
):
    squad = client.get("/api/rules/datasheets/strike-squad/").json()
    assert squad["faction"] == "grey-knights"
    assert squad["keywords"][0] == "INFANTRY"
    assert squad["models"][0]["base"]["diameter_mm"] == 40
    assert squad["models"][1]["max"] == 9
    assert [p["points"] for p in squad["points"]] == [110, 220]
    assert squad["leaders"] == ["brother-captain"]
    psilencer = next(weapon for weapon in squad["weapons"] if weapon["name"] == "Psilencer")
    assert psilencer["A"] == "D6+2"
    assert psilencer["A_parsed"] == {
        "text": "D6+2",
        "count": 1,
        "sides": 6,
        "modifier": 2,
        "minimum": 3,
        "maximum": 8,
        "mean": 5.5,
    }
    assert psilencer["abilities_parsed"][1] == {
        "name": "ANTI",
        "value": None,
        "keyword": "INFANTRY",
        "threshold": 4,
    }
    bolter = squad["weapons"][0]
    assert bolter["abilities_parsed"][0]["value"]["text"] == "2"


def test_stratagems_filter_by_edition_faction_and_detachment(rules_loaded, client):
    eleventh = {s["slug"] for s in _results(client, "/api/rules/stratagems/?edition=11e")}
    assert eleventh == {"command-re-roll-11e", "test-hammerhand", "test-warding-veil"}
    tenth = {s["slug"] for s in _results(client, "/api/rules/stratagems/?edition=10e")}
    assert tenth == {"test-hammerhand", "test-warding-veil"}
    by_faction = _results(client, "/api/rules/stratagems/?faction=grey-knights")
    assert {s["slug"] for s in by_faction} == {"test-hammerhand", "test-warding-veil"}
    by_detachment = _results(client, "/api/rules/stratagems/?detachment=test-strike-force")
    assert by_detachment[0]["when"] == {
        "phase": "fight",
        "turn": "either",
        "trigger": "unit_selected_to_fight",
    }
    assert _results(client, "/api/rules/stratagems/?detachment=nothing") == []


def test_factions_detachments_enhancements_and_rule_sets(rules_loaded, client):
    assert [f["slug"] for f in _results(client, "/api/rules/factions/")] == ["grey-knights"]
    detachment = _results(client, "/api/rules/detachments/?faction=grey-knights")[0]
    assert detachment["rules"][0]["name"] == "Sanctified Onslaught"
    enhancement = _results(client, "/api/rules/enhancements/?detachment=test-strike-force")[0]
    assert enhancement["excluded_keywords"] == ["TERMINATOR"]
    assert _results(client, "/api/rules/datasheets/?faction=no-such-faction") == []
    eleventh = client.get("/api/rules/rulesets/11e/").json()
    assert eleventh["is_default"] is True
    assert eleventh["parameters"]["engagement_range_horizontal"] == 2
    assert {a["slug"] for a in _results(client, "/api/rules/abilities/?kind=faction")} == {
        "teleport-assault"
    }


def test_the_rules_api_is_read_only_for_everyone(rules_loaded, client, staff_user):
    client.force_login(staff_user)
    assert client.post("/api/rules/factions/", {"slug": "x", "name": "X"}).status_code == 405
    assert client.delete("/api/rules/datasheets/strike-squad/").status_code == 405
    assert client.patch("/api/rules/rulesets/11e/", {}, "application/json").status_code == 405


def test_the_openapi_schema_validates_without_warnings(tmp_path):
    schema = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(schema))
    text = schema.read_text()
    for path in ("/api/rules/datasheets/", "/api/rules/stratagems/", "/api/rules/rulesets/"):
        assert path in text
    assert "abilities_parsed" in text
