"""Wargear options (11e 02.07 Wargear Options, 22.04 Wargear Abilities; 10e Datasheets, Wargear
Options): every printed option and loadout parses, choices are limited as printed, and each model
in play carries its own weapons and bears its own wargear."""

from __future__ import annotations

import json

import pytest

from rules.engine.army.wargear import (
    WargearTextError,
    choices_offered,
    composition_names,
    equip,
    parse_loadout,
    parse_option,
    parse_options,
    resolve_item,
    unit_wargear_count,
)
from rules.engine.army.wargear import (
    bearers as wargear_bearers,
)
from rules.engine.army.weapons import model_weapons
from rules.engine.core.refusals import Refusal
from rules.engine.sequence.game import new_game
from rules.engine.sequence.replay import check_replay
from rules.engine.tools.selfplay import selfplay, selfplay_setup
from tests.engine_world import SEED, army, default_armies, entry, setup
from tests.rules_data_files import bundle, data_files, records


def sheets() -> dict[str, dict]:
    return {record["slug"]: record for _, record in records("datasheets")}


def every_sheet() -> list[dict]:
    return list(sheets().values())


def equipped(slug: str, size: int, *chosen: tuple[int, int, int]):
    wargear = [{"option": o, "choice": c, "models": n} for o, c, n in chosen]
    return equip(sheets()[slug], size, wargear)


def loadout_of(equipment, number: int) -> dict[str, int]:
    return dict(equipment.loadouts[number])


def codes(equipment) -> list[str]:
    return [code for code, _ in equipment.problems]


@pytest.mark.parametrize("sheet", every_sheet(), ids=lambda sheet: sheet["slug"])
def test_every_wargear_option_and_loadout_in_the_data_parses_to_items_of_its_datasheet(sheet):
    """Each option names its bearers, what it replaces and choices whose every item is a weapon
    or wargear ability of the same datasheet; every loadout item is one too."""
    for option in parse_options(sheet):
        if "note" in option:
            continue
        assert option["who"]["kind"] in {"this_model", "any", "up_to", "per", "named", "unit"}
        assert option["choices"]
        for choice in option["choices"]:
            for item in choice["items"]:
                assert resolve_item(sheet, item["name"]), (sheet["slug"], item)
        for name in option["replaces"] + option["requires"]:
            assert resolve_item(sheet, name), (sheet["slug"], name)
    for sentence in parse_loadout(sheet):
        for name in sentence["items"]:
            assert resolve_item(sheet, name), (sheet["slug"], name)
    for size in {price["models"] for price in sheet["points"]}:
        assert len(composition_names(sheet, size)) == size
        assert all(carried for carried in equip(sheet, size, []).loadouts), sheet["slug"]


@pytest.mark.parametrize(
    "text",
    [
        "This model's chainsword can be swapped for 1 power fist.",
        "This model's chainsword can be replaced with one of the following:",
        "This model's chainsword can be replaced with 1 power fist\n• 1 power weapon",
        "This model's chainsword can be replaced with a power fist.",
        "Every model can be replaced with 1 power fist.",
    ],
)
def test_an_option_of_an_unknown_shape_is_refused_loudly(text):
    with pytest.raises(WargearTextError):
        parse_option(text)


def test_the_printed_shapes_read_as_who_what_and_the_choices():
    """'This model', 'For every N models ... up to M X', 'Any number of X', 'Up to N X', '1 X',
    'The X', 'For every N X in this unit, it can be equipped with' and footnotes."""
    castellan = parse_option(
        "This model’s chainsword can be replaced with one of the following:\n"
        "• 1 boltgun and 1 close combat weapon\n• 1 power fist"
    )
    assert castellan["who"]["kind"] == "this_model" and castellan["replaces"] == ["chainsword"]
    assert [[i["name"] for i in c["items"]] for c in castellan["choices"]] == [
        ["boltgun", "close combat weapon"],
        ["power fist"],
    ]
    specials = parse_option(
        "For every 10 models in this unit, up to 2 Shock Troopers can each have their lasgun "
        "replaced with one of the following*:\n• 1 flamer\n• 1 meltagun"
    )
    assert specials["who"] == {
        "kind": "per",
        "model": "shock trooper",
        "count": 2,
        "per": 10,
        "counted": None,
    }
    assert specials["marker"] == "*"
    sergeant = parse_option(
        "The Navis Sergeant-at-Arms’ Navis shotgun can be replaced with 1 autopistol and "
        "1 chainsword."
    )
    assert sergeant["who"]["kind"] == "named" and sergeant["replaces"] == ["navis shotgun"]
    skull = parse_option(
        "For every 5 Inquisitorial Agents in this unit, it can be equipped with 1 Tome-skull."
    )
    assert skull["who"]["kind"] == "unit" and skull["who"]["counted"] == "inquisitorial agent"
    vigilants = parse_option(
        "Up to 2 Vigilants can each have their Arbites combat shotgun replaced with one of the "
        "following (duplicates are not allowed):\n• 1 webber\n• 1 heavy stubber"
    )
    assert vigilants["distinct"] and vigilants["who"]["count"] == 2
    note = parse_option("* This weapon cannot be replaced.")
    assert note["note"] == "not_replaceable"


