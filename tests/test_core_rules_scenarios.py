"""Core rules as printed: scenarios a referee gets asked about, each set up from a position
(`tests/position_world.py`) with the dice scripted where they matter, citing the section (11e
reference text) or heading (10e published core rules). Each one found the engine reading the
rule differently; docs/rulings.md records the reading (R-MV-19, R-MV-20, R-CB-14, R-ENG-14,
R-ENG-15, R-ENG-17)."""

from __future__ import annotations

import copy
import json
import re

import pytest

from rules.engine.battlefield.placement import is_engaged
from rules.engine.core.facts import unit_flags
from rules.engine.core.refusals import Refusal
from rules.engine.core.state import alive_models
from rules.engine.phases.attack_preview import shooting_preview
from rules.engine.phases.fight import current_step, fights_first
from rules.engine.sequence.game import acting_player, legal_actions
from tests.engine_world import BUNDLE, ROOT, decide, default_armies, entry, legal_charge, play
from tests.position_world import CADIANS, CADIANS_2, LED_SQUAD, SQUAD, position_game
from tests.scripted_dice import scripted_dice
from tests.stratagem_world import choose, offered, pass_windows

INQUISITOR = f"{LED_SQUAD}-m6"
# Centre distance of a Grey Knight (32 mm base) and a Cadian (25 mm) in base contact.
CONTACT = (32 + 25) / 2 / 25.4


def lone_model(unit: str, at: list[float], size: int) -> dict:
    """`unit` with its first model at `at` and the others destroyed."""
    return {
        "positions": {f"{unit}-m1": at},
        "wounds_left": {f"{unit}-m{i}": 0 for i in range(2, size + 1)},
    }


def grey_knights(*places: list[float]) -> dict:
    """The Strike Squad with a model at each place and the rest destroyed."""
    return {
        "positions": {f"{SQUAD}-m{i}": at for i, at in enumerate(places, 1)},
        "wounds_left": {f"{SQUAD}-m{i}": 0 for i in range(len(places) + 1, 6)},
    }


# --- 11e 11.04 Charge move; 10e Charge Move (R-MV-19) -------------------------------------------


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_charging_model_may_end_closer_to_any_charge_target(edition):
    """11e 11.04 While Moving: "Each model must end its move closer to one or more charge
    targets". Two lone Cadians are both charge targets; the third Grey Knight starts nearer the
    left one (A) but charges the right one (B), ending farther from A: it is closer to B, so the
    move is made. 10e Charge Move prints no nearer condition at all; the engine keeps the 11e
    one for both."""
    state = position_game(
        edition,
        {
            SQUAD: grey_knights([26.6, 20], [28.0, 20], [29.6, 20], [31.4, 20]),
            CADIANS: lone_model(CADIANS, [27.3, 24], 10),
            CADIANS_2: lone_model(CADIANS_2, [32.5, 24], 10),
        },
        phase="charge",
    )
    declare = {"type": "declare_charge", "player": 1, "unit": SQUAD}
    if edition == "10e":  # 10e Declare Charge: targets first, then the roll
        state, _ = play(state, {**declare, "targets": [CADIANS, CADIANS_2]})
        with scripted_dice(6, 6):
            state = pass_windows(state)
    else:  # 11e 11.02: the roll first; targets are selected with the move
        with scripted_dice(6, 6):
            state, _ = play(state, declare)
    state = pass_windows(state)
    ends = {
        f"{SQUAD}-m1": [26.5, 23.2, 0],  # base contact with A
        f"{SQUAD}-m2": [28.1, 23.2, 0],  # base contact with A
        f"{SQUAD}-m3": [33.3, 23.2, 0],  # started nearer A; ends in base contact with B
        f"{SQUAD}-m4": [31.7, 23.2, 0],  # base contact with B
    }
    choice = {"targets": [CADIANS, CADIANS_2], "positions": ends} if edition == "11e" else ends
    state, events = decide(state, choice)
    assert events[-1]["type"] == "unit_charged"
    assert sorted(events[-1]["targets"]) == [CADIANS, CADIANS_2]


def test_11e_a_charging_model_that_ends_nearer_no_target_is_refused():
    """11e 11.04: the same charge with the third Grey Knight stepping back is refused."""
    state = position_game(
        "11e",
        {
            SQUAD: grey_knights([26.6, 20], [28.0, 20], [29.6, 20], [31.4, 20]),
            CADIANS: lone_model(CADIANS, [27.3, 24], 10),
            CADIANS_2: lone_model(CADIANS_2, [32.5, 24], 10),
        },
        phase="charge",
    )
    with scripted_dice(6, 6):
        state, _ = play(state, {"type": "declare_charge", "player": 1, "unit": SQUAD})
    state = pass_windows(state)
    ends = {
        f"{SQUAD}-m1": [26.5, 23.2, 0],
        f"{SQUAD}-m2": [28.1, 23.2, 0],
        f"{SQUAD}-m3": [29.6, 19.5, 0],  # back: farther from both targets
        f"{SQUAD}-m4": [31.7, 23.2, 0],
    }
    with pytest.raises(Refusal) as refused:
        decide(state, {"targets": [CADIANS, CADIANS_2], "positions": ends})
    assert (refused.value.code, refused.value.rule) == ("not_closer", "11.04")


# --- 11e 12.03 Pile-in move (R-MV-20) ---------------------------------------------------------


def pile_in_between_two_units():
    """One Grey Knight 1" from one lone Cadian (A, north) and 1.5" from another (B, south): it is
    engaged with both (11e engagement range 2", 03.04)."""
    return position_game(
        "11e",
        {
            SQUAD: grey_knights([30, 20]),
            CADIANS: lone_model(CADIANS, [30, 20 + CONTACT + 1.0], 10),
            CADIANS_2: lone_model(CADIANS_2, [30, 20 - CONTACT - 1.5], 10),
        },
        phase="fight",
    )


def test_11e_a_pile_in_cannot_leave_a_unit_the_model_started_engaged_with():
    """11e 12.03 After Moving: "Each model that started this move engaged with an enemy unit
    must still be engaged with that enemy unit." Piling 0.9" toward A takes the Grey Knight 2.4"
    from B: refused. Piling 0.3" toward A keeps it engaged with both: made."""
    state = pile_in_between_two_units()
    assert current_step(state) == ("pile_in", 1)
    pile_in = {"type": "pile_in", "player": 1, "unit": SQUAD, "targets": [CADIANS, CADIANS_2]}
    with pytest.raises(Refusal) as refused:
        play(state, {**pile_in, "positions": {f"{SQUAD}-m1": [30, 20.9, 0]}})
    assert (refused.value.code, refused.value.rule) == ("left_engagement", "12.03")
    assert "Cadian Shock Troops B" in refused.value.message
    state, events = play(state, {**pile_in, "positions": {f"{SQUAD}-m1": [30, 20.3, 0]}})
    assert any(e["type"] == "unit_moved" and e["move"] == "pile_in" for e in events)
    (model,) = alive_models(state["units"][SQUAD])
    assert model["y"] == pytest.approx(20.3)


# --- Which models fight: 11e 04.02 while fighting; 10e Fight phase (R-CB-14) ------------------

GREY_KNIGHT_BASE = 32 / 25.4


