"""Grey Knights rules that change other rules (seed 004; published datasheets, 10e).

Each function is what the rule it implements changes, asked by the rule it changes; none of the
phases knows a Grey Knights rule by name:

- An Urgent Duty (Void Purge Force, seed 004 L542-545): +1 to Advance and Charge rolls
  (`roll_bonus`, asked by the Movement and Charge phases when they roll).
- Teleport Shunt (Teleport Strike Force, L539-542): a unit with Deep Strike that Advances makes
  no Advance roll; until the end of the phase its Move is +6" and it can FLY (`teleport_shunt`,
  asked by `movement_phase.advance`; effects `characteristic M +6` and `keyword FLY`).
- Leader abilities (datasheet abilities "While this model is leading a unit, ..."): Hammerhand
  ([LETHAL HITS] on the unit's melee weapons) and Clarion of Haste (eligible to charge after
  Advancing), read through `attached_units.is_led_with` (the unit's attached Leaders, and those
  Battlefield Command lends it).
- Model abilities of the attack sequence: Eye of Judgement (the Brother-Captain re-rolls the
  Wound roll) and Force Edge (the Terminators' melee attacks improve AP by 1 against units that
  are not MONSTERS or VEHICLES) apply to the attack groups whose models are all of that part
  (`group_modifiers`; `split_groups` keeps such models in groups of their own; rulings R-GK-06).
- Ancient's Banner: +1 OC to the models of the bearer's unit while the bearer lives
  (`objective_control_bonus`, asked by objective control; the bearer, R-GK-07).
- Personal Teleporters (Interceptor Squad): a Normal move of up to 6" after the unit has shot
  (`personal_teleporters`, offered by the timing point after its attacks, `MOVES_AFTER_ATTACKS`).
- Truesilver Aegis (Aura): Feel No Pain 6+ against mortal wounds for friendly GREY KNIGHTS units
  wholly within 6" of the Rhino (`mortal_wound_feel_no_pain`).
"""

from __future__ import annotations

import math
from typing import Any

import shapely

from rules.engine.army.attached_units import (
    any_part_has,
    bodyguard_bearer,
    is_led_with,
    leader_ability,
    part_has,
)
from rules.engine.attacks.modifiers import Modifier
from rules.engine.battlefield.board import BOUND_MARGIN, Placement
from rules.engine.battlefield.coherency import coherency_break
from rules.engine.battlefield.placement import (
    battlefield_of,
    edition_of,
    final_positions,
    measured_here,
    others_on_table,
    place,
    read_positions,
    table,
    unit_placements,
)
from rules.engine.battlefield.setting_up import check_set_up
from rules.engine.core import standing_rules
from rules.engine.core.citations import cite
from rules.engine.core.decisions import push_decision
from rules.engine.core.effects import CANNOT_CHARGE, add_effect, effects_on_unit
from rules.engine.core.events import Context
from rules.engine.core.hooks import implements
from rules.engine.core.refusals import Refusal
from rules.engine.core.sequencing import carry_on, continuation
from rules.engine.core.shapes import Part, Unit
from rules.engine.core.state import State, detachment, on_battlefield, unit_keywords, units_of
from rules.engine.core.timing import BATTLE_SHOCK_STEP_ENDED, at
from rules.engine.phases.command_points import gain_command_points
from rules.engine.sequence.objectives import RITUAL

# --- detachment rules -----------------------------------------------------------------------


@implements("detachment-rule", "void-purge-force")
def roll_bonus(state: State, unit: Unit) -> int:
    """An Urgent Duty: "Add 1 to Advance and Charge rolls made for units from your army.\""""
    return 1 if detachment(state, unit["player"]) == "void-purge-force" else 0


@implements(
    "detachment-rule",
    "teleport-strike-force",
    at=standing_rules.ADVANCE_ROLL_REPLACEMENTS,
    order=10,
)
def teleport_shunt_instead_of_the_roll(ctx: Context, unit: Unit) -> str | None:
    return "Teleport Shunt" if teleport_shunt(ctx, unit) else None


