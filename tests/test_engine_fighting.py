"""Fighting through `apply`: fight order, pile in, melee attacks, consolidation (11e 12; 10e
Fight Phase), and the defender's allocation order inside the attack sequence (11e 05.03)."""

import pytest

from rules.engine.core.refusals import Refusal
from rules.engine.core.state import base_radius_inches
from rules.engine.phases.fight import current_step, selecting_player
from rules.engine.sequence.game import apply, legal_actions
from tests.engine_world import (
    army,
    decide,
    deployed_game,
    end_phase,
    entry,
    kill,
    place_unit,
    play,
    script_dice,
)
from tests.orders_world import (
    CADIANS as LED_CADIANS,
)
from tests.orders_world import (
    CASTELLAN_MODEL,
    COMMISSAR_MODEL,
    RIDERS,
    SQUAD_1,
    am_game,
    stand,
)
from tests.stratagem_world import to_phase as to_phase_of

SQUAD = "p1-u2"
LED = "p1-u1"
CADIANS = "p2-u1"
OTHER_CADIANS = "p2-u2"
BOTH = pytest.mark.parametrize("edition", ["11e", "10e"])


def to_phase(state, phase):
    while state["phase"] != phase:
        state, _ = end_phase(state)
    return state


def settle(state):
    """Decline 10e consolidation decisions and pass 11e pile-in/consolidation steps."""
    while True:
        if state["pending"] and state["pending"][-1]["kind"] == "consolidate_move":
            state, _ = decide(state, None)
            continue
        step, player = current_step(state)
        if step not in ("pile_in", "consolidate"):
            return state
        state, _ = play(state, {"type": "end_step", "player": player})


def engaged_fight(edition, charged=True, pile_in_step=False):
    """The Strike Squad (one Grey Knight left) stands 0.5" from the Cadians; it charged. Unless
    `pile_in_step`, the 11e Pile In step (12.02) is over: no unit moved."""
    state, _ = deployed_game(edition)
    kill(state, SQUAD, 4)
    place_unit(state, CADIANS, 46.0, 20.0)
    place_unit(state, SQUAD, 46.0, 21.6 + 0.5 + 0.49 + 0.63)
    state = to_phase(state, "fight")
    if charged:
        state["facts"]["turn"].setdefault("charged", []).append(SQUAD)
    return state if pile_in_step else settle(state)


def fight(player, unit, **extra):
    return {"type": "fight", "player": player, "unit": unit, **extra}


@BOTH
def test_chargers_fight_first_then_players_alternate_from_the_player_whose_turn_it_is_not(
    edition,
):
    """11e 12.04 / 10e Fights First and Remaining Combats: the charging Strike Squad fights
    first; then player 2 (whose turn it is not) selects, then player 1, then player 2."""
    state, _ = deployed_game(edition)
    kill(state, SQUAD, 4)
    kill(state, LED, 4, part=0)
    place_unit(state, CADIANS, 10.0, 20.0)
    place_unit(state, SQUAD, 10.0, 23.0)
    place_unit(state, OTHER_CADIANS, 40.0, 20.0)
    place_unit(state, LED, 40.0, 23.0)
    state = to_phase(state, "fight")
    state["facts"]["turn"].setdefault("charged", []).append(SQUAD)
    state = settle(state)
    assert selecting_player(state) == 1
    assert {a["unit"] for a in legal_actions(state, 1) if a["type"] == "fight"} == {SQUAD}
    with pytest.raises(Refusal) as refusal:
        apply(state, fight(1, LED))
    assert refusal.value.code == "not_eligible_to_fight"
    order = []
    for _ in range(4):
        player = selecting_player(state)
        unit = next(a["unit"] for a in legal_actions(state, player) if a["type"] == "fight")
        state, _ = play(state, fight(player, unit))
        order.append(unit)
        state = settle(state)  # no consolidation moves
    assert order[0] == SQUAD
    assert [state["units"][u]["player"] for u in order] == [1, 2, 1, 2]
    assert selecting_player(state) is None