def hit_dice_of_a_fight(edition: str, second_rank_gap: float) -> int:
    """Two Grey Knights in file behind each other, the first in base contact with a lone Cadian;
    the second `second_rank_gap` behind the first. The squad charged and fights (Nemesis force
    weapon, A3): the number of hit dice rolled."""
    behind = 20 - GREY_KNIGHT_BASE - second_rank_gap
    state = position_game(
        edition,
        {
            SQUAD: grey_knights([30, 20], [30, behind]),
            CADIANS: lone_model(CADIANS, [30, 20 + CONTACT], 10),
        },
        phase="fight",
    )
    state["facts"]["turn"].setdefault("charged", []).append(SQUAD)
    if edition == "11e":  # the Pile In step (12.02) first: no unit moves
        while current_step(state)[0] == "pile_in":
            state, _ = play(state, {"type": "end_step", "player": current_step(state)[1]})
    state, events = play(state, {"type": "fight", "player": 1, "unit": SQUAD})
    while not any(e["type"] == "dice_rolled" and e["purpose"] == "hit_roll" for e in events):
        state, more = decide(state, "pass")
        events += more
    hits = next(e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "hit_roll")
    return len(hits["values"])


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_model_in_base_contact_with_a_friend_in_base_contact_with_the_enemy_fights(edition):
    """10e Fight phase: a model fights if it is within Engagement Range (1") of an enemy unit or
    "in base-to-base contact with another model from its own unit that is itself in
    base-to-base contact with an enemy unit". The second Grey Knight is 1.26" from the Cadian,
    in base contact with the first: both fight (6 attacks). 11e 03.04, 04.02: it is within 2"
    of the Cadian, so engaged with it, and fights as well."""
    assert hit_dice_of_a_fight(edition, second_rank_gap=0.0) == 6


@pytest.mark.parametrize(("edition", "dice"), [("11e", 6), ("10e", 3)])
def test_a_second_rank_model_not_in_base_contact_fights_only_within_engagement_range(edition, dice):
    """The second Grey Knight 0.3" behind the first (1.56" from the Cadian): in 10e it is neither
    within 1" nor in base contact with the first, so only the first fights (3 attacks); in 11e it
    is within the 2" engagement range and fights (6)."""
    assert hit_dice_of_a_fight(edition, second_rank_gap=0.3) == dice


# --- Abilities of an attached unit: 11e 19.04, 24.13, 24.33; 10e Fights First, Stealth (R-ENG-14)


def sheets_with(slug: str, ability: str) -> list[dict]:
    """The default datasheets, the one named `slug` with the core ability `ability` added."""
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    sheet = next(s for s in sheets if s["slug"] == slug)
    sheet["abilities"] = [*sheet["abilities"], {"name": ability, "kind": "core", "text": ""}]
    return sheets


def led_squad_fighting_cadians(edition: str, sheets: list[dict], inquisitor_alive: bool) -> dict:
    """The Inquisitor's unit and the Cadians engaged, in the Fight phase of player 2's turn;
    neither charged. The Pile In step (11e 12.02) is passed."""
    led = {"at": [30, 20]}
    if not inquisitor_alive:
        led["wounds_left"] = {INQUISITOR: 0}
    state = position_game(
        edition,
        {LED_SQUAD: led, CADIANS: {"at": [30, 16.78]}},  # 0.5" apart
        phase="fight",
        active_player=2,
        datasheets=sheets,
    )
    assert is_engaged(state, state["units"][LED_SQUAD])
    while current_step(state)[0] == "pile_in":
        state, _ = play(state, {"type": "end_step", "player": current_step(state)[1]})
    return state


@pytest.mark.parametrize(("edition", "fights_first_unit"), [("11e", True), ("10e", False)])
def test_a_leaders_fights_first_makes_the_attached_unit_fight_first_only_in_11e(
    edition, fights_first_unit
):
    """11e 24.13: "While every model in a unit has this ability, that unit is a Fights First
    unit", and 19.04: a unit ability of the Leader "appl[ies] to every model in an attached
    unit": an Inquisitor with Fights First leading a Strike Squad makes the unit a Fights First
    unit, selected in the Resolve Fights First Combats step before the Cadians of the player
    whose turn it is. 10e Fights First: "provided every model in the unit has this ability" - the
    Grey Knights do not, so the unit is not."""
    state = led_squad_fighting_cadians(edition, sheets_with("inquisitor", "Fights First"), True)
    assert (LED_SQUAD in fights_first(state)) is fights_first_unit
    if edition == "11e":
        assert acting_player(state) == 1  # player 2 has no Fights First unit (12.04)


def test_11e_a_leaders_fights_first_ends_when_the_leader_is_destroyed():
    """11e 19.04: a Leader's abilities apply to the attached unit "until ... the last model in
    that leader ... unit is destroyed". The Inquisitor is dead: the Grey Knights are no Fights
    First unit, and the player whose turn it is (2) selects first (12.04)."""
    state = led_squad_fighting_cadians("11e", sheets_with("inquisitor", "Fights First"), False)
    assert fights_first(state) == []
    assert acting_player(state) == 2


def lasguns_fired_at_the_led_squad(
    edition: str, sheets: list[dict], inquisitor_alive: bool, until_step: str
) -> list[dict]:
    """The Cadians shoot their lasguns at the Inquisitor's unit 10" away in the open, every
    window passed until the attack step `until_step` is rolled: the events."""
    led = {"at": [2, 22]}
    if not inquisitor_alive:
        led["wounds_left"] = {INQUISITOR: 0}
    state = position_game(
        edition,
        {LED_SQUAD: led, CADIANS: {"at": [2, 34]}},
        phase="shooting",
        active_player=2,
        datasheets=sheets,
    )
    state, events = play(
        state,
        {
            "type": "shoot",
            "player": 2,
            "unit": CADIANS,
            "assignments": [{"weapon": "Lasgun", "target": LED_SQUAD}],
        },
    )
    while not any(attack_step(e, until_step) for e in events):
        state, more = decide(state, "pass")
        events += more
    return events


def attack_step(event: dict, step: str) -> bool:
    return event["type"] == "attack_step" and event["tray"]["step"] == step


def lasguns_at_the_led_squad(edition: str, sheets: list[dict], inquisitor_alive: bool):
    """Whether the target had the benefit of cover, and the hit roll's modifier."""
    events = lasguns_fired_at_the_led_squad(edition, sheets, inquisitor_alive, "hit_roll")
    selected = next(e for e in events if e["type"] == "targets_selected")["attacks"][0]
    hits = next(e["tray"] for e in events if attack_step(e, "hit_roll"))
    return selected["cover"], hits["modifier"]


def test_10e_a_bodyguards_stealth_needs_every_model_of_the_attached_unit():
    """10e Stealth: "If every model in a unit has this ability, each time a ranged attack is made
    against it, subtract 1 from that attack's Hit roll". The Strike Squad has Stealth, the
    Inquisitor leading it does not: no -1. Once the Inquisitor is destroyed every model has it."""
    sheets = sheets_with("strike-squad", "Stealth")
    assert lasguns_at_the_led_squad("10e", sheets, inquisitor_alive=True) == (False, 0)
    assert lasguns_at_the_led_squad("10e", sheets, inquisitor_alive=False) == (False, -1)


def test_11e_a_leaders_stealth_covers_the_attached_unit_until_the_leader_is_destroyed():
    """11e 24.33 Stealth: "If every model in a unit has this ability ... that unit has the
    benefit of cover"; 19.04: the Inquisitor's Stealth applies to every model of the attached
    unit until he is destroyed. Alive: cover; destroyed: none."""
    sheets = sheets_with("inquisitor", "Stealth")
    assert lasguns_at_the_led_squad("11e", sheets, inquisitor_alive=True)[0] is True
    assert lasguns_at_the_led_squad("11e", sheets, inquisitor_alive=False)[0] is False


# --- Feel No Pain in an attached unit: 11e 19.04, 24.12; 10e Feel No Pain (R-ENG-14) -----------

GREY_KNIGHT = f"{LED_SQUAD}-m1"  # the Justicar: the first model an attack is allocated to