def test_the_default_loadout_gives_each_model_of_the_composition_its_own_weapons():
    """Cadian Shock Troops: 'Every Shock Trooper Sergeant is equipped with: laspistol;
    chainsword. Every Shock Trooper is equipped with: lasgun; close combat weapon.'"""
    equipment = equipped("cadian-shock-troops", 10)
    assert equipment.names[0] == "shock trooper sergeant"
    assert loadout_of(equipment, 0) == {"laspistol": 1, "chainsword": 1}
    assert loadout_of(equipment, 1) == {"lasgun": 1, "close combat weapon": 1}
    breachers = equipped("imperial-navy-breachers", 10)
    # 'One Navis Armsman ...: Navis las-volley', 'One other ...: heavy shotgun; endurant shield',
    # 'Every other model ...: Navis shotgun'.
    assert [sorted(lo) for lo in breachers.loadouts[:4]] == [
        ["close combat weapon", "navis shotgun"],
        ["close combat weapon", "navis las-volley"],
        ["close combat weapon", "endurant shield", "navis heavy shotgun"],
        ["close combat weapon", "navis shotgun"],
    ]


def test_a_chosen_option_replaces_the_named_weapon_on_the_models_that_take_it():
    """Strike Squad (seed 004): 'For every 5 models in this unit, 1 Grey Knight's storm bolter and
    Nemesis force weapon can be replaced with ... 1 psycannon and 1 close combat weapon'."""
    equipment = equipped("strike-squad", 10, (0, 2, 2))
    assert not equipment.problems
    assert loadout_of(equipment, 0) == {"storm bolter": 1, "nemesis force weapon": 1}  # Justicar
    assert loadout_of(equipment, 1) == {"psycannon": 1, "close combat weapon": 1}
    assert loadout_of(equipment, 2) == {"psycannon": 1, "close combat weapon": 1}
    assert loadout_of(equipment, 3) == {"storm bolter": 1, "nemesis force weapon": 1}


def test_more_models_than_the_option_allows_are_refused():
    """One swap per 5 models: a 5-model Strike Squad takes one, a 10-model squad two (AMB-23)."""
    assert codes(equipped("strike-squad", 5, (0, 0, 1), (0, 1, 1))) == ["too_many_wargear"]
    assert codes(equipped("strike-squad", 10, (0, 0, 1), (0, 1, 1))) == []
    assert codes(equipped("cadian-castellan", 1, (0, 1, 2))) == ["too_many_wargear"]


def test_an_option_or_choice_that_does_not_exist_is_refused():
    assert codes(equipped("strike-squad", 5, (3, 0, 1))) == ["unknown_wargear_option"]
    assert codes(equipped("strike-squad", 5, (0, 7, 1))) == ["unknown_wargear_choice"]
    # A footnote is no option.
    assert codes(equipped("chimera", 1, (4, 0, 1))) == ["unknown_wargear_option"]


def test_a_choice_naming_a_weapon_not_on_the_datasheet_is_refused():
    sheet = {**sheets()["cadian-castellan"]}
    sheet["weapons"] = [w for w in sheet["weapons"] if w["name"] != "Power fist"]
    problems = equip(sheet, 1, [{"option": 0, "choice": 1, "models": 1}]).problems
    assert [code for code, _ in problems] == ["wargear_not_on_datasheet"]
    assert "power fist" in problems[0][1]


def test_the_same_weapon_at_most_once_per_unit_or_twice_with_20_models():
    """Cadian Shock Troops footnote: 'You cannot select the same weapon more than once per unit
    unless it contains 20 models, in which case ... not more than twice per unit.'"""
    assert codes(equipped("cadian-shock-troops", 10, (0, 0, 2))) == ["wargear_duplicate"]
    assert codes(equipped("cadian-shock-troops", 20, (0, 0, 2), (0, 2, 2))) == []
    assert codes(equipped("cadian-shock-troops", 20, (0, 0, 3))) == ["wargear_duplicate"]
    # Vigilant Squad: '(duplicates are not allowed)'.
    assert codes(equipped("vigilant-squad", 11, (0, 3, 2))) == ["wargear_duplicate"]


