"""Rules as printed (issue 14): one scenario per rule an audit found misread, each set up from a
position (`tests/position_world.py`), with the dice scripted where they matter, citing the
section (11e) or heading (10e) and the seed line the rule is printed on."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from rules.engine.attacks.effect_modifiers import attack_modifiers
from rules.engine.attacks.sequence import plan_hits
from rules.engine.battlefield.state_distances import model_distance
from rules.engine.core.events import Context
from rules.engine.core.facts import set_flag
from rules.engine.core.refusals import Refusal
from rules.engine.core.saved_games import ADDED_EDITION_PARAMETERS
from rules.engine.core.state import alive_models
from rules.engine.phases.battle_shock import is_battle_shocked, make_battle_shocked
from rules.engine.phases.fight import current_step
from rules.engine.sequence.game import acting_player, legal_actions, new_game
from tests.attack_helpers import attacker, context, unit, weapon
from tests.editions import edition_for
from tests.engine_world import (
    BUNDLE,
    SEED,
    army,
    decide,
    default_armies,
    entry,
    formation,
    play,
    script_dice,
    setup,
    shoot_at,
)
from tests.position_world import CADIANS, CADIANS_2, LED_SQUAD, SQUAD, position_game
from tests.scripted_dice import scripted_dice
from tests.stratagem_world import (
    cadians_charged_the_squad_10e,
    choose,
    offered,
    pass_windows,
    stratagem_game,
    through_attacks,
    to_fight_step,
    to_phase,
)

# --- 11e 10.04-10.05 Normal and assault shooting; 10e Assault (defect 3, rulings R-CB-03) -----


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_unit_that_advanced_shoots_only_with_assault_weapons(edition):
    """11e 10.04 "Normal shooting. Eligible if: ... did not make an advance move this turn";
    10.05 assault shooting needs [ASSAULT] weapons. 10e Assault: the same. The Strike Squad
    advanced and its storm bolters have no [ASSAULT]: it cannot shoot."""
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 20], "flags": ["advanced"]}, CADIANS: {"at": [30, 30]}},
        phase="shooting",
    )
    assert SQUAD not in {a.get("unit") for a in legal_actions(state, 1) if a["type"] == "shoot"}
    with pytest.raises(Refusal) as refused:
        play(
            state,
            {
                "type": "shoot",
                "player": 1,
                "unit": SQUAD,
                "assignments": [{"weapon": "Storm bolter", "target": CADIANS}],
            },
        )
    assert refused.value.code == "advanced"
    assert refused.value.rule == {"11e": "10.05", "10e": "Assault"}[edition]


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_unit_that_did_not_advance_shoots_normally(edition):
    """11e 10.04 normal shooting; 10e Shooting phase: the same unit, not advanced, may shoot."""
    state = position_game(
        edition, {SQUAD: {"at": [30, 20]}, CADIANS: {"at": [30, 30]}}, phase="shooting"
    )
    assert SQUAD in {a.get("unit") for a in legal_actions(state, 1) if a["type"] == "shoot"}


# --- Command Re-roll on every roll the seeds list (defect 1): 11e 15.02 [000 L306-322]; 10e
# Command Re-roll [004 L296-304]; Boarding Actions [000 L491] --------------------------------

AGENTS_DATA = (
    Path(__file__).resolve().parent.parent / "rules/data/factions/imperial-agents/seed.json"
)

COMMAND_REROLL = {
    "11e": "command-re-roll-11e",
    "10e": "command-re-roll-10e",
    "boarding-actions": "command-re-roll-boarding-actions",
}


def after_roll_window(state, purpose):
    """Pass every other window (the selection to shoot) until the window just after the roll
    `purpose` is made; the window's roll record."""
    while state["pending"]:
        top = state["pending"][-1]
        roll = top["resume"].get("about", {}).get("roll")
        if top["kind"] == "stratagem_window" and roll and roll["purpose"] == purpose:
            return state, roll
        assert top["kind"] == "stratagem_window", top["kind"]
        state, _ = decide(state, "pass")
    raise AssertionError(f"no window after the {purpose} roll")


@pytest.mark.parametrize("edition", ["11e", "10e", "boarding-actions"])
def test_command_re_roll_re_rolls_one_hit_die_then_the_defender_one_save(edition):
    """ "Just after you make ... a Hit roll ... a saving throw": the Strike Squad's 10 storm bolter
    shots all miss (ten 1s); its player re-rolls one die (a 6: one hit), which wounds (a 5 needs
    3+ against T3); the Cadians' player re-rolls their failed save (a 1, then a 6): no damage.
    One die of the group is re-rolled, the others stand; the stratagem is then used up for the
    phase by that player. Boarding Actions' Command Re-roll [000 L491] ("just after you have
    made a Hit roll, ... a saving throw") on an 11e game in that mode does the same."""
    boarding = edition == "boarding-actions"
    state = position_game(
        "11e" if boarding else edition,
        {SQUAD: {"at": [30, 10]}, CADIANS: {"at": [30, 30]}},
        phase="shooting",
        boarding_actions=boarding,
    )
    with scripted_dice(*[1] * 10):
        state, _ = play(state, shoot_at(state, 1, SQUAD, [CADIANS]))
        state, roll = after_roll_window(state, "hit")
    assert roll["values"] == [1] * 10 and roll["player"] == 1
    state, _ = choose(state, COMMAND_REROLL[edition], SQUAD)
    assert state["pending"][-1]["options"] == ["pass", *[[i] for i in range(10)]]
    with scripted_dice(6, 5, 1):
        state, events = decide(state, [0])
    (rerolled,) = [e for e in events if e["type"] == "dice_rerolled"]
    assert rerolled["values"] == [6] + [1] * 9 and rerolled["positions"] == [0]
    trays = {e["tray"]["step"]: e["tray"] for e in events if e["type"] == "attack_step"}
    assert trays["hit_roll"]["successes"] == 1
    assert trays["hit_roll"]["rerolled"] == [{"position": 0, "from": 1, "to": 6}]
    assert trays["wound_roll"]["successes"] == 1
    # No second Command Re-roll for player 1 this phase; the defender's save roll is theirs.
    state, roll = after_roll_window(state, "save")
    assert roll["player"] == 2 and roll["values"] == [1]
    state, _ = choose(state, COMMAND_REROLL[edition], CADIANS)
    with scripted_dice(6):
        state, events = decide(state, [0])
    trays = {e["tray"]["step"]: e["tray"] for e in events if e["type"] == "attack_step"}
    assert trays["save_roll"]["successes"] == 1 and trays["damage"]["successes"] == 0
    assert state["players"]["1"]["cp"] == 4 and state["players"]["2"]["cp"] == 4


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_command_re_roll_is_offered_after_the_wound_roll(edition):
    """ "Just after you make ... a Wound roll": one hit (a 6, nine 1s), its wound roll fails (a
    1); the player re-rolls it (a 3: wounds T3 on 3+)."""
    state = position_game(
        edition, {SQUAD: {"at": [30, 10]}, CADIANS: {"at": [30, 30]}}, phase="shooting"
    )
    with scripted_dice(6, *[1] * 9):
        state, _ = play(state, shoot_at(state, 1, SQUAD, [CADIANS]))
        state, _ = after_roll_window(state, "hit")
    with scripted_dice(1):
        state, roll = after_roll_window(state, "wound")
    assert roll["values"] == [1]
    state, _ = choose(state, COMMAND_REROLL[edition], SQUAD)
    with scripted_dice(3, 6):  # the re-rolled wound roll, then the Cadians' save (a 6)
        state, events = decide(state, [0])
    trays = {e["tray"]["step"]: e["tray"] for e in events if e["type"] == "attack_step"}
    assert trays["wound_roll"]["successes"] == 1
    assert trays["wound_roll"]["rerolled"] == [{"position": 0, "from": 1, "to": 3}]


# --- 11e 15.01: one stratagem per unit per phase (defect 2); 10e has no such limit ------------


@pytest.mark.parametrize(("edition", "second_offered"), [("11e", False), ("10e", True)])
def test_a_player_targets_a_unit_with_one_stratagem_per_phase_in_11e(edition, second_offered):
    """11e 15.01: "Unless otherwise stated, each player cannot target the same unit with more
    than one stratagem in the same phase". The Cadians throw grenades (Explosives 15.05 / 10e
    Grenade), then shoot: Command Re-roll on their hit roll would target them a second time this
    phase, so 11e does not offer it. 10e limits only the same stratagem per phase."""
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 22]}, CADIANS: {"at": [30, 30]}},
        phase="shooting",
        active_player=2,
    )
    (grenades,) = [a for a in legal_actions(state, 2) if a["type"] == "use_stratagem"]
    state, _ = play(state, grenades)
    while state["pending"]:  # the Strike Squad's player allocates the mortal wounds
        top = state["pending"][-1]
        state, _ = decide(state, "pass" if top["kind"] == "stratagem_window" else top["options"][0])
    state, _ = play(state, shoot_at(state, 2, CADIANS, [SQUAD]))
    offers = []
    while state["pending"] and state["pending"][-1]["kind"] == "stratagem_window":
        top = state["pending"][-1]
        offers += [o["stratagem"] for o in top["options"] if o != "pass" and top["player"] == 2]
        state, _ = decide(state, "pass")
    assert (COMMAND_REROLL[edition] in offers) is second_offered