def one_lasgun_shot_at_the_led_squad(
    edition: str,
    sheets: list[dict],
    dice: tuple[int, ...],
    precision: str | None = None,
    effects: list[dict] | None = None,
) -> list[dict]:
    """One Shock Trooper (the rest of the Cadians destroyed) fires its lasgun at the Inquisitor's
    unit beyond half range (one attack) with `dice` scripted and `effects` active; every window
    passed, the [PRECISION] choice answered with `precision`. The events."""
    state = position_game(
        edition,
        {
            LED_SQUAD: {"at": [30, 4]},
            CADIANS: {
                "positions": {f"{CADIANS}-m2": [30, 20]},
                "wounds_left": {f"{CADIANS}-m{i}": 0 for i in range(1, 11) if i != 2},
            },
        },
        phase="shooting",
        active_player=2,
        datasheets=sheets,
        effects=effects or [],
    )
    shoot = {
        "type": "shoot",
        "player": 2,
        "unit": CADIANS,
        "assignments": [{"weapon": "Lasgun", "target": LED_SQUAD}],
    }
    with scripted_dice(*dice):
        state, events = play(state, shoot)
        while state["pending"]:
            kind = state["pending"][-1]["kind"]
            state, more = decide(state, precision if kind == "precision_target" else "pass")
            events += more
    return events


def wounds_lost_by(events: list[dict], model: str) -> int:
    return sum(e["amount"] for e in events if e["type"] == "wounds_lost" and e["model"] == model)


HIT_WOUND_FAILED_SAVE = (6, 6, 1)
FEEL_NO_PAIN_PASSED = (*HIT_WOUND_FAILED_SAVE, 5)


@pytest.mark.parametrize(
    ("edition", "owner", "dice", "lost"),
    [
        ("11e", "inquisitor", FEEL_NO_PAIN_PASSED, 0),
        ("10e", "inquisitor", HIT_WOUND_FAILED_SAVE, 1),
        ("10e", "strike-squad", FEEL_NO_PAIN_PASSED, 0),
    ],
)
def test_a_leaders_own_feel_no_pain_protects_its_bodyguard_only_in_11e(edition, owner, dice, lost):
    """11e 24.12: "Each time a model with this ability would lose a wound, roll one D6: on an X+,
    that wound is not lost"; 19.04: a unit ability of the Leader applies "to every model in an
    attached unit". The Inquisitor has Feel No Pain 5+; a lasgun wound goes to the Justicar: in
    11e he rolls (a 5: not lost). 10e Feel No Pain, the same words, but a 10e datasheet ability
    is its own models' (a Leader's rules for its unit say "while this model is leading a unit,
    models in that unit have ..."): the Justicar has no Feel No Pain and loses the wound, no
    die rolled. The Strike Squad's own Feel No Pain 5+ still saves him in 10e."""
    events = one_lasgun_shot_at_the_led_squad(edition, sheets_with(owner, "Feel No Pain 5+"), dice)
    assert wounds_lost_by(events, GREY_KNIGHT) == lost
    # The roll is the defender's, and the log and the dice tray call it by its name.
    rolled = [e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "feel_no_pain"]
    assert [(e["player"], e["unit"], e["values"]) for e in rolled] == (
        [(1, LED_SQUAD, [5])] if lost == 0 else []
    )


@pytest.mark.parametrize(
    ("edition", "dice", "lost"),
    [("11e", FEEL_NO_PAIN_PASSED, 0), ("10e", HIT_WOUND_FAILED_SAVE, 1)],
)
def test_a_bodyguards_feel_no_pain_protects_its_leader_only_in_11e(edition, dice, lost):
    """The same with the Strike Squad's Feel No Pain 5+ and a [PRECISION] lasgun whose attack
    the Cadian player sends to the Inquisitor (11e 24.28; 10e Precision): 11e 19.04, the
    Bodyguard's ability applies to the Inquisitor (a 5: not lost); 10e, it is the Grey Knights'
    own and the Inquisitor loses the wound."""
    sheets = sheets_with("strike-squad", "Feel No Pain 5+")
    cadians = next(s for s in sheets if s["slug"] == "cadian-shock-troops")
    lasgun = next(w for w in cadians["weapons"] if w["name"] == "Lasgun")
    lasgun["abilities"] = [*lasgun["abilities"], "precision"]
    events = one_lasgun_shot_at_the_led_squad(edition, sheets, dice, precision=INQUISITOR)
    assert any(e["type"] == "precision_target_chosen" for e in events)
    assert wounds_lost_by(events, INQUISITOR) == lost


@pytest.mark.parametrize(("edition", "rolled"), [("11e", True), ("10e", False)])
def test_a_leaders_feel_no_pain_against_a_grenades_mortal_wound(edition, rolled):
    """Mortal wounds outside the attack sequence follow the same rule (10e Feel No Pain; 11e
    24.12, 19.04): the Cadians' grenades (10e Grenade; 11e Explosives) give the Inquisitor's
    unit one mortal wound, allocated to a Grey Knight; the Inquisitor has Feel No Pain 5+. 11e:
    one Feel No Pain die (a 5: ignored); 10e: none, the Grey Knight loses the wound."""
    state = position_game(
        edition,
        {LED_SQUAD: {"at": [30, 20]}, CADIANS: {"at": [30, 26]}},
        phase="shooting",
        active_player=2,
        datasheets=sheets_with("inquisitor", "Feel No Pain 5+"),
    )
    (grenades,) = [
        a
        for a in legal_actions(state, 2)
        if a["type"] == "use_stratagem" and a.get("enemy") == LED_SQUAD
    ]
    dice = (4, 1, 1, 1, 1, 1, *((5,) if rolled else ()))  # one mortal wound
    events = []
    with scripted_dice(*dice):
        state, events = play(state, grenades)
        while state["pending"]:
            top = state["pending"][-1]
            answer = GREY_KNIGHT if top["kind"] == "allocate_mortal_wound" else "pass"
            state, more = decide(state, answer)
            events += more
    ignored = [e for e in events if e["type"] == "mortal_wound_ignored"]
    assert [e["model"] for e in ignored] == ([GREY_KNIGHT] if rolled else [])
    assert wounds_lost_by(events, GREY_KNIGHT) == (0 if rolled else 1)


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_courageous_diversion_protects_every_model_of_an_attached_unit(edition):
    """Courageous Diversion [003 L744-752] "your unit has the Feel No Pain 6+ ability": a rule
    that names the unit gives it to every model, Leader included, in both editions. The
    Inquisitor's unit has it (an effect as the stratagem leaves it); a [PRECISION] lasgun wound
    sent to the Inquisitor is ignored on a 6."""
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    cadians = next(s for s in sheets if s["slug"] == "cadian-shock-troops")
    lasgun = next(w for w in cadians["weapons"] if w["name"] == "Lasgun")
    lasgun["abilities"] = [*lasgun["abilities"], "precision"]
    diversion = {
        "source": "courageous-diversion",
        "selector": {"unit": LED_SQUAD},
        "modifier": {
            "attack": {"step": "feel_no_pain", "kind": "set", "value": 6, "condition": {}},
            "as": "defender",
            "against": None,
        },
        "duration": "end_of_phase",
        "player": 1,
    }
    events = one_lasgun_shot_at_the_led_squad(
        edition, sheets, (*HIT_WOUND_FAILED_SAVE, 6), INQUISITOR, effects=[diversion]
    )
    assert any(e["type"] == "precision_target_chosen" for e in events)
    assert not [e for e in events if e["type"] == "wounds_lost"]


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_the_damage_preview_gives_a_leaders_feel_no_pain_where_the_game_does(edition):
    """The shoot panel's preview runs the same attack sequence (docs/attacks.md): ten lasguns at
    the Inquisitor's unit reach no further than the Grey Knights, so the Inquisitor's Feel No
    Pain 5+ lowers the expected damage in 11e (19.04) and changes nothing in 10e."""

    def expected_damage(sheets: list[dict]) -> float:
        state = position_game(
            edition,
            {LED_SQUAD: {"at": [30, 4]}, CADIANS: {"at": [28, 20]}},
            phase="shooting",
            active_player=2,
            datasheets=sheets,
        )
        shot = [{"weapon": "Lasgun", "target": LED_SQUAD}]
        return shooting_preview(state, CADIANS, shot)["targets"][LED_SQUAD]["damage"]["mean"]

    plain = expected_damage(copy.deepcopy(BUNDLE["datasheets"]))
    protected = expected_damage(sheets_with("inquisitor", "Feel No Pain 5+"))
    assert plain > 0
    if edition == "11e":
        assert protected == pytest.approx(plain * 2 / 3, rel=0.15)
    else:
        assert protected == plain


