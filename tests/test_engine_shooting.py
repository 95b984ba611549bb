"""Shooting through `apply`: eligibility, targets, the attack sequence with the game's dice,
casualties and hazard rolls (11e 10, 04-06, 24.xx; 10e Shooting Phase, Making Attacks)."""

import copy

import pytest

from rules.engine.attacks.inputs import attack_context, target_profile
from rules.engine.attacks.profiles import Attacker, WeaponProfile
from rules.engine.attacks.resolution import resolve_weapon_attacks
from rules.engine.core.dice import derive_die
from rules.engine.core.refusals import Refusal
from rules.engine.phases.shooting_targets import turn_number
from rules.engine.sequence.game import apply, legal_actions
from tests.attack_helpers import ScriptedDice
from tests.engine_world import (
    decide,
    deployed_game,
    end_phase,
    formation,
    kill,
    place_unit,
    play,
    script_dice,
)
from tests.orders_world import CASTELLAN_MODEL, am_game, stand
from tests.stratagem_world import to_phase as to_phase_of

SQUAD = "p1-u2"  # Strike Squad: storm bolters (rapid fire 2)
LED = "p1-u1"  # Strike Squad led by an Inquisitor (bolt pistol)
CADIANS = "p2-u1"
BOTH = pytest.mark.parametrize("edition", ["11e", "10e"])


def to_phase(state, phase):
    while state["phase"] != phase:
        state, _ = end_phase(state)
    return state


def shoot(unit, *pairs):
    return {
        "type": "shoot",
        "player": 1,
        "unit": unit,
        "assignments": [{"weapon": w, "target": t} for w, t in pairs],
    }


def refusal_of(state, action):
    with pytest.raises(Refusal) as refusal:
        apply(state, action)
    return refusal.value


def with_weapon(state, weapon):
    """Give every Strike Squad model one more ranged weapon (its datasheet and each model)."""
    sheet = copy.deepcopy(state["datasheets"]["strike-squad"])
    sheet["weapons"].append(weapon)
    state["datasheets"] = {**state["datasheets"], "strike-squad": sheet}
    for model in state["units"][SQUAD]["models"]:
        model["weapons"] = [*model["weapons"], weapon["name"]]


def in_open_ground(edition):
    """One Grey Knight 17" from ten Cadians, nothing in between (no cover, not half range)."""
    state, _ = deployed_game(edition)
    kill(state, SQUAD, 4)
    place_unit(state, SQUAD, 47.0, 1.0)
    place_unit(state, CADIANS, 46.0, 18.0)
    return to_phase(state, "shooting")


@BOTH
def test_a_full_shooting_attack_rolls_each_step_and_removes_the_casualty(edition):
    """04-05 (10e Making Attacks): 2 storm bolter shots, BS 3+: [6, 4] two hits, one critical;
    S4 against T3 wounds on 3+: [5, 2] one wound; Sv 5+ at AP 0: [3] fails; D1 kills a Cadian."""
    state = in_open_ground(edition)
    options = next(a for a in legal_actions(state, 1) if a.get("unit") == SQUAD)
    survivor = next(m["id"] for m in state["units"][SQUAD]["models"] if m["wounds_left"])
    assert options["weapons"] == [
        {
            "weapon": "Storm bolter",
            "weapon_of": "Storm bolter",
            "models": [survivor],
            "targets": [CADIANS],
            "close_quarters": False,
        }
    ]
    first = state["dice"]["next_index"]
    script_dice(state, [6, 4, 5, 2, 3])
    start = state["dice"]["next_index"]
    state, events = play(state, shoot(SQUAD, ("Storm bolter", CADIANS)))
    selected = next(e for e in events if e["type"] == "targets_selected")
    assert selected["attacks"][0]["cover"] is False
    assert selected["attacks"][0]["half_range"] is False
    rolls = {e["purpose"]: e for e in events if e["type"] == "dice_rolled"}
    assert rolls["hit_roll"]["values"] == [6, 4]
    assert rolls["wound_roll"]["values"] == [5, 2]
    assert rolls["save_roll"]["values"] == [3]
    assert rolls["hit_roll"]["indices"] == [start, start + 1]
    assert first <= start
    trays = {e["tray"]["step"]: e["tray"] for e in events if e["type"] == "attack_step"}
    assert trays["hit_roll"]["summary"] == "2 hit rolls, BS 3+: 2 hits, 1 critical"
    assert trays["wound_roll"]["successes"] == 1
    assert trays["save_roll"]["successes"] == 0
    assert trays["damage"]["successes"] == 1
    destroyed = [e for e in events if e["type"] == "model_destroyed"]
    assert len(destroyed) == 1 and destroyed[0]["unit"] == CADIANS
    assert sum(m["wounds_left"] > 0 for m in state["units"][CADIANS]["models"]) == 9
    for event in events:
        if event["type"] == "dice_rolled":
            for index, value in zip(event["indices"], event["values"], strict=True):
                assert derive_die(state["dice"]["seed"], index, event["sides"]) == value
    assert state["dice"]["next_index"] == start + 5