# --- Who fights first without Fights First units (defect 4, rulings R-ENG-10) ----------------


@pytest.mark.parametrize(("edition", "first"), [("11e", 1), ("10e", 2)])
def test_remaining_combats_start_with_the_player_the_edition_names(edition, first):
    """11e 12.04: "Resolve Fights First Combats: Starting with the player whose turn it is ... If
    there are no Fights First units that are eligible to fight, move to the Resolve Remaining
    Combats step where this player will select their next unit." 10e Fight phase: remaining
    combats start with the player whose turn is not taking place. No unit charged: in player 1's
    Fight phase, both players' engaged units are eligible; the first selection is `first`'s."""
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 20]}, CADIANS: {"at": [30, 21.9]}},
        phase="fight",
        active_player=1,
    )
    state = to_fight_step(state)
    assert current_step(state) == ("fight", first)
    fighters = {a["unit"] for a in legal_actions(state, first) if a["type"] == "fight"}
    assert fighters == {SQUAD if first == 1 else CADIANS}


# --- Ending a move on an objective marker (defect 5, rulings R-BF-05) -------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_model_ends_a_move_on_an_objective_marker_only_in_11e(edition):
    """11e rules appendix: "Models can move through objective markers and they can end a move on
    top of objective markers." 10e Objective Markers: "they cannot end a move on top of an
    objective marker" [004 L567-574]. A Strike Squad moves 4" so its first model stands on the
    marker at (50, 20)."""
    state = position_game(edition, {SQUAD: {"at": [46, 20]}}, phase="movement")
    positions = {m["id"]: [m["x"] + 4, m["y"], 0.0] for m in state["units"][SQUAD]["models"]}
    move = {"type": "move", "player": 1, "unit": SQUAD, "positions": positions}
    if edition == "11e":
        state, events = play(state, move)
        assert "unit_moved" in [e["type"] for e in events]
    else:
        with pytest.raises(Refusal) as refused:
            play(state, move)
        assert refused.value.code == "ends_on_objective_marker"


# --- Order the Advance and battle-shocked units (defect 26, CATALOGUE AMB-47) -----------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_order_the_advance_does_not_reach_a_battle_shocked_unit(edition):
    """Order the Advance (Armoured Infantry): "one or more friendly ASTRA MILITARUM units within
    6"" of the OFFICER may re-roll Advance rolls. A battle-shocked unit is affected by no
    stratagem's effect (CATALOGUE AMB-47: 11e forbids targeting it, 10e affecting it): the
    Cadians within 6" of the Commissar are battle-shocked and get no re-roll."""
    armies = {
        "1": army(entry("ss1", "strike-squad", 5, warlord=True)),
        "2": army(
            entry("cad1", "cadian-shock-troops", 10, warlord=True),
            entry("drc", "death-rider-commissar", 1),
        ),
    }
    state = position_game(
        edition,
        {
            "p1-u1": {"at": [10, 6]},
            "p2-u1": {"at": [20, 34], "statuses": ["battle_shocked"]},
            "p2-u2": {"at": [20, 30]},
        },
        armies=armies,
        detachments={2: "armoured-infantry"},
        default_places={},
        phase="command",
        active_player=2,
        players={"1": {"cp": 0}, "2": {"cp": 1}},
    )
    state, _ = play(state, {"type": "end_phase", "player": 2})
    while ("order-the-advance", "p2-u2") not in offered(state):
        state, _ = decide(state, "pass")
    state, _ = choose(state, "order-the-advance", "p2-u2")
    assert not [
        e
        for e in state["effects"]
        if e["selector"] == {"unit": "p2-u1"} and e["modifier"].get("reroll") == "advance"
    ]
    with scripted_dice(1):
        state, _ = play(state, {"type": "advance", "player": 2, "unit": "p2-u1"})
    assert state["pending"][-1]["kind"] == "advance_move"  # no re-roll offered (and no CP left)


# --- Explosives / Grenade from an engaged unit (defect 7) ---------------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_an_engaged_unit_throws_no_grenades(edition):
    """11e 15.05 Explosives [000 L404-415]: "TARGET: One friendly unengaged EXPLOSIVES/GRENADES
    unit that is eligible to shoot"; 10e Grenade: a unit not within Engagement Range. The
    Inquisitor's Strike Squad is engaged with the Cadians (the Inquisitor's bolt pistol makes it
    eligible for close-quarters shooting), the other Cadians 6" away: no grenades for it."""
    state = position_game(
        edition,
        {
            LED_SQUAD: {"at": [30, 27.0]},
            CADIANS: {"at": [30, 30]},
            CADIANS_2: {"at": [30, 21.5]},
        },
        phase="shooting",
        active_player=1,
    )
    assert LED_SQUAD in {a["unit"] for a in legal_actions(state, 1) if a["type"] == "shoot"}
    throws = {
        a["stratagem"]
        for a in legal_actions(state, 1)
        if a["type"] == "use_stratagem" and a["target"] == LED_SQUAD
    }
    assert throws == set()


def test_command_re_roll_after_the_hazard_rolls_of_a_desperate_escape():
    """11e 09.07: a Desperate Escape makes a hazard roll per model (06.03: 1-2 fails, 1 mortal
    wound each); 15.02 Command Re-roll "just after you make ... a Hazard roll". One of the five
    rolls is a 1; its player re-rolls that die (a 6): no mortal wound. Then the battle-shock roll
    (a 12) and the fall-back move."""
    state = position_game(
        "11e", {SQUAD: {"at": [30, 28.1]}, CADIANS: {"at": [30, 30]}}, phase="movement"
    )
    state, _ = play(state, {"type": "fall_back", "player": 1, "unit": SQUAD})
    assert state["pending"][-1]["kind"] == "choose_fall_back_mode"
    with scripted_dice(1, 4, 4, 4, 4):
        state, _ = decide(state, "desperate_escape")
    state, roll = after_roll_window(state, "hazard")
    assert roll["values"] == [1, 4, 4, 4, 4] and roll["player"] == 1
    state, _ = choose(state, "command-re-roll-11e", SQUAD)
    with scripted_dice(6, 6, 6):
        state, events = decide(state, [0])
    assert not [e for e in events if e["type"] == "wounds_lost"]
    assert state["pending"][-1]["kind"] == "fall_back_move"


def test_a_game_saved_before_these_rules_plays_on_with_them():
    """A state saved before the edition parameters of issue 14 existed takes the printed rule
    (`core.saved_games.ADDED_EDITION_PARAMETERS`): here 11e's fight order (12.04)."""
    state = position_game(
        "11e", {SQUAD: {"at": [30, 20]}, CADIANS: {"at": [30, 21.9]}}, phase="fight"
    )
    state = to_fight_step(state)
    for name in ADDED_EDITION_PARAMETERS:
        del state["edition"][name]
    assert acting_player(state) == 1
    assert SQUAD in {a.get("unit") for a in legal_actions(state, 1) if a["type"] == "fight"}


# --- Abilities granted after an advance reach the shooting (defects 11 and 14) -----------------


def advanced_then(edition, detachment, slug, unit):
    """Player 1's unit advanced; in the Movement phase they use `slug` on it, then the Shooting
    phase begins; the Cadians stand 10" away."""
    state = position_game(
        edition,
        {unit: {"at": [30, 16], "flags": ["advanced", "moved"]}, CADIANS: {"at": [30, 26]}},
        phase="movement",
        detachments={1: detachment},
    )
    state, _ = play(
        state, {"type": "use_stratagem", "player": 1, "stratagem": slug, "target": unit}
    )
    while state["phase"] != "shooting":
        state = (
            pass_windows(state)
            if state["pending"]
            else play(state, {"type": "end_phase", "player": 1})[0]
        )
    return pass_windows(state)


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_death_from_the_warp_assault_lets_a_unit_that_advanced_shoot(edition):
    """Death from the Warp [004 L406-414]: "ranged weapons equipped by models in your unit have
    the [ASSAULT] ability"; a unit that advanced may shoot [ASSAULT] weapons (11e 10.05, 10e
    Assault). The granted ability counts for the unit's eligibility and for each weapon."""
    state = advanced_then(edition, "teleport-strike-force", "death-from-the-warp", SQUAD)
    assert SQUAD in {a.get("unit") for a in legal_actions(state, 1) if a["type"] == "shoot"}
    state, events = play(state, shoot_at(state, 1, SQUAD, [CADIANS]))
    state = through_attacks(state)
    assert "targets_selected" in [e["type"] for e in events]


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_emperors_will_lets_a_unit_that_advanced_shoot_every_weapon(edition):
    """Emperor's Will [000 L554-562]: "your unit is eligible to shoot in a turn in which it
    Advanced"; the waiver reaches the weapon check too, so its storm bolters (no [ASSAULT]) shoot
    (issue 14 defect 14)."""
    state = advanced_then(edition, "imperialis-fleet", "emperors-will", LED_SQUAD)
    state, events = play(state, shoot_at(state, 1, LED_SQUAD, [CADIANS]))
    state = through_attacks(state)
    attacks = next(e for e in events if e["type"] == "targets_selected")["attacks"]
    assert "Storm bolter" in {a["weapon"] for a in attacks}