# --- 11e 06.02 Mortal wounds: which model (R-ENG-15) ------------------------------------------

WOUNDED_INQUISITOR = {"wounds_left": {INQUISITOR: 2}}  # W4, has lost 2 wounds


def test_11e_a_desperate_escapes_mortal_wound_goes_to_a_bodyguard_before_a_wounded_character():
    """11e 09.07 Desperate Escape: a hazard roll per model; 06.03: a 1-2 makes the unit suffer 1
    mortal wound; 06.02 Select Model: a wounded non-CHARACTER model, "Otherwise, if that unit
    contains one or more non-CHARACTER models, you must select one of those models. Otherwise,
    if one or more CHARACTER models in that unit have lost one or more wounds ...". The wounded
    Inquisitor is not selected while Grey Knights live: the owner picks one of the five."""
    state = position_game(
        "11e",
        {LED_SQUAD: {"at": [30, 20], **WOUNDED_INQUISITOR}, CADIANS: {"at": [30, 16.78]}},
        phase="movement",
    )
    state, _ = play(state, {"type": "fall_back", "player": 1, "unit": LED_SQUAD})
    with scripted_dice(2, 6, 6, 6, 6, 6):  # one hazard roll fails
        state, _ = decide(state, "desperate_escape")
    state = pass_windows(state)
    allocation = state["pending"][-1]
    assert allocation["kind"] == "allocate_mortal_wound"
    assert allocation["options"] == [f"{LED_SQUAD}-m{i}" for i in range(1, 6)]


def test_10e_a_grenades_mortal_wound_goes_to_a_bodyguard_before_a_wounded_character():
    """10e Grenade: each 4+ inflicts one mortal wound; 10e Attached Units / allocation (rulings
    "Which model takes an attack in 10e"): not to a CHARACTER model while Bodyguard models
    remain, "even if that CHARACTER model has lost one or more wounds"."""
    state = position_game(
        "10e",
        {LED_SQUAD: {"at": [30, 20], **WOUNDED_INQUISITOR}, CADIANS: {"at": [30, 26]}},
        phase="shooting",
        active_player=2,
    )
    grenade = {
        "type": "use_stratagem",
        "player": 2,
        "stratagem": "grenade-10e",
        "target": CADIANS,
        "enemy": LED_SQUAD,
        "model": f"{CADIANS}-m1",  # the model that throws
    }
    with scripted_dice(4, 1, 1, 1, 1, 1):  # one mortal wound
        state, events = play(state, grenade)
    assert next(e for e in events if e["type"] == "explosives_thrown")["mortal_wounds"] == 1
    state = pass_windows(state)
    allocation = state["pending"][-1]
    assert allocation["kind"] == "allocate_mortal_wound"
    assert allocation["options"] == [f"{LED_SQUAD}-m{i}" for i in range(1, 6)]
    inquisitor = next(m for m in state["units"][LED_SQUAD]["models"] if m["id"] == INQUISITOR)
    assert inquisitor["wounds_left"] == 2


# --- 11e 24.16 [HEAVY]; 10e Heavy (R-CB-06) -----------------------------------------------------


def heavy_storm_bolters(
    edition: str, move: float | None, flags: tuple[str, ...] = (), selected: bool = True
) -> int:
    """The Strike Squad's storm bolters with [HEAVY] added; the squad moves `move` inches
    straight ahead in the Movement phase (None: it remains stationary; not `selected`: the
    player ends the phase without selecting it), then shoots the Cadians 20" away in the open.
    The hit roll's modifier."""
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    squad = next(s for s in sheets if s["slug"] == "strike-squad")
    bolter = next(w for w in squad["weapons"] if w["name"] == "Storm bolter")
    bolter["abilities"] = [*bolter["abilities"], "heavy"]
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 2], "flags": list(flags)}, CADIANS: {"at": [30, 24]}},
        phase="movement" if not flags else "shooting",
        datasheets=sheets,
    )
    if state["phase"] == "movement" and selected:
        if move is None:
            state, _ = play(state, {"type": "remain_stationary", "player": 1, "unit": SQUAD})
        else:
            ahead = {
                m["id"]: [m["x"], m["y"] + move, m["facing"]]
                for m in alive_models(state["units"][SQUAD])
            }
            state, _ = play(state, {"type": "move", "player": 1, "unit": SQUAD, "positions": ahead})
        state = pass_windows(state)
    if state["phase"] == "movement":
        while state["phase"] != "shooting":
            state, _ = play(state, {"type": "end_phase", "player": acting_player(state)})
            state = pass_windows(state)
    state, events = play(
        state,
        {
            "type": "shoot",
            "player": 1,
            "unit": SQUAD,
            "assignments": [{"weapon": "Storm bolter", "target": CADIANS}],
        },
    )
    while not any(e["type"] == "attack_step" and e["tray"]["step"] == "hit_roll" for e in events):
        state, more = decide(state, "pass")
        events += more
    hits = next(
        e["tray"] for e in events if e["type"] == "attack_step" and e["tray"]["step"] == "hit_roll"
    )
    return hits["modifier"]


@pytest.mark.parametrize(
    ("edition", "move", "modifier"),
    [("11e", None, 1), ("11e", 2.0, 1), ("11e", 4.0, 0), ("10e", None, 1), ("10e", 2.0, 0)],
)
def test_heavy_braces_after_a_move_of_3_inches_or_less_only_in_11e(edition, move, modifier):
    """11e 24.16 [HEAVY]: add 1 to the hit roll if the unit is unengaged, was not set up this
    turn and "No model in that unit has moved more than 3" this turn": a 2" normal move keeps
    the +1, a 4" one loses it. 10e Heavy: only a unit that Remained Stationary gets the +1."""
    assert heavy_storm_bolters(edition, move) == modifier


def test_11e_heavy_is_not_braced_in_the_turn_the_unit_disembarked():
    """11e 24.16: "That unit was not set up on the battlefield this turn"; a disembark move sets
    the unit up (18.04): the squad disembarked this turn and never moved, and gets no +1."""
    assert heavy_storm_bolters("11e", None, flags=("disembarked",)) == 0


# --- 11e 24.24 Lone Operative; 10e Lone Operative (R-CB-10) -----------------------------------


