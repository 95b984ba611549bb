"""Loading bundles of rules data (docs/rules-data-format.md) and writing them back."""

import copy
import json
from io import StringIO

import pytest
from django.core.management import call_command

from rules.loader import DATA_DIR, RulesDataError, export_rules, load_bundle, load_rules
from rules.models import Datasheet, RuleSet, Stratagem, WeaponProfile
from tests.rules_bundles import TEST_DATA_DIR, canonical, merge, read_dir

pytestmark = pytest.mark.django_db


@pytest.fixture
def fixtures_loaded():
    """The project's rule sets, then the test bundles (which bring their own factions)."""
    load_bundle(json.loads((DATA_DIR / "rulesets.json").read_text()), origin="rulesets.json")
    return load_rules(TEST_DATA_DIR)


def _fixture_bundle(relative: str) -> dict:
    return json.loads((TEST_DATA_DIR / relative).read_text())


def test_load_rules_twice_changes_nothing_the_second_time():
    first, second = StringIO(), StringIO()
    call_command("load_rules", stdout=first)
    call_command("load_rules", stdout=second)
    assert "0 created, 0 changed" in second.getvalue()
    assert set(RuleSet.objects.values_list("slug", flat=True)) >= {"10e", "11e"}
    assert RuleSet.objects.get(is_default=True).slug == "11e"


def test_export_rules_reproduces_the_project_data_files():
    call_command("load_rules", stdout=StringIO())
    out = StringIO()
    call_command("export_rules", stdout=out)
    assert json.loads(out.getvalue()) == canonical(merge(*read_dir(DATA_DIR)))


def test_fixture_bundles_load_and_export_as_the_merge_of_all_files(fixtures_loaded):
    assert fixtures_loaded == {"created": 11, "changed": 0, "unchanged": 0}
    rulesets = json.loads((DATA_DIR / "rulesets.json").read_text())
    expected = canonical(merge(rulesets, *read_dir(TEST_DATA_DIR)))
    assert export_rules() == expected
    assert load_rules(TEST_DATA_DIR) == {"created": 0, "changed": 0, "unchanged": 11}
    assert export_rules() == expected


def test_a_leader_in_an_earlier_file_is_linked_to_a_unit_of_a_later_file(fixtures_loaded):
    # published.json sorts before seed.json: the link is made once both are in.
    captain = Datasheet.objects.get(slug="brother-captain")
    assert list(captain.leads.values_list("slug", flat=True)) == ["strike-squad"]
    strike_squad = next(d for d in export_rules()["datasheets"] if d["slug"] == "strike-squad")
    assert strike_squad["leaders"] == ["brother-captain"]


def test_dice_and_weapon_abilities_are_stored_in_canonical_spelling(fixtures_loaded):
    sword = WeaponProfile.objects.get(datasheet__slug="brother-captain", type="melee")
    bolter = WeaponProfile.objects.get(datasheet__slug="brother-captain", type="ranged")
    assert sword.attacks == "D3+3"
    assert sword.abilities == ["psychic", "sustained hits d3"]
    assert bolter.abilities == ["rapid fire 2"]


def test_stratagem_timing_is_structured(fixtures_loaded):
    veil = Stratagem.objects.get(slug="test-warding-veil")
    assert (veil.phase, veil.turn, veil.trigger) == (
        "shooting",
        "opponent",
        "enemy_unit_selected_targets",
    )
    assert veil.detachment.slug == "test-strike-force"
    assert veil.limit == "none"


def test_a_changed_record_replaces_its_rows_and_is_counted_once(fixtures_loaded):
    bundle = _fixture_bundle("factions/grey-knights/seed.json")
    squad = bundle["datasheets"][0]
    squad["weapons"] = squad["weapons"][:1]
    squad["points"][0]["points"] = 115
    counts = load_bundle({"datasheets": [squad]}, origin="edit")
    assert counts == {"created": 0, "changed": 1, "unchanged": 0}
    datasheet = Datasheet.objects.get(slug="strike-squad")
    assert [w.name for w in datasheet.weapons.all()] == ["Storm bolter"]
    assert [p.points for p in datasheet.points.all()] == [115, 220]
    # Changing the unit does not drop the leader link made by the Brother-Captain's record.
    assert list(datasheet.leaders.values_list("slug", flat=True)) == ["brother-captain"]


def _bad_squad(**changes) -> dict:
    squad = copy.deepcopy(_fixture_bundle("factions/grey-knights/seed.json")["datasheets"][0])
    squad["slug"] = "bad-squad"
    squad["leaders"] = []
    for path, value in changes.items():
        target = squad
        *parents, last = path.split("__")
        for parent in parents:
            target = target[int(parent)] if parent.isdigit() else target[parent]
        target[last] = value
    return squad


