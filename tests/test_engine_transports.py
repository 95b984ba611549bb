"""Transports in play (11e §18.01-18.05, 24.08; 10e Transports, Destroyed Transport, Deadly
Demise), through `apply` and `legal_actions`.

The world: player 1 has a Strike Squad led by an Inquisitor (p1-u1), a second Strike Squad
(p1-u2) and a Rhino (p1-u3, capacity 12 GREY KNIGHTS INFANTRY, no TERMINATOR); player 2 has ten
Cadian Shock Troops (p2-u1) and a Chimera (p2-u2, 12 ASTRA MILITARUM INFANTRY, Ogryn take 3, no
Artillery). The Rhino stands at (40, 6), the Chimera at (40, 38); a Rhino hull is 117 x 86 mm.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.engine.army.transport_capacity import read_transport_capacity
from rules.engine.attacks.casualties import destroy_model
from rules.engine.battlefield.placement import table
from rules.engine.core.effects import has_status
from rules.engine.core.events import Context
from rules.engine.core.facts import has_flag
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models, copy_state
from rules.engine.phases.battle_shock import is_battle_shocked
from rules.engine.phases.transports import resolve_aftermath
from rules.engine.sequence.game import legal_actions, new_game
from tests.engine_world import (
    BUNDLE,
    SEED,
    army,
    decide,
    deployed_game,
    end_phase,
    entry,
    place_unit,
    play,
    script_dice,
    setup,
)

ROOT = Path(__file__).resolve().parent.parent
SQUAD, SECOND_SQUAD, RHINO = "p1-u1", "p1-u2", "p1-u3"
CADIANS, CHIMERA = "p2-u1", "p2-u2"
INQUISITOR, AGENTS_CHIMERA = "p1-u4", "p1-u5"  # with agents_transport=True


def _published(faction: str, slug: str) -> dict:
    data = json.loads((ROOT / "rules/data/factions" / faction / "published.json").read_text())
    return next(s for s in data["datasheets"] if s["slug"] == slug)


def _seed_inquisitor() -> dict:
    data = json.loads((ROOT / "rules/data/factions/imperial-agents/seed.json").read_text())
    return next(s for s in data["datasheets"] if s["slug"] == "inquisitor")


def datasheets(authority: bool = True) -> list[dict]:
    sheets = [s for s in BUNDLE["datasheets"] if not (authority and s["slug"] == "inquisitor")]
    if authority:
        bundled = next(s for s in BUNDLE["datasheets"] if s["slug"] == "inquisitor")
        sheets.append({**bundled, "abilities": _seed_inquisitor()["abilities"]})
    return sheets + [
        _published("grey-knights", "rhino"),
        _published("astra-militarum", "chimera"),
        _published("imperial-agents", "inquisitorial-chimera"),
    ]


def armies(squad_size: int = 5, faction: str | None = None, agents_transport: bool = False):
    first = army(
        entry("ss1", "strike-squad", 5),
        entry("inq", "inquisitor", 1, attached_to="ss1", role="leader", warlord=True),
        entry("ss2", "strike-squad", squad_size),
        entry("rh", "rhino", 1),
        *(
            [entry("inq2", "inquisitor", 1), entry("ic", "inquisitorial-chimera", 1)]
            if agents_transport
            else []
        ),
    )
    if faction:
        first["faction"] = faction
    return {
        "1": first,
        "2": army(
            entry("cad1", "cadian-shock-troops", 10, warlord=True), entry("ch", "chimera", 1)
        ),
    }


PLACES = {
    RHINO: (40.0, 6.0),
    CHIMERA: (40.0, 38.0),
    SECOND_SQUAD: (14.0, 2.0),
    AGENTS_CHIMERA: (52.0, 6.0),
}


def game(edition: str, embarked=None, authority: bool = True, **options):
    return deployed_game(
        edition,
        armies(**options),
        places=PLACES,
        embarked=embarked,
        datasheets=datasheets(authority),
    )[0]


def to_phase(state, phase, player=1):
    while not (state["phase"] == phase and state["active_player"] == player):
        state, _ = end_phase(state)
    return state


def template(state, kind, unit, player=1):
    return next(
        a for a in legal_actions(state, player) if a["type"] == kind and a.get("unit") == unit
    )


def disembark(state, unit=SQUAD, positions=None, player=1):
    found = template(state, "disembark", unit, player)
    action = {
        "type": "disembark",
        "player": player,
        "unit": unit,
        "positions": positions or found["suggested"],
    }
    return play(state, action)


def destroy(state, unit_id):
    """The unit's last model is destroyed (by whatever rule), then its aftermath resolves."""
    ctx = Context(copy_state(state))
    unit = ctx.state["units"][unit_id]
    for model in alive_models(unit):
        destroy_model(ctx, unit, model, "test")
    resolve_aftermath(ctx)
    return ctx.state, ctx.events