@BOTH
def test_rapid_fire_at_half_range_doubles_up_and_every_die_is_recorded(edition):
    """[RAPID FIRE 2] (11e 24.30; 10e Rapid Fire): within half range each model makes 2 more
    attacks. Five Grey Knights 9" away: 20 hit rolls; the casualties match the wounds lost."""
    state, _ = deployed_game(edition)
    place_unit(state, SQUAD, 46.0, 1.0)
    place_unit(state, CADIANS, 46.0, 11.0)
    state = to_phase(state, "shooting")
    state, events = play(state, shoot(SQUAD, ("Storm bolter", CADIANS)))
    hits = next(e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "hit_roll")
    assert len(hits["values"]) == 20
    lost = sum(e["amount"] for e in events if e["type"] == "wounds_lost")
    resolved = next(e for e in events if e["type"] == "attacks_resolved")
    assert resolved["wounds_lost"] == {CADIANS: lost}
    alive = sum(m["wounds_left"] > 0 for m in state["units"][CADIANS]["models"])
    assert alive == 10 - lost


def test_an_advanced_unit_without_assault_weapons_cannot_shoot_in_10e():
    """10e Advance Moves / Assault: after an advance a unit shoots only [ASSAULT] weapons."""
    state, _ = deployed_game("10e")
    place_unit(state, CADIANS, 12.0, 24.0)
    state, _ = end_phase(state)
    state, _ = play(state, {"type": "advance", "player": 1, "unit": SQUAD})
    state, _ = decide(state, formation(state["units"][SQUAD], 12.0, 4.0))
    state = to_phase(state, "shooting")
    refusal = refusal_of(state, shoot(SQUAD, ("Storm bolter", CADIANS)))
    assert (refusal.code, refusal.rule) == ("advanced", "Assault")


@BOTH
def test_a_unit_that_fell_back_cannot_shoot(edition):
    """11e 09.07 / 10e Fall Back Moves: not eligible to shoot that turn."""
    state = in_open_ground(edition)
    state["facts"]["turn"].setdefault("fell_back", []).append(SQUAD)
    assert refusal_of(state, shoot(SQUAD, ("Storm bolter", CADIANS))).code == "fell_back"


@BOTH
def test_an_engaged_unit_shoots_only_pistols_at_the_unit_it_is_engaged_with(edition):
    """11e 10.06 close-quarters shooting; 10e Pistols: the squad without pistols cannot shoot;
    the Inquisitor's unit shoots its bolt pistol, never its storm bolters."""
    state, _ = deployed_game(edition)
    place_unit(state, CADIANS, 30.0, 20.0)
    place_unit(state, SQUAD, 30.0, 22.6)
    place_unit(state, LED, 30.0, 16.6)
    state = to_phase(state, "shooting")
    refusal = refusal_of(state, shoot(SQUAD, ("Storm bolter", CADIANS)))
    assert refusal.code == "engaged"
    refusal = refusal_of(state, shoot(LED, ("Storm bolter", CADIANS)))
    assert refusal.code in ("engaged_target_only", "close_quarters_weapon_required")
    state, events = play(state, shoot(LED, ("Bolt pistol", CADIANS)))
    hits = next(e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "hit_roll")
    assert len(hits["values"]) == 1


@BOTH
def test_a_target_behind_a_ruin_is_not_visible(edition):
    """11e 06.01 / 10e Determining Visibility: a ruin blocks every sight line."""
    state, _ = deployed_game(edition)
    kill(state, SQUAD, 4)
    place_unit(state, SQUAD, 8.0, 10.0)
    place_unit(state, CADIANS, 5.0, 22.0)
    state = to_phase(state, "shooting")
    refusal = refusal_of(state, shoot(SQUAD, ("Storm bolter", CADIANS)))
    assert refusal.code == "not_visible"