# --- Sanctified Slaughter: "if such a weapon already has that ability" (defect 10) --------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_sanctified_slaughter_criticals_on_5_only_for_weapons_printed_with_sustained_hits(edition):
    """Sanctified Slaughter [004 L487-495]: melee weapons have [SUSTAINED HITS 1]; "If such a
    weapon already has that ability", an unmodified hit roll of 5+ is a critical hit. A weapon
    that has it only from this stratagem keeps criticals on 6."""
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 20], "flags": ["charged"]}, CADIANS: {"at": [30, 21.9]}},
        phase="fight",
        detachments={1: "void-purge-force"},
    )
    use = {"type": "use_stratagem", "player": 1, "stratagem": "sanctified-slaughter"}
    state, _ = play(state, {**use, "target": SQUAD})
    granted = attack_modifiers(state, SQUAD, CADIANS)
    plain = weapon(range_=None, skill=3)
    printed = weapon(["sustained hits 1"], range_=None, skill=3)
    ctx = context(edition_for(edition), modifiers=granted)
    assert plan_hits(attacker(plain), unit(), ctx).critical == 6
    assert plan_hits(attacker(printed), unit(), ctx).critical == 5


# --- An Urgent Duty and out-of-phase charge rolls (defect 16) ----------------------------------


def test_an_urgent_duty_adds_1_to_a_heroic_intervention_charge_roll():
    """An Urgent Duty (Void Purge Force) [004 L542-545]: "Add 1 to Advance and Charge rolls made
    for units from your army"; a Heroic Intervention (11e 15.11) makes a charge roll like any
    other: 3 + 3 + 1."""
    state = position_game(
        "11e",
        {SQUAD: {"at": [20, 20]}, CADIANS: {"at": [20, 24.5]}},
        phase="charge",
        active_player=2,
        detachments={1: "void-purge-force"},
    )
    state, _ = play(state, {"type": "end_phase", "player": 2})
    while not any(
        o != "pass" and o["stratagem"] == "heroic-intervention-11e"
        for o in state["pending"][-1]["options"]
    ):
        state, _ = decide(state, "pass")
    option = next(
        o
        for o in state["pending"][-1]["options"]
        if o != "pass" and o["stratagem"] == "heroic-intervention-11e"
    )
    with scripted_dice(3, 3):
        state, events = decide(state, option)
    (charge,) = [e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "charge"]
    assert (charge["modifier"], charge["total"]) == (1, 7)


def test_an_urgent_duty_adds_1_to_a_10e_heroic_intervention_charge_roll():
    """The same in 10e: Heroic Intervention [004 L374-381] "declares a charge that targets only
    that enemy unit, and you resolve that charge as if it were your Charge phase"; An Urgent Duty
    adds 1 to that charge roll too: 6 + 6 + 1."""
    state = cadians_charged_the_squad_10e({1: "void-purge-force"})
    script_dice(state, [1, 6, 6])  # the Inquisitor's Power of the Rosette, then the charge roll
    state, events = choose(state, "heroic-intervention-10e", LED_SQUAD)
    state, more = decide(state, [CADIANS])
    events += more
    (charge,) = [e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "charge"]
    assert (charge["values"], charge["modifier"], charge["total"]) == ([6, 6], 1, 13)


# --- "If the attacking model is within 18"" (defects 12 and 17, rulings R-ST-21) -------------


def models_within(state, unit_id, target_id, reach):
    targets = alive_models(state["units"][target_id])
    return [
        m["id"]
        for m in alive_models(state["units"][unit_id])
        if any(model_distance(m, t) <= reach for t in targets)
    ]


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_haloed_in_soulfire_lets_only_the_models_within_18_inches_target_the_unit(edition):
    """Haloed in Soulfire [004 L394-402]: "your unit can only be selected as the target of a
    ranged attack if the attacking model is within 18"": of the ten Cadians, only those within
    18" of the Strike Squad fire their lasguns at it."""
    haloed = {
        "source": "haloed-in-soulfire",
        "selector": {"unit": LED_SQUAD},
        "modifier": {"ranged_targetable_within": 18.0},
        "duration": "start_of_next_movement_phase",
        "player": 1,
    }
    state = position_game(
        edition,
        {LED_SQUAD: {"at": [30, 10.4]}, CADIANS: {"at": [30, 30]}},
        phase="shooting",
        active_player=2,
        effects=[haloed],
    )
    near = models_within(state, CADIANS, LED_SQUAD, 18.0)
    assert 0 < len(near) < 10
    state, events = play(state, shoot_at(state, 2, CADIANS, [LED_SQUAD]))
    (selected,) = [e for e in events if e["type"] == "targets_selected"]
    assert {m for a in selected["attacks"] for m in a["models"]} == set(near)


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_orbital_oversight_makes_the_attacking_unit_check_its_targets_again(edition):
    """Orbital Oversight [000 L648-656], used "just after an enemy unit has selected its targets":
    the unit "can only be selected as the target of a ranged attack if the attacking model is
    within 18""; the Cadians beyond 18" no longer attack it (one lasgun attack per model)."""
    state = position_game(
        edition,
        {LED_SQUAD: {"at": [30, 10.4]}, CADIANS: {"at": [30, 30]}},
        phase="shooting",
        active_player=2,
        detachments={1: "veiled-blade-elimination-force"},
    )
    near = models_within(state, CADIANS, LED_SQUAD, 18.0)
    state, _ = play(state, shoot_at(state, 2, CADIANS, [LED_SQUAD]))
    while ("orbital-oversight", LED_SQUAD) not in offered(state):
        state, _ = decide(state, "pass")
    state, events = choose(state, "orbital-oversight", LED_SQUAD)
    while state["pending"] and state["pending"][-1]["kind"] == "stratagem_window":
        state, more = decide(state, "pass")
        events += more
    gathered = [e["tray"] for e in events if e["type"] == "attack_step"]
    assert gathered[0]["step"] == "attack" and gathered[0]["successes"] == len(near)


# --- Burst of Speed and units never selected to move (defect 9) -------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_burst_of_speed_is_not_for_a_unit_that_was_never_selected_to_move(edition):
    """Burst of Speed [003 L514-522]: "One ASTRA MILITARUM unit from your army that did not
    Remain Stationary ... this phase". A unit never selected to move did not move: in 10e it
    Remained Stationary, and 11e 09.02 has the player select every unit. Only the Cadians that
    moved are offered it."""
    state = position_game(
        edition,
        {
            CADIANS: {"at": [10, 30], "flags": ["moved"], "acted": True},
            CADIANS_2: {"at": [40, 30]},
        },
        phase="movement",
        active_player=2,
        detachments={2: "armoured-infantry"},
    )
    state, _ = play(state, {"type": "end_phase", "player": 2})
    burst = set()
    while state["pending"] and state["pending"][-1]["kind"] == "stratagem_window":
        top = state["pending"][-1]
        burst |= {
            o["target"]
            for o in top["options"]
            if o != "pass" and o["stratagem"] == "burst-of-speed"
        }
        state, _ = decide(state, "pass")
    assert burst == {CADIANS}


# --- Feel No Pain against mortal wounds outside the attack sequence (defect 23) ----------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_courageous_diversion_feel_no_pain_applies_to_grenade_mortal_wounds(edition):
    """Courageous Diversion [003 L744-752]: "your unit has the Feel No Pain 6+ ability" (11e
    24.12 / 10e Feel No Pain: each time a model would lose a wound, mortal wounds included).
    Grenades give the Cadians six mortal wounds (six 4s); a 6 on each Feel No Pain roll saves
    every one."""
    diversion = {
        "source": "courageous-diversion",
        "selector": {"unit": CADIANS},
        "modifier": {
            "attack": {"step": "feel_no_pain", "kind": "set", "value": 6, "condition": {}},
            "as": "defender",
            "against": None,
        },
        "duration": "end_of_phase",
        "player": 2,
    }
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 22]}, CADIANS: {"at": [30, 30]}},
        phase="shooting",
        effects=[diversion],
    )
    (grenades,) = [
        a for a in legal_actions(state, 1) if a["type"] == "use_stratagem" and a["target"] == SQUAD
    ]
    events = []
    with scripted_dice(*[4] * 6, *[6] * 6):
        state, more = play(state, grenades)
        events += more
        while state["pending"] and state["pending"][-1]["kind"] == "allocate_mortal_wound":
            state, more = decide(state, state["pending"][-1]["options"][0])
            events += more
    assert [e["type"] for e in events].count("mortal_wound_ignored") == 6
    assert not [e for e in events if e["type"] == "wounds_lost"]


