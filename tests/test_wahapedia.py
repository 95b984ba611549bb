"""The Wahapedia converter on the committed excerpt of the 2026-02-14 export (no database)."""

from pathlib import Path

import pytest

from rules.engine.core.notation import parse_dice, parse_weapon_abilities
from rules.wahapedia import (
    SkippedRow,
    UnknownName,
    assign_slugs,
    clean_text,
    convert_export,
    keep_existing_texts,
    read_export,
    slugify,
)
from rules.wahapedia.composition import composition_alternatives, model_counts, points_models
from rules.wahapedia.convert import Named
from rules.wahapedia.datasheets import invulnerable_save
from rules.wahapedia.export import Row
from rules.wahapedia.stats import Unreadable, base
from rules.wahapedia.timing import stratagem_when

EXCERPT = Path(__file__).parent / "data" / "wahapedia"
SEED_FACTIONS = ["Grey Knights", "AM", "imperial agents"]


@pytest.fixture(scope="module")
def conversion():
    return convert_export(EXCERPT, SEED_FACTIONS)


@pytest.fixture(scope="module")
def sheets(conversion):
    return {sheet["slug"]: sheet for sheet in conversion.bundle["datasheets"]}


def reasons(report: list[SkippedRow], file: str) -> list[str]:
    return [line.reason for line in report if line.file == file]


def test_the_export_is_read_with_its_bom_separators_and_date():
    export = read_export(EXCERPT)
    assert export.date == "2026-02-14"
    first = export.rows("Datasheets.csv")[0]
    assert list(first.values)[0] == "id"  # the BOM is not part of the first column's name
    assert first.number == 2
    assert all(len(row.values) == 14 for row in export.rows("Datasheets.csv"))


def test_a_row_with_the_wrong_number_of_fields_is_reported_and_skipped(conversion, sheets):
    assert (
        SkippedRow("Datasheets_keywords.csv", 14, "000000382", "2 fields where the header has 4")
        in conversion.report
    )
    assert "TELEPORT HOMER" not in sheets["brotherhood-terminator-squad"]["keywords"]


def test_the_bundle_holds_the_chosen_factions_and_their_army_rules(conversion):
    bundle = conversion.bundle
    assert list(bundle) == [
        "factions",
        "abilities",
        "detachments",
        "stratagems",
        "enhancements",
        "datasheets",
    ]
    assert [faction["slug"] for faction in bundle["factions"]] == [
        "astra-militarum",
        "grey-knights",
        "imperial-agents",
    ]
    agents = next(f for f in bundle["factions"] if f["slug"] == "imperial-agents")
    assert agents == {
        "slug": "imperial-agents",
        "name": "Imperial Agents",
        "faction_keyword": "AGENTS OF THE IMPERIUM",
        "wahapedia_id": "AoI",
        "source": "Wahapedia export 2026-02-14, faction AoI",
    }


def test_model_profile_withinvulnerable_save_and_model_counts(sheets):
    squad = sheets["brotherhood-terminator-squad"]
    assert squad["models"] == [
        {
            "name": "Brotherhood Terminator Squad",
            "M": 5,
            "T": 5,
            "Sv": 2,
            "invulnerable_save": 4,
            "W": 3,
            "Ld": 6,
            "OC": 2,
            "base": {"shape": "round", "diameter_mm": 40},
            "min": 4,
            "max": 10,
        }
    ]
    assert squad["composition"] == ["1 Justicar", "3-9 Terminators"]
    assert squad["role"] == "Battleline"
    assert squad["faction"] == "grey-knights"
    assert squad["faction_keywords"] == ["GREY KNIGHTS"]
    assert {"TERMINATOR", "PSYKER", "INFANTRY"} <= set(squad["keywords"])
    assert squad["source"] == "Wahapedia export 2026-02-14, datasheet 000000382"


def test_oval_round_and_hull_bases(sheets):
    assert sheets["nemesis-dreadknight"]["models"][0]["base"] == {
        "shape": "oval",
        "length_mm": 120,
        "width_mm": 92,
    }
    assert sheets["attilan-rough-riders"]["models"][0]["base"] == {
        "shape": "oval",
        "length_mm": 60,
        "width_mm": 35.5,
    }
    assert sheets["vindicare-assassin"]["models"][0]["base"] == {
        "shape": "round",
        "diameter_mm": 32,
    }
    # The export says "Use model" and gives no size: the shape is known, the size is not guessed.
    assert sheets["chimera"]["models"][0]["base"] == {
        "shape": "hull",
        "length_mm": None,
        "width_mm": None,
    }


