"""Army lists: every problem named (Muster Armies, 19.01 Leaders, Enhancements, Assigned Agents),
the points totalled, and the HTTP API that saves, checks and picks them."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games import armies, services
from games.models import Game
from rules.engine.army.list_checks import check_army
from tests.match_world import cadians, grey_knights, mustering_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def rules_data(db):
    call_command("load_rules", verbosity=0)


def codes(army: dict, battle_size: str = "incursion", edition: str = "11e") -> list[str]:
    report = armies.check(army, battle_size=battle_size, edition_slug=edition)
    return [problem["code"] for problem in report.problems]


def castellan(key: str, bodyguard: str, **changes) -> dict:
    entry = {
        "key": key,
        "datasheet": "cadian-castellan",
        "models": 1,
        "attached_to": bodyguard,
        "role": "leader",
    }
    return {**entry, **changes}


def troops(key: str, models: int = 10) -> dict:
    return {"key": key, "datasheet": "cadian-shock-troops", "models": models}


def inquisitor(key: str, **changes) -> dict:
    return {"key": key, "datasheet": "inquisitor", "models": 1, **changes}


def test_the_example_armies_are_valid_and_priced_from_the_datasheets():
    report = armies.check(cadians())
    # 10 Cadian Shock Troops 65, Cadian Castellan 55 + Drill Commander 20.
    assert report.as_dict() == {
        "valid": True,
        "points": 140,
        "limit": 1000,
        "unit_points": {"cst": 65, "cas": 75},
        "problems": [],
    }
    assert armies.check(grey_knights()).valid


def test_points_over_the_battle_sizes_limit():
    """Incursion 1000, Strike Force 2000, Onslaught 3000 points."""
    horde = cadians(units=[*cadians()["units"], *(troops(f"t{n}", 20) for n in range(8))])
    assert codes(horde) == ["over_points_limit"]  # 140 + 8 x 120 = 1100
    assert codes(horde, battle_size="strike-force") == []


def test_a_unit_size_not_on_the_datasheet():
    army = grey_knights()
    army["units"][0]["models"] = 7  # Strike Squads come in 5 or 10 (AMB-22)
    assert codes(army) == ["invalid_unit_size"]


def test_a_leader_attached_to_a_unit_it_cannot_lead():
    army = cadians()
    army["units"].insert(0, {"key": "dr", "datasheet": "death-riders", "models": 5})
    army["units"][2]["attached_to"] = "dr"
    assert codes(army) == ["cannot_lead"]


def test_one_leader_per_bodyguard_unit():
    army = cadians()
    army["units"].append(castellan("cas2", "cst"))
    assert codes(army) == ["bodyguard_taken"]


def test_support_units_exist_only_where_the_edition_has_them():
    army = cadians()
    army["units"][1]["role"] = "support"
    assert "support_not_in_edition" in codes(army, edition="10e")


@pytest.mark.parametrize(
    ("warlords", "code"),
    [((), "no_warlord"), (("cas", "cst"), "several_warlords")],
)
def test_exactly_one_warlord(warlords, code):
    army = cadians()
    for entry in army["units"]:
        entry["warlord"] = entry["key"] in warlords
    assert code in codes(army)


def test_the_warlord_is_a_character():
    army = cadians()
    army["units"][0]["warlord"], army["units"][1]["warlord"] = True, False
    assert codes(army) == ["warlord_not_character"]


def test_an_enhancement_on_a_model_that_may_not_take_it():
    army = cadians()
    army["units"][0]["enhancements"] = ["drill-commander"]  # not a CHARACTER
    army["units"][1]["enhancements"] = []
    assert codes(army) == ["enhancement_not_eligible"]


@pytest.mark.parametrize(
    ("restriction", "value"),
    [("eligible_keywords", ["MINISTORUM PRIEST"]), ("excluded_keywords", ["OFFICER"])],
)
def test_an_enhancements_eligible_and_excluded_keywords(restriction, value):
    army = cadians()
    bundle = copy.deepcopy(armies.rules_bundle([army], "11e"))
    (drill,) = [e for e in bundle["enhancements"] if e["slug"] == "drill-commander"]
    drill[restriction] = value
    report = check_army(army, "incursion", bundle, support_units=True)
    assert [p["code"] for p in report.problems] == ["enhancement_not_eligible"]
    assert report.problems[0]["unit"] == "cas"


def test_an_enhancement_taken_twice():
    army = cadians()
    army["units"] += [troops("cst2"), castellan("cas2", "cst2", enhancements=["drill-commander"])]
    assert codes(army) == ["enhancement_twice"]


def test_an_enhancement_of_another_detachment():
    assert codes(cadians(detachment="siege-regiment")) == ["enhancement_wrong_detachment"]


def test_a_detachment_of_another_faction():
    assert "detachment_mismatch" in codes(cadians(detachment="teleport-strike-force"))


def test_a_unit_of_another_faction():
    army = cadians()
    army["units"].append({"key": "ss", "datasheet": "strike-squad", "models": 5})
    assert codes(army) == ["faction_mismatch"]


def test_assigned_agents_cost_their_assigned_price_and_are_limited_by_battle_size():
    """Assigned Agents (seed 000 L174-178): Incursion allows one CHARACTER agent."""
    army = cadians()
    army["units"].append(inquisitor("inq"))
    report = armies.check(army)
    assert report.valid and report.unit_points["inq"] == 65  # 55 in an Agents army (SD-22)
    army["units"].append(inquisitor("inq2"))
    assert codes(army) == ["too_many_assigned_agents"]
    assert codes(army, battle_size="strike-force") == []


def test_assigned_agents_join_only_armies_whose_every_model_is_imperium():
    army = cadians()
    army["units"].append(inquisitor("inq"))
    bundle = copy.deepcopy(armies.rules_bundle([army], "11e"))
    for sheet in bundle["datasheets"]:
        if sheet["slug"] == "cadian-shock-troops":
            sheet["keywords"].remove("IMPERIUM")
    report = check_army(army, "incursion", bundle, support_units=True)
    assert [p["code"] for p in report.problems] == ["assigned_agents_not_imperium"]


def test_every_problem_is_named_at_once():
    army = cadians(detachment="teleport-strike-force")
    army["units"][0]["models"] = 11
    army["units"][1]["warlord"] = False
    assert set(codes(army)) >= {"detachment_mismatch", "invalid_unit_size", "no_warlord"}


def wargear(option: int, choice: int, models: int) -> dict:
    return {"option": option, "choice": choice, "models": models}


def test_wargear_choices_are_checked_against_the_datasheets_options():
    """02.07 Wargear Options: up to 2 Shock Troopers per 10 models swap their lasgun; the
    Castellan swaps its chainsword once."""
    army = cadians()
    army["units"][0]["wargear"] = [wargear(0, 0, 1), wargear(0, 2, 1), wargear(1, 0, 1)]
    army["units"][1]["wargear"] = [wargear(0, 1, 1)]
    assert codes(army) == []


@pytest.mark.parametrize(
    ("chosen", "code"),
    [
        ([wargear(9, 0, 1)], "unknown_wargear_option"),
        ([wargear(4, 0, 1)], "unknown_wargear_option"),  # a footnote, not an option
        ([wargear(0, 9, 1)], "unknown_wargear_choice"),
        ([wargear(0, 0, 1), wargear(0, 2, 1), wargear(0, 3, 1)], "too_many_wargear"),
        ([wargear(0, 0, 2)], "wargear_duplicate"),
        ([{"option": 0, "choice": 0}], "invalid_wargear"),
    ],
)
def test_each_wargear_problem_is_named(chosen, code):
    army = cadians()
    army["units"][0]["wargear"] = chosen
    report = armies.check(army)
    assert [(p["code"], p["unit"], p["rule"]) for p in report.problems] == [
        (code, "cst", "Wargear Options")
    ]


def test_a_wargear_option_no_model_can_take():
    """Inquisitor: the force weapon only 'If this model is equipped with 1 psychic gifts'."""
    army = cadians()
    army["units"].append(inquisitor("inq", wargear=[wargear(2, 0, 1)]))
    assert codes(army) == ["wargear_not_eligible"]
    army["units"][-1]["wargear"].insert(0, wargear(1, 0, 1))
    assert codes(army) == []


def test_a_wargear_choice_naming_a_weapon_not_on_the_datasheet():
    army = cadians()
    army["units"][1]["wargear"] = [wargear(0, 1, 1)]  # 1 power fist
    bundle = copy.deepcopy(armies.rules_bundle([army], "11e"))
    for sheet in bundle["datasheets"]:
        if sheet["slug"] == "cadian-castellan":
            sheet["weapons"] = [w for w in sheet["weapons"] if w["name"] != "Power fist"]
    report = check_army(army, "incursion", bundle, support_units=True)
    assert [p["code"] for p in report.problems] == ["wargear_not_on_datasheet"]


def test_a_wargear_text_of_an_unknown_shape_is_named():
    army = cadians()
    bundle = copy.deepcopy(armies.rules_bundle([army], "11e"))
    for sheet in bundle["datasheets"]:
        if sheet["slug"] == "cadian-castellan":
            sheet["wargear_options"].append("This model may swap anything for anything.")
    army["units"][1]["wargear"] = [wargear(2, 0, 1)]
    report = check_army(army, "incursion", bundle, support_units=True)
    assert [p["code"] for p in report.problems] == ["wargear_text_unknown"]


# --- HTTP --------------------------------------------------------------------------------


@pytest.fixture
def api(player) -> APIClient:
    client = APIClient()
    client.force_authenticate(player)
    return client


def test_create_list_update_validate_and_delete_my_armies(api, django_user_model):
    created = api.post("/api/armies/", cadians(), format="json")
    assert created.status_code == 201, created.json()
    army_id = created.json()["id"]
    assert [a["name"] for a in api.get("/api/armies/").json()["results"]] == ["Cadia stands"]
    check = api.get(f"/api/armies/{army_id}/validate/").json()
    assert (check["valid"], check["points"]) == (True, 140)

    changed = api.patch(f"/api/armies/{army_id}/", {"detachment": "siege-regiment"}, format="json")
    assert changed.status_code == 200
    check = api.get(f"/api/armies/{army_id}/validate/").json()
    assert [p["code"] for p in check["problems"]] == ["enhancement_wrong_detachment"]

    other = APIClient()
    other.force_authenticate(django_user_model.objects.create_user("eve", password="x" * 12))
    assert other.get(f"/api/armies/{army_id}/").status_code == 404
    assert api.delete(f"/api/armies/{army_id}/").status_code == 204
    assert api.get("/api/armies/").json()["count"] == 0


def test_the_builders_live_check_of_an_unsaved_list(api):
    army = grey_knights()
    army["units"][0]["models"] = 6
    response = api.post("/api/armies/validate/", army, format="json")
    assert response.status_code == 200
    assert [p["code"] for p in response.json()["problems"]] == ["invalid_unit_size"]
    assert response.json()["problems"][0]["unit"] == "ss1"


def test_picking_armies_over_http_starts_the_game(api, player, django_user_model):
    bob = django_user_model.objects.create_user("bob", password="x" * 12)
    game = mustering_game(player, bob)
    bad = cadians()
    bad["units"][1]["warlord"] = False
    bad_id = api.post("/api/armies/", bad, format="json").json()["id"]
    refused = api.post(f"/api/games/{game.pk}/army/", {"army": bad_id}, format="json")
    assert refused.status_code == 400
    assert refused.json()["code"] == "army_invalid"
    assert [p["code"] for p in refused.json()["problems"]] == ["no_warlord"]

    good_id = api.post("/api/armies/", grey_knights(), format="json").json()["id"]
    picked = api.post(f"/api/games/{game.pk}/army/", {"army": good_id}, format="json")
    assert picked.status_code == 200 and picked.json()["status"] == "mustering"
    bobs = APIClient()
    bobs.force_authenticate(bob)
    not_mine = bobs.post(f"/api/games/{game.pk}/army/", {"army": good_id}, format="json")
    assert not_mine.json()["code"] == "army_unknown"
    bob_army = bobs.post("/api/armies/", cadians(), format="json").json()["id"]
    started = bobs.post(f"/api/games/{game.pk}/army/", {"army": bob_army}, format="json")
    assert started.json()["status"] == "deployment"

    state = api.get(f"/api/games/{game.pk}/state/").json()
    assert state["version"] == 1 and state["state"]["stage"] == "declare_reserves"
    assert "seed" not in state["state"]["dice"]
    assert state["legal_actions"][0]["type"] == "declare_reserves"
    assert bobs.get(f"/api/games/{game.pk}/state/").json()["legal_actions"] == []
    snapshot = Game.objects.get(pk=game.pk).army_snapshots
    assert snapshot["1"]["name"] == "Castellans" and snapshot["2"]["faction"] == "astra-militarum"


def test_wargear_is_saved_validated_and_offered_over_http(api):
    army = cadians()
    army["units"][0]["wargear"] = [wargear(0, 3, 1)]
    created = api.post("/api/armies/", army, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["units"][0]["wargear"] == [wargear(0, 3, 1)]
    army["units"][0]["wargear"] = [wargear(0, 3, 3)]
    report = api.post("/api/armies/validate/", army, format="json").json()
    assert [p["code"] for p in report["problems"]] == ["too_many_wargear"]
    malformed = api.post(
        "/api/armies/validate/",
        {**army, "units": [{**army["units"][0], "wargear": ["flamer"]}]},
        format="json",
    )
    assert malformed.status_code == 400
    sheet = api.get("/api/rules/datasheets/cadian-shock-troops/").json()
    assert sheet["wargear_choices"][0]["limits"] == {"10": 2, "20": 4}
    assert sheet["wargear_choices"][0]["choices"][3]["label"] == "1 plasma gun"


def test_armies_cannot_be_picked_before_the_opponent_joins(api, player):
    game = services.create_game(player)
    army_id = api.post("/api/armies/", cadians(), format="json").json()["id"]
    refused = api.post(f"/api/games/{game.pk}/army/", {"army": army_id}, format="json")
    assert refused.json()["code"] == "not_mustering"


def test_the_openapi_schema_has_armies_and_the_match_endpoints(tmp_path: Path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    schema = target.read_text()
    for path in (
        "/api/armies/",
        "/api/armies/validate/",
        "/api/armies/{id}/validate/",
        "/api/games/{id}/army/",
        "/api/games/{id}/state/",
    ):
        assert f"{path}:" in schema


# --- pages -------------------------------------------------------------------------------


def test_the_army_builder_page_and_picking_an_army_from_the_lobby(
    client, player, django_user_model
):
    client.force_login(player)
    page = client.get("/armies/")
    assert page.status_code == 200
    assert b"js/army_builder.js" in page.content
    bob = django_user_model.objects.create_user("bob", password="x" * 12)
    game = mustering_game(player, bob)
    army = armies.create_army(player, grey_knights())
    lobby = client.get("/games/")
    assert f'action="/games/{game.pk}/army/"'.encode() in lobby.content
    assert client.post(f"/games/{game.pk}/army/", {"army": army.pk}).status_code == 302
    assert Game.objects.get(pk=game.pk).army_snapshots["1"]["name"] == "Castellans"
    refused = client.post(f"/games/{game.pk}/army/", {"army": 999}, follow=True)
    assert b"You have no such army." in refused.content
