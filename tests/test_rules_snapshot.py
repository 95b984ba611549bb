"""The selectors games use when they start: the edition and the bundle an army needs."""

import json

import pytest

from rules import snapshot
from rules.engine.core.editions import Edition
from rules.loader import DATA_DIR, export_rules, load_bundle, load_rules
from rules.models import RuleSetParameter
from tests.rules_bundles import TEST_DATA_DIR

pytestmark = pytest.mark.django_db


@pytest.fixture
def rules_loaded():
    load_bundle(json.loads((DATA_DIR / "rulesets.json").read_text()), origin="rulesets.json")
    load_rules(TEST_DATA_DIR)


def test_the_edition_is_built_from_the_parameters_in_the_database(rules_loaded):
    tenth = snapshot.edition("10e")
    assert isinstance(tenth, Edition)
    assert (tenth.engagement_range_horizontal, tenth.cover) == (1, "improve_armour_save")
    RuleSetParameter.objects.filter(ruleset__slug="10e", name="charge_range").update(value=13)
    assert snapshot.edition("10e").charge_range == 13
    assert snapshot.default_ruleset_slug() == "11e"


def test_an_army_bundle_holds_what_its_factions_need_in_that_edition(rules_loaded):
    bundle = snapshot.bundle_for("10e", ["grey-knights"])
    slugs = {key: [record["slug"] for record in records] for key, records in bundle.items()}
    assert slugs == {
        "rulesets": ["10e"],
        "factions": ["grey-knights"],
        "abilities": ["deep-strike", "teleport-assault"],
        "detachments": ["test-strike-force"],
        # Command Re-roll of the fixture is 11e only; detachment stratagems serve both editions.
        "stratagems": ["test-hammerhand", "test-warding-veil"],
        "enhancements": ["test-sigil-of-exigence"],
        "datasheets": ["brother-captain", "strike-squad"],
        "missions": ["test-incursion"],
    }
    everything = export_rules()
    for key, records in bundle.items():
        assert all(record in everything[key] for record in records), key
    assert json.loads(json.dumps(bundle)) == bundle


def test_an_army_of_no_known_faction_gets_only_the_core(rules_loaded):
    bundle = snapshot.bundle_for("11e", ["space-elves"])
    assert [s["slug"] for s in bundle["stratagems"]] == ["command-re-roll-11e"]
    assert bundle["datasheets"] == [] and bundle["factions"] == []