@pytest.mark.parametrize(
    ("printed", "expected"),
    [
        ("25mm", {"shape": "round", "diameter_mm": 25}),
        ("28.5mm", {"shape": "round", "diameter_mm": 28.5}),
        ("60mm flying base", {"shape": "round", "diameter_mm": 60}),
        ("120 x 92mm flying base", {"shape": "oval", "length_mm": 120, "width_mm": 92}),
        ("Use model", {"shape": "hull", "length_mm": None, "width_mm": None}),
    ],
)
def test_base_sizes_as_printed(printed, expected):
    assert base(printed) == expected


@pytest.mark.parametrize("printed", ["", "No official base size", "32"])
def test_base_sizes_that_are_not_read(printed):
    with pytest.raises(Unreadable):
        base(printed)


def test_vehicle_weapons_are_normalised(sheets):
    weapons = {weapon["name"]: weapon for weapon in sheets["chimera"]["weapons"]}
    assert weapons["Heavy flamer"] == {
        "name": "Heavy flamer",
        "type": "ranged",
        "range": 12,
        "A": "D6",
        "skill": None,
        "S": 5,
        "AP": -1,
        "D": "1",
        "abilities": ["ignores cover", "torrent"],
    }
    assert weapons["Armoured tracks"]["range"] is None
    assert weapons["Armoured tracks"]["type"] == "melee"
    assert weapons["Hunter-killer missile"]["abilities"] == ["one shot"]
    assert weapons["Multi-laser"]["abilities"] == []


def test_weapon_profiles_keep_dice_text_and_each_profile(sheets):
    weapons = {weapon["name"]: weapon for weapon in sheets["nemesis-dreadknight"]["weapons"]}
    assert weapons["Heavy incinerator"]["A"] == "2D6"
    assert weapons["Nemesis daemon greathammer"]["D"] == "D6+1"
    assert weapons["Nemesis greatsword – strike"]["AP"] == -2
    assert weapons["Nemesis greatsword – sweep"]["A"] == "10"


def test_bracketed_weapon_abilities_are_normalised_to_the_lower_case_list(sheets):
    psilencer = next(
        weapon
        for weapon in sheets["brother-captain"]["weapons"]
        if weapon["name"] == "Master-crafted psilencer"
    )
    assert psilencer["abilities"] == ["precision", "anti-daemon 4+"]


def test_broken_casing_of_printed_abilities_is_normalised(sheets):
    priest = {w["name"]: w for w in sheets["ministorum-priest-imperial-agents"]["weapons"]}
    assert priest["Holy pistol"]["abilities"] == ["pistol"]  # printed `pISTOl`
    assert priest["Zealot’s vindictor"]["abilities"] == ["ignores cover", "torrent"]


def test_unknown_ability_and_malformed_stat_skip_that_weapon_only(conversion, sheets):
    wargear = reasons(conversion.report, "Datasheets_wargear.csv")
    assert any("'Warp spike' left out" in r and "warp blast" in r for r in wargear)
    assert any("'Psychic lance' left out: S '12*' is not a whole number" in r for r in wargear)
    terminator_weapons = [w["name"] for w in sheets["brotherhood-terminator-squad"]["weapons"]]
    assert "Warp spike" not in terminator_weapons
    assert "Storm bolter" in terminator_weapons
    assert "Psychic lance" not in [w["name"] for w in sheets["nemesis-dreadknight"]["weapons"]]


def test_skipped_rows_name_file_row_and_id(conversion):
    lance = next(line for line in conversion.report if "Psychic lance" in line.reason)
    assert (lance.file, lance.row, lance.id) == ("Datasheets_wargear.csv", 21, "000000389")