# --- 18.01 capacity as data -------------------------------------------------------------------


def test_chimera_transport_capacity_is_read_from_its_datasheet():
    """18.01: the Chimera's Transport ability becomes data (12 ASTRA MILITARUM INFANTRY; each
    OGRYN takes 3; no ARTILLERY)."""
    assert read_transport_capacity(_published("astra-militarum", "chimera")) == {
        "capacity": 12,
        "eligible": ["ASTRA MILITARUM INFANTRY"],
        "space": {"OGRYN": 3},
        "excluded": ["ARTILLERY"],
    }


def test_rhino_transport_capacity_is_read_from_its_datasheet():
    assert read_transport_capacity(_published("grey-knights", "rhino")) == {
        "capacity": 12,
        "eligible": ["GREY KNIGHTS INFANTRY"],
        "space": {},
        "excluded": ["TERMINATOR"],
    }


def test_inquisitorial_chimera_transport_capacity_is_read_from_its_datasheet():
    capacity = read_transport_capacity(_published("imperial-agents", "inquisitorial-chimera"))
    assert capacity["capacity"] == 13
    assert capacity["eligible"] == ["INQUISITOR INFANTRY", "INQUISITORIAL AGENT"]
    assert capacity["excluded"] == ["TERMINATOR"]


def test_every_transport_text_in_the_rules_data_is_read():
    for path in sorted((ROOT / "rules/data/factions").glob("*/*.json")):
        for sheet in json.loads(path.read_text())["datasheets"]:
            if "TRANSPORT" in sheet.get("keywords", []):
                assert read_transport_capacity(sheet)["capacity"] > 0, sheet["slug"]


def test_an_unreadable_transport_text_stops_the_muster():
    rhino = _published("grey-knights", "rhino")
    broken = {
        **rhino,
        "abilities": [{"name": "Transport", "kind": "datasheet", "text": "Carries some friends."}],
    }
    with pytest.raises(Refusal) as refused:
        read_transport_capacity(broken)
    assert refused.value.code == "unreadable_transport_capacity"
    assert "Carries some friends" in refused.value.message


# --- starting embarked ---------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_units_start_the_battle_embarked(edition):
    """18.01 / 10e Declare Battle Formations: a unit can start embarked within a friendly
    TRANSPORT with enough capacity; it is not on the battlefield (01.02.04): it has no
    position, nothing measures to it and it cannot be shot."""
    state = game(edition, embarked={1: {SECOND_SQUAD: RHINO}})
    squad = state["units"][SECOND_SQUAD]
    assert squad["location"] == "embarked" and squad["embarked_in"] == RHINO
    assert all(m["x"] is None for m in squad["models"])
    assert SECOND_SQUAD not in {p.unit_id for p in table(state)}
    state = to_phase(state, "shooting", 2)
    for action in legal_actions(state, 2):
        for weapon in action.get("weapons", []):
            assert SECOND_SQUAD not in weapon["targets"]