def teleport_shunt(ctx: Context, unit: Unit) -> bool:
    """Teleport Shunt, when it applies (every part of the unit has Deep Strike): instead of the
    Advance roll, +6" Move and FLY until the end of the phase. Returns whether it applied."""
    state = ctx.state
    if detachment(state, unit["player"]) != "teleport-strike-force" or not all(
        part_has(state, part, "Deep Strike") for part in unit["parts"]
    ):
        return False
    selector = {"unit": unit["id"]}
    player = unit["player"]
    add_effect(
        ctx, "Teleport Shunt", selector, {"characteristic": "M", "add": 6}, "end_of_phase", player
    )
    add_effect(ctx, "Teleport Shunt", selector, {"keyword": "FLY"}, "end_of_phase", player)
    return True


# --- Leader abilities -----------------------------------------------------------------------

# Datasheet abilities that hold "while this model is leading a unit" (Battlefield Command can
# lend them: `attached_units.is_led_with`).
HAMMERHAND = leader_ability("Hammerhand (Psychic)")
CLARION_OF_HASTE = leader_ability("Clarion of Haste (Psychic)")


@implements("datasheet-ability", "brother-captain/hammerhand-psychic")
def hammerhand(state: State, unit: Unit) -> tuple[Modifier, ...]:
    """While this model is leading a unit, melee weapons of that unit have [LETHAL HITS]."""
    if not is_led_with(state, unit, HAMMERHAND):
        return ()
    return (
        Modifier.from_dict(
            {
                "step": "ability",
                "kind": "grant",
                "value": "lethal hits",
                "condition": {"weapon_type": "melee"},
                "source": HAMMERHAND,
            }
        ),
    )


@implements("datasheet-ability", "brotherhood-champion/clarion-of-haste-psychic")
def may_charge_after_advancing(state: State, unit: Unit) -> bool:
    """While this model is leading a unit, that unit is eligible to declare a charge in a turn in
    which it Advanced."""
    return is_led_with(state, unit, CLARION_OF_HASTE)


def unit_modifiers(state: State, attacker: str, target: str) -> tuple[Modifier, ...]:
    """The attack modifiers the attacking unit's abilities give all its attacks, and those the
    target's surroundings give it (Truesilver Aegis)."""
    found = hammerhand(state, state["units"][attacker])
    fnp = mortal_wound_feel_no_pain(state, state["units"][target])
    if fnp is not None:
        found += (
            Modifier("feel_no_pain", "set_against_mortal_wounds", fnp, source=TRUESILVER_AEGIS),
        )
    return found


# --- model abilities in the attack sequence -------------------------------------------------

EYE_OF_JUDGEMENT = "Eye of Judgement (Psychic)"
FORCE_EDGE = "Force Edge (Psychic)"
INSPIRING_EXEMPLAR = "Inspiring Exemplar"
MODEL_ABILITIES = (EYE_OF_JUDGEMENT, FORCE_EDGE, INSPIRING_EXEMPLAR)


def _group_part(unit: Unit, models: tuple[str, ...] | list[str]) -> int | None:
    parts = {m["part"] for m in unit["models"] if m["id"] in set(models)}
    return parts.pop() if len(parts) == 1 else None


@implements("datasheet-ability", "brother-captain/eye-of-judgement-psychic")
def eye_of_judgement(state: State, part: Part) -> tuple[Modifier, ...]:
    """Each time this model makes an attack, you can re-roll the Wound roll."""
    if not part_has(state, part, EYE_OF_JUDGEMENT):
        return ()
    return (Modifier("wound", "reroll", "any", source=EYE_OF_JUDGEMENT),)


@implements("datasheet-ability", "brotherhood-terminator-squad/force-edge-psychic")
def force_edge(state: State, part: Part, target: Unit) -> tuple[Modifier, ...]:
    """Melee attacks of models of this unit against a unit that is not a MONSTER or VEHICLE:
    improve AP by 1."""
    keywords = unit_keywords(state, target)
    if not part_has(state, part, FORCE_EDGE) or keywords & {"MONSTER", "VEHICLE"}:
        return ()
    return (Modifier("ap", "improve", 1, condition=(("weapon_type", "melee"),), source=FORCE_EDGE),)