def test_abilities_core_by_name_and_parameter_faction_by_name_others_with_text(sheets):
    chimera = sheets["chimera"]["abilities"]
    assert {"name": "Deadly Demise", "kind": "core", "parameter": "D3"} in chimera
    assert {"name": "Firing Deck", "kind": "core", "parameter": "2"} in chimera
    assert {
        "name": "Transport",
        "kind": "datasheet",
        "text": (
            "This model has a transport capacity of 12 Astra Militarum Infantry models. Each Ogryn "
            "model takes up the space of 3 models. It cannot transport Artillery models."
        ),
    } in chimera
    # The reminder text of [ONE SHOT] is not a datasheet ability.
    assert not any(ability["name"] == "One Shot" for ability in chimera)
    squad = sheets["brotherhood-terminator-squad"]["abilities"]
    assert {"name": "Deep Strike", "kind": "core", "parameter": None} in squad
    assert {"name": "Gate of Infinity", "kind": "faction"} in squad
    assert {
        "name": "Ancient’s Banner",
        "kind": "wargear",
        "text": "Add 1 to the Objective Control characteristic of models in the bearer’s unit.",
    } in squad


def test_points_with_models_counted_from_the_description(conversion, sheets):
    assert sheets["brotherhood-terminator-squad"]["points"] == [
        {"models": 4, "points": 160},
        {"models": 5, "points": 200},
        {"models": 8, "points": 320},
        {"models": 10, "points": 400},
    ]
    # Two prices for one model: the one in its own faction's army is kept, the other reported.
    assert sheets["vindicare-assassin"]["points"] == [{"models": 1, "points": 110}]
    assert any(
        "'Assigned Agent' left out" in r
        for r in reasons(conversion.report, "Datasheets_models_cost.csv")
    )


def test_leads_from_datasheets_leader(conversion, sheets):
    assert sheets["brother-captain"]["leads"] == ["brotherhood-terminator-squad"]
    assert "leaders" not in sheets["brotherhood-terminator-squad"]  # filled by the loader
    leader_lines = [line for line in conversion.report if line.file == "Datasheets_leader.csv"]
    assert {(line.row, line.id) for line in leader_lines} == {
        (2, "000000376"),
        (4, "000001394"),
        (5, "000003812"),
    }


def test_leads_to_a_datasheet_defined_elsewhere_are_kept_only_when_named():
    alone = convert_export(EXCERPT, ["GK"], datasheets=["brother-captain"])
    assert [sheet["slug"] for sheet in alone.bundle["datasheets"]] == ["brother-captain"]
    assert alone.bundle["datasheets"][0]["leads"] == []
    known = convert_export(
        EXCERPT,
        ["GK"],
        datasheets=["Brother-captain"],
        known_datasheets=["brotherhood-terminator-squad"],
    )
    assert known.bundle["datasheets"][0]["leads"] == ["brotherhood-terminator-squad"]


def test_datasheet_filter_leaves_out_army_rules_but_keeps_the_faction():
    only = convert_export(EXCERPT, ["grey knights"], datasheets=["NEMESIS DREADKNIGHT"])
    assert list(only.bundle) == ["factions", "datasheets"]
    assert [sheet["slug"] for sheet in only.bundle["datasheets"]] == ["nemesis-dreadknight"]


def test_slug_collision_within_the_bundle_is_suffixed_with_the_faction(sheets):
    assert "ministorum-priest-astra-militarum" in sheets
    assert "ministorum-priest-imperial-agents" in sheets
    alone = convert_export(EXCERPT, ["Astra Militarum"])
    assert "ministorum-priest" in {sheet["slug"] for sheet in alone.bundle["datasheets"]}


def test_a_slug_another_faction_holds_in_the_database_is_not_taken_over():
    items = [Named("1", "Chimera", "genestealer-cults"), Named("2", "Leman Russ", "x")]
    assert assign_slugs(items, {"chimera": "astra-militarum"}) == {
        "1": "chimera-genestealer-cults",
        "2": "leman-russ",
    }
    assert assign_slugs(items, {"chimera": "genestealer-cults"})["1"] == "chimera"


def test_unknown_faction_lists_the_valid_names():
    with pytest.raises(UnknownName) as error:
        convert_export(EXCERPT, ["Votann"])
    assert "Astra Militarum, Grey Knights, Imperial Agents, Orks" in str(error.value)


def test_unknown_datasheet_is_refused():
    with pytest.raises(UnknownName, match="no datasheet 'Land Raider'"):
        convert_export(EXCERPT, ["GK"], datasheets=["Land Raider"])