@pytest.mark.parametrize(
    ("changes", "field", "message"),
    [
        ({"weapons__1__A": "D7"}, "weapons[1].A", "only D3 and D6"),
        ({"weapons__0__D": "two"}, "weapons[0].D", "is not a dice expression"),
        ({"weapons__0__abilities": ["rapid fire"]}, "weapons[0].abilities", "needs a value"),
        ({"weapons__0__type": "thrown"}, "weapons[0].type", "is not a valid choice"),
        ({"models__0__T": "4"}, "models[0].T", "must be a whole number"),
        ({"models__0__base": {"shape": "round"}}, "models[0].base.diameter_mm", "diameter"),
        ({"faction": "space-elves"}, "faction", "'space-elves', which is neither"),
        ({"abilities__0__kind": "psychic"}, "abilities[0].kind", "is not a valid choice"),
        ({"toughness": 4}, "toughness", "is not a key of this record"),
    ],
)
def test_an_invalid_datasheet_is_refused_naming_record_field_and_reason(
    fixtures_loaded, changes, field, message
):
    with pytest.raises(RulesDataError) as refused:
        load_bundle({"datasheets": [_bad_squad(**changes)]}, origin="bad.json")
    error = refused.value
    assert (error.kind, error.slug, error.field, error.origin) == (
        "datasheets",
        "bad-squad",
        field,
        "bad.json",
    )
    assert message in str(error)
    assert not Datasheet.objects.filter(slug="bad-squad").exists()


def test_a_refused_load_saves_nothing_of_it(fixtures_loaded):
    good = _bad_squad()
    good["slug"] = "good-squad"
    with pytest.raises(RulesDataError):
        load_bundle({"datasheets": [good, _bad_squad(weapons__0__A="D7")]})
    assert not Datasheet.objects.filter(slug="good-squad").exists()


def test_a_lead_to_a_datasheet_not_loaded_yet_waits_for_it(fixtures_loaded):
    # docs/rules-data-format.md: a bodyguard may come from a faction imported later.
    load_bundle({"datasheets": [_bad_squad(leads=["no-such-unit", "strike-squad"])]})
    squad = Datasheet.objects.get(slug="bad-squad")
    assert list(squad.leads.values_list("slug", flat=True)) == ["strike-squad"]
    assert squad.pending_leads == ["no-such-unit"]
    exported = next(d for d in export_rules()["datasheets"] if d["slug"] == "bad-squad")
    assert exported["leads"] == ["no-such-unit", "strike-squad"]

    arriving = _bad_squad(leads=[])
    arriving.update(slug="no-such-unit", name="No Such Unit")
    load_bundle({"datasheets": [arriving]})
    squad.refresh_from_db()
    assert sorted(squad.leads.values_list("slug", flat=True)) == ["no-such-unit", "strike-squad"]
    assert squad.pending_leads == []


def test_leaders_written_by_hand_naming_nothing_are_refused(fixtures_loaded):
    squad = _bad_squad(leads=["strike-squad"])
    squad["leaders"] = ["ghost-captain"]
    with pytest.raises(RulesDataError) as refused:
        load_bundle({"datasheets": [squad]}, origin="links.json")
    assert [(p.slug, p.field) for p in refused.value.problems] == [("bad-squad", "leaders")]
    assert "'ghost-captain', which does not exist" in str(refused.value)
    assert "links.json" in str(refused.value)


def test_leaders_written_by_hand_must_agree_with_leads(fixtures_loaded):
    squad = _bad_squad()
    squad["leaders"] = ["strike-squad"]
    with pytest.raises(RulesDataError, match="'strike-squad' does not list 'bad-squad'"):
        load_bundle({"datasheets": [squad]})


def test_a_stratagem_trigger_outside_the_format_is_refused(fixtures_loaded):
    stratagem = _fixture_bundle("factions/grey-knights/seed.json")["stratagems"][0]
    stratagem["when"]["trigger"] = "whenever_you_like"
    with pytest.raises(RulesDataError) as refused:
        load_bundle({"stratagems": [stratagem]})
    assert refused.value.field == "when.trigger"


def test_a_detachment_stratagem_names_its_detachment(fixtures_loaded):
    stratagem = _fixture_bundle("factions/grey-knights/seed.json")["stratagems"][0]
    stratagem["detachment"] = None
    with pytest.raises(RulesDataError, match="names its detachment"):
        load_bundle({"stratagems": [stratagem]})