def test_the_declaration_lists_each_units_possible_transports():
    state, _ = new_game(setup("11e", armies(), datasheets=datasheets()), SEED)
    declare = legal_actions(state, 1)[0]
    assert declare["embark_options"] == {SQUAD: [RHINO], SECOND_SQUAD: [RHINO]}


def test_transport_capacity_is_enforced_when_units_start_embarked():
    """18.01: the TRANSPORT needs capacity remaining for the whole unit: 5 + 1 and 10 models do
    not fit in 12 places."""
    with pytest.raises(Refusal) as refused:
        game("11e", embarked={1: {SQUAD: RHINO, SECOND_SQUAD: RHINO}}, squad_size=10)
    assert refused.value.code == "transport_full"
    assert "needs 10 places" in refused.value.message and "6 of 12" in refused.value.message


def test_only_eligible_models_start_embarked():
    """The Chimera carries ASTRA MILITARUM INFANTRY only: a Strike Squad cannot embark in it
    (and not in the opponent's TRANSPORT at all)."""
    with pytest.raises(Refusal) as refused:
        game("11e", embarked={1: {SECOND_SQUAD: CHIMERA}})
    assert refused.value.code == "not_your_unit"


def test_authority_of_the_inquisition_lets_the_leader_embark_with_its_bodyguard():
    """Authority of the Inquisition: while leading a unit, the Inquisitor can embark within any
    TRANSPORT its Bodyguard can; without the ability the INQUISITOR is refused by the Rhino."""
    state = game("11e", embarked={1: {SQUAD: RHINO}})
    assert state["units"][SQUAD]["location"] == "embarked"
    with pytest.raises(Refusal) as refused:
        game("11e", embarked={1: {SQUAD: RHINO}}, authority=False)
    assert refused.value.code == "not_eligible_to_embark"
    assert "GREY KNIGHTS INFANTRY" in refused.value.message


def test_inquisitor_coteaz_authority_of_the_inquisition_is_the_same_rule():
    from rules.engine.core.hooks import IMPLEMENTED

    assert IMPLEMENTED[("datasheet-ability", "inquisitor-coteaz/authority-of-the-inquisition")]


def test_assigned_agents_dedicated_transport_without_passengers_is_destroyed():
    """Assigned Agents: in a Grey Knights army an AGENTS OF THE IMPERIUM DEDICATED TRANSPORT
    must start the battle with a unit embarked, or it counts as destroyed."""
    state = game("11e", faction="grey-knights", agents_transport=True)
    chimera = state["units"][AGENTS_CHIMERA]
    assert chimera["location"] == "destroyed"


def test_assigned_agents_dedicated_transport_with_a_passenger_deploys():
    state = game(
        "11e",
        embarked={1: {INQUISITOR: AGENTS_CHIMERA}},
        faction="grey-knights",
        agents_transport=True,
    )
    assert state["units"][AGENTS_CHIMERA]["location"] == "battlefield"
    assert state["units"][INQUISITOR]["embarked_in"] == AGENTS_CHIMERA


# --- disembarking, 11e ----------------------------------------------------------------------


def test_tactical_disembark_then_the_unit_must_make_a_normal_or_advance_move():
    """11e 18.04: the Rhino has not moved: tactical disembark wholly within 3", then the unit
    is selected for a normal or advance move (no remain stationary, no end of phase first)."""
    state = to_phase(game("11e", embarked={1: {SQUAD: RHINO}}), "movement")
    found = template(state, "disembark", SQUAD)
    assert found["mode"] == "tactical" and found["positions"] == "required"
    state, events = disembark(state)
    assert any(e["type"] == "unit_disembarked" and e["mode"] == "tactical" for e in events)
    assert state["units"][SQUAD]["location"] == "battlefield"
    assert {a["type"] for a in legal_actions(state, 1)} == {"move", "advance"}
    with pytest.raises(Refusal) as refused:
        end_phase(state)
    assert refused.value.code == "tactical_disembark_move"
    with pytest.raises(Refusal):
        play(state, {"type": "remain_stationary", "player": 1, "unit": SQUAD})
    state, _ = play(state, {"type": "advance", "player": 1, "unit": SQUAD})
    assert state["pending"][-1]["kind"] == "advance_move"