def test_text_is_cleaned_of_html():
    assert (
        clean_text(
            '<b>WHEN:</b> Your <span class="kwb">INFANTRY</span> unit&nbsp;&amp; 6&quot;<br><br>'
            "<ul><li>one</li><li>two</li></ul>"
        )
        == 'WHEN: Your INFANTRY unit & 6"\n• one\n• two'
    )
    assert (
        clean_text(
            "<table><tr><th>SIZE</th><th>UNITS</th></tr><tr><td>Incursion</td>"
            "<td>1</td></tr></table>"
        )
        == "SIZE | UNITS\nIncursion | 1"
    )


def test_cleaned_texts_in_the_bundle(sheets, conversion):
    assert sheets["vindicare-assassin"]["composition"] == ["1 Vindicare Assassin – EPIC HERO"]
    assert sheets["chimera"]["loadout"] == (
        "This model is equipped with: multi-laser; heavy bolter; lasgun array; armoured tracks."
    )
    assert "\n• 1 heavy flamer*" in sheets["chimera"]["wargear_options"][1]
    every_text = str(conversion.bundle)
    assert "<span" not in every_text and "<br>" not in every_text and "&amp;" not in every_text


def test_slugs_are_lower_case_hyphenated_names():
    assert slugify("Brother-captain") == "brother-captain"
    assert slugify("Hell’s Last") == "hells-last"
    assert slugify("T’au Empire") == "tau-empire"
    assert slugify("Regimental Attachés") == "regimental-attaches"


def test_detachment_with_its_rule(conversion):
    [detachment] = conversion.bundle["detachments"]
    assert detachment["slug"] == "augurium-task-force"
    assert detachment["faction"] == "grey-knights"
    assert [rule["name"] for rule in detachment["rules"]] == ["Prescient Redeployment"]
    assert detachment["rules"][0]["text"].startswith("From the second battle round onwards")
    assert detachment["source"] == "Wahapedia export 2026-02-14, detachment 000001085"


def test_stratagems_with_structured_timing(conversion):
    stratagems = {s["slug"]: s for s in conversion.bundle["stratagems"]}
    mirage = stratagems["mirage-of-echoes"]
    assert mirage["when"] == {
        "phase": "movement",
        "turn": "opponent",
        "trigger": "enemy_unit_set_up",
    }
    assert mirage["cp_cost"] == 1
    assert mirage["scope"] == "detachment"
    assert mirage["detachment"] == "augurium-task-force"
    assert mirage["category"] == "Strategic Ploy Stratagem"
    assert mirage["target_text"] and mirage["effect_text"]
    assert "<" not in mirage["effect_text"]
    assert stratagems["redirected-strike"]["when"]["trigger"] == "phase_end"
    # Two phases cannot be one `when.phase`: reported, not guessed.
    skipped = reasons(conversion.report, "Stratagems.csv")
    assert len(skipped) == 2
    assert all("one phase per stratagem" in reason for reason in skipped)


@pytest.mark.parametrize(
    ("turn", "phase", "when", "expected"),
    [
        (
            "Your turn",
            "Command phase",
            "Battle-shock step of your Command phase, just after you "
            "have failed a Battle-shock test taken for a unit from your army.",
            {"phase": "battle-shock-step", "turn": "own", "trigger": "battle_shock_after_fail"},
        ),
        (
            "Opponent’s turn",
            "Charge phase",
            "Your opponent’s Charge phase, just after an enemy unit has declared a charge.",
            {"phase": "charge", "turn": "opponent", "trigger": "enemy_charge_declared"},
        ),
        (
            "Opponent’s turn",
            "Charge phase",
            "Your opponent’s Charge phase, just after an enemy unit declares a charge.",
            {"phase": "charge", "turn": "opponent", "trigger": "enemy_charge_declared"},
        ),
        (
            "Your turn",
            "Shooting phase",
            "Your Shooting phase.",
            {"phase": "shooting", "turn": "own", "trigger": "any_time"},
        ),
        (
            "Either player’s turn",
            "Any phase",
            "Start of any phase.",
            {"phase": "any", "turn": "either", "trigger": "phase_start"},
        ),
        (
            "Your turn",
            "Movement phase",
            "Reinforcements step of your Movement phase.",
            {"phase": "movement", "turn": "own", "trigger": "reinforcements_step"},
        ),
    ],
)
def test_stratagem_timing(turn, phase, when, expected):
    assert stratagem_when(turn, phase, when) == expected


