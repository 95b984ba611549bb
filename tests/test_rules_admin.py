"""Editing rules data in the admin: refusals carry the parsers' messages; edits reach new games."""

import pytest

from rules import snapshot
from rules.loader import load_rules
from rules.models import RuleSet, RuleSetParameter, WeaponProfile
from tests.rules_bundles import TEST_DATA_DIR

pytestmark = pytest.mark.django_db


@pytest.fixture
def rules_loaded():
    load_rules()
    load_rules(TEST_DATA_DIR)


@pytest.fixture
def staff_client(client, staff_user):
    client.force_login(staff_user)
    return client


def _form_data(response) -> dict:
    """What the browser would post back for the page as shown (main form and every inline)."""
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]
    data = {}
    for form in forms:
        for bound in form:
            value = bound.value()
            if value is None or value is False:
                continue
            if value is True:
                value = "on"
            elif isinstance(value, list | tuple):
                value = [str(item) for item in value]
            data[bound.html_name] = value
    return data


def _psilencer() -> WeaponProfile:
    return WeaponProfile.objects.get(datasheet__slug="strike-squad", name="Psilencer")


def _edit_weapon(client, weapon: WeaponProfile, **changes):
    url = f"/admin/rules/weaponprofile/{weapon.pk}/change/"
    data = _form_data(client.get(url))
    data.update(changes)
    return client.post(url, data)


def test_attacks_of_d7_are_refused_with_the_parser_message(rules_loaded, staff_client):
    response = _edit_weapon(staff_client, _psilencer(), attacks="D7")
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "only D3 and D6 are used in this game" in errors["attacks"][0]
    assert _psilencer().attacks == "D6+2"


def test_rapid_fire_without_its_value_is_refused(rules_loaded, staff_client):
    response = _edit_weapon(staff_client, _psilencer(), abilities="psychic, rapid fire")
    errors = response.context["adminform"].form.errors
    assert "'rapid fire' needs a value, e.g. rapid fire 1" in errors["abilities"][0]
    assert _psilencer().abilities == ["psychic", "anti-infantry 4+"]


def test_a_valid_edit_is_saved_in_canonical_spelling(rules_loaded, staff_client):
    response = _edit_weapon(
        staff_client, _psilencer(), attacks="2d6", abilities="[Psychic, Sustained Hits D3]"
    )
    assert response.status_code == 302
    weapon = _psilencer()
    assert weapon.attacks == "2D6"
    assert weapon.abilities == ["psychic", "sustained hits d3"]


def test_the_weapon_page_previews_parsed_values(rules_loaded, staff_client):
    page = staff_client.get(f"/admin/rules/weaponprofile/{_psilencer().pk}/change/")
    assert "3 to 8, mean 5.5" in page.content.decode()
    assert "ANTI: keyword INFANTRY, 4+" in page.content.decode()


def test_a_datasheet_is_edited_with_its_profiles_weapons_abilities_and_points(
    rules_loaded, staff_client
):
    from rules.models import Datasheet

    squad = Datasheet.objects.get(slug="strike-squad")
    url = f"/admin/rules/datasheet/{squad.pk}/change/"
    page = staff_client.get(url)
    inlines = {inline.formset.prefix for inline in page.context["inline_admin_formsets"]}
    assert inlines == {"models", "weapons", "abilities", "points"}
    data = _form_data(page)
    data["weapons-0-attacks"] = "D7"
    refused = staff_client.post(url, data)
    weapon_errors = [f.errors for i in refused.context["inline_admin_formsets"] for f in i.formset]
    assert any("only D3 and D6" in str(errors) for errors in weapon_errors)


def test_someone_who_is_not_staff_cannot_reach_the_admin(rules_loaded, client, player):
    client.force_login(player)
    response = client.get(f"/admin/rules/weaponprofile/{_psilencer().pk}/change/")
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def _edit_parameter(client, slug: str, name: str, value: str):
    ruleset = RuleSet.objects.get(slug=slug)
    url = f"/admin/rules/ruleset/{ruleset.pk}/change/"
    data = _form_data(client.get(url))
    prefix = next(
        key.removesuffix("-name")
        for key, posted in data.items()
        if key.endswith("-name") and posted == name
    )
    data[f"{prefix}-value"] = value
    return client.post(url, data)