def test_an_option_that_needs_other_wargear_first():
    """Inquisitor (seed 000 L16-17): 'If this model is equipped with 1 psychic gifts, its
    Inquisitorial melee weapon can be replaced with 1 force weapon.'"""
    assert codes(equipped("inquisitor", 1, (2, 0, 1))) == ["wargear_not_eligible"]
    equipment = equipped("inquisitor", 1, (1, 0, 1), (2, 0, 1))
    assert loadout_of(equipment, 0) == {
        "bolt pistol": 1,
        "psychic gifts": 1,
        "psychic shock wave": 1,
        "force weapon": 1,
    }


def test_one_model_takes_one_of_the_starred_options():
    """Inquisitorial Agents: '**The same model cannot be equipped with more than one of these
    wargear options': plasma pistol, eviscerator and mystic stave go to different Agents."""
    equipment = equipped("inquisitorial-agents", 6, (1, 0, 1), (2, 0, 1), (3, 0, 1))
    extras = [
        number
        for number, carried in enumerate(equipment.loadouts)
        if {"plasma pistol", "eviscerator", "mystic stave"} & set(carried)
    ]
    assert len(extras) == 3 and not equipment.problems


def test_unit_wargear_is_counted_on_the_unit():
    """'For every 5 Inquisitorial Agents in this unit, it can be equipped with 1 Tome-skull.'"""
    assert dict(equipped("inquisitorial-agents", 12, (0, 0, 2)).unit_items) == {"tome-skull": 2}
    assert codes(equipped("inquisitorial-agents", 6, (0, 0, 2))) == ["too_many_wargear"]


def test_the_builder_is_offered_each_option_with_its_limit_per_unit_size():
    offered = choices_offered(sheets()["cadian-shock-troops"])
    assert [o["option"] for o in offered] == [0, 1, 2, 3]  # the footnote (4) is no option
    assert offered[0]["limits"] == {"10": 2, "20": 4}
    assert offered[0]["choices"][1] == {"choice": 1, "label": "1 grenade launcher"}


def game_with(first_army: dict) -> dict:
    armies = default_armies()
    armies["1"] = first_army
    datasheets = list(sheets().values())
    state, _ = new_game(setup("11e", armies, datasheets=datasheets), SEED)
    return state


def test_muster_gives_each_model_the_weapons_its_loadout_and_options_give_it():
    """R-WG-02: a model shoots and fights with its own weapons only."""
    state = game_with(
        army(
            entry(
                "ss",
                "strike-squad",
                5,
                warlord=False,
                wargear=[{"option": 0, "choice": 0, "models": 1}],
            ),
            entry("inq", "inquisitor", 1, attached_to="ss", role="leader", warlord=True),
        )
    )
    unit = state["units"]["p1-u1"]
    justicar, changed, plain = unit["models"][0], unit["models"][1], unit["models"][2]
    assert justicar["composition_name"] == "justicar"
    assert [w["name"] for w in model_weapons(state, unit, changed, "ranged")] == ["Incinerator"]
    assert [w["name"] for w in model_weapons(state, unit, changed, "melee")] == [
        "Close combat weapon"
    ]
    assert [w["name"] for w in model_weapons(state, unit, plain, "ranged")] == ["Storm bolter"]
    inquisitor = unit["models"][5]
    assert inquisitor["weapons"] == ["Bolt pistol", "Inquisitorial melee weapon"]
    assert inquisitor["wargear_abilities"] == ["Blessed Wardings"]


def test_a_model_with_two_of_a_weapon_attacks_with_each():
    """Rhino: 'This model can be equipped with 1 additional storm bolter' (R-WG-04)."""
    rhino = entry("rh", "rhino", 1, wargear=[{"option": 1, "choice": 0, "models": 1}])
    state = game_with(army(entry("ss", "strike-squad", 5, warlord=True), rhino))
    unit = state["units"]["p1-u2"]
    assert [w["name"] for w in model_weapons(state, unit, unit["models"][0], "ranged")] == [
        "Storm bolter",
        "Storm bolter (2)",
    ]