@BOTH
def test_a_fighting_unit_makes_its_melee_attacks_then_may_consolidate(edition):
    """12.05 / 10e Fight: the Grey Knight's Nemesis force weapon (3 attacks, WS 3+) at the
    Cadians; every die is recorded; then a consolidation decision for its player."""
    state = engaged_fight(edition)
    script_dice(state, [5, 6, 2, 4, 3])
    state, events = play(state, fight(1, SQUAD))
    rolls = {e["purpose"]: e["values"] for e in events if e["type"] == "dice_rolled"}
    assert rolls["hit_roll"] == [5, 6, 2]
    assert rolls["wound_roll"] == [4, 3]  # S6 against T3: 2+
    assert len(rolls["save_roll"]) == 2  # Sv 5+ at AP -2 cannot pass
    steps = [e["tray"] for e in events if e["type"] == "attack_step"]
    assert steps[1]["summary"] == "3 hit rolls, WS 3+: 2 hits, 1 critical"
    assert {step["weapon"] for step in steps} == {"Nemesis force weapon"}
    assert sum(e["type"] == "model_destroyed" for e in events) == 2
    if edition == "10e":  # Consolidate: right after the unit's attacks
        assert state["pending"][-1]["kind"] == "consolidate_move"
        assert state["pending"][-1]["player"] == 1
        state, events = decide(state, None)
    else:  # 12.07: in the Consolidate step, after every fight; the Cadians fight back first
        assert current_step(state) == ("fight", 2)
    assert events[-1]["type"] == "unit_fought"


@BOTH
def test_pile_in_is_up_to_3_inches_toward_the_enemy(edition):
    """11e 12.02-12.03 (a Pile In step before the fights, the active player first) / 10e Pile In
    (when the unit is selected to fight): each model moves up to 3"; too far is refused."""
    state = engaged_fight(edition, pile_in_step=True)
    model = next(m for m in state["units"][SQUAD]["models"] if m["wounds_left"])
    enemy = max(
        (m for m in state["units"][CADIANS]["models"] if m["x"] == model["x"]),
        key=lambda m: m["y"],
    )
    gap = (
        model["y"]
        - enemy["y"]
        - base_radius_inches(model["base"])
        - base_radius_inches(enemy["base"])
    )
    too_far = {model["id"]: [model["x"] + 4.0, model["y"] - 0.2, 0.0]}
    closer = {model["id"]: [model["x"], model["y"] - gap + 1e-7, 0.0]}  # base contact

    def pile_in(positions):
        if edition == "11e":
            return {"type": "pile_in", "player": 1, "unit": SQUAD, "positions": positions}
        return fight(1, SQUAD, pile_in=positions)

    with pytest.raises(Refusal) as refusal:
        apply(state, pile_in(too_far))
    assert refusal.value.code == "move_too_far"
    state, events = play(state, pile_in(closer))
    moved = next(e for e in events if e["type"] == "unit_moved")
    assert moved["move"] == "pile_in"
    assert moved["positions"][model["id"]][1] == pytest.approx(model["y"] - gap)
    if edition == "11e":
        assert current_step(state) == ("pile_in", 2)  # player 1 has no other unit to move
        with pytest.raises(Refusal) as refusal:
            apply(state, pile_in(closer))  # one pile-in move per unit; now player 2 moves
        assert refusal.value.code == "not_your_turn"
        state = settle(state)
        with pytest.raises(Refusal) as refusal:
            apply(state, fight(1, SQUAD, pile_in=closer))
        assert refusal.value.code == "pile_in_step"


@BOTH
def test_consolidation_is_checked_like_a_move(edition):
    """11e 12.07-12.08 (a Consolidate step after all fights) / 10e Consolidate (after the unit's
    attacks): up to 3"; a 5" move is refused."""
    state = engaged_fight(edition)
    kill(state, CADIANS, 9)  # one Cadian left
    state, _ = play(state, fight(1, SQUAD))
    model = next(m for m in state["units"][SQUAD]["models"] if m["wounds_left"])
    away = {model["id"]: [model["x"] + 5.0, model["y"] + 3.0, 0.0]}
    if edition == "10e":
        top = state["pending"][-1]
        action = {"type": "decide", "player": 1, "decision": top["id"], "choice": away}
    else:
        if current_step(state) == ("fight", 2):
            state, _ = play(state, fight(2, CADIANS))
        assert current_step(state) == ("consolidate", 1)
        action = {"type": "consolidate", "player": 1, "unit": SQUAD, "positions": away}
        with pytest.raises(Refusal) as refusal:
            apply(state, {"type": "end_phase", "player": 1})
        assert refusal.value.code == "fight_steps_remaining"
    with pytest.raises(Refusal) as refusal:
        apply(state, action)
    assert refusal.value.code == "move_too_far"


