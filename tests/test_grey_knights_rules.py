"""Grey Knights detachment rules and datasheet abilities in play: An Urgent Duty (Void Purge
Force), Teleport Shunt (Teleport Strike Force), Sanctifying Ritual (seed 004), and the published
datasheets' Hammerhand, Eye of Judgement, Clarion of Haste, Force Edge, Ancient's Banner and
Truesilver Aegis (10e)."""

import json

import pytest

from rules.engine.army.wargear import bearers
from rules.engine.attacks.casualties import allocate_mortal_wounds
from rules.engine.attacks.in_game import AttackGroup, split_by_part
from rules.engine.attacks.inputs import attack_context, target_profile
from rules.engine.core.events import Context
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models, copy_state
from rules.engine.factions.grey_knights import rules as grey_knights
from rules.engine.sequence.game import apply
from rules.engine.sequence.objectives import model_oc
from tests.engine_world import (
    BUNDLE,
    ROOT,
    army,
    decide,
    default_armies,
    deployed_game,
    end_phase,
    entry,
    kill,
    place_unit,
    play,
    script_dice,
    wargear,
)
from tests.stratagem_world import CADIANS, CADIANS_2, LED_SQUAD, SQUAD, to_phase

FACTIONS = ROOT / "rules" / "data" / "factions" / "grey-knights"
PUBLISHED = json.loads((FACTIONS / "published.json").read_text("utf-8"))["datasheets"]
SEED_SQUAD = json.loads((FACTIONS / "seed.json").read_text("utf-8"))["datasheets"]
DATASHEETS = [d for d in BUNDLE["datasheets"] if d["slug"] != "strike-squad"] + PUBLISHED
DATASHEETS += SEED_SQUAD
BANNER = "Ancient\u2019s banner"


def game(units, detachment=None, edition="10e"):
    """Player 1's army of `units` (entries) against two Cadian squads."""
    armies = default_armies()
    armies["1"] = army(*units)
    armies["1"]["detachment"] = detachment
    state, _ = deployed_game(edition, armies, datasheets=DATASHEETS)
    while state["stage"] == "scouts":  # the seed Strike Squad has Scouts: no scout moves
        state, _ = play(state, {"type": "end_scouts", "player": state["awaiting"]})
    return state


def game_of(detachment):
    state, _ = deployed_game("10e", _with_detachment(detachment))
    return state


def _with_detachment(detachment):
    armies = default_armies()
    armies["1"]["detachment"] = detachment
    return armies


# --- An Urgent Duty (Void Purge Force) ------------------------------------------------------


def advance_max(state, unit, roll):
    script_dice(state, [roll])
    state, events = play(state, {"type": "advance", "player": 1, "unit": unit})
    return state, next(e for e in events if e["type"] == "dice_rolled")


def test_void_purge_force_an_urgent_duty_adds_1_to_advance_and_charge_rolls():
    state = to_phase(game_of("void-purge-force"), 1, "movement")
    state, rolled = advance_max(state, SQUAD, 3)
    assert rolled["modifier"] == 1 and rolled["total"] == 4
    assert state["pending"][-1]["options"]["max_distance"] == 6 + 4
    state = to_phase(game_of("void-purge-force"), 1, "charge")
    place_unit(state, LED_SQUAD, 10.0, 25.0)
    script_dice(state, [2, 3])
    state, events = play(
        state, {"type": "declare_charge", "player": 1, "unit": LED_SQUAD, "targets": [CADIANS]}
    )
    charge = next(e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "charge")
    assert charge["modifier"] == 1 and charge["total"] == 6


def test_void_purge_force_does_not_change_other_armies_rolls():
    state = to_phase(game_of("teleport-strike-force"), 1, "movement")
    state, rolled = advance_max(state, LED_SQUAD, 3)  # no Deep Strike: rolls as usual
    assert rolled["modifier"] == 0 and rolled["total"] == 3


# --- Teleport Shunt (Teleport Strike Force) -------------------------------------------------


def test_teleport_strike_force_teleport_shunt_replaces_the_advance_roll_with_6_inches_and_fly():
    state = to_phase(game_of("teleport-strike-force"), 1, "movement")
    state, events = play(state, {"type": "advance", "player": 1, "unit": SQUAD})
    assert not [e for e in events if e["type"] == "dice_rolled"]
    assert "advance_roll_replaced" in [e["type"] for e in events]
    assert state["pending"][-1]["options"]["max_distance"] == 6 + 6
    assert grey_knights_keywords(state, SQUAD) == {"FLY"}
    squad = state["units"][SQUAD]
    moved = {m["id"]: [m["x"], m["y"] + 11.5, 0.0] for m in alive_models(squad)}
    state, _ = decide(state, moved)
    assert state["units"][SQUAD]["models"][0]["y"] == pytest.approx(2.0 + 11.5)
    state, _ = end_phase(state)
    assert grey_knights_keywords(state, SQUAD) == set()  # until the end of the phase