def indirect_fire_at_a_lone_operative(edition: str, gap: float):
    """The Strike Squad's storm bolters with [INDIRECT FIRE] shoot at Cadians with Lone
    Operative whose nearest model stands `gap` inches from the squad's, in the open."""
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    squad = next(s for s in sheets if s["slug"] == "strike-squad")
    bolter = next(w for w in squad["weapons"] if w["name"] == "Storm bolter")
    bolter["abilities"] = [*bolter["abilities"], "indirect fire"]
    cadians = next(s for s in sheets if s["slug"] == "cadian-shock-troops")
    cadians["abilities"] = [
        *cadians["abilities"],
        {"name": "Lone Operative", "kind": "core", "text": ""},
    ]
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 2]}, CADIANS: {"at": [30, 2 + CONTACT + gap]}},
        phase="shooting",
        datasheets=sheets,
    )
    shoot = {
        "type": "shoot",
        "player": 1,
        "unit": SQUAD,
        "assignments": [{"weapon": "Storm bolter", "target": CADIANS}],
    }
    return state, shoot


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_indirect_fire_reaches_a_lone_operative_only_from_within_12_inches(edition):
    """11e 24.24: a Lone Operative unit "cannot be targeted by [INDIRECT FIRE] weapons unless
    the attacking model is within 12" of this unit"; 10e Lone Operative: it "can only be
    selected as the target of a ranged attack if the attacking model is within 12"". 16" away
    the indirect storm bolters cannot target it; 10" away they can."""
    state, shoot = indirect_fire_at_a_lone_operative(edition, 16.0)
    with pytest.raises(Refusal) as refused:
        play(state, shoot)
    assert refused.value.code == "not_visible"
    state, shoot = indirect_fire_at_a_lone_operative(edition, 10.0)
    _, events = play(state, shoot)
    assert any(e["type"] == "targets_selected" for e in events)


# --- 11e 17.01 Moving Monsters and Vehicles -----------------------------------------------------

RHINO = "p1-u3"


def rhino_through_a_cadian_line(edition: str):
    """A Rhino (VEHICLE, M12) 7" behind a line of five Cadians drives 12" straight through
    them in a normal move, ending more than 2" beyond them."""
    published = json.loads((ROOT / "rules/data/factions/grey-knights/published.json").read_text())
    rhino = next(s for s in published["datasheets"] if s["slug"] == "rhino")
    armies = default_armies()
    armies["1"]["units"].append(entry("rh", "rhino", 1))
    line = {f"{CADIANS}-m{i}": [26 + 1.6 * (i - 1), 15] for i in range(1, 6)}
    state = position_game(
        edition,
        {
            RHINO: {"positions": {f"{RHINO}-m1": [30, 8, 90]}},
            CADIANS: {
                "positions": line,
                "wounds_left": {f"{CADIANS}-m{i}": 0 for i in range(6, 11)},
            },
        },
        phase="movement",
        armies=armies,
        datasheets=[*BUNDLE["datasheets"], rhino],
    )
    return play(
        state,
        {"type": "move", "player": 1, "unit": RHINO, "positions": {f"{RHINO}-m1": [30, 20, 90]}},
    )


def test_11e_a_vehicle_drives_through_infantry_in_a_normal_move():
    """11e 17.01: "Each time you make a normal or advance move with a unit, MONSTER/VEHICLE
    models in that unit can be moved through friendly and enemy models (excluding other
    MONSTER/VEHICLE models)"."""
    state, events = rhino_through_a_cadian_line("11e")
    assert any(e["type"] == "unit_moved" for e in events)
    (rhino,) = alive_models(state["units"][RHINO])
    assert rhino["y"] == pytest.approx(20)


def test_10e_a_vehicle_cannot_drive_through_enemy_models():
    """10e Moving: a model cannot be moved through enemy models (only FLY models, over them, and
    falling back); 10e prints no MONSTER/VEHICLE exception."""
    with pytest.raises(Refusal) as refused:
        rhino_through_a_cadian_line("10e")
    assert refused.value.code == "through_enemy_model"
    # The refusal names the enemy model as players see it, its unit once.
    message = refused.value.message
    assert re.search(
        r"cannot move through enemy Cadian Shock Troops( [AB])?: Shock Trooper", message
    )
    assert message.count("Cadian Shock Troops") == 1, message


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_unit_not_selected_in_the_movement_phase_remained_stationary(edition):
    """11e 09.02: "When the Move Units step ends, the active player must have selected all of
    their units to make a move ... even if it is to remain stationary"; 10e Remain Stationary:
    units on the battlefield "not selected to move in the Move Units step of the Movement phase
    are assumed to have Remained Stationary". The player ends the phase without selecting the
    squad: it remained stationary (11e 10.07 indirect shooting and 10e Heavy ask), and its
    [HEAVY] storm bolters get +1."""
    state = position_game(edition, phase="movement")
    state, _ = play(state, {"type": "end_phase", "player": 1})
    state = pass_windows(state)
    assert state["phase"] == "shooting"
    assert "remained_stationary" in unit_flags(state, SQUAD)
    assert heavy_storm_bolters(edition, None, selected=False) == 1


# --- 11e 19.03 Keywords in attached units (R-ENG-16) ------------------------------------------


def anti_character_lasguns_at_the_led_squad(edition: str, inquisitor_alive: bool) -> list:
    """The Cadians shoot lasguns with [ANTI-CHARACTER 4+] at the Inquisitor's unit: the wound
    roll's modifiers."""
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    cadians = next(s for s in sheets if s["slug"] == "cadian-shock-troops")
    lasgun = next(w for w in cadians["weapons"] if w["name"] == "Lasgun")
    lasgun["abilities"] = [*lasgun["abilities"], "anti-character 4+"]
    events = lasguns_fired_at_the_led_squad(edition, sheets, inquisitor_alive, "wound_roll")
    return next(e["tray"]["modifiers"] for e in events if attack_step(e, "wound_roll"))


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_a_destroyed_leaders_keywords_leave_the_attached_unit(edition):
    """11e 19.03: "An attached unit has all of the keywords of all of its component units" -
    "While that model is part of that unit" (the example's words): with the Inquisitor alive the
    unit is a CHARACTER unit and [ANTI-CHARACTER 4+] applies; once he is destroyed the Grey
    Knights are no CHARACTER unit and it does not."""
    assert anti_character_lasguns_at_the_led_squad(edition, True) == [
        {"applied": "[ANTI-CHARACTER 4+]"}
    ]
    assert anti_character_lasguns_at_the_led_squad(edition, False) == []


# --- 11e 24.15 [HAZARDOUS], 06.03; 10e Hazardous (R-ENG-17) -------------------------------------

PLASMA_GUNNER = f"{SQUAD}-m3"
WOUNDED_JUSTICAR = {f"{SQUAD}-m1": 1}  # W2, has lost a wound; he carries no Hazardous weapon


PLASMA_GUN = {
    "name": "Plasma gun",
    "type": "ranged",
    "range": 24,
    "A": "1",
    "skill": 3,
    "S": 8,
    "AP": -3,
    "D": "2",
    "abilities": ["hazardous"],
}


def sheets_with_plasma_guns() -> list[dict]:
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    squad = next(s for s in sheets if s["slug"] == "strike-squad")
    squad["weapons"] = [*squad["weapons"], PLASMA_GUN]
    return sheets


def carry(state: dict, unit: str, model_id: str, *weapons: str) -> None:
    model = next(m for m in state["units"][unit]["models"] if m["id"] == model_id)
    model["weapons"] = list(weapons)


def squad_with_one_plasma_gun(edition: str, cadians: dict | None = None) -> dict:
    """The Strike Squad in the Shooting phase, its third Grey Knight carrying a [HAZARDOUS]
    plasma gun instead of a storm bolter, its Justicar wounded; the Cadians 14" away."""
    state = position_game(
        edition,
        {
            SQUAD: {"at": [30, 4], "wounds_left": WOUNDED_JUSTICAR},
            CADIANS: cadians or {"at": [30, 20]},
        },
        phase="shooting",
        datasheets=sheets_with_plasma_guns(),
    )
    carry(state, SQUAD, PLASMA_GUNNER, "Nemesis force weapon", "Plasma gun")
    return state