# --- Radiant Strike and units that cannot fight (defect 28: the report is refuted) -------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_radiant_strike_may_target_any_psyker_unit_in_the_fight_phase(edition):
    """Radiant Strike [004 L446-452]: "WHEN: Fight phase. TARGET: One PSYKER unit from your
    army." The printed TARGET does not ask that the unit can fight, so a PSYKER unit far from
    any enemy is a legal target (its effect then changes nothing); the engine follows the print
    (rulings R-ST-31). No unit is engaged: neither PSYKER unit can fight."""
    state = position_game(edition, phase="fight", detachments={1: "teleport-strike-force"})
    targets = {
        a["target"]
        for a in legal_actions(state, 1)
        if a["type"] == "use_stratagem" and a["stratagem"] == "radiant-strike"
    }
    assert targets == {SQUAD, LED_SQUAD}


@pytest.mark.parametrize(
    ("edition", "slug"), [("11e", "counteroffensive-11e"), ("10e", "counter-offensive-10e")]
)
def test_counteroffensive_is_offered_only_to_a_unit_that_can_fight(edition, slug):
    """Where the print asks for it, the Fight phase stratagem is only for a unit that can fight:
    11e Counteroffensive (15.12) [000 L449-455] "TARGET: One friendly unit that is eligible to
    fight"; 10e Counter-offensive [004 L385-390] "within Engagement Range of one or more enemy
    units and that has not already been selected to fight this phase" (defect 28, confirmed for
    these). The Strike Squad charged the first Cadians and fought; the second Cadians, far from
    any enemy, are not offered it."""
    from tests.engine_world import kill, place_unit
    from tests.stratagem_world import window

    state = stratagem_game(edition)
    kill(state, SQUAD, 4)  # one Grey Knight left: the Cadians stay in the combat
    place_unit(state, SQUAD, 20.0, 20.0)
    place_unit(state, CADIANS, 20.0, 16.6)  # 0.7" apart: engaged in both editions
    place_unit(state, LED_SQUAD, 45.0, 40.0)
    place_unit(state, CADIANS_2, 45.0, 20.0)
    state = to_phase(state, 1, "fight")
    ctx = Context(state)
    set_flag(ctx, SQUAD, "charged")
    state = ctx.state
    state["players"]["2"]["cp"] = 2
    state, _ = play(state, {"type": "fight", "player": 1, "unit": SQUAD})
    state = through_attacks(state)
    assert window(state)["player"] == 2
    assert {target for stratagem, target in offered(state) if stratagem == slug} == {CADIANS}


# --- Voice of Command: a unit made battle-shocked without a roll loses its Order (defect 21) ---


def test_a_unit_battle_shocked_by_a_disembark_loses_its_order():
    """Voice of Command [003 L161]: an Order ends when the unit becomes battle-shocked; 11e 18.04
    and 18.05 make a unit that makes a combat or emergency disembark battle-shocked without a
    roll. Both go through one rule (`battle_shock.make_battle_shocked`), so the Order ends."""
    take_cover = {
        "source": "voice-of-command",
        "selector": {"unit": CADIANS},
        "modifier": {
            "characteristic": "Sv",
            "add": -1,
            "order": "take-cover",
            "benefits": "ASTRA MILITARUM",
            "ends_when_battle_shocked": True,
        },
        "duration": "start_of_next_command_phase",
        "player": 2,
    }
    state = position_game("11e", phase="movement", active_player=2, effects=[take_cover])
    ctx = Context(state)
    make_battle_shocked(ctx, state["units"][CADIANS], "emergency-disembark")
    assert is_battle_shocked(ctx.state, CADIANS)
    assert not [e for e in ctx.state["effects"] if e["modifier"].get("order")]
    assert "effect_ended" in [e["type"] for e in ctx.events]


# --- Rapid Ingress with Deep Strike (defect 6) --------------------------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_rapid_ingress_lets_a_deep_strike_unit_arrive_by_deep_strike(edition):
    """11e 15.07 Rapid Ingress: "Your unit makes an ingress move (20.04)"; 24.09 Deep Strike:
    "Each time this unit makes an ingress move ... it can be set up anywhere on the battlefield
    that is more than 8" horizontally from all enemy units". 10e Rapid Ingress [004 L332-342]:
    "if every model in that unit has the Deep Strike ability, you can set that unit up as
    described in the Deep Strike ability". The Strike Squad arrives in mid-table, far from any
    battlefield edge."""
    state = position_game(
        edition,
        {SQUAD: {"location": "strategic_reserves"}},
        battle_round=2,
        phase="movement",
        active_player=2,
    )
    state, _ = play(state, {"type": "end_phase", "player": 2})
    while ("rapid-ingress-" + edition, SQUAD) not in offered(state):
        state, _ = decide(state, "pass")
    state, _ = choose(state, "rapid-ingress-" + edition, SQUAD)
    arrival = state["pending"][-1]
    assert arrival["options"]["methods"] == ["ingress", "deep_strike"]
    positions = formation(state["units"][SQUAD], 28.0, 18.0)
    state, events = decide(state, {"positions": positions, "method": "deep_strike"})
    (arrived,) = [e for e in events if e["type"] == "unit_arrived"]
    assert arrived["method"] == "deep_strike"
    assert state["units"][SQUAD]["location"] == "battlefield"


# --- Teleport Shunt's FLY and taking to the skies (defect 15) -----------------------------------


def test_teleport_shunt_fly_lets_the_unit_take_to_the_skies_in_that_advance():
    """Teleport Shunt [004 L539-542]: instead of the Advance roll, +6" Move and FLY; 11e 21.03: a
    FLY unit may take to the skies when it makes an advance move (2" less, over models and
    terrain). The FLY counts for the same advance: 6 + 6 - 2 = 10"."""
    state = position_game(
        "11e",
        {SQUAD: {"at": [30, 10]}},
        phase="movement",
        detachments={1: "teleport-strike-force"},
    )
    state, events = play(
        state, {"type": "advance", "player": 1, "unit": SQUAD, "take_to_the_skies": True}
    )
    assert "advance_roll_replaced" in [e["type"] for e in events]
    move = state["pending"][-1]
    assert move["kind"] == "advance_move"
    assert move["options"]["take_to_the_skies"] is True
    assert move["options"]["max_distance"] == 6 + 6 - 2


# --- Charges out of phase: any subset of the possible targets (defect 20) ------------------------


def test_heroic_intervention_may_charge_any_two_of_three_enemy_units():
    """11e 15.11 Heroic Intervention makes a charge; 11.04: "Select one or more enemy units that
    are within 12" of your unit and within the maximum distance". Three Cadian units stand within
    6" (Into the Fray); the player may select any of the seven non-empty sets of them."""
    armies = {
        "1": army(entry("ss1", "strike-squad", 5, warlord=True)),
        "2": army(
            entry("cad1", "cadian-shock-troops", 10, warlord=True),
            entry("cad2", "cadian-shock-troops", 10),
            entry("cad3", "cadian-shock-troops", 10),
        ),
    }
    state = position_game(
        "11e",
        {
            "p1-u1": {"at": [20, 20]},
            "p2-u1": {"at": [10, 24.5]},
            "p2-u2": {"at": [20, 24.5]},
            "p2-u3": {"at": [30, 24.5]},
        },
        armies=armies,
        default_places={},
        phase="charge",
        active_player=2,
    )
    state, _ = play(state, {"type": "end_phase", "player": 2})
    option = next(
        o
        for o in state["pending"][-1]["options"]
        if o != "pass" and o.get("mode") == "into_the_fray"
    )
    with scripted_dice(6, 6):
        state, _ = decide(state, option)
    choice = state["pending"][-1]
    assert choice["kind"] == "choose_charge_targets"
    assert len(choice["options"]) == 7 and ["p2-u1", "p2-u3"] in choice["options"]


ALL_SUBSETS = [[CADIANS], [CADIANS_2], [CADIANS, CADIANS_2]]


@pytest.mark.parametrize(
    ("edition", "dice", "options"),
    [
        ("11e", (2, 2), [[CADIANS]]),  # 4": the Cadians 4.5" away are out of reach
        ("11e", (3, 2), ALL_SUBSETS),
        ("10e", (2, 2), ALL_SUBSETS),  # 4" covers 4.5" less the 1" Engagement Range
    ],
)
def test_ensnaring_trap_charges_any_set_of_the_units_within_its_reach(edition, dice, options):
    """Ensnaring Trap [000 L671-679]: "you must select one or more of those enemy units [within
    6"] as the targets of that charge": any non-empty set of them (issue 14 defect 20). Its reach
    is the edition's: 11e 11.04 "within the maximum distance" (the gap itself); a 10e charge
    succeeds when the unit can end within Engagement Range, so the roll covers the gap less 1"
    (rulings R-ST-25). The Cadians stand 3.3" and 4.5" from the Inquisitor's Strike Squad."""
    state = position_game(
        edition,
        {LED_SQUAD: {"at": [20, 20]}, CADIANS: {"at": [13, 25.6]}, CADIANS_2: {"at": [27, 25.6]}},
        phase="charge",
        active_player=2,
        detachments={1: "veiled-blade-elimination-force"},
    )
    state, _ = play(state, {"type": "end_phase", "player": 2})
    with scripted_dice(1, *dice):  # the Inquisitor's Power of the Rosette, then the charge roll
        state, events = choose(state, "ensnaring-trap", LED_SQUAD)
    assert [e["values"] for e in events if e["type"] == "dice_rolled"][-1] == list(dice)
    while state["pending"][-1]["kind"] == "stratagem_window":  # Command Re-roll: not used
        state, _ = decide(state, "pass")
    choice = state["pending"][-1]
    assert choice["kind"] == "choose_charge_targets" and choice["options"] == options