@BOTH
def test_a_target_out_of_range_is_refused(edition):
    state, _ = deployed_game(edition)
    state = to_phase(state, "shooting")
    refusal = refusal_of(state, shoot(SQUAD, ("Storm bolter", CADIANS)))
    assert refusal.code == "out_of_range"


@pytest.mark.parametrize(("edition", "blast_rule"), [("11e", "24.05"), ("10e", "Blast")])
def test_units_engaged_with_your_army_are_no_targets_for_other_units(edition, blast_rule):
    """11e 04.02 (each target must be unengaged; 17.03 excepts MONSTER/VEHICLE) and 10e Big
    Guns Never Tire / Blast: the Cadians fighting the Inquisitor's unit cannot be shot by the
    other Strike Squad, with a [BLAST] weapon or any other (R-CB-12)."""
    state, _ = deployed_game(edition)
    blast = {
        "name": "Frag launcher",
        "type": "ranged",
        "range": 24,
        "A": "D3",
        "skill": 3,
        "S": 4,
        "AP": 0,
        "D": "1",
        "abilities": ["blast"],
    }
    with_weapon(state, blast)
    place_unit(state, SQUAD, 46.0, 1.0)
    place_unit(state, CADIANS, 46.0, 18.0)
    place_unit(state, LED, 46.0, 21.4)
    state = to_phase(state, "shooting")
    refusal = refusal_of(state, shoot(SQUAD, ("Frag launcher", CADIANS)))
    assert (refusal.code, refusal.rule) == ("blast_against_engaged", blast_rule)
    refusal = refusal_of(state, shoot(SQUAD, ("Storm bolter", CADIANS)))
    assert refusal.code == "target_engaged"
    assert SQUAD not in {a.get("unit") for a in legal_actions(state, 1) if a["type"] == "shoot"}


@pytest.mark.parametrize(("edition", "wounds_per_failure"), [("11e", 1), ("10e", 3)])
def test_hazardous_weapons_roll_after_shooting_and_hurt_the_shooters(edition, wounds_per_failure):
    """11e 24.15 + 06.03: each roll of 1-2 inflicts 1 mortal wound on the unit; 10e Hazardous:
    each 1 inflicts 3 mortal wounds on one model (a Grey Knight has 2 wounds)."""
    state = in_open_ground(edition)
    plasma = {
        "name": "Plasma",
        "type": "ranged",
        "range": 24,
        "A": "1",
        "skill": 3,
        "S": 7,
        "AP": -2,
        "D": "2",
        "abilities": ["hazardous"],
    }
    with_weapon(state, plasma)
    survivor = next(m for m in state["units"][SQUAD]["models"] if m["wounds_left"])["id"]
    base = state["dice"]["next_index"]
    for offset in range(200):  # find the dice where the hazard roll fails, as a referee would
        state["dice"]["next_index"] = base + offset
        after, events = play(state, shoot(SQUAD, ("Plasma", CADIANS)))
        hazard = next(e for e in events if e["type"] == "hazard_rolled")
        if hazard["failures"]:
            break
    rolled = next(e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "hazard_roll")
    assert len(rolled["values"]) == 1
    assert hazard["mortal_wounds"] == wounds_per_failure
    shooters = [e for e in events if e["type"] == "wounds_lost" and e["unit"] == SQUAD]
    assert sum(e["amount"] for e in shooters) == min(wounds_per_failure, 2)
    assert events.index(hazard) > max(i for i, e in enumerate(events) if e["type"] == "attack_step")
    model = next(m for m in after["units"][SQUAD]["models"] if m["id"] == survivor)
    assert model["wounds_left"] == max(0, 2 - wounds_per_failure)