def grey_knights_keywords(state, unit):
    from rules.engine.core.effects import granted_keywords

    return set(granted_keywords(state, state["units"][unit]))


def test_teleport_shunt_needs_deep_strike_on_every_part():
    state = to_phase(game_of("teleport-strike-force"), 1, "movement")
    # LED_SQUAD: the Inquisitor leading it has no Deep Strike.
    state, rolled = advance_max(state, LED_SQUAD, 2)
    assert rolled["total"] == 2
    assert grey_knights_keywords(state, LED_SQUAD) == set()


# --- Sanctifying Ritual (Psychic) -----------------------------------------------------------


def test_sanctifying_ritual_psychic_holds_the_marker_with_the_seed_datasheet():
    state = game([entry("ss", "strike-squad", 5, warlord=True)])
    squad = "p1-u1"
    assert "Sanctifying Ritual (Psychic)" in state["units"][squad]["abilities"]
    place_unit(state, squad, 27.0, 21.0)
    state, events = end_phase(state)  # end of player 1's Command phase
    assert any(
        e["type"] == "effect_started" and e["effect"]["source"] == "Sanctifying Ritual (Psychic)"
        for e in events
    )
    place_unit(state, squad, 27.0, 10.0)
    state, _ = end_phase(state)
    assert next(m for m in state["objectives"] if m["id"] == "o1")["controller"] == 1


def test_sanctifying_ritual_psychic_does_nothing_out_of_range():
    state = game([entry("ss", "strike-squad", 5, warlord=True)])
    place_unit(state, "p1-u1", 40.0, 10.0)
    state, events = end_phase(state)
    assert not [e for e in events if e["type"] == "effect_started"]


# --- Leader abilities: Hammerhand, Clarion of Haste -----------------------------------------

TERMINATORS = "p1-u1"


def captain_and_terminators(**terminator_extra):
    return game(
        [
            entry("bts", "brotherhood-terminator-squad", 5, **terminator_extra),
            entry("cap", "brother-captain", 1, attached_to="bts", role="leader", warlord=True),
        ]
    )


def lethal_hits_grants(state, attacker, target):
    modifiers = attack_context(state, state["units"][attacker], target).modifiers
    return [m for m in modifiers if m.step == "ability" and m.value == "lethal hits"]


def test_hammerhand_psychic_gives_the_led_units_melee_weapons_lethal_hits():
    state = captain_and_terminators()
    grants = lethal_hits_grants(state, TERMINATORS, CADIANS)
    assert [dict(m.condition) for m in grants] == [{"weapon_type": "melee"}]
    captain = next(m for m in state["units"][TERMINATORS]["models"] if m["part"] == 1)
    captain["wounds_left"] = 0  # no longer leading
    assert lethal_hits_grants(state, TERMINATORS, CADIANS) == []


def champion_and_strike_squad():
    return game(
        [
            entry("ss", "strike-squad", 5),
            entry("ch", "brotherhood-champion", 1, attached_to="ss", role="leader", warlord=True),
            entry("ss2", "strike-squad", 5),
        ]
    )


def test_clarion_of_haste_psychic_lets_the_led_unit_charge_after_advancing():
    state = to_phase(champion_and_strike_squad(), 1, "movement")
    for unit in ("p1-u1", "p1-u2"):
        state, _ = advance_max(state, unit, 1)
        squad = state["units"][unit]
        state, _ = decide(state, {m["id"]: [m["x"], m["y"], 0.0] for m in alive_models(squad)})
    state = to_phase(state, 1, "charge")
    place_unit(state, "p1-u1", 10.0, 25.0)
    place_unit(state, "p1-u2", 30.0, 25.0)
    place_unit(state, CADIANS_2, 30.0, 33.0)
    state, events = play(
        state, {"type": "declare_charge", "player": 1, "unit": "p1-u1", "targets": [CADIANS]}
    )
    assert "charge_declared" in [e["type"] for e in events]
    with pytest.raises(Refusal) as refused:  # no Brotherhood Champion leading it
        apply(
            state,
            {"type": "declare_charge", "player": 1, "unit": "p1-u2", "targets": [CADIANS_2]},
        )
    assert refused.value.code == "advanced"