def test_disembark_positions_must_be_wholly_within_3_inches():
    """11e 18.04 / 10e Disembark: each model wholly within 3" of the TRANSPORT."""
    state = to_phase(game("11e", embarked={1: {SECOND_SQUAD: RHINO}}), "movement")
    unit = state["units"][SECOND_SQUAD]
    far = {m["id"]: [20.0 + 1.5 * i, 20.0, 0.0] for i, m in enumerate(alive_models(unit))}
    with pytest.raises(Refusal) as refused:
        disembark(state, SECOND_SQUAD, far)
    assert refused.value.code == "too_far_from_transport"
    assert refused.value.rule == "18.04"


def test_rapid_disembark_after_the_transport_moved_forbids_a_charge():
    """11e 18.04: the Rhino made a normal move: rapid disembark; the unit cannot declare a
    charge this turn and has acted."""
    state = to_phase(game("11e", embarked={1: {SQUAD: RHINO}}), "movement")
    rhino = state["units"][RHINO]["models"][0]
    state, _ = play(
        state,
        {
            "type": "move",
            "player": 1,
            "unit": RHINO,
            "positions": {rhino["id"]: [40.0, 10.0, 0.0]},
        },
    )
    assert template(state, "disembark", SQUAD)["mode"] == "rapid"
    state, _ = disembark(state)
    assert has_status(state, SQUAD, "cannot_charge")
    assert not any(a.get("unit") == SQUAD for a in legal_actions(state, 1))


def test_no_disembark_after_the_transport_advanced():
    """11e 18.04: not if the TRANSPORT made an advance move this phase."""
    state = to_phase(game("11e", embarked={1: {SQUAD: RHINO}}), "movement")
    state, _ = play(state, {"type": "advance", "player": 1, "unit": RHINO})
    rhino = state["units"][RHINO]["models"][0]
    state, _ = decide(state, {rhino["id"]: [40.0, 10.0, 0.0]})
    assert not any(a["type"] == "disembark" for a in legal_actions(state, 1))
    with pytest.raises(Refusal) as refused:
        disembark_positions = {m["id"]: [0, 0, 0] for m in alive_models(state["units"][SQUAD])}
        play(
            state,
            {"type": "disembark", "player": 1, "unit": SQUAD, "positions": disembark_positions},
        )
    assert refused.value.code == "transport_advanced_or_fell_back"


def test_inquisitorial_chimera_rapid_deployment_allows_a_disembark_after_advancing():
    """Rapid Deployment: units can disembark after this TRANSPORT Advanced; they count as having
    made a Normal move and cannot charge."""
    state = game(
        "11e",
        embarked={1: {INQUISITOR: AGENTS_CHIMERA}},
        faction="grey-knights",
        agents_transport=True,
    )
    state = to_phase(state, "movement")
    chimera = state["units"][AGENTS_CHIMERA]["models"][0]
    state, _ = play(state, {"type": "advance", "player": 1, "unit": AGENTS_CHIMERA})
    state, _ = decide(state, {chimera["id"]: [chimera["x"], chimera["y"] + 4, 0.0]})
    assert template(state, "disembark", INQUISITOR)["mode"] == "rapid"
    state, _ = disembark(state, INQUISITOR)
    assert has_flag(state, INQUISITOR, "moved") and has_status(state, INQUISITOR, "cannot_charge")