@BOTH
def test_a_game_shot_is_the_damage_preview_run_on_the_same_dice(edition):
    """One implementation (docs/attacks.md): the dice a game shot recorded, fed to the preview's
    `resolve_weapon_attacks` with the same inputs, give the same dice-tray records."""
    state, _ = deployed_game(edition)
    place_unit(state, SQUAD, 46.0, 1.0)
    place_unit(state, CADIANS, 46.0, 11.0)
    state = to_phase(state, "shooting")
    before = copy.deepcopy(state)
    state, events = play(state, shoot(SQUAD, ("Storm bolter", CADIANS)))
    values = [v for e in events if e["type"] == "dice_rolled" for v in e["values"]]
    trays = [e["tray"] for e in events if e["type"] == "attack_step"]
    profile, _ = target_profile(before, before["units"][CADIANS])
    context = attack_context(before, before["units"][SQUAD], CADIANS, half_range=True)
    attacker = Attacker(
        WeaponProfile.from_dict(before["datasheets"]["strike-squad"]["weapons"][0]),
        5,
        frozenset(before["units"][SQUAD]["keywords"]),
    )
    scripted = ScriptedDice(*values)
    preview = resolve_weapon_attacks(scripted, 1, attacker, profile, context)
    scripted.assert_used_up()
    # The preview lists an empty [DEVASTATING WOUNDS] step for every weapon; the game records
    # steps that happen (the storm bolter has no [DEVASTATING WOUNDS]).
    assert [t for t in preview.events() if t["step"] != "devastating_wound"] == trays
    assert int(preview.damage[0]) == sum(e["amount"] for e in events if e["type"] == "wounds_lost")


def test_models_with_the_same_weapon_may_shoot_different_targets():
    """11e 04 / 10e Select Targets: targets are chosen per model and weapon; an assignment may
    name its models. A model fires a weapon once."""
    state, _ = deployed_game("11e")
    place_unit(state, SQUAD, 46.0, 1.0)
    place_unit(state, CADIANS, 46.0, 14.0)
    place_unit(state, "p2-u2", 52.0, 8.0)
    state = to_phase(state, "shooting")
    squad = [m["id"] for m in state["units"][SQUAD]["models"]]
    twice = {
        "type": "shoot",
        "player": 1,
        "unit": SQUAD,
        "assignments": [
            {"weapon": "Storm bolter", "target": CADIANS, "models": squad[:3]},
            {"weapon": "Storm bolter", "target": "p2-u2", "models": squad[2:]},
        ],
    }
    assert refusal_of(state, twice).code == "weapon_assigned_twice"
    split = copy.deepcopy(twice)
    split["assignments"][1]["models"] = squad[3:]
    state, events = play(state, split)
    selected = next(e for e in events if e["type"] == "targets_selected")["attacks"]
    by_target = {}
    for attack in selected:
        by_target.setdefault(attack["target"], []).extend(attack["models"])
    assert sorted(by_target[CADIANS]) == sorted(squad[:3])
    assert sorted(by_target["p2-u2"]) == sorted(squad[3:])


@pytest.mark.parametrize(("edition", "hits"), [("11e", 1), ("10e", 2)])
def test_indirect_fire_shoots_at_a_hidden_target_per_edition(edition, hits):
    """[INDIRECT FIRE] needs no visibility and the target has cover. 11e 10.07: an unmodified
    hit roll of 1-5 fails ([5, 6]: one hit); 10e Indirect Fire: -1 to hit ([5, 6] at BS 3+
    become 4 and 6: two hits)."""
    state, _ = deployed_game(edition)
    mortar = {
        "name": "Mortar",
        "type": "ranged",
        "range": 48,
        "A": "2",
        "skill": 3,
        "S": 5,
        "AP": 0,
        "D": "1",
        "abilities": ["indirect fire"],
    }
    with_weapon(state, mortar)
    kill(state, SQUAD, 4)
    place_unit(state, SQUAD, 8.0, 10.0)
    place_unit(state, CADIANS, 5.0, 22.0)  # behind the ruin t1
    state = to_phase(state, "shooting")
    # It moved this turn: not "remained stationary" (11e 10.07's 1-3 case; rulings R-MV-22).
    state["facts"]["turn"]["remained_stationary"].remove(SQUAD)
    state["facts"]["turn"].setdefault("moved", []).append(SQUAD)
    options = next(a for a in legal_actions(state, 1) if a.get("unit") == SQUAD)["weapons"]
    targets = {o["weapon"]: o["targets"] for o in options}
    assert CADIANS in targets["Mortar"] and CADIANS not in targets.get("Storm bolter", [])
    script_dice(state, [5, 6])
    state, events = play(state, shoot(SQUAD, ("Mortar", CADIANS)))
    attack = next(e for e in events if e["type"] == "targets_selected")["attacks"][0]
    assert attack["indirect"] is True and attack["cover"] is True
    tray = next(
        e["tray"] for e in events if e["type"] == "attack_step" and e["tray"]["step"] == "hit_roll"
    )
    assert tray["dice"] == [5, 6]
    assert tray["successes"] == hits