def test_a_changed_parameter_is_what_the_next_game_gets(rules_loaded, staff_client):
    assert snapshot.edition("11e").engagement_range_horizontal == 2
    response = _edit_parameter(staff_client, "11e", "engagement_range_horizontal", "3")
    assert response.status_code == 302
    assert snapshot.edition("11e").engagement_range_horizontal == 3
    response = _edit_parameter(staff_client, "11e", "cover", "improve_armour_save")
    assert snapshot.edition("11e").cover == "improve_armour_save"


def test_a_parameter_outside_its_choices_is_refused_with_the_edition_message(
    rules_loaded, staff_client
):
    response = _edit_parameter(staff_client, "11e", "cover", "sandbags")
    assert response.status_code == 200
    assert "cover must be one of improve_armour_save, worsen_ballistic_skill" in (
        response.content.decode()
    )
    assert snapshot.edition("11e").cover == "worsen_ballistic_skill"


def test_a_new_rule_set_starts_as_a_copy_of_the_default(rules_loaded, staff_client):
    page = staff_client.get("/admin/rules/ruleset/add/")
    data = _form_data(page)
    data.update({"slug": "11e-house", "name": "11th edition, house rules"})
    data.pop("is_default", None)
    response = staff_client.post("/admin/rules/ruleset/add/", data)
    assert response.status_code == 302
    house = snapshot.edition("11e-house")
    assert house.parameters() == snapshot.edition("11e").parameters()
    assert snapshot.default_ruleset_slug() == "11e"


def test_the_only_default_rule_set_cannot_be_unmarked(rules_loaded, staff_client):
    ruleset = RuleSet.objects.get(slug="11e")
    url = f"/admin/rules/ruleset/{ruleset.pk}/change/"
    data = _form_data(staff_client.get(url))
    del data["is_default"]
    response = staff_client.post(url, data)
    assert "make another one the default" in response.content.decode()
    assert snapshot.default_ruleset_slug() == "11e"


def test_every_rules_page_of_the_admin_opens(rules_loaded, staff_client):
    from django.apps import apps
    from django.contrib import admin

    from rules.models import Datasheet

    for model in [m for m in admin.site._registry if m._meta.app_label == "rules"]:
        base = f"/admin/rules/{model._meta.model_name}/"
        assert staff_client.get(base).status_code == 200, base
        assert staff_client.get(base + "?q=squad").status_code == 200, base
        assert staff_client.get(base + "add/").status_code == 200, base
        first = model.objects.first()
        if first is not None:
            assert staff_client.get(f"{base}{first.pk}/change/").status_code == 200, base
    registered = {m for m in admin.site._registry if m._meta.app_label == "rules"}
    assert registered == set(apps.get_app_config("rules").get_models())
    assert Datasheet.objects.exists()


@pytest.mark.parametrize(
    ("model_name", "slug"),
    [
        ("datasheet", "strike-squad"),
        ("datasheet", "brother-captain"),
        ("detachment", "test-strike-force"),
        ("ruleset", "10e"),
        ("mission", "test-incursion"),
    ],
)
def test_saving_a_page_unchanged_changes_no_data(rules_loaded, staff_client, model_name, slug):
    from django.apps import apps

    from rules.loader import export_rules

    before = export_rules()
    obj = apps.get_model("rules", model_name).objects.get(slug=slug)
    url = f"/admin/rules/{model_name}/{obj.pk}/change/"
    response = staff_client.post(url, _form_data(staff_client.get(url)))
    assert response.status_code == 302, response.context["errors"]
    assert export_rules() == before


def test_a_parameter_edited_on_its_own_page_is_checked_against_its_rule_set(
    rules_loaded, staff_client
):
    parameter = RuleSetParameter.objects.get(ruleset__slug="10e", name="battle_rounds")
    url = f"/admin/rules/rulesetparameter/{parameter.pk}/change/"
    data = _form_data(staff_client.get(url)) | {"value": "-1"}
    refused = staff_client.post(url, data)
    assert "battle_rounds must be a whole number of 0 or more, not -1" in refused.content.decode()
    accepted = staff_client.post(url, data | {"value": "6"})
    assert accepted.status_code == 302
    assert snapshot.edition("10e").battle_rounds == 6