@BOTH
def test_the_defender_chooses_the_allocation_order_when_the_rules_give_a_choice(edition):
    """11e 05.03 / 10e Allocate Attack: a Sergeant with 2 wounds and the troopers with 1 form two
    groups; with no model wounded either may take the attacks, so player 2 is asked. Choosing
    the troopers first, two failed saves destroy two troopers and the Sergeant is untouched."""
    state, _ = deployed_game(edition)
    kill(state, "p1-u2", 4)
    sergeant = state["units"][CADIANS]["models"][0]
    sergeant["W"] = sergeant["wounds_left"] = 2
    place_unit(state, "p1-u2", 47.0, 1.0)
    place_unit(state, CADIANS, 46.0, 18.0)
    state = to_phase(state, "shooting")
    script_dice(state, [6, 6, 6, 6])
    action = {
        "type": "shoot",
        "player": 1,
        "unit": "p1-u2",
        "assignments": [{"weapon": "Storm bolter", "target": CADIANS}],
    }
    state, events = play(state, action)
    decision = state["pending"][-1]
    assert (decision["kind"], decision["player"]) == ("allocation_order", 2)
    assert decision["options"] == [[0, 1], [1, 0]]
    assert not any(e["type"] == "model_destroyed" for e in events)
    script_dice(state, [1, 1])
    state, events = decide(state, [1, 0])
    assert [e["values"] for e in events if e["type"] == "dice_rolled"] == [[1, 1]]
    destroyed = [e["model"] for e in events if e["type"] == "model_destroyed"]
    assert len(destroyed) == 2 and sergeant["id"] not in destroyed
    assert events[-1]["type"] == "attacks_resolved"


def test_a_model_fights_with_one_weapon_plus_its_extra_attacks_weapons():
    """11e 24.11 / 10e Extra Attacks: the Death Rider Commissar fights with its close combat
    weapon and, in addition, its savage claws (AMB-40: both by default)."""
    armies = {
        "1": army(entry("ss", "strike-squad", 5, warlord=True)),
        "2": army(entry("dr", "death-rider-commissar", 1, warlord=True)),
    }
    state, _ = deployed_game("10e", armies)
    place_unit(state, "p1-u1", 30.0, 10.0)
    place_unit(state, "p2-u1", 30.0, 12.0)
    state = to_phase(state, "fight")
    state["facts"]["turn"].setdefault("charged", []).append("p2-u1")
    options = next(a for a in legal_actions(state, 2) if a["type"] == "fight")["weapons"]
    assert {(o["weapon"], o["extra_attacks"]) for o in options} == {
        ("Commissar's close combat weapon", False),
        ("Savage claws", True),
    }
    state, events = play(state, fight(2, "p2-u1"))
    weapons = [e["tray"]["weapon"] for e in events if e["type"] == "attack_step"]
    assert "Commissar's close combat weapon" in weapons and "Savage claws" in weapons
    gathered = {
        e["tray"]["weapon"]: e["tray"]["successes"]
        for e in events
        if e["type"] == "attack_step" and e["tray"]["step"] == "attack"
    }
    assert gathered == {"Commissar's close combat weapon": 3, "Savage claws": 2}