def test_hidden_infantry_in_dense_terrain_is_seen_only_within_15_inches_in_11e():
    """11e 13.09 Hidden: INFANTRY within a terrain area with a dense feature whose unit made no
    ranged attacks this turn or the previous turn is visible only within 15"."""
    state, _ = deployed_game("11e")
    kill(state, CADIANS, 7)
    place_unit(state, CADIANS, 38.8, 15.0)  # three Cadians inside the ruin t6
    place_unit(state, SQUAD, 44.0, 36.0)  # about 21" away, in the open
    state = to_phase(state, "shooting")
    refusal = refusal_of(state, shoot(SQUAD, ("Storm bolter", CADIANS)))
    assert refusal.code == "not_visible"
    state["units"][CADIANS]["shot_in_turn"] = turn_number(state) - 1  # it shot last turn
    state, events = play(state, shoot(SQUAD, ("Storm bolter", CADIANS)))
    assert any(e["type"] == "attack_step" for e in events)


def shoot_template(state, unit):
    return next(a for a in legal_actions(state, 1) if a["type"] == "shoot" and a["unit"] == unit)


@BOTH
def test_the_shoot_template_carries_a_default_assignment_at_the_target_most_weapons_reach(
    edition,
):
    """11e 04 / 10e Select Targets, 11e 24.07 / 10e Pistols: the template's default assignment
    puts every weapon at one target (the closest of those all weapons reach); the squad fires its
    storm bolters and the Inquisitor, who has no other ranged weapon, his bolt pistol. Played as
    it stands, the server accepts it."""
    state, _ = deployed_game(edition)
    place_unit(state, LED, 46.0, 1.0)
    place_unit(state, CADIANS, 46.0, 14.0)
    place_unit(state, "p2-u2", 52.0, 8.0)
    state = to_phase(state, "shooting")
    template = shoot_template(state, LED)
    squad = [m["id"] for m in state["units"][LED]["models"] if m["part"] == 0]
    inquisitor = [m["id"] for m in state["units"][LED]["models"] if m["part"] == 1]
    assert template["default_assignments"] == [
        {"weapon": "Storm bolter", "models": squad, "target": "p2-u2"},
        {"weapon": "Bolt pistol", "models": inquisitor, "target": "p2-u2"},
    ]
    action = {
        "type": "shoot",
        "player": 1,
        "unit": LED,
        "assignments": template["default_assignments"],
    }
    state, events = play(state, action)
    selected = next(e for e in events if e["type"] == "targets_selected")["attacks"]
    assert {a["weapon"] for a in selected} == {"Storm bolter", "Bolt pistol"}
    assert {a["target"] for a in selected} == {"p2-u2"}


@BOTH
def test_the_default_assignment_leaves_out_pistols_of_models_firing_other_weapons(edition):
    """11e 24.07 / 10e Pistols: a model shoots its [PISTOL] weapons or its other weapons, not
    both: Grey Knights given a pistol besides their storm bolters fire the storm bolters."""
    state, _ = deployed_game(edition)
    with_weapon(
        state,
        {
            "name": "Plasma pistol",
            "type": "ranged",
            "range": 12,
            "A": "1",
            "skill": 3,
            "S": 7,
            "AP": -2,
            "D": "1",
            "abilities": ["pistol"],
        },
    )
    place_unit(state, SQUAD, 46.0, 1.0)
    place_unit(state, CADIANS, 46.0, 8.0)
    state = to_phase(state, "shooting")
    template = shoot_template(state, SQUAD)
    assert {o["weapon"] for o in template["weapons"]} == {"Storm bolter", "Plasma pistol"}
    assert [a["weapon"] for a in template["default_assignments"]] == ["Storm bolter"]
    state, _ = play(
        state,
        {
            "type": "shoot",
            "player": 1,
            "unit": SQUAD,
            "assignments": template["default_assignments"],
        },
    )


@BOTH
def test_an_engaged_units_default_assignment_is_its_close_quarters_weapons(edition):
    """11e 10.06 close-quarters shooting; 10e Pistols: engaged, the Inquisitor's unit is offered
    only its bolt pistol at the unit it is engaged with."""
    state, _ = deployed_game(edition)
    place_unit(state, CADIANS, 30.0, 20.0)
    place_unit(state, LED, 30.0, 16.6)
    state = to_phase(state, "shooting")
    template = shoot_template(state, LED)
    assert [(a["weapon"], a["target"]) for a in template["default_assignments"]] == [
        ("Bolt pistol", CADIANS)
    ]