def test_combat_disembark_when_a_tactical_one_is_impossible():
    """11e 18.04 / AMB-35: the Rhino has not moved but no set-up wholly within 3" and unengaged
    exists: combat disembark (6", may engage the enemies the TRANSPORT is engaged with), a hazard
    roll per model, then battle-shocked and no charge."""
    state = to_phase(game("11e", embarked={1: {SECOND_SQUAD: RHINO}}), "movement")
    # Cadians close around the Rhino: a ring of ten models 1" from its hull.
    cadians = state["units"][CADIANS]
    spots = [
        (36.5, 6.0), (43.5, 6.0), (38.0, 9.0), (40.0, 9.2), (42.0, 9.0),
        (38.0, 3.0), (40.0, 2.8), (42.0, 3.0), (36.8, 8.6), (43.2, 3.4),
    ]  # fmt: skip
    for model, (x, y) in zip(alive_models(cadians), spots, strict=True):
        model["x"], model["y"] = x, y
    found = template(state, "disembark", SECOND_SQUAD)
    assert found["mode"] == "combat"
    script_dice(state, [6, 6, 6, 6, 1])
    state, events = disembark(state, SECOND_SQUAD, found["suggested"])
    if state["pending"]:  # the owner allocates the hazard's mortal wound
        state, more = decide(state, state["pending"][-1]["options"][0])
        events += more
    assert any(e["type"] == "disembark_mode_selected" and e["mode"] == "combat" for e in events)
    assert any(e["type"] == "dice_rolled" and e["purpose"] == "hazard" for e in events)
    squad = state["units"][SECOND_SQUAD]
    assert len(alive_models(squad)) == 5 and sum(m["wounds_left"] for m in squad["models"]) == 9
    assert is_battle_shocked(state, SECOND_SQUAD) and has_status(
        state, SECOND_SQUAD, "cannot_charge"
    )


# --- disembarking, 10e ----------------------------------------------------------------------


def test_10e_disembark_before_the_transport_moves_lets_the_unit_act_normally():
    """10e Disembark: before the TRANSPORT moves, set up wholly within 3"; the unit may then move
    (or remain stationary) as normal."""
    state = to_phase(game("10e", embarked={1: {SQUAD: RHINO}}), "movement")
    assert template(state, "disembark", SQUAD)["mode"] == "before_transport_moved"
    state, _ = disembark(state)
    kinds = {a["type"] for a in legal_actions(state, 1) if a.get("unit") == SQUAD}
    assert {"remain_stationary", "move", "advance"} <= kinds


def test_10e_disembark_after_the_transport_moved_cannot_move_further_or_charge():
    """10e Disembark: after the TRANSPORT made a Normal move, the unit cannot move further this
    phase and cannot declare a charge this turn."""
    state = to_phase(game("10e", embarked={1: {SQUAD: RHINO}}), "movement")
    rhino = state["units"][RHINO]["models"][0]
    state, _ = play(
        state,
        {"type": "move", "player": 1, "unit": RHINO, "positions": {rhino["id"]: [40, 10, 0]}},
    )
    assert template(state, "disembark", SQUAD)["mode"] == "after_transport_moved"
    state, _ = disembark(state)
    assert not any(a.get("unit") == SQUAD for a in legal_actions(state, 1))
    assert has_status(state, SQUAD, "cannot_charge")


# --- embarking ------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_unit_embarks_right_after_its_normal_move(edition):
    """11e 18.02 / 10e Embark: after a normal move with every model within 3" of the TRANSPORT
    the unit may embark; it is then off the battlefield and cannot disembark this phase."""
    state = to_phase(game(edition), "movement")
    place_unit(state, SECOND_SQUAD, 37.0, 9.0)
    squad = state["units"][SECOND_SQUAD]
    positions = {m["id"]: [m["x"], m["y"] + 0.5, 0.0] for m in alive_models(squad)}
    state, _ = play(
        state, {"type": "move", "player": 1, "unit": SECOND_SQUAD, "positions": positions}
    )
    assert template(state, "embark", SECOND_SQUAD)["transport"] == RHINO
    state, events = play(
        state, {"type": "embark", "player": 1, "unit": SECOND_SQUAD, "transport": RHINO}
    )
    assert state["units"][SECOND_SQUAD]["location"] == "embarked"
    assert not any(a.get("unit") == SECOND_SQUAD for a in legal_actions(state, 1))