# --- Model abilities: Eye of Judgement, Force Edge ------------------------------------------


def melee_group(state, part, target):
    unit = state["units"][TERMINATORS]
    weapon = next(
        w
        for w in DATASHEETS_BY_SLUG["brotherhood-terminator-squad"]["weapons"]
        if w["name"] == "Nemesis force weapon"
    )
    models = tuple(m["id"] for m in alive_models(unit) if part is None or m["part"] == part)
    return AttackGroup(weapon, models, target)


DATASHEETS_BY_SLUG = {d["slug"]: d for d in DATASHEETS}


def test_eye_of_judgement_psychic_rerolls_the_captains_wound_rolls_only():
    state = captain_and_terminators()
    unit = state["units"][TERMINATORS]
    mixed = melee_group(state, None, CADIANS)
    split = split_by_part(state, TERMINATORS, mixed)
    assert [len(g.models) for g in split] == [5, 1]  # the Terminators, then the Captain
    captain = grey_knights.group_modifiers(state, unit, split[1].models, CADIANS)
    assert [(m.step, m.kind, m.value) for m in captain] == [("wound", "reroll", "any")]
    terminators = grey_knights.group_modifiers(state, unit, split[0].models, CADIANS)
    assert ("wound", "reroll", "any") not in [(m.step, m.kind, m.value) for m in terminators]


def test_force_edge_psychic_improves_melee_ap_except_against_monsters_and_vehicles():
    state = captain_and_terminators()
    unit = state["units"][TERMINATORS]
    models = melee_group(state, 0, CADIANS).models
    found = grey_knights.group_modifiers(state, unit, models, CADIANS)
    assert [(m.step, m.kind, m.value, dict(m.condition)) for m in found] == [
        ("ap", "improve", 1, {"weapon_type": "melee"})
    ]
    state["units"][CADIANS]["keywords"].append("VEHICLE")
    assert grey_knights.group_modifiers(state, unit, models, CADIANS) == ()


# --- Ancient's Banner -----------------------------------------------------------------------


def test_ancients_banner_adds_1_oc_while_its_bearer_lives():
    state = captain_and_terminators(wargear=wargear("brotherhood-terminator-squad", BANNER))
    unit = state["units"][TERMINATORS]
    (bearer,) = bearers(unit, BANNER)
    terminator = next(m for m in unit["models"] if m["part"] == 0 and m is not bearer)
    assert model_oc(state, unit, terminator) == 2 + 1
    bearer["wounds_left"] = 0
    assert model_oc(state, unit, terminator) == 2
    plain = captain_and_terminators()
    assert (
        model_oc(plain, plain["units"][TERMINATORS], plain["units"][TERMINATORS]["models"][1]) == 2
    )


# --- Truesilver Aegis (Aura) ----------------------------------------------------------------


def rhino_and_squad():
    return game([entry("ss", "strike-squad", 5, warlord=True), entry("rh", "rhino", 1)])


def test_truesilver_aegis_aura_gives_feel_no_pain_6_against_mortal_wounds_nearby():
    state = rhino_and_squad()
    squad, rhino = "p1-u1", "p1-u2"
    place_unit(state, rhino, 30.0, 20.0)
    place_unit(state, squad, 30.0, 25.0)
    assert grey_knights.mortal_wound_feel_no_pain(state, state["units"][squad]) == 6
    # Hazard rolls' mortal wounds: the unit's profile against mortal wounds only.
    against_mortal, _ = target_profile(state, state["units"][squad], mortal_wounds=True)
    assert {m.feel_no_pain for m in against_mortal.models} == {6}
    ordinary, _ = target_profile(state, state["units"][squad])
    assert {m.feel_no_pain for m in ordinary.models} == {None}
    modifiers = attack_context(state, state["units"][CADIANS], squad).modifiers
    assert [(m.step, m.kind, m.value) for m in modifiers] == [
        ("feel_no_pain", "set_against_mortal_wounds", 6)
    ]
    state["units"][squad]["models"][0]["wounds_left"] = 1  # wounded: it takes the mortal wound
    script_dice(state, [6])
    ctx = Context(copy_state(state))
    allocate_mortal_wounds(ctx, squad, 1, "test", {"step": "stratagem_resolved"})
    kinds = [e["type"] for e in ctx.events]
    assert "mortal_wound_ignored" in kinds and "wounds_lost" not in kinds