def shoot_scripted(state: dict, assignments: list[tuple[str, str]], dice: tuple[int, ...]):
    """The Strike Squad shoots with `dice` scripted, every window passed: the events."""
    shoot = {
        "type": "shoot",
        "player": 1,
        "unit": SQUAD,
        "assignments": [{"weapon": w, "target": t} for w, t in assignments],
    }
    with scripted_dice(*dice):
        state, events = play(state, shoot)
        while state["pending"]:
            state, more = decide(state, "pass")
            events += more
    return state, events


def destroyed(events: list[dict]) -> list[str]:
    return [e["model"] for e in events if e["type"] == "model_destroyed"]


@pytest.mark.parametrize(("edition", "casualty"), [("11e", f"{SQUAD}-m1"), ("10e", PLASMA_GUNNER)])
def test_a_failed_hazardous_test_hurts_the_model_with_the_hazardous_weapon_in_10e(
    edition, casualty
):
    """10e Hazardous [004 L140-147]: "for each Hazardous weapon that targets were selected for
    ... that unit must take one Hazardous test ... on a 1, that test is failed", then "select one
    model in that unit that has lost one or more wounds and is equipped with one or more
    Hazardous weapons. Otherwise ... (excluding CHARACTER models) equipped with one or more
    Hazardous weapons", and "one of those models suffers 3 mortal wounds". The plasma gun misses
    (1) and its test fails (1): the wounded Justicar carries no plasma gun and is not selected;
    the plasma gunner suffers 3 mortal wounds and is destroyed. 11e 24.15 and 06.03: a failed
    hazard roll (1-2) makes the unit suffer 1 mortal wound, which 06.02 gives the wounded
    non-CHARACTER model: the Justicar."""
    state = squad_with_one_plasma_gun(edition)
    state, events = shoot_scripted(state, [("Plasma gun", CADIANS)], (1, 1))
    (rolled,) = [e for e in events if e["type"] == "dice_rolled" and e["purpose"] == "hazard_roll"]
    assert rolled["values"] == [1]
    assert destroyed(events) == [casualty]
    hazard = next(e for e in events if e["type"] == "hazard_rolled")
    assert hazard["mortal_wounds"] == (3 if edition == "10e" else 1)


@pytest.mark.parametrize(("edition", "casualty"), [("11e", f"{SQUAD}-m1"), ("10e", PLASMA_GUNNER)])
def test_a_hazardous_weapon_whose_target_was_destroyed_first_still_takes_its_test(
    edition, casualty
):
    """10e Hazardous: a test "for each Hazardous weapon that targets were selected for"; 11e
    24.15: "hazard rolls ... equal to the number of [HAZARDOUS] weapons you selected in the Select
    Weapons step". The squad's storm bolters kill the lone Cadian before the plasma gun fires at
    it: the plasma gun makes no attack, but its test is still taken (a 1: failed)."""
    lone = {"positions": {f"{CADIANS}-m2": [30, 20]}}
    lone["wounds_left"] = {f"{CADIANS}-m{i}": 0 for i in range(1, 11) if i != 2}
    state = squad_with_one_plasma_gun(edition, lone)
    storm_bolter_hits = (6, 1, 1, 1, 1, 1, 1, 1)  # four storm bolters, [RAPID FIRE 2] out of 12"
    dice = (*storm_bolter_hits, 6, 1, 1)  # wound 6, save 1: the Cadian is destroyed; hazard 1
    state, events = shoot_scripted(
        state, [("Storm bolter", CADIANS), ("Plasma gun", CADIANS)], dice
    )
    assert destroyed(events) == [f"{CADIANS}-m2", casualty]


def with_a_hazardous_bolt_pistol(sheets: list[dict]) -> list[dict]:
    """`sheets` with the Inquisitor's bolt pistol made [HAZARDOUS]."""
    inquisitor = next(s for s in sheets if s["slug"] == "inquisitor")
    pistol = next(w for w in inquisitor["weapons"] if w["name"] == "Bolt pistol")
    pistol["abilities"] = [*pistol["abilities"], "hazardous"]
    return sheets


def fire_the_bolt_pistol(state: dict, allocate: str | None = GREY_KNIGHT):
    """The Inquisitor fires his bolt pistol at the Cadians: it misses (1) and its hazard roll
    (10e: Hazardous test) fails (1). Windows are passed and mortal wounds allocated to
    `allocate` (None: stop at the first decision that is not a window). The state and events."""
    shoot = {
        "type": "shoot",
        "player": 1,
        "unit": LED_SQUAD,
        "assignments": [{"weapon": "Bolt pistol", "target": CADIANS}],
    }
    with scripted_dice(1, 1):
        state, events = play(state, shoot)
        while state["pending"]:
            kind = state["pending"][-1]["kind"]
            if kind != "stratagem_window" and (allocate is None or kind != "allocate_mortal_wound"):
                break
            state, more = decide(state, "pass" if kind == "stratagem_window" else allocate)
            events += more
    return state, events


@pytest.mark.parametrize(
    ("edition", "hurt", "wounds_left"), [("11e", GREY_KNIGHT, 1), ("10e", INQUISITOR, 1)]
)
def test_a_leaders_failed_hazardous_test_hurts_the_leader_in_10e(edition, hurt, wounds_left):
    """10e Hazardous: "Otherwise, select one CHARACTER model in that unit equipped with one or
    more Hazardous weapons": the Inquisitor's bolt pistol is [HAZARDOUS] here and no Grey Knight
    carries a Hazardous weapon, so the failed test's 3 mortal wounds go to the Inquisitor (W4),
    not to his Bodyguard. 11e 06.03, 06.02: the unit suffers 1 mortal wound, which goes to a
    non-CHARACTER model (the Justicar, W2)."""
    state = position_game(
        edition,
        {LED_SQUAD: {"at": [30, 4]}, CADIANS: {"at": [30, 14]}},
        phase="shooting",
        datasheets=with_a_hazardous_bolt_pistol(copy.deepcopy(BUNDLE["datasheets"])),
    )
    state, events = fire_the_bolt_pistol(state)
    assert {e["model"] for e in events if e["type"] == "wounds_lost"} == {hurt}
    model = next(m for m in state["units"][LED_SQUAD]["models"] if m["id"] == hurt)
    assert model["wounds_left"] == wounds_left


# --- 10e Hazardous: the player selects the model (R-ENG-17) -------------------------------------

SECOND_GUNNER = f"{SQUAD}-m4"


def two_plasma_gunners(second: tuple[str, ...], edition: str = "10e") -> dict:
    """The Strike Squad's third and fourth Grey Knights fire plasma guns at the Cadians; the
    fourth carries `second` (its weapons)."""
    state = position_game(
        edition,
        {SQUAD: {"at": [30, 4]}, CADIANS: {"at": [30, 20]}},
        phase="shooting",
        datasheets=sheets_with_plasma_guns(),
    )
    carry(state, SQUAD, PLASMA_GUNNER, "Nemesis force weapon", "Plasma gun")
    carry(state, SQUAD, SECOND_GUNNER, *second)
    return state


def fire_plasma_guns(state: dict, dice: tuple[int, ...]):
    """Both plasma guns fire (`dice`: two hit rolls, then the two Hazardous tests), every
    window passed; stops at the first decision that is not a window."""
    shoot = {
        "type": "shoot",
        "player": 1,
        "unit": SQUAD,
        "assignments": [{"weapon": "Plasma gun", "target": CADIANS}],
    }
    with scripted_dice(*dice):
        state, events = play(state, shoot)
        while state["pending"] and state["pending"][-1]["kind"] == "stratagem_window":
            state, more = decide(state, "pass")
            events += more
    return state, events