# --- 11e charges declared without targets meet the rules against them (defect 19) --------------


def test_an_11e_charge_declared_without_targets_still_meets_repelling_sphere():
    """Repelling Sphere [004 L530-538]: -1 to the charge roll of an enemy unit that declares a
    charge against your unit. In 11e the targets are selected after the roll (11.04), so until
    then the charge is against every unit it may still reach: declaring none dodges nothing."""
    sphere = {
        "source": "repelling-sphere",
        "selector": {"unit": SQUAD},
        "modifier": {"charge_roll_when_targeted": -1, "in_area": {"hallowed_ground": -2}},
        "duration": "end_of_phase",
        "player": 1,
    }
    state = position_game(
        "11e",
        {SQUAD: {"at": [30, 20]}, CADIANS: {"at": [30, 28]}},
        phase="charge",
        active_player=2,
        effects=[sphere],
        players={"1": {"cp": 0}, "2": {"cp": 0}},
    )
    with scripted_dice(4, 4):
        state, events = play(
            state, {"type": "declare_charge", "player": 2, "unit": CADIANS, "targets": []}
        )
    (charge,) = [e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "charge"]
    assert (charge["modifier"], charge["total"]) == (-1, 7)


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_command_re_roll_after_the_hazard_rolls_of_hazardous_weapons(edition):
    """11e 24.15 [HAZARDOUS] / 10e Hazardous: after the unit has resolved its attacks, one
    hazard roll per [HAZARDOUS] weapon; 11e 15.02 / 10e Command Re-roll "just after you make ...
    a Hazard roll" (10e "Hazardous roll"): the Strike Squad's melee weapons are [HAZARDOUS] (as
    Hexbane Wards makes them); once its attacks are resolved its player may re-roll one of the
    hazard rolls (asked after every roll: the dice here are the seed's, R-ST-32)."""
    hazardous = {
        "source": "hexbane-wards",
        "selector": {"unit": SQUAD},
        "modifier": {
            "attack": {
                "step": "ability",
                "kind": "grant",
                "value": "hazardous",
                "condition": {"weapon_type": "melee"},
            },
            "as": "attacker",
            "against": None,
        },
        "duration": "end_of_phase",
        "player": 2,
    }
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 20], "flags": ["charged"]}, CADIANS: {"at": [30, 21.9]}},
        phase="fight",
        effects=[hazardous],
    )  # it charged: it fights first in both editions
    state, _ = play(
        state, {"type": "set_window_preferences", "player": 1, "reroll_every_roll": True}
    )
    state = to_fight_step(state)
    state, _ = play(state, {"type": "fight", "player": 1, "unit": SQUAD})
    while True:
        top = state["pending"][-1]
        roll = top["resume"].get("about", {}).get("roll") or {}
        if top["kind"] == "stratagem_window" and roll.get("purpose") == "hazard":
            break
        if top["kind"] == "stratagem_window":
            state, _ = decide(state, "pass")
        else:  # the defender's allocation order, the attacker's [PRECISION] choice
            state, _ = decide(state, top["options"][0])
    # one roll per model that fought: in 10e one model stands beyond the reach to fight
    assert top["player"] == 1 and len(roll["values"]) == {"11e": 5, "10e": 4}[edition]
    state, _ = choose(state, COMMAND_REROLL[edition], SQUAD)
    state, events = decide(state, [0])
    (rerolled,) = [e for e in events if e["type"] == "dice_rerolled"]
    assert rerolled["purpose"] == "hazard" and rerolled["positions"] == [0]
    assert [e["roll"] for e in events if e["type"] == "hazard_rolled"] == [roll["roll"]]


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_command_re_roll_after_the_roll_for_the_number_of_attacks(edition):
    """11e 15.02 Command Re-roll: "A roll to determine the number of attacks generated with a
    weapon" (10e: "a roll to determine the number of attacks made with a weapon"). Storm
    bolters with A D3 (one D6 per model, halved): the five dice are rolled (1, 1, 1, 1, 1: five
    attacks); the player re-rolls one (a 6: 3 attacks), seven attacks in all."""
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    squad = next(s for s in sheets if s["slug"] == "strike-squad")
    bolter = next(w for w in squad["weapons"] if w["name"] == "Storm bolter")
    bolter.update(A="D3", abilities=[])
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 10]}, CADIANS: {"at": [30, 30]}},
        phase="shooting",
        datasheets=sheets,
    )
    with scripted_dice(1, 1, 1, 1, 1):
        state, _ = play(state, shoot_at(state, 1, SQUAD, [CADIANS]))
        state, roll = after_roll_window(state, "attacks")
    assert roll["values"] == [1, 1, 1, 1, 1]
    state, _ = choose(state, COMMAND_REROLL[edition], SQUAD)
    with scripted_dice(6, *[1] * 7):  # the re-rolled die, then seven hit rolls (all miss)
        state, events = decide(state, [0])
    gathered = next(e["tray"] for e in events if e["type"] == "attack_step")
    assert gathered["step"] == "attack" and gathered["successes"] == 7


# --- Command Re-roll after damage, Advance, charge and Desperate Escape rolls (defect 1), and when
# the engine asks (rulings R-ST-32) --------------------------------------------------------------


def purposes_until(state, purpose):
    """Pass every window (and take the first option of any other decision: an allocation order)
    until the window just after the roll `purpose`; the purposes of the re-roll windows passed
    on the way, and that window's roll record."""
    seen = []
    while state["pending"]:
        top = state["pending"][-1]
        roll = top["resume"].get("about", {}).get("roll")
        if top["kind"] == "stratagem_window" and roll and roll["purpose"] == purpose:
            return state, seen, roll
        if roll:
            seen.append(roll["purpose"])
        state, _ = decide(state, "pass" if top["kind"] == "stratagem_window" else top["options"][0])
    raise AssertionError(f"no window after the {purpose} roll (passed {seen})")


def sturdy_cadians_and_d6_bolters():
    """The bundle's datasheets with storm bolters of D D6 and Cadians of W6 (so a damage roll
    shows in the wounds a model has left)."""
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    squad = next(s for s in sheets if s["slug"] == "strike-squad")
    bolter = next(w for w in squad["weapons"] if w["name"] == "Storm bolter")
    bolter.update(D="D6")
    cadians = next(s for s in sheets if s["slug"] == "cadian-shock-troops")
    for model in cadians["models"]:
        model["W"] = 6
    return sheets


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_command_re_roll_re_rolls_a_damage_roll(edition):
    """11e 15.02 / 10e Command Re-roll: "just after you make ... a Damage roll". One storm bolter
    (D D6) hits (a 6, nine 1s), wounds (a 6) and the Cadian fails the save (a 1); the damage roll
    is a 1, which the Strike Squad's player re-rolls (a 5): the Cadian model (W6) has 1 wound
    left. The wound roll had no failed die, so no window was opened after it (R-ST-32)."""
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 10]}, CADIANS: {"at": [30, 30]}},
        phase="shooting",
        datasheets=sturdy_cadians_and_d6_bolters(),
    )
    with scripted_dice(6, *[1] * 9, 6, 1, 1):
        state, _ = play(state, shoot_at(state, 1, SQUAD, [CADIANS]))
        state, seen, roll = purposes_until(state, "damage")
    assert seen == ["hit", "save"]  # no window after the wound roll: its die succeeded
    assert roll["values"] == [1] and roll["player"] == 1
    state, _ = choose(state, COMMAND_REROLL[edition], SQUAD)
    assert state["pending"][-1]["options"] == ["pass", [0]]
    with scripted_dice(5):
        state, events = decide(state, [0])
    (rerolled,) = [e for e in events if e["type"] == "dice_rerolled"]
    assert rerolled["purpose"] == "damage" and rerolled["values"] == [5]
    left = sorted(m["wounds_left"] for m in state["units"][CADIANS]["models"])
    assert left[0] == 1 and left[1:] == [6] * (len(left) - 1)


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_command_re_roll_re_rolls_an_advance_roll(edition):
    """11e 15.02 / 10e Command Re-roll: "an Advance roll". The Strike Squad advances and rolls a
    1; its player re-rolls it (a 4): it may move M + 4"."""
    state = position_game(edition, {SQUAD: {"at": [30, 20]}}, phase="movement")
    with scripted_dice(1):
        state, _ = play(state, {"type": "advance", "player": 1, "unit": SQUAD})
    assert offered(state) == {(COMMAND_REROLL[edition], SQUAD)}
    state, _ = choose(state, COMMAND_REROLL[edition], SQUAD)
    with scripted_dice(4):
        state, _ = decide(state, [0])
    move = state["pending"][-1]
    assert move["kind"] == "advance_move" and move["options"]["max_distance"] == 6 + 4


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_command_re_roll_re_rolls_a_charge_roll_in_full(edition):
    """11e 15.02: "excluding charge rolls, which you must re-roll in full"; 10e Command Re-roll:
    "re-roll that roll". The Strike Squad charges (a 1 and a 2); the re-roll is of both dice."""
    state = position_game(
        edition, {SQUAD: {"at": [30, 20]}, CADIANS: {"at": [30, 28]}}, phase="charge"
    )
    with scripted_dice(1, 2):
        state, _ = play(
            state, {"type": "declare_charge", "player": 1, "unit": SQUAD, "targets": [CADIANS]}
        )
        state, _, roll = purposes_until(state, "charge")
    assert roll["values"] == [1, 2]
    state, _ = choose(state, COMMAND_REROLL[edition], SQUAD)
    assert state["pending"][-1]["options"] == ["pass", "all"]
    with scripted_dice(6, 5):
        state, events = decide(state, "all")
    assert [e["values"] for e in events if e["type"] == "dice_rerolled"] == [[6, 5]]
    assert state["pending"][-1]["kind"] == "charge_move"


