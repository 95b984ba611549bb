"""Army lists from the apps players use: the Warhammer 40,000 app's text export and New Recruit /
BattleScribe rosters (.json, .ros, .rosz) matched to the rules data, every unused line reported,
exported back, and malicious uploads refused with nothing stored. The lists are our own
(tests/data/army_lists/), written in each format."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from django.core.management import call_command
from rest_framework.test import APIClient

from games import armies
from games.army_lists.app_text import read_app_text
from games.army_lists.names import normalise
from games.army_lists.uploads import UploadRefused, read_list
from games.models import Army

pytestmark = pytest.mark.django_db
LISTS = Path(__file__).parent / "data" / "army_lists"


@pytest.fixture(autouse=True)
def rules_data(db):
    call_command("load_rules", verbosity=0)


def imported(name: str) -> dict:
    return armies.import_list((LISTS / name).read_bytes(), filename=name)


def codes(result: dict) -> list[tuple[int, str]]:
    return [(line["line"], line["code"]) for line in result["report"]]


def unit(result: dict, datasheet: str) -> dict:
    return next(u for u in result["army"]["units"] if u["datasheet"] == datasheet)


def test_names_ignore_case_accents_punctuation_and_the_grand_alliance():
    assert normalise("Imperium - Grey Knights") == normalise("GREY KNIGHTS")
    assert normalise("Khârn the Betrayer") == normalise("kharn, the betrayer")
    assert normalise("T’au Empire") == normalise("Tau Empire")


def test_grey_knights_app_export_with_leader_wargear_and_unknown_unit_and_weapon():
    result = imported("grey-knights-app.txt")
    army = result["army"]
    assert (army["name"], army["faction"], army["detachment"], army["battle_size"]) == (
        "Castellans of Titan",
        "grey-knights",
        "teleport-strike-force",
        "incursion",
    )
    captain = unit(result, "brother-captain")
    terminators = unit(result, "brotherhood-terminator-squad")
    assert captain["warlord"] is True
    assert captain["wargear"] == [{"option": 0, "choice": 2, "models": 1}]  # psycannon
    assert (captain["attached_to"], captain["role"]) == (terminators["key"], "leader")
    assert unit(result, "strike-squad")["models"] == 5
    assert unit(result, "strike-squad")["wargear"] == [{"option": 0, "choice": 1, "models": 1}]
    assert terminators["models"] == 5
    assert terminators["wargear"] == [{"option": 0, "choice": 0, "models": 1}]  # incinerator
    # Nothing dropped silently: each unused line with its number and why.
    assert codes(result) == [
        (29, "points_differ"),
        (33, "unknown_wargear"),
        (35, "unknown_datasheet"),
        (36, "unknown_datasheet"),
    ]
    points = result["report"][0]
    assert "210" in points["message"] and "200" in points["message"]
    assert points["text"] == "Brotherhood Terminator Squad (210 Points)"
    assert "Plasma cannon" in result["report"][1]["message"]
    assert result["check"]["valid"], result["check"]["problems"]
    assert result["check"]["points"] == 90 + 120 + 200


def test_astra_militarum_detachment_first_other_bullets_pts_and_an_enhancement():
    result = imported("astra-militarum-app.txt")
    army = result["army"]
    assert (army["faction"], army["detachment"]) == ("astra-militarum", "combined-arms")
    castellan = unit(result, "cadian-castellan")
    troops = unit(result, "cadian-shock-troops")
    assert castellan["enhancements"] == ["drill-commander"]
    assert castellan["attached_to"] == troops["key"]
    assert sorted(castellan["wargear"], key=lambda c: c["option"]) == [
        {"option": 0, "choice": 1, "models": 1},  # power fist
        {"option": 1, "choice": 1, "models": 1},  # plasma pistol
    ]
    assert troops["models"] == 10
    assert troops["wargear"] == [
        {"option": 0, "choice": 0, "models": 1},  # flamer
        {"option": 0, "choice": 2, "models": 1},  # meltagun
    ]
    assert unit(result, "chimera")["models"] == 1
    assert result["report"] == []
    assert result["check"]["valid"], result["check"]["problems"]


def test_imperial_agents_with_windows_line_endings_and_no_bodyguard_named():
    result = imported("imperial-agents-app.txt")
    army = result["army"]
    assert (army["faction"], army["detachment"]) == (
        "imperial-agents",
        "ordo-malleus-daemon-hunters",
    )
    inquisitor = unit(result, "inquisitor")
    assert inquisitor["enhancements"] == ["daemon-slayer"]
    assert "attached_to" not in inquisitor
    agents = unit(result, "inquisitorial-agents")
    # The list does not say whom the Inquisitor leads: the builder proposes it.
    proposal = next(p for p in result["proposals"] if p["leader"] == inquisitor["key"])
    assert proposal["bodyguards"] == [agents["key"]]
    assert "Inquisitorial Agents" in proposal["message"]
    assert result["report"] == []
    assert result["check"]["valid"], result["check"]["problems"]


def test_an_enhancement_of_another_detachment_and_a_size_not_offered_are_reported():
    text = (
        "Test (100 Points)\n\nGrey Knights\nTeleport Strike Force\nIncursion (1,000 Points)\n\n"
        "CHARACTERS\n\nBrother-Captain (100 Points)\n  • Warlord\n  • Enhancement: Daemon Slayer\n"
        "\nBATTLELINE\n\nStrike Squad (150 Points)\n  • 1x Justicar\n  • 6x Grey Knight\n"
        "This line is nothing\n"
    )
    result = armies.import_list(text)
    assert codes(result) == [
        (9, "points_differ"),
        (11, "enhancement_not_in_detachment"),
        (15, "size_not_offered"),
        (15, "points_differ"),
        (18, "unread_line"),
    ]
    assert unit(result, "strike-squad")["models"] == 5


def test_new_recruit_json_roster():
    result = imported("grey-knights-newrecruit.json")
    army = result["army"]
    assert (army["name"], army["faction"], army["detachment"], army["battle_size"]) == (
        "Purifiers",
        "grey-knights",
        "teleport-strike-force",
        "incursion",
    )
    captain = unit(result, "brother-captain")
    assert captain["warlord"] and captain["wargear"] == [{"option": 0, "choice": 1, "models": 1}]
    terminators = unit(result, "brotherhood-terminator-squad")
    assert terminators["models"] == 5
    assert terminators["wargear"] == [{"option": 0, "choice": 2, "models": 1}]
    assert [line["code"] for line in result["report"]] == ["unknown_datasheet"]
    assert "Stormraven Gunship" in result["report"][0]["message"]


def test_battlescribe_ros_and_the_same_roster_zipped_as_rosz():
    result = imported("astra-militarum.ros")
    assert result["format"] == "BattleScribe .ros"
    castellan = unit(result, "cadian-castellan")
    assert castellan["enhancements"] == ["reactive-command"] and castellan["warlord"]
    troops = unit(result, "cadian-shock-troops")
    assert troops["models"] == 10
    assert sorted((c["option"], c["choice"], c["models"]) for c in troops["wargear"]) == [
        (0, 3, 1),  # plasma gun
        (2, 0, 1),  # the sergeant's bolt pistol
    ]
    assert result["report"] == []
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("Steel Line.ros", (LISTS / "astra-militarum.ros").read_bytes())
    zipped = armies.import_list(buffer.getvalue(), filename="Steel Line.rosz")
    assert zipped["army"] == result["army"]


@pytest.mark.parametrize(
    "name", ["grey-knights-app.txt", "astra-militarum-app.txt", "imperial-agents-app.txt"]
)
def test_export_then_import_gives_the_same_army(name, django_user_model):
    first = imported(name)
    owner = django_user_model.objects.create_user("exporter")
    army = armies.create_army(owner, first["army"])
    text = armies.export_list(army)
    assert text.startswith(f"{first['army']['name']} (")
    again = armies.import_list(text)
    assert again["army"] == first["army"]
    assert again["report"] == []


def test_app_text_reads_every_variation_of_the_export():
    parsed = read_app_text(
        "Big (2 000 Points)\r\n\r\nStrike Force (2,000 Points)\r\nImperium - Grey Knights\r\n"
        "Warpbane Task Force\r\nCHARACTERS\r\nBrother-Captain (90 pts)\r\n"
        "  ◦ 1x Storm bolter\r\nExporté avec la Version de l'Appli : v2.0.1 (122)\r\nafter\r\n"
    )
    assert (parsed.name, parsed.points) == ("Big", 2000)
    assert parsed.battle_size == ("Strike Force", 3) and parsed.battle_size_points == 2000
    assert [name for name, _line in parsed.header] == [
        "Imperium - Grey Knights",
        "Warpbane Task Force",
    ]
    assert [(u.name, u.points, u.items[0].name) for u in parsed.units] == [
        ("Brother-Captain", 90, "Storm bolter")
    ]
    assert [(u.line, u.text) for u in parsed.unread] == [(10, "after")]


# ---------------------------------------------------------------- malicious uploads

BILLION_LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<roster name="&lol3;"><forces/></roster>"""