def test_embark_is_refused_once_something_else_happened_after_the_move():
    """18.02: the unit embarks right after its move; here another unit acted in between."""
    state = to_phase(game("11e"), "movement")
    place_unit(state, SECOND_SQUAD, 37.0, 9.0)
    squad = state["units"][SECOND_SQUAD]
    positions = {m["id"]: [m["x"], m["y"] + 0.5, 0.0] for m in alive_models(squad)}
    state, _ = play(
        state,
        {"type": "move", "player": 1, "unit": SECOND_SQUAD, "positions": positions},
        {"type": "remain_stationary", "player": 1, "unit": SQUAD},
    )
    with pytest.raises(Refusal) as refused:
        play(state, {"type": "embark", "player": 1, "unit": SECOND_SQUAD, "transport": RHINO})
    assert refused.value.code == "not_just_moved" and refused.value.rule == "18.02"


def test_embark_is_refused_with_the_distance_when_a_model_is_too_far():
    state = to_phase(game("11e"), "movement")
    place_unit(state, SECOND_SQUAD, 12.0, 4.0)
    squad = state["units"][SECOND_SQUAD]
    positions = {m["id"]: [m["x"] + 1.0, m["y"], 0.0] for m in alive_models(squad)}
    state, _ = play(
        state, {"type": "move", "player": 1, "unit": SECOND_SQUAD, "positions": positions}
    )
    with pytest.raises(Refusal) as refused:
        play(state, {"type": "embark", "player": 1, "unit": SECOND_SQUAD, "transport": RHINO})
    assert refused.value.code == "too_far_to_embark"
    assert 'it must be within 3"' in refused.value.message


# --- destroyed transports -------------------------------------------------------------------


def test_emergency_disembark_when_the_rhino_is_destroyed():
    """11e 18.05: a hazard roll per model, then the owner sets the unit up wholly within 6" and
    as close as possible; the unit is battle-shocked and cannot charge this turn."""
    state = to_phase(game("11e", embarked={1: {SECOND_SQUAD: RHINO}}), "shooting", 2)
    script_dice(state, [3, 3, 3, 3, 3, 1])  # hazard rolls: all pass; Deadly Demise: no 6
    state, events = destroy(state, RHINO)
    decision = state["pending"][-1]
    assert decision["kind"] == "emergency_disembark" and decision["player"] == 1
    assert decision["options"]["max_distance"] == 6
    suggested = decision["options"]["suggested"]
    assert len(suggested) == 5
    cx = sum(v[0] for v in suggested.values()) / 5 - 40.0
    cy = sum(v[1] for v in suggested.values()) / 5 - 6.0
    norm = (cx**2 + cy**2) ** 0.5
    far = {k: [v[0] + 2 * cx / norm, v[1] + 2 * cy / norm, 0.0] for k, v in suggested.items()}
    with pytest.raises(Refusal) as refused:
        decide(state, far)
    assert refused.value.code in ("not_as_close_as_possible", "too_far_from_transport")
    state, _ = decide(state, suggested)
    squad = state["units"][SECOND_SQUAD]
    assert squad["location"] == "battlefield"
    assert is_battle_shocked(state, SECOND_SQUAD) and has_status(
        state, SECOND_SQUAD, "cannot_charge"
    )