def test_10e_the_player_selects_which_different_hazardous_model_suffers_a_failed_test():
    """10e Hazardous [004 L140-147]: "For each failed test you must resolve the following
    sequence ... Otherwise, if possible, select one model in that unit (excluding CHARACTER
    models) equipped with one or more Hazardous weapons": "you" select, so where two unwounded
    Grey Knights carry plasma guns and one also carries a storm bolter, the failed test asks the
    Grey Knights' player (`allocate_mortal_wound`, the two as options); the one chosen suffers
    the 3 mortal wounds."""
    state = two_plasma_gunners(("Nemesis force weapon", "Plasma gun", "Storm bolter"))
    state, events = fire_plasma_guns(state, (1, 1, 1, 6))  # both miss; one test fails
    ask = state["pending"][-1]
    assert (ask["kind"], ask["player"], ask["rule"]) == ("allocate_mortal_wound", 1, "Hazardous")
    assert ask["options"] == [PLASMA_GUNNER, SECOND_GUNNER]
    assert destroyed(events) == []
    state, events = decide(state, SECOND_GUNNER)
    assert destroyed(events) == [SECOND_GUNNER]
    assert next(e for e in events if e["type"] == "hazard_rolled")["mortal_wounds"] == 3
    assert not state["pending"]


def test_10e_identical_hazardous_models_need_no_question():
    """The same failed test with two Grey Knights alike (plasma gun and Nemesis force weapon,
    no wound lost): whichever is selected the result is the same, so nobody is asked and the
    first in the unit's order suffers the 3 mortal wounds."""
    state = two_plasma_gunners(("Nemesis force weapon", "Plasma gun"))
    state, events = fire_plasma_guns(state, (1, 1, 1, 6))
    assert not state["pending"]
    assert destroyed(events) == [PLASMA_GUNNER]


def test_10e_a_wounded_character_with_a_hazardous_weapon_is_as_selectable_as_a_wounded_bearer():
    """10e Hazardous: "If possible, select one model in that unit that has lost one or more
    wounds and is equipped with one or more Hazardous weapons": the first line excludes no
    CHARACTER. The Inquisitor (bolt pistol made [HAZARDOUS], 2 wounds lost) and a wounded Grey
    Knight with a plasma gun are both on it: the player picks either."""
    gunner = f"{LED_SQUAD}-m3"
    state = position_game(
        "10e",
        {
            LED_SQUAD: {"at": [30, 4], "wounds_left": {INQUISITOR: 2, gunner: 1}},
            CADIANS: {"at": [30, 14]},
        },
        phase="shooting",
        datasheets=with_a_hazardous_bolt_pistol(sheets_with_plasma_guns()),
    )
    carry(state, LED_SQUAD, gunner, "Nemesis force weapon", "Plasma gun")
    state, _ = fire_the_bolt_pistol(state, None)
    ask = state["pending"][-1]
    assert ask["kind"] == "allocate_mortal_wound"
    assert ask["options"] == [gunner, INQUISITOR]
    state, events = decide(state, INQUISITOR)
    assert {e["model"] for e in events if e["type"] == "wounds_lost"} == {INQUISITOR}
    assert destroyed(events) == [INQUISITOR]


# --- 10e Hazardous after Fire Overwatch in the Charge phase (R-ENG-17) ------------------------


def overwatch_with_a_plasma_gun(charge_dice: tuple[int, int], move: bool = True):
    """10e, player 2's Charge phase: the Cadians declare a charge against the Strike Squad 6"
    away; its player uses Fire Overwatch and fires the third Grey Knight's plasma gun (a hit
    roll of 1 misses, the Hazardous test of 1 fails); then the charge roll (`charge_dice`) and,
    when it is made and `move`, the charge move. Every event, and the states at the charge
    move decision and at the end."""
    state = position_game(
        "10e",
        {SQUAD: {"at": [20, 20]}, CADIANS: {"at": [20, 26]}},
        phase="charge",
        active_player=2,
        datasheets=sheets_with_plasma_guns(),
    )
    carry(state, SQUAD, PLASMA_GUNNER, "Nemesis force weapon", "Plasma gun")
    declare = {"type": "declare_charge", "player": 2, "unit": CADIANS, "targets": [SQUAD]}
    at_the_move = None
    with scripted_dice(1, 1, *charge_dice):
        state, events = play(state, declare)
        while state["pending"]:
            top = state["pending"][-1]
            if top["kind"] == "stratagem_window" and ("fire-overwatch-10e", SQUAD) in offered(
                state
            ):
                state, more = choose(state, "fire-overwatch-10e", SQUAD)
            elif top["kind"] == "shoot_out_of_turn":
                shot = {"assignments": [{"weapon": "Plasma gun", "target": CADIANS}]}
                state, more = decide(state, shot)
            elif top["kind"] == "charge_move":
                at_the_move = copy.deepcopy(state)
                state, more = decide(
                    state, legal_charge(state, CADIANS, [SQUAD], 12) if move else None
                )
            else:
                state, more = decide(state, "pass")
            events += more
    return events, at_the_move, state


def index_of(events: list[dict], kind: str) -> int:
    return next(i for i, e in enumerate(events) if e["type"] == kind)


def test_10e_hazardous_mortal_wounds_of_fire_overwatch_wait_for_the_charge_move():
    """Seed 004 L145 (10e Hazardous): "If a unit from a player's army is selected as the target
    of the Fire Overwatch Stratagem in their opponent's Charge phase, any mortal wounds inflicted
    by Hazardous tests are allocated after the charging unit has ended its Charge move." The
    test is taken when the overwatch shooting ends (`hazard_deferred`); the plasma gunner still
    stands, unhurt, while the Cadians make their charge move, and suffers the 3 mortal wounds
    once it has ended."""
    events, at_the_move, state = overwatch_with_a_plasma_gun((6, 6))
    deferred = events[index_of(events, "hazard_deferred")]
    assert (deferred["unit"], deferred["failures"], deferred["charging"]) == (SQUAD, 1, CADIANS)
    gunner = next(m for m in at_the_move["units"][SQUAD]["models"] if m["id"] == PLASMA_GUNNER)
    assert gunner["wounds_left"] == 2
    assert index_of(events, "unit_charged") < index_of(events, "model_destroyed")
    assert destroyed(events) == [PLASMA_GUNNER]
    assert events[index_of(events, "hazard_rolled")]["mortal_wounds"] == 3
    assert not state["facts"]["phase"]["deferred_hazards"]


@pytest.mark.parametrize(
    ("charge_dice", "move", "ended"),
    [((1, 1), True, "charge_failed"), ((6, 6), False, "charge_move_declined")],
)
def test_10e_hazardous_mortal_wounds_of_fire_overwatch_come_when_the_charge_ends_without_a_move(
    charge_dice, move, ended
):
    """Seed 004 L145 does not say when the mortal wounds come if the charging unit makes no
    Charge move: they come when its charge is over, a failed charge roll or a declined move
    (rulings R-ENG-17)."""
    events, _, _ = overwatch_with_a_plasma_gun(charge_dice, move)
    assert "unit_charged" not in [e["type"] for e in events]
    assert index_of(events, "hazard_deferred") < index_of(events, ended)
    assert index_of(events, ended) < index_of(events, "model_destroyed")
    assert destroyed(events) == [PLASMA_GUNNER]


# --- 11e 06.03: 3 mortal wounds only if each model is a MONSTER/VEHICLE model (R-ENG-17) ---------