@implements(
    "datasheet-ability",
    "brotherhood-champion/inspiring-exemplar",
    at=standing_rules.MODELS_DESTROYED_BY_ATTACKS,
    order=10,
)
def models_destroyed_by(
    ctx: Context,
    attacking: Unit,
    models: tuple[str, ...] | list[str],
    destroyed: list[dict[str, Any]],
) -> None:
    """Inspiring Exemplar: each time this model destroys an enemy CHARACTER model in the Fight
    phase, you gain 1CP (capped as every gain outside the Command phase) and, until the end of
    the battle, add 1 to the Attacks of its Nemesis force weapon (its melee weapon)."""
    index = _group_part(attacking, models)
    if index is None or ctx.state["phase"] != "fight":
        return
    if not part_has(ctx.state, attacking["parts"][index], INSPIRING_EXEMPLAR):
        return
    for _ in (m for m in destroyed if m.get("character")):
        gain_command_points(ctx, attacking["player"], 1, INSPIRING_EXEMPLAR)
        add_effect(
            ctx,
            INSPIRING_EXEMPLAR,
            {"unit": attacking["id"]},
            {"exemplar_attacks": 1, "part": index},
            "end_of_battle",
            attacking["player"],
        )


def _exemplar_attacks(state: State, unit: Unit, index: int) -> tuple[Modifier, ...]:
    bonus = sum(
        e["modifier"]["exemplar_attacks"]
        for e in effects_on_unit(state, unit["id"])
        if "exemplar_attacks" in e["modifier"] and e["modifier"]["part"] == index
    )
    if not bonus:
        return ()
    melee = (("weapon_type", "melee"),)
    return (Modifier("attacks", "add", bonus, condition=melee, source=INSPIRING_EXEMPLAR),)


def group_modifiers(
    state: State, unit: Unit, models: tuple[str, ...] | list[str], target: str
) -> tuple[Modifier, ...]:
    """The modifiers model abilities give one attack group (all its models of one part)."""
    index = _group_part(unit, models)
    if index is None:
        return ()
    part = unit["parts"][index]
    return (
        eye_of_judgement(state, part)
        + force_edge(state, part, state["units"][target])
        + _exemplar_attacks(state, unit, index)
    )


# --- moves after shooting -------------------------------------------------------------------

PERSONAL_TELEPORTERS_DISTANCE = 6.0


@implements(
    "datasheet-ability",
    "interceptor-squad/personal-teleporters",
    at=standing_rules.MOVES_AFTER_ATTACKS,
    order=10,
)
def personal_teleporters(state: State, shooter_id: str) -> list[dict[str, Any]]:
    """Interceptor Squad, Personal Teleporters: "In your Shooting phase, after this unit has
    shot, if it is not within Engagement Range of one or more enemy units, it can make a Normal
    move of up to 6". If it does, until the end of the turn, this unit is not eligible to declare
    a charge." (engagement is checked when the move is offered)."""
    unit = state["units"].get(shooter_id)
    if (
        unit is None
        or state["phase"] != "shooting"
        or unit["player"] != state["active_player"]
        or not any_part_has(state, unit, "Personal Teleporters")
    ):
        return []
    return [
        {
            "unit": shooter_id,
            "max_distance": PERSONAL_TELEPORTERS_DISTANCE,
            "as_if_fly": False,
            "source": "personal-teleporters",
            "statuses": [CANNOT_CHARGE],
        }
    ]


# --- objective control and Feel No Pain -----------------------------------------------------

ANCIENTS_BANNER = "Ancient\u2019s banner"


@implements("datasheet-ability", "brotherhood-terminator-squad/ancients-banner")
def objective_control_bonus(state: State, unit: Unit) -> int:
    """Ancient's Banner: add 1 to the OC of models in the bearer's unit (while the bearer lives)."""
    if not part_has(state, unit["parts"][0], "Ancient\u2019s Banner"):
        return 0
    return 1 if bodyguard_bearer(unit, ANCIENTS_BANNER) is not None else 0


TRUESILVER_AEGIS = "Truesilver Aegis (Aura)"
AEGIS_RANGE = 6.0


def _wholly_within(state: State, unit: Unit, source: Unit, distance: float) -> bool:
    """Every model of `unit` wholly within `distance` of the `source` unit: each base inside the
    area within `distance` of the source's bases (hulls included). Answered once per position
    (the aura is asked at every step of every attack against the unit)."""
    measured = measured_here(state)
    key = ("wholly_within", unit["id"], source["id"], distance)
    if key not in measured:
        measured[key] = _measure_wholly_within(state, unit, source, distance)
    return measured[key]


def _measure_wholly_within(state: State, unit: Unit, source: Unit, distance: float) -> bool:
    placements = table(state)
    if _certainly_apart(placements, unit, source, distance):
        return False
    area = shapely.union_all(
        [p.polygon().buffer(distance) for p in placements if p.unit_id == source["id"]]
    )
    bases = [p.polygon() for p in placements if p.unit_id == unit["id"]]
    return bool(bases) and all(area.buffer(1e-9).covers(base) for base in bases)