def zip_bomb() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb.ros", b"\0" * (20 * 1024 * 1024))
    return buffer.getvalue()


@pytest.mark.parametrize(
    ("filename", "content", "message"),
    [
        ("bomb.rosz", zip_bomb(), "zip bomb"),
        ("laughs.ros", BILLION_LAUGHS, "entities or a DTD"),
        ("huge.txt", b"Strike Squad (100 Points)\n" * 400_000, "at most 512 KB"),
        ("many.txt", b"Strike Squad (100 Points)\n" * 302, "at most 300 units"),
    ],
    ids=["zip bomb", "XML entity expansion", "10 MB file", "too many units"],
)
def test_malicious_uploads_are_refused_clearly_and_nothing_is_stored(
    filename, content, message, django_user_model
):
    with pytest.raises(UploadRefused, match=message):
        read_list(content, filename)
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_user("uploader"))
    response = client.post(
        "/api/armies/import/",
        {"file": _named(content, filename)},
        format="multipart",
    )
    assert response.status_code == 400
    assert response.json()["code"] == "upload_refused"
    assert Army.objects.count() == 0


def _named(content: bytes, filename: str) -> io.BytesIO:
    upload = io.BytesIO(content)
    upload.name = filename
    return upload


def test_the_import_endpoint_answers_army_report_and_check_and_needs_a_login(django_user_model):
    text = (LISTS / "grey-knights-app.txt").read_text()
    assert APIClient().post("/api/armies/import/", {"text": text}, format="json").status_code in (
        401,
        403,
    )
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_user("importer"))
    response = client.post("/api/armies/import/", {"text": text}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["army"]["faction"] == "grey-knights"
    assert [line["code"] for line in body["report"]][:2] == ["points_differ", "unknown_wargear"]
    assert body["check"]["valid"] is True
    assert Army.objects.count() == 0  # the player fixes and saves it in the builder
    upload = client.post(
        "/api/armies/import/",
        {"file": _named((LISTS / "astra-militarum.ros").read_bytes(), "list.ros")},
        format="multipart",
    )
    assert upload.status_code == 200 and upload.json()["army"]["faction"] == "astra-militarum"
    assert client.post("/api/armies/import/", {}, format="json").status_code == 400


def test_aliases_are_edited_in_the_admin(client, staff_user):
    from rules.models import Datasheet

    client.force_login(staff_user)
    sheet = Datasheet.objects.get(slug="strike-squad")
    page = client.get(f"/admin/rules/datasheet/{sheet.pk}/change/")
    assert page.status_code == 200
    assert 'name="aliases"' in page.content.decode()


def test_an_alias_in_the_rules_data_matches_like_the_name():
    from rules.models import Datasheet

    Datasheet.objects.filter(slug="strike-squad").update(aliases=["Strike Marines"])
    result = armies.import_list(
        "X (120 Points)\n\nGrey Knights\nTeleport Strike Force\nIncursion (1,000 Points)\n\n"
        "BATTLELINE\n\nStrike Marines (120 Points)\n  • 5x Grey Knight\n"
    )
    assert [u["datasheet"] for u in result["army"]["units"]] == ["strike-squad"]


def test_a_list_of_a_faction_imported_from_the_whole_export_plays_with_its_rules_listed():
    """Orks come only from the Wahapedia export: loaded with `import_wahapedia`, a pasted list
    matches, passes the army check, lists the Ork rules the engine does not enforce, and
    musters in a game against the seed Cadians."""
    from rules.engine import new_game
    from tests.match_world import cadians
    from tests.test_wahapedia_every_faction import full_export

    directory = full_export()
    call_command("import_wahapedia", str(directory), "--faction", "Orks", stdout=io.StringIO())
    result = imported("orks-app.txt")
    assert result["report"] == []
    assert result["check"]["valid"], result["check"]["problems"]
    boyz = unit(result, "boyz")
    assert (boyz["models"], boyz["wargear"]) == (10, [{"option": 0, "choice": 0, "models": 1}])
    assert "Waaagh!" in [rule["name"] for rule in result["check"]["not_enforced"]]
    bundle = armies.rules_bundle([result["army"], cadians()], "11e")
    setup = {
        "ruleset": bundle["rulesets"][0],
        "mission": bundle["missions"][0],
        "datasheets": bundle["datasheets"],
        "armies": {"1": result["army"], "2": cadians()},
    }
    state, _events = new_game(setup, "orks-against-cadia")
    names = sorted(u["name"] for u in state["units"].values() if u["player"] == 1)
    assert names == ["Boyz"]


def test_the_11th_edition_export_attaches_the_units_of_an_attached_group():
    text = (
        "Warding (290 Points)\n\nGrey Knights\nTeleport Strike Force (0 Detachment Points)\n"
        "Force Disposition: Purge\nIncursion (1,000 Points)\n\nATTACHED UNITS\n\nAttached Unit 1\n"
        "Brother-Captain (90 Points)\n  • Attached as: Leader\n  • Warlord\n"
        "Brotherhood Terminator Squad (200 Points)\n  • Attached as: Bodyguard\n"
        "  • 1x Justicar\n  • 4x Terminator\n"
    )
    result = armies.import_list(text)
    captain = unit(result, "brother-captain")
    terminators = unit(result, "brotherhood-terminator-squad")
    assert (captain["attached_to"], captain["role"]) == (terminators["key"], "leader")
    assert result["army"]["detachment"] == "teleport-strike-force"
    assert codes(result) == [(5, "unread_line")]  # the force disposition, not used by this game
    assert result["check"]["valid"], result["check"]["problems"]
