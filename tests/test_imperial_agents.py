"""Imperial Agents rules in play (seed 000; published datasheets): one scenario per rule, each with
its effect and at least one case where it does not apply.

Player 1: Inquisitorial Agents (with a Tome-skull) led by an Inquisitor (`AGENTS_LED`), Imperial
Navy Breachers (`BREACHERS`), a Vigilant Squad with a nuncio aquila (`VIGILANTS`) and a Vindicare
Assassin (`VINDICARE`). Player 2: two units of Cadian Shock Troops (`CADIANS`, `CADIANS_2`).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.engine.attacks.effect_modifiers import attack_modifiers
from rules.engine.attacks.inputs import standing_modifiers, target_profile
from rules.engine.core.effects import add_effect, characteristic
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.phases.battle_shock import is_battle_shocked
from rules.engine.sequence.game import legal_actions
from tests.engine_world import (
    BUNDLE,
    ROOT,
    army,
    assert_anywhere_more_than,
    decide,
    entry,
    kill,
    play,
    script_dice,
    wargear,
)
from tests.stratagem_world import (
    pass_windows,
    place_unit,
    stratagem_game,
    to_fight_step,
    to_phase,
    use,
)

AGENTS_LED, BREACHERS, VIGILANTS, VINDICARE = "p1-u1", "p1-u2", "p1-u3", "p1-u4"
CADIANS, CADIANS_2 = "p2-u1", "p2-u2"
FACTION = ROOT / "rules" / "data" / "factions" / "imperial-agents"
PUBLISHED = json.loads((FACTION / "published.json").read_text())["datasheets"]
SEED_SHEETS = json.loads((FACTION / "seed.json").read_text())["datasheets"]
SHEETS = [s for s in BUNDLE["datasheets"] if s["slug"] != "inquisitor"] + SEED_SHEETS + PUBLISHED


def agents_army(enhancements=(), inquisitor_wargear=(), agents_wargear=("tome-skull",)):
    return army(
        entry(
            "agents",
            "inquisitorial-agents",
            6,
            wargear=wargear("inquisitorial-agents", *agents_wargear),
        ),
        entry(
            "inq",
            "inquisitor",
            1,
            attached_to="agents",
            role="leader",
            warlord=True,
            enhancements=list(enhancements),
            wargear=wargear("inquisitor", *inquisitor_wargear),
        ),
        entry("nb", "imperial-navy-breachers", 10),
        entry("vig", "vigilant-squad", 11, wargear=wargear("vigilant-squad", "nuncio aquila")),
        entry("vin", "vindicare-assassin", 1),
    )


def cadians():
    return army(
        entry("cad1", "cadian-shock-troops", 10, warlord=True),
        entry("cad2", "cadian-shock-troops", 10),
    )


def game(detachment=None, first=1, edition="11e", p2=None, **army_options) -> dict[str, Any]:
    armies = {"1": agents_army(**army_options), "2": p2 or cadians()}
    # Deployed with the Proctor-Vigilant, who carries the nuncio aquila, within 6" of o4 (30, 6).
    places = {VIGILANTS: (27.0, 2.0), VINDICARE: (46.0, 2.0)}
    state = stratagem_game(
        edition, {1: detachment}, first=first, armies=armies, datasheets=SHEETS, places=places
    )
    for unit_id, (x, y) in {
        AGENTS_LED: (10.0, 10.0),
        BREACHERS: (30.0, 10.0),
        VIGILANTS: (27.0, 2.0),  # the Proctor-Vigilant within 6" of o4
        VINDICARE: (5.0, 40.0),
        CADIANS: (10.0, 20.0),
        CADIANS_2: (50.0, 20.0),
    }.items():
        if unit_id in state["units"]:
            place_unit(state, unit_id, x, y)
    return state


def units(state, unit_id):
    return state["units"][unit_id]


def model_ids(state, unit_id, part):
    return tuple(m["id"] for m in units(state, unit_id)["models"] if m["part"] == part)


def given(state, attacker, target, models=None):
    return {
        (m.step, m.kind, m.value, tuple(sorted(dict(m.condition).items())))
        for m in standing_modifiers(state, units(state, attacker), units(state, target), models)
    }


def asked_keys(state):
    """Pass every ability choice waiting now; the rules that offered them."""
    keys = []
    while choice(state):
        keys.append(state["pending"][-1]["resume"]["key"].split(":")[0])
        state, _ = decide(state, "pass")
    return keys


def choice(state):
    top = state["pending"][-1] if state["pending"] else None
    return top if top and top["kind"] == "ability_choice" else None


# --- Inquisitor ------------------------------------------------------------------------------


def test_power_of_the_rosette_gains_a_cp_on_3_plus():
    """Seed 000 L21 / AMB-46: a stratagem targeting the Inquisitor's unit; on a 3+ its player gains
    1CP."""
    state = to_phase(game("imperialis-fleet"), 1, "movement")
    state["players"]["1"]["cp"] = 5
    script_dice(state, [4])
    state, events = use(state, 1, "emperors-will", AGENTS_LED)
    assert [e["values"] for e in events if e.get("purpose") == "power_of_the_rosette"] == [[4]]
    assert state["players"]["1"]["cp"] == 5  # paid 1, gained 1


def test_power_of_the_rosette_fails_on_1_or_2_and_a_second_cp_in_a_round_is_kept_in_11e():
    """11e 08.02 prints no limit on CP gained through rules (rulings R-CP-01); the 10e limit is
    shown in tests/test_engine_command_points.py."""
    state = to_phase(game("imperialis-fleet"), 1, "movement")
    state["players"]["1"]["cp"] = 5
    script_dice(state, [2])
    after, _ = use(state, 1, "emperors-will", AGENTS_LED)
    assert after["players"]["1"]["cp"] == 4
    state["facts"]["battle_round"]["extra_cp"] = {"1": 1, "2": 0}  # a gain this round already
    script_dice(state, [6])
    after, events = use(state, 1, "emperors-will", AGENTS_LED)
    assert after["players"]["1"]["cp"] == 5
    assert [e["amount"] for e in events if e["type"] == "command_points_gained"] == [1]


def test_power_of_the_rosette_does_not_roll_for_a_unit_without_the_inquisitor():
    state = to_phase(game("imperialis-fleet"), 1, "movement")
    state["players"]["1"]["cp"] = 5
    _, events = use(state, 1, "emperors-will", BREACHERS)
    assert not [e for e in events if e.get("purpose") == "power_of_the_rosette"]


def test_blessed_wardings_gives_the_led_unit_a_6_plus_invulnerable_save():
    state = game()
    assert ("invulnerable", "set", 6, ()) in given(state, CADIANS, AGENTS_LED)
    assert ("invulnerable", "set", 6, ()) not in given(state, CADIANS, BREACHERS)
    swapped = game(inquisitor_wargear=["psychic gifts"])
    assert ("invulnerable", "set", 6, ()) not in given(swapped, CADIANS, AGENTS_LED)


def test_psychic_gifts_gives_the_inquisitor_the_psyker_keyword():
    assert "PSYKER" in units(game(inquisitor_wargear=["psychic gifts"]), AGENTS_LED)["keywords"]
    assert "PSYKER" not in units(game(), AGENTS_LED)["keywords"]


# --- Detachment rules --------------------------------------------------------------------------


def test_destroy_the_daemonic_re_rolls_hit_rolls_of_1_for_inquisitorial_models():
    state = game("ordo-malleus-daemon-hunters")
    agents = model_ids(state, AGENTS_LED, 0)
    assert given(state, AGENTS_LED, CADIANS, agents) == {
        ("hit", "reroll", "ones", ()),
        ("wound", "reroll", "ones", (("target_keyword", "DAEMON"),)),
    }
    assert ("hit", "reroll", "ones", ()) not in given(state, BREACHERS, CADIANS)
    assert given(game("imperialis-fleet"), AGENTS_LED, CADIANS, agents) == set()


def test_root_out_heresy_gives_ignores_cover_and_sustained_hits_against_chaos():
    state = game("ordo-hereticus-purgation-force")
    assert given(state, VIGILANTS, CADIANS) == {
        ("ability", "grant", "ignores cover", (("weapon_type", "ranged"),)),
        (
            "ability",
            "grant",
            "sustained hits 1",
            (("target_keyword", "CHAOS"), ("target_models_at_least", 5)),
        ),
    }
    assert given(state, VINDICARE, CADIANS) == set()  # not one of the named keywords


def test_at_all_costs_eliminate_adds_1_to_hit_until_the_next_command_phase():
    state = game("imperialis-fleet")
    top = choice(state)
    assert top is not None and top["player"] == 1 and "pass" in top["options"]
    assert {"eliminate": CADIANS} in top["options"] and {"acquire": "o1"} in top["options"]
    state, _ = decide(state, {"eliminate": CADIANS})
    assert ("hit", "add", 1, ()) in given(state, VIGILANTS, CADIANS)
    assert ("hit", "add", 1, ()) not in given(state, VIGILANTS, CADIANS_2)
    state = to_phase(state, 2, "command")
    state = to_phase(state, 1, "command")  # the start of player 1's next Command phase
    assert ("hit", "add", 1, ()) not in given(state, VIGILANTS, CADIANS)


def test_at_all_costs_acquire_improves_ld_oc_and_gives_a_5_plus_invulnerable_save():
    state = game("imperialis-fleet")
    place_unit(state, BREACHERS, 29.0, 21.5)  # within range of o1 (30, 22)
    state, _ = decide(state, {"acquire": "o1"})
    breacher = units(state, BREACHERS)["models"][0]
    assert characteristic(state, BREACHERS, breacher, "OC") == breacher["OC"] + 1
    assert characteristic(state, BREACHERS, breacher, "Ld") == breacher["Ld"] - 1
    assert ("invulnerable", "set", 5, ()) in given(state, CADIANS, BREACHERS)
    vigilant = units(state, VIGILANTS)["models"][0]  # not within range
    assert characteristic(state, VIGILANTS, vigilant, "OC") == vigilant["OC"]


def test_at_all_costs_is_not_offered_to_another_detachment_and_may_be_passed():
    assert asked_keys(game("ordo-malleus-daemon-hunters")) == ["nuncio-aquila"]
    assert asked_keys(game("imperialis-fleet")) == ["at-all-costs", "nuncio-aquila"]
    state, _ = decide(game("imperialis-fleet"), "pass")
    assert not any("eliminate_at_all_costs" in e["modifier"] for e in state["effects"])


# --- Enhancements ----------------------------------------------------------------------------


def inquisitor_model(state):
    return model_ids(state, AGENTS_LED, 1)


def test_enhancements_are_carried_by_the_bearer_model():
    state = game("ordo-hereticus-purgation-force", enhancements=["witch-hunter"])
    inquisitor = units(state, AGENTS_LED)["models"][-1]
    assert inquisitor["enhancements"] == ["witch-hunter"]
    assert "enhancements" not in units(state, AGENTS_LED)["models"][0]


def test_universal_anathema_gives_the_bearers_melee_weapons_anti():
    state = game("ordo-xenos-alien-hunters", enhancements=["universal-anathema"])
    assert given(state, AGENTS_LED, CADIANS, inquisitor_model(state)) == {
        ("ability", "grant", "anti-infantry 2+", (("weapon_type", "melee"),)),
        ("ability", "grant", "anti-monster 4+", (("weapon_type", "melee"),)),
    }
    assert given(state, AGENTS_LED, CADIANS, model_ids(state, AGENTS_LED, 0)) == set()


def test_ignis_judicium_gives_the_bearers_ranged_weapons_three_abilities():
    state = game("ordo-hereticus-purgation-force", enhancements=["ignis-judicium"])
    granted = {m[2] for m in given(state, AGENTS_LED, CADIANS, inquisitor_model(state))}
    assert {"devastating wounds", "melta 1", "precision"} <= granted
    assert not {"melta 1"} & {m[2] for m in given(state, BREACHERS, CADIANS)}


def test_witch_hunter_re_rolls_hits_against_psykers_while_leading():
    state = game("ordo-hereticus-purgation-force", enhancements=["witch-hunter"])
    rule = ("hit", "reroll", "any", (("target_keyword", "PSYKER"),))
    assert rule in given(state, AGENTS_LED, CADIANS, model_ids(state, AGENTS_LED, 0))
    assert rule not in given(state, BREACHERS, CADIANS)
    kill(state, AGENTS_LED, 1, part=1)  # the bearer is dead: it no longer leads
    assert rule not in given(state, AGENTS_LED, CADIANS)


def test_grimoire_of_true_names_worsens_enemy_leadership_within_9_inches():
    state = game("ordo-malleus-daemon-hunters", enhancements=["grimoire-of-true-names"])
    near, far = units(state, CADIANS)["models"][0], units(state, CADIANS_2)["models"][0]
    assert characteristic(state, CADIANS, near, "Ld") == near["Ld"] + 1
    assert characteristic(state, CADIANS_2, far, "Ld") == far["Ld"]
    assert given(state, CADIANS, AGENTS_LED) == {
        ("invulnerable", "set", 6, ()),  # Blessed Wardings
        ("wound", "add", -1, ()),  # Loyal Henchmen; no Grimoire: the Cadians are no DAEMON
    }


def test_grimoire_of_true_names_makes_daemons_within_9_inches_worse_at_hitting_and_wounding():
    sheets = [
        {**s, "keywords": [*s["keywords"], "DAEMON"]} if s["slug"] == "cadian-shock-troops" else s
        for s in SHEETS
    ]
    armies = {"1": agents_army(enhancements=["grimoire-of-true-names"]), "2": cadians()}
    state = stratagem_game(
        "11e", {1: "ordo-malleus-daemon-hunters"}, armies=armies, datasheets=sheets
    )
    place_unit(state, AGENTS_LED, 10.0, 10.0)
    place_unit(state, CADIANS, 10.0, 16.0)
    place_unit(state, CADIANS_2, 50.0, 40.0)
    assert {("hit", "add", -1, ()), ("wound", "add", -1, ())} <= given(state, CADIANS, BREACHERS)
    assert ("hit", "add", -1, ()) not in given(state, CADIANS_2, BREACHERS)


def shock(state, unit_id):
    ctx = Context(state)
    add_effect(
        ctx, "battle-shock", {"unit": unit_id}, {"status": "battle_shocked"}, "until_removed", 1
    )
    return ctx.state


def to_next_phase_choice(state):
    """End the phase; pass the stratagem windows until an ability choice (or nothing) waits."""
    state = pass_windows(state)
    state, _ = play(state, {"type": "end_phase", "player": state["active_player"]})
    while state["pending"] and state["pending"][-1]["kind"] == "stratagem_window":
        state, _ = decide(state, "pass")
    return state


def test_formidable_resolve_improves_the_bearers_ld_and_w_and_rallies_once():
    state = game(
        "ordo-malleus-daemon-hunters", enhancements=["formidable-resolve"], agents_wargear=()
    )
    inquisitor = units(state, AGENTS_LED)["models"][-1]
    assert (inquisitor["W"], inquisitor["wounds_left"], inquisitor["Ld"]) == (5, 5, 5)
    place_unit(state, BREACHERS, 20.0, 10.0)  # within 12" of the bearer
    state = to_next_phase_choice(shock(state, BREACHERS))
    top = choice(state)
    assert top["kind"] == "ability_choice" and top["options"] == ["pass", BREACHERS]
    state, _ = decide(state, BREACHERS)
    assert not is_battle_shocked(state, BREACHERS)
    state = to_next_phase_choice(shock(state, BREACHERS))
    assert choice(state) is None  # once per battle
    assert is_battle_shocked(state, BREACHERS)


def test_formidable_resolve_does_not_reach_a_unit_more_than_12_inches_away():
    state = game("ordo-malleus-daemon-hunters", enhancements=["formidable-resolve"])
    place_unit(state, BREACHERS, 50.0, 40.0)
    state = to_next_phase_choice(shock(state, BREACHERS))
    assert choice(state) is None


# --- Published datasheet abilities -------------------------------------------------------------

COTEAZ_LED = "p2-u3"


def with_coteaz():
    return army(
        entry("cad1", "cadian-shock-troops", 10, warlord=True),
        entry("cad2", "cadian-shock-troops", 10),
        entry("ia2", "inquisitorial-agents", 6),
        entry("cot", "inquisitor-coteaz", 1, attached_to="ia2", role="leader"),
    )


def test_spy_network_gains_a_cp_on_2_plus_when_the_opponent_gains_one_from_an_ability():
    state = to_phase(game("imperialis-fleet", p2=with_coteaz()), 1, "movement")
    state["players"]["1"]["cp"] = 5
    cp = state["players"]["2"]["cp"]
    script_dice(state, [4, 2])  # Power of the Rosette gains; Spy Network answers
    after, events = use(state, 1, "emperors-will", AGENTS_LED)
    assert [e["purpose"] for e in events if e["type"] == "dice_rolled"] == [
        "power_of_the_rosette",
        "spy_network",
    ]
    assert after["players"]["2"]["cp"] == cp + 1
    script_dice(state, [4, 1])
    after, _ = use(state, 1, "emperors-will", AGENTS_LED)
    assert after["players"]["2"]["cp"] == cp
    script_dice(state, [1])  # no gain, nothing for the spies
    _, events = use(state, 1, "emperors-will", AGENTS_LED)
    assert "spy_network" not in [e.get("purpose") for e in events]


def test_malefic_wardings_psychic_gives_6_plus_and_4_plus_against_psychic_attacks():
    state = game(p2=with_coteaz())
    assert {
        ("invulnerable", "set", 6, ()),
        ("invulnerable", "set", 4, (("weapon_ability", "psychic"),)),
    } <= given(state, AGENTS_LED, COTEAZ_LED)
    assert not {m for m in given(state, AGENTS_LED, CADIANS) if m[0] == "invulnerable"}


def test_glovodan_psyber_eagle_denies_cover_to_an_enemy_unit_within_18_inches():
    from rules.engine.factions.imperial_agents.rules import glovodan_choices, resolve_glovodan

    state = game(p2=with_coteaz(), first=2)
    state = pass_windows(state)
    place_unit(state, COTEAZ_LED, 10.0, 25.0)
    place_unit(state, VINDICARE, 60.0, 5.0)
    ((key, options),) = glovodan_choices(state, 2)
    assert AGENTS_LED in options and VINDICARE not in options  # the Vindicare is far away
    assert glovodan_choices(state, 1) == []  # not the Inquisitor's player
    ctx = Context(state)
    resolve_glovodan(ctx, 2, key, AGENTS_LED)
    (deny,) = attack_modifiers(ctx.state, COTEAZ_LED, AGENTS_LED)
    assert (deny.step, deny.kind) == ("cover", "deny")


def test_loyal_henchmen_subtracts_1_from_wound_rolls_while_an_inquisitor_leads():
    state = game()
    assert ("wound", "add", -1, ()) in given(state, CADIANS, AGENTS_LED)
    kill(state, AGENTS_LED, 1, part=1)
    assert ("wound", "add", -1, ()) not in given(state, CADIANS, AGENTS_LED)


def test_breaching_team_re_rolls_wound_rolls_of_1_or_any_against_a_unit_on_an_objective():
    state = game()
    place_unit(state, CADIANS, 40.0, 30.0)
    assert given(state, BREACHERS, CADIANS) == {("wound", "reroll", "ones", ())}
    place_unit(state, CADIANS, 9.0, 23.0)  # on o2 (10, 24)
    assert given(state, BREACHERS, CADIANS) == {("wound", "reroll", "any", ())}


def test_merciless_judgement_adds_1_to_wound_against_below_half_strength_units():
    state = game()
    assert given(state, VIGILANTS, CADIANS) == set()
    kill(state, CADIANS, 6)
    assert given(state, VIGILANTS, CADIANS) == {("wound", "add", 1, (("weapon_type", "ranged"),))}


def test_endurant_shield_gives_its_bearer_a_4_plus_invulnerable_save():
    """The Breachers' loadout gives one Navis Armsman the endurant shield (R-WG-04): he alone has
    the 4+ invulnerable save."""
    state = game()
    breachers = units(state, BREACHERS)
    profile, _ = target_profile(state, breachers)
    assert [model.invulnerable for model in profile.models].count(4) == 1
    assert [m["wargear_abilities"] for m in breachers["models"]].count(["Endurant Shield"]) == 1
    cadians_profile, _ = target_profile(state, units(state, CADIANS))
    assert {model.invulnerable for model in cadians_profile.models} == {None}


def test_tome_skull_tests_an_enemy_unit_within_6_inches_once_per_tome_skull():
    from rules.engine.factions.imperial_agents.rules import resolve_tome_skull, tome_skull_choices

    state = pass_windows(game())
    assert tome_skull_choices(state, 1) == []  # nobody within 6"
    place_unit(state, CADIANS, 10.0, 17.0)
    ((key, options),) = tome_skull_choices(state, 1)
    assert {"test": CADIANS} in options
    ctx = Context(state)
    script_dice(ctx.state, [1, 1])
    ctx.dice.next_index = ctx.state["dice"]["next_index"]
    resolve_tome_skull(ctx, 1, key, {"test": CADIANS})
    assert is_battle_shocked(ctx.state, CADIANS)
    assert tome_skull_choices(ctx.state, 1) == []  # its one Tome-skull is used
    assert tome_skull_choices(game(agents_wargear=()), 1) == []


def test_nuncio_aquila_aura_battle_shock_tests_enemies_on_a_marker_within_6_inches():
    state = game()
    top = choice(state)
    assert top["resume"]["key"].startswith("nuncio-aquila") and top["options"] == ["pass", "o4"]
    place_unit(state, BREACHERS, 40.0, 14.0)
    place_unit(state, CADIANS, 27.0, 9.0)  # its front rank within range of o4 (30, 6)
    script_dice(state, [1, 1])
    state, events = decide(state, "o4")
    assert [e["unit"] for e in events if e["type"] == "battle_shock_rolled"] == [CADIANS]
    assert is_battle_shocked(state, CADIANS)
    state = to_phase(state, 2, "command")
    state = to_phase(state, 1, "command")
    assert "nuncio-aquila" not in asked_keys(state)  # once per battle


def test_cat_unit_gives_ignores_cover_once_per_battle_when_selected_to_shoot():
    from tests.engine_world import shoot_at

    state = game()
    place_unit(state, CADIANS, 30.0, 17.0)
    state = to_phase(state, 1, "shooting")
    state, _ = play(state, shoot_at(state, 1, BREACHERS, [CADIANS]))
    top = choice(state)
    assert top["options"] == ["pass", "use"] and top["resume"]["key"] == f"cat-unit:{BREACHERS}"
    state, _ = decide(state, "use")
    assert {(m.step, m.value) for m in attack_modifiers(state, BREACHERS, CADIANS)} == {
        ("ability", "ignores cover")
    }
    from rules.engine.factions.imperial_agents.rules import cat_unit_choices

    assert cat_unit_choices(state, units(state, BREACHERS), {}) == []


def test_shieldbreaker_makes_every_exitus_rifle_wound_critical_once_per_battle():
    from tests.engine_world import shoot_at

    state = game()
    place_unit(state, VINDICARE, 30.0, 4.0)
    place_unit(state, CADIANS, 30.0, 20.0)
    state = to_phase(state, 1, "shooting")
    action = shoot_at(state, 1, VINDICARE, [CADIANS])
    assert [a["weapon"] for a in action["assignments"]] == ["Exitus rifle"]
    state, _ = play(state, action)
    assert choice(state)["resume"]["key"] == f"shieldbreaker:{VINDICARE}"
    before = given(state, VINDICARE, CADIANS)
    state, _ = decide(state, "use")
    rifle = (("weapon_name", "exitus rifle"),)
    assert given(state, VINDICARE, CADIANS) - before == {
        ("wound", "add", 1, rifle),
        ("wound", "critical_on_success", True, rifle),
    }


def test_every_wound_critical_turns_successful_wound_rolls_into_critical_wounds():
    import numpy as np

    from rules.engine.attacks.sequence import WoundPlan, wound_success

    plan = WoundPlan(np.array([4]), 0, 6, None, (), every_wound_critical=True)
    wound, critical = wound_success(np.array([[1, 3, 4, 6]]), plan)
    assert wound.tolist() == [[False, False, True, True]]
    assert critical.tolist() == wound.tolist()


def test_deadshot_ignores_lone_operative_when_selecting_targets():
    from rules.engine.factions.imperial_agents.rules import ignores_lone_operative

    state = game()
    assert ignores_lone_operative(state, units(state, VINDICARE))
    assert not ignores_lone_operative(state, units(state, BREACHERS))


# --- Fall back, fight, before the battle --------------------------------------------------------


def test_no_escape_makes_a_unit_that_fails_its_leadership_test_remain_stationary():
    state = game("ordo-hereticus-purgation-force", first=2, enhancements=["no-escape"])
    place_unit(state, AGENTS_LED, 20.0, 20.0)
    place_unit(state, CADIANS, 20.0, 15.8)
    state = to_phase(state, 2, "movement")
    script_dice(state, [1, 1])
    state, events = play(state, {"type": "fall_back", "player": 2, "unit": CADIANS})
    (test,) = [e for e in events if e["type"] == "leadership_tested"]
    assert (test["rule"], test["passed"]) == ("No Escape", False)
    assert "unit_remained_stationary" in [e["type"] for e in events]
    assert state["pending"] == [] and "fall_back_mode_selected" not in [e["type"] for e in events]


def test_no_escape_lets_a_unit_that_passes_or_is_out_of_reach_fall_back():
    state = game("ordo-hereticus-purgation-force", first=2, enhancements=["no-escape"])
    place_unit(state, AGENTS_LED, 20.0, 20.0)
    place_unit(state, CADIANS, 20.0, 15.8)
    state = to_phase(state, 2, "movement")
    script_dice(state, [6, 6])
    _, events = play(state, {"type": "fall_back", "player": 2, "unit": CADIANS})
    assert [e["passed"] for e in events if e["type"] == "leadership_tested"] == [True]
    assert "unit_remained_stationary" not in [e["type"] for e in events]
    plain = game("ordo-hereticus-purgation-force", first=2)
    place_unit(plain, AGENTS_LED, 20.0, 20.0)
    place_unit(plain, CADIANS, 20.0, 15.8)
    plain = to_phase(plain, 2, "movement")
    _, events = play(plain, {"type": "fall_back", "player": 2, "unit": CADIANS})
    assert "leadership_tested" not in [e["type"] for e in events]


def fight_with_agents(state):
    """Player 1's Fight phase: the player whose turn it is selects first (11e 12.04). The
    Inquisitor stands in the second row, the Cadians just behind it, within its Engagement
    Range (placed once the Fight step has begun)."""
    state = to_phase(state, 1, "fight")
    place_unit(state, AGENTS_LED, 20.0, 20.0)
    place_unit(state, CADIANS, 20.0, 24.0)
    state = to_fight_step(state)
    template = next(
        a for a in legal_actions(state, 1) if a["type"] == "fight" and a["unit"] == AGENTS_LED
    )
    return state, {
        "type": "fight",
        "player": 1,
        "unit": AGENTS_LED,
        **{
            k: v
            for k, v in template.items()
            if k not in ("type", "player", "unit") and v != "required"
        },
    }


def test_digital_weapons_inflicts_a_mortal_wound_for_each_4_plus_when_selected_to_fight():
    state, action = fight_with_agents(
        game("imperialis-fleet", first=2, enhancements=["digital-weapons"])
    )
    models_before = len([m for m in units(state, CADIANS)["models"] if m["wounds_left"] > 0])
    script_dice(state, [4, 5, 1])
    state, events = play(state, action)
    rolls = [e["values"] for e in events if e.get("purpose") == "digital_weapons"]
    assert rolls == [[4, 5, 1]]
    lost = 0
    while state["pending"] and state["pending"][-1]["kind"] in (
        "digital_weapons_target",
        "allocate_mortal_wound",
    ):
        top = state["pending"][-1]
        if top["kind"] == "digital_weapons_target":
            assert top["options"][0] == {"unit": CADIANS, "model": None}
            lost += 1
        state, _ = decide(state, top["options"][0])
    assert lost == 2
    alive = len([m for m in units(state, CADIANS)["models"] if m["wounds_left"] > 0])
    assert alive == models_before - 2


def test_digital_weapons_does_nothing_without_the_bearer():
    state, action = fight_with_agents(game("imperialis-fleet", first=2))
    _, events = play(state, action)
    assert "digital_weapons" not in [e.get("purpose") for e in events]


def new_agents_game(detachment, enhancements):
    from rules.engine.sequence.game import new_game
    from tests.engine_world import SEED, setup

    armies = {"1": agents_army(enhancements=enhancements), "2": cadians()}
    armies["1"]["detachment"] = detachment
    state, _ = new_game(setup("11e", armies, datasheets=SHEETS), SEED)
    return state


def test_clandestine_operation_gives_up_to_three_agents_infantry_units_infiltrators():
    from rules.engine.army.attached_units import every_part_has as has_ability

    state = new_agents_game("imperialis-fleet", ["clandestine-operation"])
    state, _ = play(state, {"type": "declare_reserves", "player": 1, "units": []})
    top = state["pending"][-1]
    assert top["kind"] == "select_units" and top["options"][0] == "done"
    assert set(top["options"][1:]) == {AGENTS_LED, BREACHERS, VIGILANTS, VINDICARE}
    state, _ = decide(state, BREACHERS)
    state, _ = decide(state, "done")
    assert has_ability(state, units(state, BREACHERS), "Infiltrators")
    assert not has_ability(state, units(state, VIGILANTS), "Infiltrators")
    state, _ = play(state, {"type": "declare_reserves", "player": 2, "units": []})
    assert state["pending"] == []  # player 2 has no bearer


def deploy_everything(state):
    from tests.engine_world import formation

    state, _ = play(
        state,
        {"type": "declare_reserves", "player": 1, "units": []},
        {"type": "declare_reserves", "player": 2, "units": []},
    )
    rows, next_x = {1: 2.0, 2: 36.0}, {1: 2.0, 2: 2.0}
    while state["stage"] == "deployment":
        player = state["awaiting"]
        unit = next(
            u
            for _, u in sorted(state["units"].items())
            if u["player"] == player and u["location"] == "unplaced"
        )
        positions = formation(unit, next_x[player], rows[player])
        next_x[player] += 12
        state, _ = play(
            state, {"type": "deploy", "player": player, "unit": unit["id"], "positions": positions}
        )
    return state


def test_liber_heresius_redeploys_up_to_three_units_into_strategic_reserves_or_the_zone():
    from tests.engine_world import formation

    state = deploy_everything(new_agents_game("ordo-hereticus-purgation-force", ["liber-heresius"]))
    assert state["stage"] == "redeployment"
    top = state["pending"][-1]
    assert top["kind"] == "select_units" and AGENTS_LED in top["options"]
    state, _ = decide(state, BREACHERS)
    state, _ = decide(state, VIGILANTS)
    state, _ = decide(state, "done")
    assert state["pending"][-1]["kind"] == "redeploy_unit"
    state, _ = decide(state, "strategic_reserves")
    assert units(state, BREACHERS)["location"] == "strategic_reserves"
    with pytest.raises(Refusal):  # outside the deployment zone
        decide(state, formation(units(state, VIGILANTS), 30.0, 30.0))
    state, events = decide(state, formation(units(state, VIGILANTS), 50.0, 4.0))
    assert [e["location"] for e in events if e["type"] == "unit_redeployed"] == ["battlefield"]
    assert state["pending"][-1]["kind"] == "choose_first_turn"


def test_liber_heresius_is_not_offered_without_the_bearer():
    state = deploy_everything(new_agents_game("ordo-hereticus-purgation-force", []))
    assert state["pending"][-1]["kind"] == "choose_first_turn"


# --- Army construction ---------------------------------------------------------------------------


def rules_bundle() -> dict[str, Any]:
    bundle: dict[str, list] = {
        "datasheets": [],
        "factions": [],
        "detachments": [],
        "enhancements": [],
    }
    for path in sorted((ROOT / "rules" / "data" / "factions").glob("*/*.json")):
        data = json.loads(path.read_text("utf-8"))
        for kind in bundle:
            bundle[kind].extend(data.get(kind, []))
    return bundle


def check(units_list, faction="astra-militarum", detachment="siege-regiment", size="incursion"):
    from rules.engine.army.list_checks import check_army

    army = {"faction": faction, "detachment": detachment, "units": units_list}
    report = check_army(army, size, rules_bundle(), support_units=True)
    return [problem["code"] for problem in report.problems], report


def test_inquisitorial_henchmen_do_not_count_towards_the_retinue_limit():
    """Incursion allows one RETINUE Assigned Agent; an Inquisitor brings one henchmen unit."""
    castellan = entry("cas", "cadian-castellan", 1, warlord=True)
    henchmen = [entry("ia1", "inquisitorial-agents", 6), entry("ia2", "inquisitorial-agents", 6)]
    codes, _ = check([castellan, *henchmen, entry("inq", "inquisitor", 1)])
    assert codes == []
    codes, _ = check([castellan, *henchmen])
    assert codes == ["too_many_assigned_agents"]


def test_shadow_assignment_is_never_the_warlord_and_allows_one_of_each_assassin():
    codes, _ = check(
        [
            entry("vin", "vindicare-assassin", 1, warlord=True),
            entry("nb", "imperial-navy-breachers", 10),
        ],
        faction="imperial-agents",
        detachment="imperialis-fleet",
    )
    assert "shadow_assignment_warlord" in codes
    codes, _ = check(
        [
            entry("inq", "inquisitor", 1, warlord=True),
            entry("vin", "vindicare-assassin", 1),
            entry("vin2", "vindicare-assassin", 1),
        ],
        faction="imperial-agents",
        detachment="imperialis-fleet",
    )
    assert codes == ["duplicate_assassin"]


def test_shadow_assignment_replaces_the_model_with_a_cheaper_assassin_in_an_agents_army():
    from rules.engine.army.muster import muster

    bundle = rules_bundle()
    vindicare = next(s for s in bundle["datasheets"] if s["slug"] == "vindicare-assassin")
    eversor = {**vindicare, "slug": "eversor-assassin", "name": "Eversor Assassin"}
    eversor["points"] = [{"models": 1, "points": 100}]
    bundle["datasheets"].append(eversor)
    from rules.engine.army.list_checks import check_army

    units_list = [
        entry("inq", "inquisitor", 1, warlord=True),
        entry("vin", "vindicare-assassin", 1, replaced_by="eversor-assassin"),
    ]
    army = {"faction": "imperial-agents", "detachment": "imperialis-fleet", "units": units_list}
    report = check_army(army, "incursion", bundle, support_units=True)
    assert report.problems == [] and report.unit_points["vin"] == 100
    sheets = {s["slug"]: s for s in bundle["datasheets"]}
    fielded = muster(1, army, sheets, {"support_units": True})
    assert [u["datasheet"] for u in fielded.values()] == ["inquisitor", "eversor-assassin"]
    army["faction"] = "astra-militarum"
    report = check_army(army, "incursion", bundle, support_units=True)
    assert "shadow_assignment_faction" in [p["code"] for p in report.problems]
    eversor["points"] = [{"models": 1, "points": 130}]
    army["faction"] = "imperial-agents"
    report = check_army(army, "incursion", bundle, support_units=True)
    assert [p["code"] for p in report.problems] == ["shadow_assignment_points"]


def test_gheistskull_lets_the_breachers_throw_explosives_at_a_unit_18_inches_away_once():
    from rules.engine.stratagems.effects import IMPLEMENTATIONS

    state = game()
    place_unit(state, BREACHERS, 30.0, 4.0)
    place_unit(state, CADIANS, 30.0, 18.0)  # 12.4" away: beyond the 8" of a throw
    place_unit(state, CADIANS_2, 60.0, 40.0)  # far beyond 18"
    state = to_phase(state, 1, "shooting")
    state["players"]["1"]["cp"] = 3
    explosives = IMPLEMENTATIONS["explosives-11e"]
    (throw,) = explosives.choices(state, 1, {}, BREACHERS)
    assert (throw["enemy"], throw["rule"]) == (CADIANS, "Gheistskull")
    assert explosives.choices(state, 1, {}, VIGILANTS) == []  # no Gheistskull
    action = {"type": "use_stratagem", "player": 1, "stratagem": "explosives-11e"}
    state, events = play(state, {**action, "target": BREACHERS, **throw})
    assert [e["rule"] for e in events if e["type"] == "explosives_thrown"] == ["Gheistskull"]
    assert explosives.choices(state, 1, {}, BREACHERS) == []  # once per battle


# --- Self-play -----------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_self_play_with_imperial_agents_uses_their_rules_and_replays_exactly(edition):
    """The agents field Breachers and Vigilants led by an Inquisitor and Coteaz (Imperialis
    Fleet), answer the ability choices (At all Costs, Glovodan, Nuncio Aquila...) at random like
    any decision, and every game replays to the same state hash."""
    from rules.engine.sequence.replay import check_replay
    from rules.engine.tools.selfplay import selfplay
    from tests.test_stratagem_selfplay import STRATAGEM_BUNDLE

    bundle = {**STRATAGEM_BUNDLE, "datasheets": SHEETS}
    used, rolled = set(), set()
    for number in range(1, 3):
        result, log = selfplay(bundle, number, edition)
        _, digest = check_replay(json.loads(json.dumps(log)))
        assert digest == result["state_hash"], f"game {number}"
        used |= {e["ability"].split(":")[0] for e in log["events"] if e["type"] == "ability_used"}
        rolled |= {e["purpose"] for e in log["events"] if e["type"] == "dice_rolled"}
    assert "at-all-costs" in used
    assert "power_of_the_rosette" in rolled


def test_at_all_costs_eliminate_reaches_the_dice_of_a_real_shooting_attack():
    from tests.engine_world import shoot_at
    from tests.stratagem_world import through_attacks

    state = game("imperialis-fleet")
    state, _ = decide(state, {"eliminate": CADIANS})
    place_unit(state, VIGILANTS, 10.0, 10.0)
    place_unit(state, AGENTS_LED, 40.0, 4.0)
    state = to_phase(state, 1, "shooting")
    state, events = play(state, shoot_at(state, 1, VIGILANTS, [CADIANS]))
    state = through_attacks(state)
    text = json.dumps([e for e in events if e["type"] == "attack_step"])
    assert "Eliminate At All Costs +1" in text


def test_gift_of_the_prescient_brings_terminators_in_by_rapid_ingress_for_0cp_anywhere():
    """No GREY KNIGHTS TERMINATOR SQUAD datasheet is in the rules data: a Strike Squad stands in
    (the keyword added for the test)."""
    from tests.engine_world import formation

    terminators = "p1-u5"
    sheets = [
        {**s, "keywords": [*s["keywords"], "GREY KNIGHTS TERMINATOR SQUAD"]}
        if s["slug"] == "strike-squad"
        else s
        for s in SHEETS
    ]
    p1 = agents_army(enhancements=["gift-of-the-prescient"], agents_wargear=())
    p1["units"].append(entry("gkts", "strike-squad", 5))
    state = stratagem_game(
        "11e",
        {1: "ordo-malleus-daemon-hunters"},
        armies={"1": p1, "2": cadians()},
        datasheets=sheets,
        reserves={1: [terminators]},
    )
    for phase_player in ((2, "movement"), (1, "movement"), (2, "movement")):
        state = to_phase(state, *phase_player)
    assert state["battle_round"] == 2
    state["players"]["1"]["cp"] = 0
    state, _ = play(state, {"type": "end_phase", "player": 2})
    offers = [
        o
        for o in state["pending"][-1]["options"]
        if o != "pass" and o["stratagem"] == "rapid-ingress-11e"
    ]
    assert [(o["target"], o["rule"]) for o in offers] == [(terminators, "Gift of the Prescient")]
    state, _ = decide(state, offers[0])
    assert state["players"]["1"]["cp"] == 0
    top = state["pending"][-1]
    assert (
        top["kind"] == "stratagem_arrival" and top["options"]["set_up_more_than_from_enemies"] == 6
    )
    # Drawn while it is placed: anywhere more than 6", whichever way it is set up.
    template = next(a for a in legal_actions(state, 1) if a.get("choice") == "positions")
    assert list(template["areas"]) == top["options"]["methods"]
    for area in template["areas"].values():
        assert_anywhere_more_than(state, 1, area, 6)
    near_enemy = formation(units(state, terminators), 2.0, 31.0)  # the Cadians stand at (2, 36)
    with pytest.raises(Refusal):
        decide(state, near_enemy)
    state, events = decide(state, formation(units(state, terminators), 30.0, 30.0))
    assert units(state, terminators)["location"] == "battlefield"
    assert "unit_arrived" in [e["type"] for e in events]
    assert "gift-of-the-prescient:1" in state["abilities_used"]  # once per battle


def test_gift_of_the_prescient_is_not_offered_for_other_units_or_without_the_bearer():
    from rules.engine.factions.imperial_agents.rules import gift_discount, gift_of_the_prescient

    state = game("ordo-malleus-daemon-hunters", enhancements=["gift-of-the-prescient"])
    assert gift_of_the_prescient(state, 1, {}, BREACHERS) == []  # not TERMINATORS
    assert gift_discount(state, 1, "rapid-ingress-11e") == 1
    assert gift_discount(state, 2, "rapid-ingress-11e") == 0  # the opponent has no bearer
    kill(state, AGENTS_LED, 1, part=1)  # the bearer is no longer on the battlefield
    assert gift_discount(state, 1, "rapid-ingress-11e") == 0


def test_deadshot_lets_the_vindicare_target_a_lone_operative_more_than_12_inches_away():
    """Lone Operative: no target more than 12" away (11e 24.23); Deadshot ignores it. The same
    Vindicare without Deadshot cannot target the enemy Vindicare 26" away."""
    from rules.engine.phases.shooting_targets import weapon_options

    def targets(sheets):
        p2 = cadians()
        p2["units"].append(entry("vin2", "vindicare-assassin", 1))
        armies = {"1": agents_army(), "2": p2}
        state = stratagem_game("11e", {}, armies=armies, datasheets=sheets)
        place_unit(state, "p2-u3", 30.0, 30.0)
        place_unit(state, VINDICARE, 30.0, 4.0)  # 26" away, the exitus rifle reaches 48"
        place_unit(state, CADIANS, 50.0, 10.0)  # about 20" away, no Lone Operative
        options = weapon_options(state, units(state, VINDICARE))
        return {t for o in options if o["weapon"] == "Exitus rifle" for t in o["targets"]}

    assert {"p2-u3", CADIANS} <= targets(SHEETS)
    without = [
        {**s, "abilities": [a for a in s["abilities"] if a["name"] != "Deadshot"]}
        if s["slug"] == "vindicare-assassin"
        else s
        for s in SHEETS
    ]
    found = targets(without)
    assert CADIANS in found and "p2-u3" not in found