@BOTH
def test_a_weapon_with_two_profiles_fires_one_of_them_per_model(edition):
    """CATALOGUE CORE-WEAPON-PROFILES 2 (AMB-38): a model with a plasma gun fires its standard or
    its supercharge profile, not both (R-WG-06)."""
    state = in_open_ground(edition)
    profile = {"type": "ranged", "range": 24, "A": "1", "skill": 3, "AP": -2, "abilities": []}
    sheet = copy.deepcopy(state["datasheets"]["strike-squad"])
    sheet["weapons"] += [
        {**profile, "name": "Plasma gun – standard", "S": 7, "D": "1"},
        {
            **profile,
            "name": "Plasma gun – supercharge",
            "S": 8,
            "D": "2",
            "abilities": ["hazardous"],
        },
    ]
    state["datasheets"] = {**state["datasheets"], "strike-squad": sheet}
    for model in state["units"][SQUAD]["models"]:
        model["weapons"] = ["Plasma gun", "Nemesis force weapon"]
    both = shoot(SQUAD, ("Plasma gun – standard", CADIANS), ("Plasma gun – supercharge", CADIANS))
    refusal = refusal_of(state, both)
    assert (refusal.code, refusal.rule) == (
        "one_profile_per_weapon",
        "04.01" if edition == "11e" else "Weapon Profiles",
    )
    state, events = play(state, shoot(SQUAD, ("Plasma gun – supercharge", CADIANS)))
    assert any(e["type"] == "targets_selected" for e in events)


def test_a_model_with_two_of_the_same_weapon_fires_each_copy():
    """R-WG-04: the second storm bolter is 'Storm bolter (2)' and fires beside the first."""
    state = in_open_ground("11e")
    for model in state["units"][SQUAD]["models"]:
        model["weapons"] = ["Storm bolter", "Storm bolter", "Nemesis force weapon"]
    state, events = play(
        state, shoot(SQUAD, ("Storm bolter", CADIANS), ("Storm bolter (2)", CADIANS))
    )
    selected = next(e for e in events if e["type"] == "targets_selected")["attacks"]
    assert sorted(attack["weapon"] for attack in selected) == ["Storm bolter", "Storm bolter (2)"]


def half_in_a_ruin(edition):
    """One Grey Knight south of ten Cadians: five stand in the ruin t6 (x 38-44, y 12-18), five in
    the open beside it."""
    state, _ = deployed_game(edition)
    kill(state, SQUAD, 4)
    place_unit(state, SQUAD, 44.0, 3.0)
    place_unit(state, CADIANS, 40.0, 13.0)
    columns = [38.8, 40.0, 41.2, 42.4, 43.4, 44.9, 46.1, 47.3, 48.5, 49.7]
    for model, x in zip(state["units"][CADIANS]["models"], columns, strict=True):
        model["x"], model["y"] = x, 12.9
    return to_phase(state, "shooting")


@pytest.mark.parametrize(("edition", "saved"), [("10e", 1), ("11e", 0)])
def test_cover_is_per_model_in_10e_and_per_unit_in_11e(edition, saved):
    """10e Benefit of Cover: each model of the target that is in or behind terrain has cover (+1
    to its armour save); 11e 13.08: the unit has cover only if every model does (cover_scope).
    Four storm bolter shots at half range: hits [5, 2, 1, 1], wound [5], save [4] against Sv 5+
    on a Cadian in the ruin: 10e saves it (4 + 1), 11e does not (R-WG-07)."""
    state = half_in_a_ruin(edition)
    in_ruin = [m["id"] for m in state["units"][CADIANS]["models"][:5]]
    script_dice(state, [5, 2, 1, 1, 5, 4])
    state, events = play(state, shoot(SQUAD, ("Storm bolter", CADIANS)))
    attack = next(e for e in events if e["type"] == "targets_selected")["attacks"][0]
    assert attack["cover"] is False
    assert attack["cover_models"] == (in_ruin if edition == "10e" else [])
    trays = {e["tray"]["step"]: e["tray"] for e in events if e["type"] == "attack_step"}
    assert trays["save_roll"]["successes"] == saved
    assert len([e for e in events if e["type"] == "model_destroyed"]) == 1 - saved