def test_models_that_cannot_be_set_up_in_an_emergency_disembark_are_destroyed():
    """11e 18.05: each model that cannot be set up is destroyed; the owner must set up as many
    as can be."""
    state = to_phase(game("11e", embarked={1: {SECOND_SQUAD: RHINO}}), "shooting", 2)
    script_dice(state, [3, 3, 3, 3, 3, 1])
    state, _ = destroy(state, RHINO)
    suggested = state["pending"][-1]["options"]["suggested"]
    fewer = dict(list(suggested.items())[:3])
    with pytest.raises(Refusal) as refused:
        decide(state, fewer)
    assert refused.value.code == "models_can_be_set_up"


def test_10e_destroyed_transport_sets_up_within_3_inches_then_rolls():
    """10e Destroyed Transport: wholly within 3" when the unit fits; then a D6 per model, each 1
    is a mortal wound; not battle-shocked (ruling R-TR-06)."""
    state = to_phase(game("10e", embarked={1: {SECOND_SQUAD: RHINO}}), "shooting", 2)
    script_dice(state, [1])  # Deadly Demise first in 10e: no 6
    state, _ = destroy(state, RHINO)
    decision = state["pending"][-1]
    assert decision["options"]["max_distance"] == 3
    script_dice(state, [1, 1, 4, 4, 4])
    state, events = decide(state, decision["options"]["suggested"])
    while state["pending"]:  # the owner allocates the mortal wounds
        state, more = decide(state, state["pending"][-1]["options"][0])
    squad = state["units"][SECOND_SQUAD]
    assert sum(m["wounds_left"] for m in squad["models"]) == 8
    assert not is_battle_shocked(state, SECOND_SQUAD)


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_deadly_demise_inflicts_mortal_wounds_on_units_within_6_inches(edition):
    """10e Deadly Demise / 11e 24.08: on a 6 each unit within 6" suffers D3 mortal wounds."""
    state = to_phase(game(edition), "shooting", 2)
    place_unit(state, SECOND_SQUAD, 37.0, 9.0)
    script_dice(state, [6, 3])
    state, events = destroy(state, RHINO)
    rolls = [e for e in events if e["type"] == "dice_rolled"]
    assert [r["purpose"] for r in rolls[:2]] == ["deadly_demise", "deadly_demise_wounds"]
    assert any(e["type"] == "deadly_demise" and SECOND_SQUAD in e["units"] for e in events)
    lost = sum(m["W"] - m["wounds_left"] for m in state["units"][SECOND_SQUAD]["models"])
    assert lost == 3 or state["pending"]


def test_embarked_units_still_make_battle_shock_rolls_in_11e():
    """11e 01.02.04: an embarked unit that is battle-shocked makes its battle-shock roll in its
    Command phase."""
    state = to_phase(game("11e", embarked={1: {SECOND_SQUAD: RHINO}}), "fight", 2)
    from rules.engine.core.effects import add_effect

    ctx = Context(copy_state(state))
    add_effect(
        ctx, "test", {"unit": SECOND_SQUAD}, {"status": "battle_shocked"}, "until_removed", 1
    )
    state = ctx.state
    state, events = end_phase(state)
    while state["phase"] != "movement":
        state, more = end_phase(state)
        events += more
    assert any(e["type"] == "battle_shock_rolled" and e["unit"] == SECOND_SQUAD for e in events)