def test_command_re_roll_re_rolls_one_desperate_escape_test_in_10e():
    """10e Command Re-roll: "a Desperate Escape test"; 10e Desperate Escape: each model whose
    fall-back move crosses an enemy model tests, each 1-2 destroying one. The Strike Squad falls
    back through the Cadians' ranks (four of its models cross one); tests of 1, 6, 6, 6: the player
    re-rolls the 1 (a 6); no model is lost and the unit makes its move."""
    state = position_game(
        "10e", {SQUAD: {"at": [20, 28.1]}, CADIANS: {"at": [20, 30]}}, phase="movement"
    )
    state, _ = play(state, {"type": "fall_back", "player": 1, "unit": SQUAD})
    assert state["pending"][-1]["kind"] == "fall_back_move"
    with scripted_dice(1, 6, 6, 6):
        state, _ = decide(state, formation(state["units"][SQUAD], 20.0, 34.0))
    state, _, roll = purposes_until(state, "desperate_escape")
    assert roll["values"] == [1, 6, 6, 6] and roll["player"] == 1
    state, _ = choose(state, "command-re-roll-10e", SQUAD)
    with scripted_dice(6):
        state, events = decide(state, [0])
    assert not [e for e in events if e["type"] == "model_destroyed"]
    assert {m["y"] for m in alive_models(state["units"][SQUAD])} == {34.0}


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_command_re_roll_is_asked_only_after_a_failed_die_unless_every_roll_is_chosen(edition):
    """Rulings R-ST-32: the rule lets a player re-roll any die of the roll, so the engine offers
    it; but by default it asks only when a die not yet re-rolled failed. Ten hit rolls of 6 hit:
    no window. With the standing choice `reroll_every_roll` the window opens after the same
    roll."""

    def hit_window(every_roll):
        state = position_game(
            edition, {SQUAD: {"at": [30, 10]}, CADIANS: {"at": [30, 30]}}, phase="shooting"
        )
        state, _ = play(
            state,
            {"type": "set_window_preferences", "player": 1, "reroll_every_roll": every_roll},
        )
        with scripted_dice(*[6] * 10, *[1] * 10):  # ten hits; ten wound rolls of 1
            state, _ = play(state, shoot_at(state, 1, SQUAD, [CADIANS]))
            return purposes_until(state, "wound")

    _, seen, roll = hit_window(every_roll=False)
    assert seen == [] and roll["failed"] == [True] * 10
    _, seen, _ = hit_window(every_roll=True)
    assert seen == ["hit"]


@pytest.mark.parametrize(
    "edition, options", [("11e", ["pass", [0], [1]]), ("10e", ["pass", "all"])]
)
def test_a_2d6_damage_roll_re_rolls_one_die_in_11e_and_both_in_10e(edition, options):
    """11e 15.02: "If you are rolling more than one dice together, select one of those dice to
    re-roll"; 10e Re-rolls: a roll "made by adding several dice together (e.g. 2D6) ... you must
    re-roll all of those dice". A storm bolter of D 2D6 rolls a 1 and a 2 for its damage."""
    sheets = sturdy_cadians_and_d6_bolters()
    squad = next(s for s in sheets if s["slug"] == "strike-squad")
    next(w for w in squad["weapons"] if w["name"] == "Storm bolter").update(D="2D6")
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 10]}, CADIANS: {"at": [30, 30]}},
        phase="shooting",
        datasheets=sheets,
    )
    with scripted_dice(6, *[1] * 9, 6, 1, 1, 2):
        state, _ = play(state, shoot_at(state, 1, SQUAD, [CADIANS]))
        state, _, roll = purposes_until(state, "damage")
    assert roll["values"] == [1, 2]
    state, _ = choose(state, COMMAND_REROLL[edition], SQUAD)
    assert state["pending"][-1]["options"] == options


# --- "In the Reinforcements step of your next Movement phase" (defect 22, rulings R-GK-04) -------


def relocated(edition):
    """Rapid Tactical Relocation [000 L460-470] at the end of player 2's Fight phase: the Alien
    Hunters' Inquisitor and his squad are removed, to be set up in player 1's next Movement
    phase, which has begun."""
    state = stratagem_game(edition, {1: "ordo-xenos-alien-hunters"})
    state = to_phase(state, 2, "fight")
    state["players"]["1"]["cp"] = 3
    state, _ = play(state, {"type": "end_phase", "player": 2})
    state, _ = choose(state, "rapid-tactical-relocation", LED_SQUAD)
    assert state["units"][LED_SQUAD]["location"] == "off_battlefield"
    return to_phase(state, 1, "movement")


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_relocated_unit_is_set_up_in_the_next_movement_phase_not_later(edition):
    """ "In the Reinforcements step of your next Movement phase, set your unit up": ending that
    Movement phase with the unit still off the battlefield asks its player to set it up now; it
    is never kept for a later phase. Set up, the phase then ends as usual."""
    state = relocated(edition)
    state, _ = play(state, {"type": "end_phase", "player": 1})
    owed = state["pending"][-1]
    assert owed["kind"] == "arrival_owed" and owed["player"] == 1
    assert owed["options"] == ["set_up", "destroyed"]
    assert "Rapid Tactical Relocation" in owed["prompt"] and "p1-u1" not in owed["prompt"]
    state, _ = decide(state, "set_up")
    assert state["phase"] == "movement" and not state["pending"]
    arrival = {"type": "arrive", "player": 1, "unit": LED_SQUAD}
    models = alive_models(state["units"][LED_SQUAD])
    row = {m["id"]: [2.0 + 1.5 * i, 26.5, 0.0] for i, m in enumerate(models)}  # > 8" from enemies
    state, _ = play(state, {**arrival, "positions": row})
    state, _ = play(pass_windows(state), {"type": "end_phase", "player": 1})
    assert not [d for d in state["pending"] if d["kind"] == "arrival_owed"]


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_relocated_unit_that_cannot_be_set_up_counts_as_destroyed(edition):
    """The engine cannot tell whether a place more than 8" from every enemy model exists: the
    player says it cannot be set up, and it counts as destroyed as the phase ends (R-GK-04), as
    Teleport Assault's units not on the battlefield at the end of the battle do."""
    state = relocated(edition)
    state, _ = play(state, {"type": "end_phase", "player": 1})
    state, events = decide(state, "destroyed")
    (destroyed,) = [e for e in events if e["type"] == "unit_destroyed"]
    assert destroyed["unit"] == LED_SQUAD and destroyed["rule"] == "Rapid Tactical Relocation"
    assert state["units"][LED_SQUAD]["location"] == "destroyed"
    state = pass_windows(state)
    assert state["phase"] == "shooting"


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_teleport_assault_units_are_owed_a_set_up_in_the_next_movement_phase(edition):
    """Teleport Assault [004 L135-139]: "In the Reinforcements step of your next Movement phase,
    set each of those units up": the Strike Squad removed at the end of player 2's turn must be
    set up in player 1's Movement phase that follows."""
    from tests.test_stratagems_arrivals import end_of_player_2_turn, grey_knights_game

    state = end_of_player_2_turn(grey_knights_game(edition))
    state, _ = decide(state, SQUAD)
    state = to_phase(state, 1, "movement")
    state, _ = play(state, {"type": "end_phase", "player": 1})
    owed = state["pending"][-1]
    assert owed["kind"] == "arrival_owed" and "Teleport Assault" in owed["prompt"]


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_command_re_roll_re_rolls_the_damage_roll_of_a_devastating_wound(edition):
    """11e 24.10 / 10e Devastating Wounds: a critical wound inflicts mortal wounds (11e) or
    damage with no saving throw (10e) equal to D, rolled for it: "a Damage roll", which Command
    Re-roll may re-roll. A storm bolter of D D6 with [DEVASTATING WOUNDS] hits once and wounds
    critically (a 6); its damage roll is a 1, re-rolled (a 4): the Cadian (W6) has 2 wounds left."""
    sheets = sturdy_cadians_and_d6_bolters()
    squad = next(s for s in sheets if s["slug"] == "strike-squad")
    next(w for w in squad["weapons"] if w["name"] == "Storm bolter").update(
        abilities=["devastating wounds"]
    )
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 10]}, CADIANS: {"at": [30, 30]}},
        phase="shooting",
        datasheets=sheets,
    )
    with scripted_dice(6, *[1] * 9, 6, 1):
        state, _ = play(state, shoot_at(state, 1, SQUAD, [CADIANS]))
        state, seen, roll = purposes_until(state, "damage")
    assert seen == ["hit"] and roll["values"] == [1]
    state, _ = choose(state, COMMAND_REROLL[edition], SQUAD)
    with scripted_dice(4):
        state, events = decide(state, [0])
    assert [e["purpose"] for e in events if e["type"] == "dice_rerolled"] == ["damage"]
    left = sorted(m["wounds_left"] for m in state["units"][CADIANS]["models"])
    assert left[0] == 2 and left[1:] == [6] * (len(left) - 1)