def test_in_10e_a_model_in_the_open_has_no_cover_beside_models_in_a_ruin():
    """10e Benefit of Cover is the model's own: the same save roll of 4 fails for a Cadian in the
    open, although half its unit stands in the ruin."""
    state = half_in_a_ruin("10e")
    for model in state["units"][CADIANS]["models"][:5]:
        model["wounds_left"] = 0  # only the five in the open are left
    script_dice(state, [5, 2, 1, 1, 5, 4])
    state, events = play(state, shoot(SQUAD, ("Storm bolter", CADIANS)))
    attack = next(e for e in events if e["type"] == "targets_selected")["attacks"][0]
    assert attack["cover_models"] == []
    assert len([e for e in events if e["type"] == "model_destroyed"]) == 1


LETHAL_BOLTER = {
    "name": "Lethal bolter",
    "type": "ranged",
    "range": 24,
    "A": "3",
    "skill": 3,
    "S": 4,
    "AP": 0,
    "D": "1",
    "abilities": ["lethal hits"],
}


def lethal_shot(edition):
    """One Grey Knight with a 3-attack [LETHAL HITS] bolter 17" from ten Cadians; hit rolls
    6, 6, 4 (two critical hits)."""
    state = in_open_ground(edition)
    with_weapon(state, LETHAL_BOLTER)
    script_dice(state, [6, 6, 4])
    return play(state, shoot(SQUAD, ("Lethal bolter", CADIANS)))


def test_lethal_hits_11e_the_attacker_chooses_how_many_critical_hits_wound_automatically():
    """11e 24.23: "each time an attack ... results in a critical hit, you can choose for that
    attack to automatically wound the target": asked once the hits are seen, 0 to 2 here."""
    state, events = lethal_shot("11e")
    top = state["pending"][-1]
    assert top["kind"] == "lethal_hits" and top["player"] == 1 and top["options"] == [2, 1, 0]
    assert [e["values"] for e in events if e.get("purpose") == "hit_roll"] == [[6, 6, 4]]
    assert not [e for e in events if e.get("purpose") == "wound_roll"]
    with pytest.raises(Refusal):
        decide(state, 3)
    state, events = decide(state, 1)
    (wounds,) = [e for e in events if e.get("purpose") == "wound_roll"]
    assert len(wounds["values"]) == 2  # one critical hit wounds automatically, two are rolled
    chosen = next(e for e in events if e["type"] == "lethal_hits_chosen")
    assert chosen["automatic_wounds"] == 1 and chosen["critical_hits"] == 2


def test_lethal_hits_10e_critical_hits_always_wound_automatically():
    """10e [LETHAL HITS]: a critical hit automatically wounds; no choice (rulings R-OW-14)."""
    state, events = lethal_shot("10e")
    assert not [d for d in state["pending"] if d["kind"] == "lethal_hits"]
    (wounds,) = [e for e in events if e.get("purpose") == "wound_roll"]
    assert len(wounds["values"]) == 1  # the two critical hits wound automatically


@BOTH
def test_a_leader_shoots_with_its_own_profile_of_a_weapon_its_bodyguard_also_carries(edition):
    """11e 04.03 Identical Attacks / 10e Making Attacks: only attacks with the same
    characteristics are gathered together. The Cadian Castellan's laspistol (BS 3+) and its Shock
    Troops Sergeant's (BS 4+) share a name, not a profile: each hits on its own BS."""
    state = am_game(edition=edition)
    stand(state, LED, 30.0, 10.0)
    stand(state, CADIANS, 30.0, 18.0)
    state = to_phase_of(state, 2, "shooting")
    sergeant = state["units"][CADIANS]["models"][0]["id"]
    laspistols = [{"weapon": "Laspistol", "models": [sergeant, CASTELLAN_MODEL], "target": LED}]
    action = {"type": "shoot", "player": 2, "unit": CADIANS, "assignments": laspistols}
    state, events = play(state, action)
    while state["pending"] and state["pending"][-1]["kind"] == "stratagem_window":
        state, more = decide(state, "pass")
        events += more
    needed = [
        (e["tray"]["weapon"], e["tray"]["target"])
        for e in events
        if e["type"] == "attack_step" and e["tray"]["step"] == "hit_roll"
    ]
    assert needed == [("Laspistol", 4), ("Laspistol", 3)]