@pytest.mark.parametrize(
    ("vehicles", "grey_knights_alive", "mortal_wounds"),
    [
        (("inquisitor",), True, 1),
        (("inquisitor", "strike-squad"), True, 3),
        (("inquisitor",), False, 3),
    ],
)
def test_11e_a_hazard_roll_inflicts_3_mortal_wounds_only_if_each_model_is_a_monster_or_vehicle(
    vehicles, grey_knights_alive, mortal_wounds
):
    """11e 06.03: a failed hazard roll makes the unit suffer "1 mortal wound ..., or 3 mortal
    wounds instead if each model in that unit is a MONSTER/VEHICLE model". The Inquisitor's
    datasheet is made a VEHICLE (and his bolt pistol [HAZARDOUS]): leading the Grey Knights his
    unit suffers 1 mortal wound, though the attached unit has the VEHICLE keyword (19.03); with
    the Strike Squad a VEHICLE too, or once every Grey Knight is destroyed, 3."""
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    for sheet in sheets:
        if sheet["slug"] in vehicles:
            sheet["keywords"] = [*sheet["keywords"], "VEHICLE"]
    squad: dict = {"at": [30, 4]}
    if not grey_knights_alive:
        squad["wounds_left"] = {f"{LED_SQUAD}-m{i}": 0 for i in range(1, 6)}
    state = position_game(
        "11e",
        {LED_SQUAD: squad, CADIANS: {"at": [30, 14]}},
        phase="shooting",
        datasheets=with_a_hazardous_bolt_pistol(sheets),
    )
    state, events = fire_the_bolt_pistol(state)
    assert next(e for e in events if e["type"] == "hazard_rolled")["mortal_wounds"] == mortal_wounds
    # 06.02: each mortal wound one at a time until all are inflicted (the excess carries on).
    assert sum(e["amount"] for e in events if e["type"] == "wounds_lost") == mortal_wounds


@pytest.mark.parametrize(
    ("vehicles", "mortal_wounds"), [(("inquisitor",), 1), (("inquisitor", "strike-squad"), 3)]
)
def test_11e_a_desperate_escape_reads_monster_or_vehicle_per_model(vehicles, mortal_wounds):
    """11e 09.07 Desperate Escape makes hazard rolls (06.03) too: a failed one costs the
    Inquisitor's unit 1 mortal wound while only the Inquisitor is a VEHICLE, 3 when every
    model is."""
    sheets = copy.deepcopy(BUNDLE["datasheets"])
    for sheet in sheets:
        if sheet["slug"] in vehicles:
            sheet["keywords"] = [*sheet["keywords"], "VEHICLE"]
    state = position_game(
        "11e",
        {LED_SQUAD: {"at": [30, 20]}, CADIANS: {"at": [30, 16.78]}},
        phase="movement",
        datasheets=sheets,
    )
    state, _ = play(state, {"type": "fall_back", "player": 1, "unit": LED_SQUAD})
    with scripted_dice(2, 6, 6, 6, 6, 6):  # one hazard roll fails
        state, _ = decide(state, "desperate_escape")
    state = pass_windows(state)
    allocation = state["pending"][-1]
    assert allocation["kind"] == "allocate_mortal_wound"
    assert allocation["resume"]["remaining"] == mortal_wounds


# --- 11e 06.02: the owner selects the model a hazard roll's mortal wound goes to (R-ENG-17) ------


def test_11e_the_player_selects_the_model_a_failed_hazard_rolls_mortal_wound_goes_to():
    """11e 24.15, 06.03: a failed hazard roll (1-2) makes the unit suffer 1 mortal wound "(see
    above)"; 06.02: "its controlling player must resolve the following sequence ... Select Model
    ... Otherwise, if that unit contains one or more non-CHARACTER models, you must select one of
    those models". No Grey Knight has lost a wound and the Justicar and the two plasma gunners
    differ from the others, so the Grey Knights' player is asked (`allocate_mortal_wound`, every
    model of the squad an option: 06.02 does not limit it to a model with a [HAZARDOUS] weapon)
    and gives the wound to the fifth Grey Knight, who carries none."""
    state = two_plasma_gunners(("Nemesis force weapon", "Plasma gun", "Storm bolter"), "11e")
    state, events = fire_plasma_guns(state, (1, 1, 2, 6))  # both miss; one hazard roll fails
    ask = state["pending"][-1]
    assert (ask["kind"], ask["player"], ask["rule"]) == ("allocate_mortal_wound", 1, "06.02")
    assert ask["options"] == [f"{SQUAD}-m{i}" for i in range(1, 6)]
    assert next(e for e in events if e["type"] == "hazard_rolled")["mortal_wounds"] == 1
    assert not [e for e in events if e["type"] == "wounds_lost"]
    state, events = decide(state, f"{SQUAD}-m5")
    assert [(e["model"], e["amount"]) for e in events if e["type"] == "wounds_lost"] == [
        (f"{SQUAD}-m5", 1)
    ]
    assert not state["pending"]


def test_11e_identical_models_need_no_question_for_a_hazard_rolls_mortal_wound():
    """The same rule where the choice changes nothing: the Inquisitor's bolt pistol is made
    [HAZARDOUS] and his unit's Justicar is destroyed, so the non-CHARACTER models 06.02 lets the
    player select are four Grey Knights alike (profile, wounds left, wargear; only where they
    stand differs). Nobody is asked: the first in the unit's order loses the wound."""
    justicar_destroyed = {"at": [30, 4], "wounds_left": {f"{LED_SQUAD}-m1": 0}}
    state = position_game(
        "11e",
        {LED_SQUAD: justicar_destroyed, CADIANS: {"at": [30, 14]}},
        phase="shooting",
        datasheets=with_a_hazardous_bolt_pistol(copy.deepcopy(BUNDLE["datasheets"])),
    )
    state, events = fire_the_bolt_pistol(state, None)
    assert not state["pending"]
    assert [(e["model"], e["amount"]) for e in events if e["type"] == "wounds_lost"] == [
        (f"{LED_SQUAD}-m2", 1)
    ]


# --- Mortal wounds outside the attack sequence: identical models need no question (R-ENG-15) ---


@pytest.mark.parametrize("edition", ["11e", "10e"])
def test_grenades_mortal_wounds_on_identical_models_need_no_question(edition):
    """11e Explosives [000 L415] "for each 4+, that enemy unit suffers 1 mortal wound (06.02)",
    and 06.02 "Otherwise, if that unit contains one or more non-CHARACTER models, you must select
    one of those models"; 10e Grenade [004 L349] and Mortal Wounds [004 L153] "allocated to a
    model in the same manner as allocating an attack" (the player selects, a model that has lost
    wounds first). The Strike Squad's Justicar is destroyed and its four Grey Knights are alike:
    whichever is selected the result is the same, so nobody is asked. Of 3 mortal wounds the
    first Grey Knight takes one, must take the next (he has lost a wound) and is destroyed; the
    second takes the last."""
    state = position_game(
        edition,
        {
            SQUAD: {"at": [30, 20], "wounds_left": {f"{SQUAD}-m1": 0}},
            CADIANS: {"at": [30, 26]},
        },
        phase="shooting",
        active_player=2,
    )
    (grenades,) = [
        a
        for a in legal_actions(state, 2)
        if a["type"] == "use_stratagem" and a.get("enemy") == SQUAD
    ]
    with scripted_dice(4, 4, 4, 1, 1, 1):  # three mortal wounds
        state, events = play(state, grenades)
        state = pass_windows(state)
    assert not state["pending"]
    assert [(e["model"], e["amount"]) for e in events if e["type"] == "wounds_lost"] == [
        (f"{SQUAD}-m2", 1),
        (f"{SQUAD}-m2", 1),
        (f"{SQUAD}-m3", 1),
    ]
    assert destroyed(events) == [f"{SQUAD}-m2"]