# --- Disembarking is a unit being set up (defect 13, rulings R-OW-11) ----------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_fires_of_covenant_burns_a_unit_that_disembarks_within_6_inches(edition):
    """Fires of Covenant [004 L503-511]: "each time an enemy unit is set up or ends a Normal,
    Advance or Fall Back move within 6" of your unit, roll one D6 ...: on a 4+, that enemy unit
    suffers D3 mortal wounds". Disembarking sets a unit up (11e 18.04 "Your unit is set up"; 10e
    Transports "set up"), announced as every set-up is: the Cadians disembark from their
    Chimera 6" from the Strike Squad under Fires of Covenant; a 5, then 2 mortal wounds."""
    chimera = next(
        s
        for s in json.loads(
            (AGENTS_DATA.parents[1] / "astra-militarum/published.json").read_text("utf-8")
        )["datasheets"]
        if s["slug"] == "chimera"
    )
    armies = default_armies()
    armies["2"] = army(
        entry("cad1", "cadian-shock-troops", 10, warlord=True), entry("ch", "chimera", 1)
    )
    fires = {
        "source": "fires-of-covenant",
        "selector": {"unit": SQUAD},
        "modifier": {"reaction": "fires-of-covenant"},
        "duration": "end_of_phase",
        "player": 1,
    }
    state = position_game(
        edition,
        {
            CADIANS: {"location": "embarked", "embarked_in": "p2-u2"},
            "p2-u2": {"at": [40, 22]},
            SQUAD: {"at": [40, 12]},
        },
        armies=armies,
        default_places={LED_SQUAD: [6.0, 6.0]},
        detachments={1: "warpbane-task-force"},
        datasheets=BUNDLE["datasheets"] + [chimera],
        phase="movement",
        active_player=2,
        effects=[fires],
    )
    template = next(a for a in legal_actions(state, 2) if a["type"] == "disembark")
    disembark = {"type": "disembark", "player": 2, "unit": CADIANS}
    with scripted_dice(5, 2):
        state, events = play(state, {**disembark, "positions": template["suggested"]})
    rolls = [(e["purpose"], e["values"]) for e in events if e["type"] == "dice_rolled"]
    assert rolls == [("fires_of_covenant", [5]), ("mortal_wounds", [2])]
    assert state["pending"][-1]["kind"] == "allocate_mortal_wound"


# --- [PRECISION] and a CHARACTER the attackers cannot see (audit, rulings R-OW-15) ---------------


def precision_at_the_inquisitor(edition, inquisitor_at):
    """The Cadians (lasguns given [PRECISION]) shoot the Strike Squad led by the Inquisitor: its
    Grey Knights north of the ruin at (16-22, 26-32), the Inquisitor at `inquisitor_at`. The
    state at the first decision that is not a re-roll window, and the events so far."""
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    cadians = next(s for s in sheets if s["slug"] == "cadian-shock-troops")
    next(w for w in cadians["weapons"] if w["name"] == "Lasgun")["abilities"] = ["precision"]
    knights = [f"{LED_SQUAD}-m{i}" for i in range(1, 6)]
    positions = {model: [18 + 1.5 * i, 23.5] for i, model in enumerate(knights)}
    positions[f"{LED_SQUAD}-m6"] = inquisitor_at
    state = position_game(
        edition,
        {CADIANS: {"at": [5, 28]}, LED_SQUAD: {"positions": positions}},
        phase="shooting",
        active_player=2,
        datasheets=sheets,
    )
    return shoot_passing_windows(state, 2, CADIANS, "Lasgun", LED_SQUAD)


def shoot_passing_windows(state, player, unit, weapon, target):
    """The unit shoots `weapon` at `target`; every stratagem window is passed. The state at the
    first other decision (or none), and the events so far."""
    assignment = {"weapon": weapon, "target": target}
    state, events = play(
        state, {"type": "shoot", "player": player, "unit": unit, "assignments": [assignment]}
    )
    while state["pending"] and state["pending"][-1]["kind"] == "stratagem_window":
        state, more = decide(state, "pass")
        events += more
    return state, events


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_precision_reaches_only_a_character_the_attackers_see(edition):
    """11e 24.28: the attacker may make "a group containing a CHARACTER model that is visible to
    the attacking model" the current group; 10e Precision: "if a CHARACTER model in the target
    unit is visible to the attacking model". Standing in the open, the Inquisitor may be chosen;
    behind the ruin, none of the Cadians sees him and the attacks are allocated as usual."""
    seen, _ = precision_at_the_inquisitor(edition, [25.0, 25.0])
    assert seen["pending"][-1]["kind"] == "precision_target"
    assert seen["pending"][-1]["options"] == [f"{LED_SQUAD}-m6", None]
    hidden, events = precision_at_the_inquisitor(edition, [25.0, 26.4])
    assert not [d for d in hidden["pending"] if d["kind"] == "precision_target"]
    assert not [e for e in events if e["type"] == "precision_target_chosen"]
    inquisitor = hidden["units"][LED_SQUAD]["models"][-1]
    assert inquisitor["wounds_left"] == inquisitor["W"]


def precision_at_a_lone_inquisitor(edition):
    """The Cadians (lasguns given [PRECISION]) shoot an Inquisitor who leads no unit, standing in
    the open; the state at the first decision that is not a re-roll window, and the events."""
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    cadians = next(s for s in sheets if s["slug"] == "cadian-shock-troops")
    next(w for w in cadians["weapons"] if w["name"] == "Lasgun")["abilities"] = ["precision"]
    armies = default_armies()
    armies["1"] = army(
        entry("ss1", "strike-squad", 5),
        entry("ss2", "strike-squad", 5),
        entry("inq", "inquisitor", 1, warlord=True),
    )
    state = position_game(
        edition,
        {LONE_INQUISITOR: {"at": [25, 25]}, CADIANS: {"at": [5, 28]}},
        armies=armies,
        phase="shooting",
        active_player=2,
        datasheets=sheets,
    )
    return shoot_passing_windows(state, 2, CADIANS, "Lasgun", LONE_INQUISITOR)


LONE_INQUISITOR = "p1-u3"


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_precision_in_10e_reaches_a_character_only_in_an_attached_unit(edition):
    """11e 24.28: "if the target unit contains one or more CHARACTER models visible to one or
    more of the attacking models, the active player can select one allocation group that
    contains one of those visible CHARACTER models": any unit, so the lone Inquisitor's group is
    offered. 10e Precision: "each time an attack made with this weapon successfully wounds an
    Attached unit": an Inquisitor leading no unit is not an Attached unit, nothing is asked and
    the wound is allocated as usual (rulings R-OW-15; the led Inquisitor is offered in both
    editions, `test_precision_reaches_only_a_character_the_attackers_see`)."""
    state, events = precision_at_a_lone_inquisitor(edition)
    asked = [d for d in state["pending"] if d["kind"] == "precision_target"]
    if edition == "11e":
        assert asked[-1]["options"] == [f"{LONE_INQUISITOR}-m1", None]
    else:
        assert not asked
        trays = [e["tray"]["step"] for e in events if e["type"] == "attack_step"]
        assert "save_roll" in trays  # the attacks went on to saves without the question


# --- How much may start in strategic reserves (audit, rulings R-ENG-07) --------------------------


@pytest.mark.parametrize("edition, limit", [("11e", 500), ("10e", 250)])
def test_strategic_reserves_are_limited_to_a_share_of_the_points_limit(edition, limit):
    """11e 20.01: "the combined points value of all of your strategic reserves units (including
    those embarked within TRANSPORTS ...) cannot exceed 50% of your points limit"; 10e Strategic
    Reserves: 25%. At Incursion (1000 points) the led Strike Squad (120 + 55 points) and the other
    Strike Squad (120) are worth 295 points together: within 11e's 500, beyond 10e's 250; the led
    squad alone (175) is within both. (The seeds print no limit; before the audit half of the
    units could start there, whatever their points.)"""
    mission = {**BUNDLE["missions"][0], "battle_size": "incursion"}
    state, _ = new_game(setup(edition, mission=mission), SEED)
    template = next(a for a in legal_actions(state, 1) if a["type"] == "declare_reserves")
    assert template["max_points"] == limit
    assert template["points"] == {LED_SQUAD: 175, SQUAD: 120}
    both = {"type": "declare_reserves", "player": 1, "units": [LED_SQUAD, SQUAD]}
    if edition == "11e":
        state_after, _ = play(state, both)
        assert state_after["units"][SQUAD]["location"] == "strategic_reserves"
    else:
        with pytest.raises(Refusal) as refused:
            play(state, both)
        assert refused.value.code == "too_many_reserves" and "250 points" in refused.value.message
    alone, _ = play(state, {**both, "units": [LED_SQUAD]})
    assert alone["units"][LED_SQUAD]["location"] == "strategic_reserves"