def test_stratagem_timing_the_engine_has_no_window_for_is_refused():
    with pytest.raises(Unreadable):
        stratagem_when("Opponent’s turn", "Any phase", "End of your opponent’s turn.")
    with pytest.raises(Unreadable):
        stratagem_when(
            "Your turn",
            "Movement phase",
            "Your Movement phase, just after a Squadron unit from your army Advances.",
        )


def test_enhancement_with_eligible_keywords(conversion):
    enhancement = next(
        e for e in conversion.bundle["enhancements"] if e["slug"] == "shield-of-prophecy"
    )
    assert enhancement["points"] == 20
    assert enhancement["detachment"] == "augurium-task-force"
    assert enhancement["eligible_keywords"] == ["GREY KNIGHTS"]
    assert enhancement["restrictions_text"] == "GREY KNIGHTS model only."
    assert enhancement["effect_text"].startswith("Once per battle, at the start of the battle")


def test_faction_abilities_are_records_of_their_faction(conversion):
    abilities = {a["slug"]: a for a in conversion.bundle["abilities"]}
    assert abilities["gate-of-infinity"]["faction"] == "grey-knights"
    assert abilities["gate-of-infinity"]["kind"] == "faction"
    assert abilities["assigned-agents"]["faction"] == "imperial-agents"


def test_every_characteristic_in_the_bundle_parses(conversion):
    for sheet in conversion.bundle["datasheets"]:
        for weapon in sheet["weapons"]:
            parse_dice(weapon["A"])
            parse_dice(weapon["D"])
            parse_weapon_abilities(weapon["abilities"])


def test_records_from_a_seed_file_keep_their_text():
    bundle = {
        "datasheets": [{"slug": "inquisitor"}, {"slug": "inquisitorial-agents"}],
        "abilities": [{"slug": "assigned-agents"}],
    }
    existing = {
        "datasheets": {
            "inquisitor": "seed 000 L1-40; stat lines: Wahapedia export 2026-02-14, datasheet 877",
            "inquisitorial-agents": "Wahapedia export 2026-01-01, datasheet 000002767",
        }
    }
    report = keep_existing_texts(bundle, existing)
    assert bundle["datasheets"] == [{"slug": "inquisitorial-agents"}]
    assert [line.id for line in report] == ["inquisitor"]


@pytest.mark.parametrize(
    ("printed", "expected"),
    [
        ("10 models", (10, None)),
        ("1 model", (1, None)),
        (
            "6 models (<ky>AGENTS OF THE IMPERIUM</ky> Detachment)",
            (6, "AGENTS OF THE IMPERIUM Detachment"),
        ),
        ("1 Spanner and 4 Burna Boyz", (5, None)),
        ("1 Sword Brother, 4 Initiates and 5 Neophytes", (10, None)),
        ("Attack Bike", None),
    ],
)
def test_models_counted_from_a_points_line(printed, expected):
    assert points_models(printed) == expected


def test_composition_with_alternatives_gives_the_unit_sizes():
    lines = [
        "1 Shock Trooper Sergeant and 9 Shock Troopers",
        "OR",
        "2 Shock Trooper Sergeants and 18 Shock Troopers",
    ]
    alternatives = composition_alternatives(lines)
    assert model_counts(["Cadian Shock Troops"], alternatives) == {"Cadian Shock Troops": (10, 20)}


def test_composition_lines_are_matched_to_several_stat_lines_by_name():
    alternatives = composition_alternatives(["1 Rein – EPIC HERO", "1 Raus – EPIC HERO"])
    assert model_counts(["Rein", "Raus"], alternatives) == {"Rein": (1, 1), "Raus": (1, 1)}
    assert model_counts(["Rein", "Someone else"], alternatives) is None
    assert composition_alternatives(["One of the following:"]) is None


def model_row(inv_sv: str, note: str) -> Row:
    return Row(
        "Datasheets_models.csv", 7, {"datasheet_id": "1", "inv_sv": inv_sv, "inv_sv_descr": note}
    )


def test_a_conditionalinvulnerable_save_is_reported_not_kept():
    report: list[SkippedRow] = []
    assert invulnerable_save(model_row("5", "* Against ranged attacks only"), report) is None
    assert invulnerable_save(model_row("4*", ""), report) is None
    assert invulnerable_save(model_row("4", ""), report) == 4
    assert invulnerable_save(model_row("-", ""), report) is None
    assert [(line.row, line.id) for line in report] == [(7, "1"), (7, "1")]