def _certainly_apart(
    placements: list[Placement], unit: Unit, source: Unit, distance: float
) -> bool:
    """A model of `unit` lies wholly farther than `distance` from every base of `source` (by the
    bases' bounding circles): then `unit` is not wholly within, and no polygon need be built. The
    aura is asked for every target of every attack; most units are nowhere near the Rhino."""
    sources = [p for p in placements if p.unit_id == source["id"]]
    reach = distance + BOUND_MARGIN
    return any(
        all(
            math.hypot(p.x - s.x, p.y - s.y) - p.base.bounding_radius - s.base.bounding_radius
            > reach
            for s in sources
        )
        for p in placements
        if p.unit_id == unit["id"]
    ) and bool(sources)


@implements(
    "datasheet-ability",
    "rhino/truesilver-aegis-aura",
    at=standing_rules.MORTAL_WOUND_FEEL_NO_PAIN,
    order=10,
)
def mortal_wound_feel_no_pain(state: State, unit: Unit) -> int | None:
    """Truesilver Aegis (Aura): while a friendly GREY KNIGHTS unit is wholly within 6" of this
    unit, its models have Feel No Pain 6+ against mortal wounds."""
    if not on_battlefield(unit) or not _is_grey_knights(state, unit):
        return None
    for rhino in units_of(state, unit["player"]):
        # 10e Aura abilities: the unit with the aura is within its own aura.
        if not on_battlefield(rhino):
            continue
        if not any(part_has(state, part, TRUESILVER_AEGIS) for part in rhino["parts"]):
            continue
        if _wholly_within(state, unit, rhino, AEGIS_RANGE):
            return 6
    return None


def _is_grey_knights(state: State, unit: Unit) -> bool:
    return all(
        "GREY KNIGHTS"
        in {k.upper() for k in state["datasheets"][part["datasheet"]].get("faction_keywords", [])}
        for part in unit["parts"]
    )


# --- Apothecary's Narthecium ----------------------------------------------------------------

NARTHECIUM = "Apothecary\u2019s narthecium"
NARTHECIUM_KIND = "return_destroyed_model"


def _narthecium_units(state: State, player: int) -> list[tuple[str, str]]:
    """(unit, destroyed model) pairs: a unit whose bearer lives and that has a destroyed model
    that is not a CHARACTER (the first such model is the one returned)."""
    found = []
    for unit in units_of(state, player):
        if not on_battlefield(unit) or not part_has(
            state, unit["parts"][0], "Apothecary\u2019s Narthecium"
        ):
            continue
        if bodyguard_bearer(unit, NARTHECIUM) is None:
            continue
        lost = [m for m in unit["models"] if m["wounds_left"] <= 0 and not m["character"]]
        if lost:
            found.append((unit["id"], lost[0]["id"]))
    return found


@at(BATTLE_SHOCK_STEP_ENDED, 10, resumes=True)
def _narthecium_after_battle_shock(
    ctx: Context, _data: dict[str, Any], then: dict[str, Any] | None
) -> None:
    if not offer_narthecium(ctx, then, []):
        carry_on(ctx, then)


@implements("datasheet-ability", "brotherhood-terminator-squad/apothecarys-narthecium")
def offer_narthecium(ctx: Context, then: dict[str, Any] | None, asked: list[str]) -> bool:
    """In your Command phase (after the Battle-shock step; rulings R-GK-09), for each unit whose
    Apothecary's narthecium bearer is not destroyed: return 1 destroyed model (excluding
    CHARACTERS), or not (`null`). Returns whether a decision was pushed."""
    state = ctx.state
    player = state["active_player"]
    for unit_id, model_id in _narthecium_units(state, player):
        if unit_id in asked:
            continue
        push_decision(
            ctx,
            player,
            NARTHECIUM_KIND,
            {"unit": unit_id, "model": model_id},
            {
                "step": "narthecium_answered",
                "unit": unit_id,
                "model": model_id,
                "asked": [*asked, unit_id],
                "then": then,
            },
            "Apothecary\u2019s Narthecium",
            f"Return a destroyed model to {state['units'][unit_id]['name']}: its position "
            "[x, y, facing] in unit coherency (or null).",
        )
        return True
    return False