def test_bad_rule_set_parameters_are_refused_with_the_edition_message():
    ruleset = json.loads((DATA_DIR / "rulesets.json").read_text())["rulesets"][0]
    ruleset["parameters"]["cover"] = "sandbags"
    with pytest.raises(RulesDataError) as refused:
        load_bundle({"rulesets": [ruleset]})
    assert refused.value.field == "parameters"
    assert "sandbags" in str(refused.value)


def test_two_default_rule_sets_in_one_load_are_refused():
    rulesets = json.loads((DATA_DIR / "rulesets.json").read_text())["rulesets"]
    for ruleset in rulesets:
        ruleset["is_default"] = True
    with pytest.raises(RulesDataError, match="exactly one rule set is the default"):
        load_bundle({"rulesets": rulesets})


def test_a_record_twice_in_one_load_and_unknown_bundle_keys_are_refused():
    faction = {"slug": "grey-knights", "name": "Grey Knights"}
    with pytest.raises(RulesDataError, match="defined twice"):
        load_bundle({"factions": [faction, faction]})
    with pytest.raises(RulesDataError, match="unknown keys units"):
        load_bundle({"units": []})
    with pytest.raises(RulesDataError, match="a bundle is a JSON object"):
        load_bundle([faction])


def test_a_mission_keeps_its_layout_whole(fixtures_loaded):
    mission = export_rules()["missions"][0]
    assert mission["battlefield"] == {"width": 44, "depth": 60}
    assert len(mission["deployment_zones"]) == 2
    assert mission["battle_size"] == "incursion"


def test_any_save_of_a_weapon_checks_and_canonicalises_its_notations(fixtures_loaded):
    from django.core.exceptions import ValidationError

    squad = Datasheet.objects.get(slug="strike-squad")
    fields = {"datasheet": squad, "name": "Test gun", "type": "ranged", "range": 12}
    fields |= {"strength": 4, "armour_penetration": 0}
    weapon = WeaponProfile.objects.create(
        **fields, attacks="2d6", damage="d3+1", abilities=["Lethal Hits"]
    )
    weapon.refresh_from_db()
    assert (weapon.attacks, weapon.damage, weapon.abilities) == ("2D6", "D3+1", ["lethal hits"])
    with pytest.raises(ValidationError, match="only D3 and D6"):
        WeaponProfile.objects.create(**fields, attacks="D7", damage="1")


def test_the_export_is_itself_a_bundle_that_loads_back_to_the_same_database(
    fixtures_loaded, tmp_path
):
    from rules.models import Ability, Faction, Mission, RuleSet

    out = StringIO()
    call_command("export_rules", stdout=out)
    (tmp_path / "everything.json").write_text(out.getvalue())
    exported = json.loads(out.getvalue())
    for model in (Datasheet, Stratagem, Ability, Mission, Faction, RuleSet):
        model.objects.all().delete()
    assert load_rules(tmp_path)["created"] == sum(len(records) for records in exported.values())
    assert export_rules() == exported


def test_null_texts_and_lists_read_as_empty(fixtures_loaded):
    bundle = _fixture_bundle("factions/grey-knights/seed.json")
    enhancement = bundle["enhancements"][0] | {"restrictions_text": None, "excluded_keywords": None}
    load_bundle({"enhancements": [enhancement]})
    exported = next(e for e in export_rules()["enhancements"] if e["slug"] == enhancement["slug"])
    assert (exported["restrictions_text"], exported["excluded_keywords"]) == ("", [])
    assert exported == canonical({"enhancements": [enhancement]})["enhancements"][0]


def test_a_file_may_name_a_rule_set_from_a_file_loaded_after_it(tmp_path):
    # rules/data/core/11e.json sorts before rules/data/rulesets.json: one load resolves both.
    (tmp_path / "core").mkdir()
    (tmp_path / "core" / "11e.json").write_text((TEST_DATA_DIR / "core.json").read_text())
    (tmp_path / "rulesets.json").write_text((DATA_DIR / "rulesets.json").read_text())
    assert load_rules(tmp_path) == {"created": 5, "changed": 0, "unchanged": 0}
    assert Stratagem.objects.get(slug="command-re-roll-11e").edition.slug == "11e"


def test_the_command_names_the_file_record_and_field_of_a_refusal(tmp_path):
    from django.core.management.base import CommandError

    load_rules()
    bundle = _fixture_bundle("factions/grey-knights/seed.json")
    bundle["datasheets"][0]["weapons"][0]["A"] = "D7"
    (tmp_path / "broken.json").write_text(json.dumps(bundle))
    with pytest.raises(CommandError) as refused:
        call_command("load_rules", "--data-dir", str(tmp_path), stdout=StringIO())
    assert str(refused.value).startswith(
        "broken.json: datasheets 'strike-squad' field weapons[0].A: 'D7' uses a D7"
    )