@BOTH
def test_each_model_chooses_the_melee_weapon_it_fights_with(edition):
    """11e 04.01 / 10e Making Attacks: a model with more than one melee weapon fights with the one
    its player selects, plus its [EXTRA ATTACKS] weapons (11e 24.11). Every Death Rider carries a
    frag lance and a power sabre: the fight template lists that choice per model and the engine's
    default; two riders fight with sabres and three with lances, each with its steed's claws."""
    state = am_game(edition=edition)
    stand(state, SQUAD_1, 30.0, 10.0)
    stand(state, RIDERS, 30.0, 12.2)
    state["facts"]["turn"].setdefault("charged", []).append(RIDERS)  # they fight first
    state = to_phase_of(state, 2, "fight")
    template = next(a for a in legal_actions(state, 2) if a["type"] == "fight")
    riders = [m["id"] for m in state["units"][RIDERS]["models"] if m["id"] != COMMISSAR_MODEL]
    assert template["weapon_choices"] == [
        {"model": rider, "weapons": ["Frag lance", "Power sabre"]} for rider in riders
    ]
    defaults = {row["weapon"]: row["models"] for row in template["default_assignments"]}
    assert defaults["Frag lance"] == riders and "Power sabre" not in defaults
    both = [
        {"weapon": "Frag lance", "models": riders, "target": SQUAD_1},
        {"weapon": "Power sabre", "models": riders[:1], "target": SQUAD_1},
    ]
    with pytest.raises(Refusal) as refusal:
        apply(state, fight(2, RIDERS, assignments=both))
    assert refusal.value.code == "extra_attacks_selection"
    stranger = [{"weapon": "Power sabre", "models": [COMMISSAR_MODEL], "target": SQUAD_1}]
    with pytest.raises(Refusal) as refusal:
        apply(state, fight(2, RIDERS, assignments=stranger))
    assert refusal.value.code == "weapon_not_carried"
    mixed = [
        {"weapon": "Power sabre", "models": riders[:2], "target": SQUAD_1},
        {"weapon": "Frag lance", "models": riders[2:], "target": SQUAD_1},
        {"weapon": "Steed's savage claws", "models": riders, "target": SQUAD_1},
    ]
    state, events = play(state, fight(2, RIDERS, assignments=mixed))
    while state["pending"] and state["pending"][-1]["player"] in (1, 2):
        top = state["pending"][-1]
        answer = top["options"][0] if top["kind"] == "allocation_order" else "pass"
        if top["kind"] not in ("allocation_order", "stratagem_window"):
            break
        state, more = decide(state, answer)
        events += more
    attacks = {
        e["tray"]["weapon"]
        for e in events
        if e["type"] == "attack_step" and e["tray"]["step"] == "attack"
    }
    assert attacks == {"Power sabre", "Frag lance", "Steed's savage claws"}


@BOTH
def test_a_leader_fights_with_its_own_profile_of_a_weapon_its_bodyguard_also_carries(edition):
    """11e 04.03 Identical Attacks / 10e Making Attacks: only attacks with the same
    characteristics are gathered together. The Cadian Castellan's chainsword (A 5, WS 3+) and its
    Shock Troops Sergeant's (A 3, WS 4+) share a name, not a profile: each model gathers its own
    weapon's attack dice, in two groups."""
    state = am_game(edition=edition)
    stand(state, SQUAD_1, 30.0, 10.0)
    stand(state, LED_CADIANS, 30.0, 11.8)
    models = state["units"][LED_CADIANS]["models"]
    castellan = next(m for m in models if m["id"] == CASTELLAN_MODEL)
    trooper = models[1]  # in the front rank: the Castellan takes its place there
    (castellan["x"], castellan["y"]), (trooper["x"], trooper["y"]) = (
        (trooper["x"], trooper["y"]),
        (castellan["x"], castellan["y"]),
    )
    state["facts"]["turn"].setdefault("charged", []).append(LED_CADIANS)
    state = to_phase_of(state, 2, "fight")
    sergeant = models[0]["id"]
    chainswords = [
        {"weapon": "Chainsword", "models": [sergeant, CASTELLAN_MODEL], "target": SQUAD_1}
    ]
    state, events = play(state, fight(2, LED_CADIANS, assignments=chainswords))
    while state["pending"] and state["pending"][-1]["kind"] == "stratagem_window":
        state, more = decide(state, "pass")
        events += more
    gathered = [
        (e["tray"]["weapon"], e["tray"]["successes"])
        for e in events
        if e["type"] == "attack_step" and e["tray"]["step"] == "attack"
    ]
    assert gathered == [("Chainsword", 3), ("Chainsword", 5)]