def test_truesilver_aegis_protects_every_model_of_an_attached_unit_in_10e():
    """Truesilver Aegis: "models in that unit have the Feel No Pain 6+ ability against mortal
    wounds": a rule naming the unit's models reaches its Leader too, though 10e keeps a
    datasheet's own Feel No Pain with its models (R-ENG-14)."""
    state = game(
        [
            entry("bts", "brotherhood-terminator-squad", 5),
            entry("cap", "brother-captain", 1, attached_to="bts", role="leader", warlord=True),
            entry("rh", "rhino", 1),
        ]
    )
    led, rhino = "p1-u1", "p1-u2"
    place_unit(state, rhino, 33.0, 21.0)
    place_unit(state, led, 30.0, 25.0)
    assert grey_knights.mortal_wound_feel_no_pain(state, state["units"][led]) == 6
    profile, models = target_profile(state, state["units"][led], mortal_wounds=True)
    assert any(m["character"] for m in models)
    assert {m.feel_no_pain for m in profile.models} == {6}


def test_truesilver_aegis_aura_does_not_reach_units_farther_than_6_inches():
    state = rhino_and_squad()
    place_unit(state, "p1-u2", 30.0, 10.0)
    place_unit(state, "p1-u1", 30.0, 25.0)
    assert grey_knights.mortal_wound_feel_no_pain(state, state["units"]["p1-u1"]) is None
    state["units"]["p1-u1"]["models"][0]["wounds_left"] = 1
    ctx = Context(copy_state(state))
    allocate_mortal_wounds(ctx, "p1-u1", 1, "test", {"step": "stratagem_resolved"})
    assert "wounds_lost" in [e["type"] for e in ctx.events]


# --- Inspiring Exemplar ---------------------------------------------------------------------

CHAMPION_SQUAD = "p1-u1"


def champion_group(state):
    unit = state["units"][CHAMPION_SQUAD]
    return tuple(m["id"] for m in unit["models"] if m["part"] == 1)


def enemy_character(state):
    inquisitor = next(m for m in state["units"][LED_SQUAD]["models"] if m["character"])
    return {**inquisitor, "wounds_left": 0}


def exemplar_attacks(state, models):
    unit = state["units"][CHAMPION_SQUAD]
    found = grey_knights.group_modifiers(state, unit, models, CADIANS)
    return [(m.step, m.value) for m in found if m.step == "attacks"]


def test_inspiring_exemplar_gains_1cp_and_an_attack_when_the_champion_kills_a_character():
    state = to_phase(champion_and_strike_squad(), 1, "fight")
    ctx = Context(copy_state(state))
    cp = ctx.state["players"]["1"]["cp"]
    unit = ctx.state["units"][CHAMPION_SQUAD]
    grey_knights.models_destroyed_by(ctx, unit, champion_group(state), [enemy_character(state)])
    assert ctx.state["players"]["1"]["cp"] == cp + 1
    assert exemplar_attacks(ctx.state, champion_group(state)) == [("attacks", 1)]
    squad_models = tuple(m["id"] for m in unit["models"] if m["part"] == 0)
    assert exemplar_attacks(ctx.state, squad_models) == []  # only its own weapon


def test_inspiring_exemplar_needs_a_character_destroyed_in_the_fight_phase():
    state = to_phase(champion_and_strike_squad(), 1, "shooting")
    ctx = Context(copy_state(state))
    unit = ctx.state["units"][CHAMPION_SQUAD]
    grey_knights.models_destroyed_by(ctx, unit, champion_group(state), [enemy_character(state)])
    assert exemplar_attacks(ctx.state, champion_group(state)) == []
    fight = Context(copy_state(to_phase(state, 1, "fight")))
    trooper = {**state["units"][CADIANS]["models"][0], "wounds_left": 0}
    unit = fight.state["units"][CHAMPION_SQUAD]
    grey_knights.models_destroyed_by(fight, unit, champion_group(state), [trooper])
    assert exemplar_attacks(fight.state, champion_group(state)) == []


# --- Apothecary's Narthecium ----------------------------------------------------------------

NARTHECIUM = "Apothecary\u2019s narthecium"