# --- Firing Deck ------------------------------------------------------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_firing_deck_lends_embarked_models_weapons_to_the_transport(edition):
    """10e Firing Deck / 11e 24.14: the Rhino (Firing Deck 2) shoots with one ranged weapon of
    each of up to 2 embarked models; their unit cannot shoot this phase; 3 models are refused."""
    state = to_phase(game(edition, embarked={1: {SECOND_SQUAD: RHINO}}), "shooting")
    place_unit(state, CADIANS, 34.0, 20.0)
    found = template(state, "shoot", RHINO)
    deck = found["firing_deck_options"]
    assert deck["max_models"] == 2
    lent = [o for o in deck["weapons"] if CADIANS in o["targets"]]
    models = sorted({o["model"] for o in lent})
    assert len(models) == 5
    own = next(w for w in found["weapons"] if CADIANS in w["targets"])
    action = {
        "type": "shoot",
        "player": 1,
        "unit": RHINO,
        "assignments": [{"weapon": own["weapon"], "target": CADIANS}],
    }
    pick = [
        {
            "model": m,
            "weapon": next(o["weapon"] for o in lent if o["model"] == m),
            "target": CADIANS,
        }
        for m in models
    ]
    with pytest.raises(Refusal) as refused:
        play(state, {**action, "firing_deck": pick[:3]})
    assert refused.value.code == "firing_deck_too_many"
    state, events = play(state, {**action, "firing_deck": pick[:2]})
    selected = next(e for e in events if e["type"] == "targets_selected")
    weapons = [a["weapon"] for a in selected["attacks"]]
    assert weapons.count(pick[0]["weapon"]) >= 1 and len(selected["attacks"]) >= 3
    assert SECOND_SQUAD in state["facts"]["phase"]["acted"]


# --- Scouts of a DEDICATED TRANSPORT ----------------------------------------------------------


def _scouting_strike_squads() -> list[dict]:
    scouts = {"name": "Scouts", "kind": "core", "parameter": '6"'}
    return [
        {**s, "abilities": [*s["abilities"], scouts]} if s["slug"] == "strike-squad" else s
        for s in datasheets()
    ]


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_dedicated_transport_scouts_with_the_scouts_of_its_passengers(edition):
    """11e 24.31 / 10e Scouts: a DEDICATED TRANSPORT can make a scout move when every model
    embarked within it has Scouts X" (the Strike Squad alone: yes; with the Inquisitor, who has
    no Scouts: no)."""
    places = {**PLACES, RHINO: (40.0, 4.0)}
    state, _ = deployed_game(
        edition,
        armies(),
        places=places,
        embarked={1: {SECOND_SQUAD: RHINO}},
        datasheets=_scouting_strike_squads(),
    )
    scouting = [a for a in legal_actions(state, state["awaiting"] or 1) if a["type"] == "scout"]
    rhino = [a for a in scouting if a["unit"] == RHINO]
    assert rhino and rhino[0]["max_distance"] == 6
    state, _ = deployed_game(
        edition,
        armies(),
        places=places,
        embarked={1: {SQUAD: RHINO}},
        datasheets=_scouting_strike_squads(),
    )
    if state["stage"] == "scouts":
        assert not any(
            a["type"] == "scout" and a["unit"] == RHINO
            for a in legal_actions(state, state["awaiting"])
        )


def test_deadly_demise_11e_comes_after_the_emergency_disembark_and_hits_the_passengers():
    """11e 24.08: roll after the embarked units made their emergency disembark moves: the
    passengers, now within 6", are among the units hit."""
    state = to_phase(game("11e", embarked={1: {SECOND_SQUAD: RHINO}}), "shooting", 2)
    script_dice(state, [3, 3, 3, 3, 3])
    state, _ = destroy(state, RHINO)
    suggested = state["pending"][-1]["options"]["suggested"]
    script_dice(state, [6, 2])
    state, events = decide(state, suggested)
    demise = next(e for e in events if e["type"] == "deadly_demise")
    assert SECOND_SQUAD in demise["units"]


def test_deadly_demise_10e_comes_before_the_passengers_disembark():
    """10e Deadly Demise: roll before any embarked models disembark: they are not hit."""
    state = to_phase(game("10e", embarked={1: {SECOND_SQUAD: RHINO}}), "shooting", 2)
    script_dice(state, [6, 2])
    state, events = destroy(state, RHINO)
    demise = next(e for e in events if e["type"] == "deadly_demise")
    assert SECOND_SQUAD not in demise["units"]
    assert state["pending"][-1]["kind"] == "emergency_disembark"