@continuation("narthecium_answered")
def _narthecium_answered(ctx: Context, data: dict[str, Any], choice: Any) -> None:
    if choice is not None:
        _return_model(ctx, ctx.state["units"][data["unit"]], data["model"], choice)
    if not offer_narthecium(ctx, data["then"], data["asked"]):
        carry_on(ctx, data["then"])


def _return_model(ctx: Context, unit: Unit, model_id: str, choice: Any) -> None:
    """The model returns with its full wounds, set up on the battlefield in coherency with its
    unit and not within Engagement Range of enemy units (published 10e rules for returning
    models; the set-up rules of 11e 03.02)."""
    state = ctx.state
    rule = "Apothecary\u2019s Narthecium"
    model = next(m for m in unit["models"] if m["id"] == model_id)
    if (
        not isinstance(choice, dict)
        or set(choice) != {model_id}
        or not isinstance(choice[model_id], list)
        or len(choice[model_id]) != 3
    ):
        raise Refusal("positions_required", rule, f"Give {model_id} a position [x, y, facing].")
    read = read_positions({**unit, "models": [{**model, "wounds_left": 1}]}, choice, rule)
    new = unit_placements(state, {**unit, "models": [{**model, "wounds_left": 1}]}, read)
    battlefield, edition = battlefield_of(state), edition_of(state)
    check_set_up(battlefield, edition, new, others_on_table(state, unit), "setup")
    unit_now = [p for p in table(state) if p.unit_id == unit["id"]] + new
    broken = coherency_break(unit_now, edition)
    if broken is not None:
        raise Refusal("not_in_coherency", cite(state, "coherency"), broken.reason)
    model["wounds_left"] = model["W"]
    place(unit, read)
    ctx.emit("model_returned", unit=unit["id"], model=model_id, positions=final_positions(read))


# --- registration in the standing-rule hooks -------------------------------------------------


@implements(
    "datasheet-ability",
    "brother-captain/hammerhand-psychic",
    "brother-captain/eye-of-judgement-psychic",
    "brotherhood-terminator-squad/force-edge-psychic",
    "brotherhood-champion/inspiring-exemplar",
    at=standing_rules.ATTACK_RULES,
    order=10,
)
def _attack_rules(
    state: State, attacking: Unit, target: Unit, models: tuple[str, ...]
) -> list[Modifier]:
    """Hammerhand and Truesilver Aegis (the whole unit), and the model abilities of the attacking
    models' part (Eye of Judgement, Force Edge, Inspiring Exemplar): attack groups are split by
    datasheet (rulings R-IA-01), so one group's models are of one part."""
    return [
        *unit_modifiers(state, attacking["id"], target["id"]),
        *group_modifiers(state, attacking, models, target["id"]),
    ]


@implements(
    "datasheet-ability",
    "brotherhood-terminator-squad/ancients-banner",
    at=standing_rules.CHARACTERISTIC_RULES,
    order=10,
)
def _banner_objective_control(
    state: State, unit_id: str, _model: dict[str, Any], name: str, value: int
) -> int:
    if name != "OC":
        return value
    return value + objective_control_bonus(state, state["units"][unit_id])


@implements(
    "datasheet-ability",
    "brotherhood-champion/clarion-of-haste-psychic",
    at=standing_rules.ELIGIBILITY_WAIVERS,
    order=10,
)
def _clarion_of_haste_waiver(state: State, unit: Unit, limit: str) -> bool:
    return limit == "charge_after_advance" and may_charge_after_advancing(state, unit)


@implements("detachment-rule", "void-purge-force", at=standing_rules.ROLL_BONUSES, order=10)
def _urgent_duty_bonus(state: State, unit: Unit, roll: str) -> int:
    return roll_bonus(state, unit) if roll in ("advance", "charge") else 0


@implements("datasheet-ability", "strike-squad/sanctifying-ritual-psychic")
def sanctifying_ritual() -> str:
    """Sanctifying Ritual (seed 004 L24): at the end of your Command phase, a marker you control
    that the unit is within range of stays yours "until your opponent controls it at the start or
    end of any turn" (`HOLDING_ABILITIES`)."""
    return RITUAL


# The seed's name for it (the test bundle's datasheet keeps the short one).
for _name in ("Sanctifying Ritual", "Sanctifying Ritual (Psychic)"):
    standing_rules.HOLDING_ABILITIES.add(_name, sanctifying_ritual())