def test_apothecarys_narthecium_returns_a_destroyed_model_in_the_command_phase():
    state = captain_and_terminators(wargear=wargear("brotherhood-terminator-squad", NARTHECIUM))
    state["units"][TERMINATORS]["models"][4]["wounds_left"] = 0  # not the bearer (the first)
    state = to_phase(state, 2, "command")
    state = to_phase(state, 1, "command")
    top = state["pending"][-1]
    assert top["kind"] == "return_destroyed_model" and top["player"] == 1
    model = top["options"]["model"]
    bearer = state["units"][TERMINATORS]["models"][1]
    far = {model: [bearer["x"], bearer["y"] + 6.0, 0.0]}
    with pytest.raises(Refusal) as refused:  # out of unit coherency
        apply(state, {"type": "decide", "player": 1, "decision": top["id"], "choice": far})
    assert refused.value.code == "not_in_coherency"
    state, events = decide(state, {model: [bearer["x"], bearer["y"] + 1.8, 0.0]})
    assert "model_returned" in [e["type"] for e in events]
    returned = next(m for m in state["units"][TERMINATORS]["models"] if m["id"] == model)
    assert returned["wounds_left"] == returned["W"]


def test_apothecarys_narthecium_does_nothing_once_its_bearer_is_destroyed():
    state = captain_and_terminators(wargear=wargear("brotherhood-terminator-squad", NARTHECIUM))
    squad = state["units"][TERMINATORS]
    (bearer,) = bearers(squad, NARTHECIUM)
    bearer["wounds_left"] = 0  # the bearer (rulings R-GK-07, R-WG-04)
    state = to_phase(state, 2, "command")
    state = to_phase(state, 1, "command")
    assert not [d for d in state["pending"] if d["kind"] == "return_destroyed_model"]


# --- self-play ------------------------------------------------------------------------------


def test_self_play_with_the_published_grey_knights_uses_their_rules_and_replays_exactly():
    """Teleport Strike Force (the Grey Knights' first detachment) against Cadians: the agents
    teleport units away and back, shunt-advance and use the Reinforcements step stratagems."""
    from rules.engine.sequence.replay import check_replay
    from rules.engine.tools.selfplay import selfplay
    from tests.test_stratagem_selfplay import STRATAGEM_BUNDLE

    bundle = {**STRATAGEM_BUNDLE, "datasheets": DATASHEETS}
    seen = set()
    for number in (1, 2):
        result, log = selfplay(bundle, number, "10e")
        _, digest = check_replay(json.loads(json.dumps(log)))
        assert digest == result["state_hash"], f"game {number}"
        seen |= {e["type"] for e in log["events"]}
        seen |= {e.get("method") for e in log["events"] if e["type"] == "unit_arrived"}
    assert {"unit_removed_from_battlefield", "advance_roll_replaced", "teleport_assault"} <= seen


def test_inspiring_exemplar_in_a_fight_the_champion_kills_the_inquisitor():
    """The whole path: the Champion's attack group kills an enemy CHARACTER in the Fight phase
    (the attack sequence calls the ability after the group's damage)."""
    from tests.stratagem_world import through_attacks

    armies = default_armies()
    armies["1"] = army(
        entry("ss", "strike-squad", 5),
        entry("ch", "brotherhood-champion", 1, attached_to="ss", role="leader", warlord=True),
    )
    armies["2"] = army(
        entry("inq", "inquisitor", 1, warlord=True), entry("cad", "cadian-shock-troops", 10)
    )
    state, _ = deployed_game("10e", armies, datasheets=DATASHEETS)
    while state["stage"] == "scouts":
        state, _ = play(state, {"type": "end_scouts", "player": state["awaiting"]})
    state = to_phase(state, 1, "fight")
    kill(state, CHAMPION_SQUAD, 5, part=0)  # only the Champion fights
    place_unit(state, CHAMPION_SQUAD, 20.0, 20.0)
    place_unit(state, "p2-u1", 20.0, 21.5)
    state["units"]["p2-u1"]["models"][0]["wounds_left"] = 1
    state["players"]["1"]["cp"] = 0
    state["facts"]["turn"]["charged"] = [CHAMPION_SQUAD]  # chargers fight first
    # The lone Inquisitor is not an Attached unit: 10e Precision asks nothing (rulings R-OW-15),
    # the attacks go to the unit's one model.
    state, events = play(state, {"type": "fight", "player": 1, "unit": CHAMPION_SQUAD})
    state = through_attacks(state)
    assert state["units"]["p2-u1"]["location"] == "destroyed"
    gained = [e for e in events if e["type"] == "command_points_gained"]
    assert [(e["source"], e["amount"]) for e in gained] == [("Inspiring Exemplar", 1)]
    assert exemplar_attacks(state, champion_group(state)) == [("attacks", 1)]