def test_wargear_abilities_mark_their_bearer():
    """11e 22.04: 'that model is the bearer of that item of wargear'. The vox-caster goes to a
    Shock Trooper that keeps its lasgun; the Tome-skull to the unit."""
    listing = army(
        entry(
            "cad",
            "cadian-shock-troops",
            10,
            warlord=True,
            wargear=[{"option": 1, "choice": 0, "models": 1}],
        ),
        entry("ag", "inquisitorial-agents", 12, wargear=[{"option": 0, "choice": 0, "models": 2}]),
    )
    state = game_with(listing)
    cadians = state["units"]["p1-u1"]
    bearers = [m for m in cadians["models"] if m["wargear_abilities"]]
    assert len(bearers) == 1 and bearers[0]["wargear_abilities"] == ["Vox-caster"]
    assert "Lasgun" in bearers[0]["weapons"]
    assert state["units"]["p1-u2"]["parts"][0]["unit_wargear"] == ["Tome-skull", "Tome-skull"]
    assert wargear_bearers(cadians, "Vox-caster") == bearers
    assert unit_wargear_count(state["units"]["p1-u2"], "Tome-skull") == 2
    bearers[0]["wounds_left"] = 0  # "... until that model is destroyed"
    assert wargear_bearers(cadians, "Vox-caster") == []


def test_a_wargear_ability_given_up_is_no_ability_of_the_unit():
    """Inquisitor (seed 000 L16): blessed wardings replaced with psychic gifts: the unit has
    Psychic Gifts, not Blessed Wardings (CATALOGUE UA-BLESSED-WARDINGS: lost if swapped)."""
    gifted = [{"option": 1, "choice": 0, "models": 1}]
    listing = army(
        entry("ss", "strike-squad", 5),
        entry(
            "inq", "inquisitor", 1, attached_to="ss", role="leader", warlord=True, wargear=gifted
        ),
    )
    unit = game_with(listing)["units"]["p1-u1"]
    assert "Psychic Gifts" in unit["abilities"] and "Blessed Wardings" not in unit["abilities"]
    assert unit["models"][5]["wargear_abilities"] == ["Psychic Gifts"]
    plain = game_with(default_armies()["1"])["units"]["p1-u1"]
    assert "Blessed Wardings" in plain["abilities"] and "Psychic Gifts" not in plain["abilities"]


def test_muster_refuses_a_list_with_a_wargear_problem():
    listing = army(
        entry(
            "ss", "strike-squad", 5, warlord=True, wargear=[{"option": 0, "choice": 0, "models": 2}]
        )
    )
    with pytest.raises(Refusal) as refusal:
        game_with(listing)
    assert (refusal.value.code, refusal.value.rule) == ("too_many_wargear", "Wargear Options")


def project_bundle() -> dict[str, list[dict]]:
    merged: dict[str, list[dict]] = {}
    for path in data_files():
        for kind, found in bundle(path).items():
            merged.setdefault(kind, []).extend(found)
    return merged


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_self_played_games_with_wargear_options_replay_exactly(edition):
    """The self-play armies take wargear options (R-WG-03); their games shoot the chosen weapons
    and replay to the same state hash."""
    data = project_bundle()
    armies = selfplay_setup(data, edition)["armies"]
    assert any(unit["wargear"] for army in armies.values() for unit in army["units"])
    fired: set[str] = set()
    for number in (1, 2, 3):
        result, log = selfplay(data, number, edition)
        _, digest = check_replay(json.loads(json.dumps(log)))
        assert digest == result["state_hash"]
        for event in log["events"]:
            if event["type"] == "targets_selected":
                fired.update(attack["weapon"] for attack in event["attacks"])
    assert fired & {"Flamer", "Heavy flamer", "Heavy stubber", "Incinerator", "Heavy bolter"}


def test_a_loadout_may_give_a_model_two_of_a_weapon():
    """'This model is equipped with: 2 heavy bolters; ...' reads as two heavy bolters."""
    sheet = {
        **sheets()["leman-russ-battle-tank"],
        "loadout": "This model is equipped with: 2 heavy bolters; lascannon; armoured tracks.",
    }
    assert loadout_of(equip(sheet, 1, []), 0) == {
        "heavy bolter": 2,
        "lascannon": 1,
        "armoured tracks": 1,
    }


def test_model_names_in_the_singular_include_ork_plurals():
    # A loadout's "Every Boy" equips the composition's "9-19 Boyz".
    from rules.engine.army.wargear import singular

    assert [singular(name) for name in ("Boyz", "Burna Boyz", "Navis Armsmen", "Grey Knights")] == [
        "boy",
        "burna boy",
        "navis armsman",
        "grey knight",
    ]