@pytest.mark.parametrize("edition, limit", [("11e", 500), ("10e", 250)])
def test_an_enhancements_points_count_towards_the_strategic_reserves_limit(edition, limit):
    """11e 20.01 / 10e Strategic Reserves limit the "points value" of the units in reserves: a
    unit's points include the enhancements its models took. The Inquisitor takes Gift of the
    Prescient (20 points): the led Strike Squad is worth 175 + 20 = 195 points (before, the
    enhancement was not counted), and with the other Strike Squad 315."""
    records = json.loads(AGENTS_DATA.read_text())["enhancements"]
    armies = default_armies()
    armies["1"]["units"][1]["enhancements"] = ["gift-of-the-prescient"]
    mission = {**BUNDLE["missions"][0], "battle_size": "incursion"}
    state, _ = new_game(setup(edition, armies, mission=mission, enhancements=records), SEED)
    template = next(a for a in legal_actions(state, 1) if a["type"] == "declare_reserves")
    assert template["max_points"] == limit
    assert template["points"] == {LED_SQUAD: 195, SQUAD: 120}


# --- Repositioned units and the end of the third battle round (audit, rulings R-MV-06) ----------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_unit_placed_in_reserves_during_the_battle_is_not_destroyed_after_round_3(edition):
    """11e 20.04: "At the end of the third battle round ... all strategic reserves units that have
    not made one or more ingress moves are destroyed, with the following exceptions: ...
    Repositioned units" (20.02: units "removed from the battlefield and placed in strategic
    reserves during the battle"; 10e missions likewise spare units placed there after the first
    battle round has started). The Strike Squad waited in reserves from the start and is
    destroyed; the Cadians put there during the battle (as Mists of Deimos does) are not."""
    from rules.engine.phases.movement import place_into_strategic_reserves

    state = position_game(
        edition,
        {SQUAD: {"location": "strategic_reserves"}},
        battle_round=3,
        phase="fight",
        active_player=2,
    )
    ctx = Context(state)
    place_into_strategic_reserves(ctx, ctx.state["units"][CADIANS], "mists-of-deimos")
    state, events = play(ctx.state, {"type": "end_phase", "player": 2})
    state = pass_windows(state)
    assert state["battle_round"] == 4 or state["stage"] == "ended"
    assert state["units"][SQUAD]["location"] == "destroyed"
    assert state["units"][CADIANS]["location"] == "strategic_reserves"


# --- Digital Weapons: "as if they had the [PRECISION] ability" (audit, rulings R-IA-08) ----------


def digital_weapons_fight(edition):
    """Player 1's Fight phase: the Inquisitor bearing Digital Weapons stands west of the ruin at
    (16-22, 26-32), one Cadian within his Engagement Range in the open, the nine others east of
    the ruin; every Cadian is a CHARACTER. Three dice (4, 1, 1) are rolled when the unit is
    selected to fight; the state at the first Digital Weapons decision is returned."""
    armies = default_armies()
    armies["1"]["units"][1]["enhancements"] = ["digital-weapons"]
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    cadians = next(s for s in sheets if s["slug"] == "cadian-shock-troops")
    cadians["keywords"] = [*cadians["keywords"], "CHARACTER"]
    knights = {f"{LED_SQUAD}-m{i}": [13.2 - 1.5 * (i - 1), 29.0] for i in range(1, 6)}
    east = [[23.0 + 1.5 * (i % 3), 27.0 + 1.5 * (i // 3)] for i in range(9)]
    troopers = {f"{CADIANS}-m{i}": east[i - 2] for i in range(2, 11)}
    state = position_game(
        edition,
        {
            LED_SQUAD: {
                "positions": {**knights, f"{LED_SQUAD}-m6": [15.0, 29.0]},
                "flags": ["charged"],
            },
            CADIANS: {
                "positions": {
                    f"{CADIANS}-m1": [15.0, 27.2],
                    f"{CADIANS}-m2": [23.0, 29.0],
                    **troopers,
                }
            },
        },
        armies=armies,
        detachments={1: "imperialis-fleet"},
        datasheets=sheets,
        phase="fight",
        active_player=1,
    )
    state = to_fight_step(state)
    template = next(
        a for a in legal_actions(state, 1) if a["type"] == "fight" and a["unit"] == LED_SQUAD
    )
    action = {k: v for k, v in template.items() if v != "required"}
    if edition == "10e":
        models = state["units"][LED_SQUAD]["models"]
        action["pile_in"] = {m["id"]: [m["x"], m["y"], m["facing"]] for m in models}  # no move
    with scripted_dice(4, 1, 1):
        state, _ = play(state, action)
    while state["pending"][-1]["kind"] == "stratagem_window":
        state, _ = decide(state, "pass")
    return state


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_digital_weapons_mortal_wound_reaches_only_a_character_the_bearer_sees(edition):
    """Digital Weapons (seed 000 L730-732): "Mortal wounds inflicted by this Enhancement are
    allocated as if they had the [PRECISION] ability"; [PRECISION] reaches a CHARACTER model
    "visible to one or more of the attacking models" (11e 24.28; 10e Precision: "visible to the
    attacking model"). One 4+: the Cadian beside the Inquisitor may take the mortal wound, those
    behind the ruin may not (before the audit every CHARACTER model was offered)."""
    state = digital_weapons_fight(edition)
    top = state["pending"][-1]
    assert top["kind"] == "digital_weapons_target"
    assert top["options"] == [
        {"unit": CADIANS, "model": None},
        {"unit": CADIANS, "model": f"{CADIANS}-m1"},
    ]


# --- Orders issued by a stratagem count (audit, rulings R-AM-03) ---------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_snap_to_it_is_one_of_the_orders_the_officer_may_issue_in_the_battle_round(edition):
    """Voice of Command (seed 003 L159): each Officer's datasheet specifies "how many Orders it can
    issue in a battle round"; Snap To It (003 L685-693) lets it issue 1 Order "as if it were your
    Command phase", no more. Only Reactive Command prints that its Order "is not counted towards
    the number of Orders the bearer can issue in a battle round" (003 L718). The Castellan has
    issued all its Orders in the Command phase: at the start of the Movement phase Snap To It
    offers the Commissar's Orders, not the Castellan's (before the audit it offered both)."""
    from tests.orders_world import CASTELLAN_MODEL, COMMISSAR_MODEL, am_game
    from tests.orders_world import options as order_options
    from tests.orders_world import order as issue_order

    state = am_game(detachment="grizzled-company", edition=edition)
    issued = 0
    while castellan := sorted(o for o in order_options(state) if o[0] == CASTELLAN_MODEL):
        state, _ = issue_order(state, *castellan[0])
        issued += 1
    assert issued >= 1
    state, _ = play(state, {"type": "end_phase", "player": 2})  # the Movement phase starts
    top = state["pending"][-1]
    snap = [o for o in top["options"] if o != "pass" and o["stratagem"] == "snap-to-it"]
    assert {o["officer"] for o in snap} == {COMMISSAR_MODEL}


# --- Stealth per edition (audit, rulings R-AM-09, R-CB-10, SD-12) --------------------------------


def storm_bolters_at_stealthy_cadians(edition):
    """The Strike Squad shoots its storm bolters at Cadians with Stealth, 8" away in the open
    (no terrain between them); the hit roll's tray and whether the target had cover."""
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    cadians = next(s for s in sheets if s["slug"] == "cadian-shock-troops")
    cadians["abilities"] = [*cadians["abilities"], {"name": "Stealth", "kind": "core", "text": ""}]
    state = position_game(
        edition,
        {SQUAD: {"at": [2, 24]}, CADIANS: {"at": [2, 32]}},
        phase="shooting",
        active_player=1,
        datasheets=sheets,
    )
    _, events = shoot_passing_windows(state, 1, SQUAD, "Storm bolter", CADIANS)
    selected = next(e for e in events if e["type"] == "targets_selected")["attacks"][0]
    hits = next(
        e["tray"] for e in events if e["type"] == "attack_step" and e["tray"]["step"] == "hit_roll"
    )
    return selected["cover"], hits


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_stealth_is_cover_in_11e_and_minus_1_to_hit_in_10e(edition):
    """11e 24.33 Stealth: the unit has the benefit of cover against ranged attacks (BS worsened
    by 1, 13.08). The seeds quote no 10e Stealth, so the published 10e core rules govern: "each
    time a ranged attack is made against it, subtract 1 from that attack's Hit roll" - not cover
    (which in 10e would improve the save instead). Before the audit 10e used the 11e text."""
    cover, hits = storm_bolters_at_stealthy_cadians(edition)
    if edition == "11e":
        assert cover is True and hits["modifier"] == 0
    else:
        assert cover is False and hits["modifier"] == -1
        assert hits["modifiers"] == [{"applied": "Stealth -1"}]
