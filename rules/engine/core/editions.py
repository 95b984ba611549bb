"""The parameters of a rule set: every number and named strategy in which the editions differ.

An `Edition` is built from a rule set's parameters (rules data, editable in the admin) when a game
starts, and frozen into the game. Engine code reads `edition.<parameter>`; it never tests the
edition's slug. Named strategies are strings from the `*_CHOICES` sets below; the module that
implements a strategy owns its meaning and cites the rule.

Sources: seeds 000/003 (11e) and 004 (10e); `../shared/rules/CATALOGUE.md` section 1.2 (DIFF-nn);
the 11th-edition core rules in `../shared/rules/reference/` for 11e gaps; published 10th-edition
rules for 10e gaps. Decisions are recorded in `docs/rulings.md`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

BATTLE_SHOCKED_OC_CHOICES = frozenset({"dash", "zero"})
FLY_VERTICAL_DISTANCE_CHOICES = frozenset({"ignored", "diagonal"})
BATTLE_SHOCK_TESTS_CHOICES = frozenset(
    {
        # 11e §01.02.04: battle-shocked or at/below half-strength, also units off the battlefield.
        "half_strength_or_shocked_anywhere",
        # 10e Battle-shock step: below half-strength units on the battlefield.
        "below_half_strength_on_battlefield",
    }
)
HALF_STRENGTH_CHOICES = frozenset({"at_or_below_half", "below_half"})
FALL_BACK_CHOICES = frozenset({"ordered_retreat_or_desperate_escape", "desperate_escape_tests"})
HAZARD_CONSEQUENCE_CHOICES = frozenset({"mortal_wounds_to_unit", "mortal_wounds_to_one_model"})
COVER_CHOICES = frozenset({"worsen_ballistic_skill", "improve_armour_save"})
STEALTH_CHOICES = frozenset({"benefit_of_cover", "minus_one_to_hit"})
ALLOCATION_CHOICES = frozenset({"allocation_groups", "wounded_model_first"})
DEVASTATING_WOUNDS_CHOICES = frozenset({"mortal_wounds_end_sequence", "no_saving_throw"})
FIGHT_ORDER_CHOICES = frozenset({"active", "opponent"})
HEAVY_CONDITION_CHOICES = frozenset(
    {
        # 11e 24.16: unengaged, not set up this turn, no model moved more than 3".
        "braced",
        # 10e Heavy: the attacking unit Remained Stationary this turn.
        "remained_stationary",
    }
)
RULES_CITATION_CHOICES = frozenset(
    {
        # 11e core rules number their sections (05.01 Hit Rolls); events cite the number.
        "numbered_sections",
        # 10e core rules are cited by heading (Hit Roll, Saving Throw).
        "headings",
    }
)
ATTACHED_STARTING_STRENGTH_CHOICES = frozenset(
    {
        # 11e §01.02.01: models the attached unit contains at the start of battle round 1, kept
        # even when only one part survives (the lone Captain is below half-strength).
        "attached_unit_at_first_round",
        # 10e Attached Units: the sum of both parts; a surviving part reverts to its own.
        "surviving_part_reverts",
    }
)
BATTLE_SHOCK_ENDS_CHOICES = frozenset(
    {
        # 11e §08.03: a battle-shocked unit stops being battle-shocked when a later roll succeeds.
        "passed_battle_shock_roll",
        # 10e Battle-shock step: "until the start of your next Command phase".
        "start_of_next_command_phase",
    }
)
COVER_SCOPE_CHOICES = frozenset(
    {
        # 11e §13.08: the unit has cover only if every one of its models qualifies.
        "every_model_of_unit",
        # 10e Benefit of Cover: each model that qualifies has cover.
        "per_model",
    }
)
OBSCURING_TERRAIN_CHOICES = frozenset(
    {
        # 11e §13.10: terrain areas holding a light or dense feature are obscuring.
        "light_or_dense_areas",
        # 10e Ruins (and features a mission marks obscuring) block sight through them.
        "ruins_and_marked_features",
    }
)
COHERENCY_CHOICES = frozenset(
    {
        # 11e §03.03: within 2" of one other model and within 9" of every other model.
        "one_near_all_within_span",
        # 10e: within 2" of one other model (two others for units of 7+ models).
        "linked_neighbours",
    }
)
CLOSE_COMBAT_MOVES_CHOICES = frozenset(
    {
        # 11e §12.02 Pile In and §12.07 Consolidate: steps of the Fight phase in which both
        # players move their eligible units, the player whose turn it is first.
        "fight_phase_steps",
        # 10e Fight phase: a unit piles in when selected to fight and consolidates after it.
        "each_fight",
    }
)
INDIRECT_FIRE_CHOICES = frozenset(
    {
        # 11e 10.07: the target has cover, no hit re-rolls, an unmodified hit roll of 1-5 fails
        # (1-3 if the unit remained stationary and a friendly unit sees the target).
        "unmodified_one_to_five_fails",
        # 10e Indirect Fire: at a target no attacking model sees, -1 to hit and the target has
        # the benefit of cover.
        "minus_one_to_hit",
    }
)
DISEMBARK_MODES_CHOICES = frozenset({"rapid_tactical_combat", "before_or_after_transport_move"})
EMERGENCY_DISEMBARK_CHOICES = frozenset({"hazard_rolls_then_set_up", "set_up_then_rolls"})


class EditionError(ValueError):
    """Rule-set parameters that are missing, unknown or of the wrong kind."""


@dataclass(frozen=True)
class Edition:
    slug: str
    engagement_range_horizontal: float
    engagement_range_vertical: float
    coherency: str
    coherency_neighbour_distance: float
    coherency_vertical: float
    coherency_span: float
    coherency_large_unit_size: int
    objective_range_horizontal: float
    objective_range_vertical: float
    objective_marker_diameter_mm: float
    battle_rounds: int
    command_points_per_command_phase: int
    max_extra_command_points_per_round: int
    battle_shocked_oc: str
    battle_shock_tests: str
    half_strength: str
    advance_forbids_shooting: bool
    advance_forbids_actions: bool
    fall_back: str
    hazard_fail_max: int
    hazard_consequence: str
    hazard_mortal_wounds: int
    hazard_mortal_wounds_monster_vehicle: int
    desperate_escape_fail_max: int
    cover: str
    charge_range: float
    pile_in_distance: float
    consolidate_distance: float
    deep_strike_enemy_distance: float
    reserves_enemy_distance: float
    reserves_edge_distance: float
    infiltrators_enemy_distance: float
    scouts_enemy_distance: float
    allocation: str
    devastating_wounds: str
    lethal_hits_optional: bool
    # 11e 15.01: "each player cannot target the same unit with more than one stratagem in the
    # same phase" (10e: no such limit).
    one_stratagem_per_unit_per_phase: bool
    # Who selects first in the Fight phase's Fights First and Remaining Combats steps: 11e 12.04
    # "starting with the player whose turn it is" (`active`); 10e "starting with the player whose
    # turn is not taking place" (`opponent`).
    fight_order_starts_with: str
    # 11e rules appendix, Objective markers: "they can end a move on top of objective markers";
    # 10e Objective Markers: "they cannot end a move on top of an objective marker".
    may_end_on_objective_marker: bool
    # 10e Re-rolls: "a dice roll that was made by adding several dice together (e.g. 2D6) ... you
    # must re-roll all of those dice"; 11e 15.02: "select one of those dice to re-roll".
    reroll_summed_dice_in_full: bool
    # 11e 20.01: strategic reserves worth at most 50% of the points limit; 10e Strategic
    # Reserves: 25% (rulings R-ENG-07).
    reserves_points_fraction: float
    # 11e 24.33 Stealth: the unit has the benefit of cover against ranged attacks
    # (`benefit_of_cover`); 10e Stealth: subtract 1 from the Hit roll of ranged attacks against
    # it (`minus_one_to_hit`).
    stealth: str
    # [PRECISION] sends attacks to a CHARACTER model only of an Attached unit: 10e Precision
    # "each time an attack made with this weapon successfully wounds an Attached unit" (true);
    # 11e 24.28 "if the target unit contains one or more CHARACTER models" (false).
    precision_needs_attached_unit: bool
    # Which models of a fighting unit make attacks: 11e 04.02 "Each target must be engaged with the
    # model that has that weapon" (false); 10e Fight phase: a model within Engagement Range of an
    # enemy unit, or in base-to-base contact with another model of its unit that is itself in
    # base-to-base contact with an enemy unit (true; rulings R-CB-14).
    fight_through_base_contact: bool
    # An attached unit's unit abilities: 11e 19.04 "abilities/rules that affect a unit (or models
    # in it) apply to every model in an attached unit, until the source ... is destroyed" (true);
    # 10e: a model has its own datasheet's abilities (false; rulings R-ENG-14).
    attached_abilities_shared: bool
    # 11e 17.01: MONSTER/VEHICLE models move through models other than MONSTER/VEHICLE in a
    # normal or advance move (true); 10e has no such rule (false).
    monster_vehicle_moves_through_models: bool
    blast_forbidden_against_engaged: bool
    hit_modifier_cap: int
    wound_modifier_cap: int
    save_improvement_cap: int
    support_units: bool
    heavy_condition: str
    rules_citation: str

    attached_starting_strength: str
    battle_shock_ends: str
    # 11e 01.07: a battle-shocked unit cannot start an action nor complete one (true); the 10e
    # Battle-shock step lists no such effect (false). See docs/rulings.md.
    battle_shock_forbids_actions: bool
    # 10e Attached Units: "destroyed" rules trigger for the Leader and the Bodyguard part each
    # (true); 11e 19.02: only when the last model of the attached unit is destroyed (false).
    attached_part_destruction_triggers: bool

    # Battlefield geometry (docs/battlefield.md). 11e AMB-11: a normal/advance move may pass
    # through engagement range and must only end unengaged; 10e Normal/Advance Moves: never within.
    normal_move_may_cross_engagement_range: bool
    # 11e §11.04: a model that can end within 1" of a charge target must; 10e Charge Move: base
    # contact where possible (0").
    charge_closing_distance: float
    # 11e §21.03 Take to the Skies: -2" maximum distance; 10e FLY moves over models for free.
    fly_move_penalty: float
    # 11e §13.09 Hidden: 15" detection range; 10e has no Hidden rule (0).
    hidden_detection_range: float
    cover_scope: str
    obscuring_terrain: str
    # 11e §13.06: other models may cross dense features up to 2" high; 10e Ruins: never (0).
    dense_terrain_passable_height: float
    # 11e §13.06 INFANTRY/BEASTS/SWARM/MOBILE; 10e Ruins: INFANTRY/BEASTS/SWARM (FLY handled apart).
    dense_terrain_movers: str
    # 11e §20.04, 10e Strategic Reserves: no set-up in the opponent's zone before round 3.
    reserves_opponent_zone_from_round: int
    # 11e §18.02 / 10e Embark: within 3" of the transport.
    embark_distance: float
    # 11e §18.04 rapid/tactical 3", combat 6"; 10e Disembark: wholly within 3" (no combat mode: 0).
    disembark_distance: float
    combat_disembark_distance: float
    # 11e §18.05 emergency disembark / 10e Destroyed Transport: wholly within 6".
    emergency_disembark_distance: float
    # 11e §12.03 a moved model ends engaged with its pile-in target if possible (2"); 10e Pile In:
    # in base contact if possible (0").
    pile_in_closing_distance: float
    # 10e Pile In: the unit must end within engagement range of an enemy unit; 11e §12.03: no.
    pile_in_must_end_engaged: bool
    # 11e §12.03: an unengaged unit selects pile-in targets within 5"; 10e has no targets (0).
    pile_in_target_range: float
    # When units pile in and consolidate: `fight_phase_steps` (11e §12.02 Pile In and §12.07
    # Consolidate: steps of the phase, the active player's moves first) or `each_fight` (10e
    # Fight phase: a unit piles in when selected to fight and consolidates after its attacks).
    close_combat_moves: str
    # [INDIRECT FIRE] at a target the attacking models cannot see (11e 10.07; 10e Indirect Fire).
    indirect_fire: str
    # 11e 24.32: a scout move needs the unit wholly within its deployment zone; 10e Scouts: no.
    scouts_start_in_deployment_zone: bool
    # 11e §11.04 Before Moving: charge targets are selected after the charge roll, within 12" and
    # within the roll; 10e Declare Charge: targets are declared before the roll.
    charge_targets_after_roll: bool
    # 11e §20.04 / 10e Strategic Reserves: reserves that have not arrived by the end of this
    # battle round are destroyed.
    reserves_destroyed_after_round: int
    # 11e §12.06 Overrun Fight: a unit unengaged when selected to fight (or unengaged at the start
    # of the Fight step and engaged since) makes one additional pile-in move, then fights; 12.04
    # also makes units engaged at the start of the Fight step eligible. 10e has neither (false).
    overrun_fights: bool
    # 11e §21.03: FLY applies only when the player declares, before moving, that the unit takes
    # to the skies (true); 10e FLY: models always may move over models and terrain (false).
    fly_declared_before_moving: bool
    # The move types in which FLY models may move through/over enemy models: 11e §21.03 normal,
    # advance, fall back, charge; 10e FLY (Movement phase): normal, advance, fall back.
    fly_over_models_moves: str
    # The move types in which FLY models may move over terrain: 11e §21.03 as above; 10e Moving
    # over terrain: normal, advance, fall back and charge moves.
    fly_over_terrain_moves: str
    # How a FLY model's vertical distance counts: `ignored` (11e §21.03 while taking to the
    # skies) or `diagonal` (10e: measured through the air).
    fly_vertical_distance: str
    # Models that may end a move on a terrain surface above ground level: 11e §13.06 Setting Up
    # or Ending a Move (INFANTRY/BEASTS/SWARM/FLY/MONSTER); 10e Ruins (INFANTRY, BEASTS, FLY).
    upper_floor_keywords: str
    # Models that may move vertically through dense features (11e §13.06: INFANTRY/BEASTS/SWARM;
    # 10e Ruins: INFANTRY and BEASTS, FLY models over terrain apart).
    dense_terrain_climbers: str
    # 11e §13.06: other models ascend and descend dense sections taller than the passable height,
    # the vertical distance counted (true); 10e Ruins: they cannot cross them (false).
    climb_tall_dense_terrain: bool
    # How a unit disembarks in its Movement phase: `rapid_tactical_combat` (11e §18.04: the mode is
    # set by what the TRANSPORT did this phase) or `before_or_after_transport_move` (10e
    # Disembark: before it moves the unit may act normally; after a Normal move it cannot move
    # further this phase nor charge this turn).
    disembark_modes: str
    # When a TRANSPORT is destroyed: `hazard_rolls_then_set_up` (11e §18.05: a hazard roll per
    # model, then each model wholly within 6") or `set_up_then_rolls` (10e Destroyed Transport:
    # set up, then a D6 per model, one mortal wound per failure).
    emergency_disembark: str
    # 10e Destroyed Transport: wholly within 3" when the whole unit fits there (a failure is a
    # roll of 1), else the Emergency Disembarkation within 6" (a failure is 1-3). 11e: 0, one
    # distance (§18.05) and the hazard roll's failures (06.03).
    destroyed_transport_near_distance: float
    destroyed_transport_near_fail_max: int
    emergency_disembark_fail_max: int
    # 11e §18.05 WHILE MOVING: each model as close as possible to the TRANSPORT; 10e: no.
    emergency_disembark_as_close_as_possible: bool
    # 11e §18.05 AFTER MOVING: battle-shocked and not eligible to charge this turn; 10e
    # Destroyed Transport prints neither (ruling R-TR-06).
    emergency_disembark_battle_shocks: bool
    emergency_disembark_forbids_charge: bool
    # 10e Deadly Demise: roll before embarked models disembark; 11e 24.08: after the units
    # embarked within it have made their emergency disembark moves.
    deadly_demise_before_emergency_disembark: bool

    @classmethod
    def from_parameters(cls, slug: str, parameters: dict[str, Any]) -> Edition:
        """Build and check an edition; unknown, missing or mistyped parameters are refused."""
        expected = {field.name: field.type for field in fields(cls) if field.name != "slug"}
        unknown = sorted(set(parameters) - set(expected))
        missing = sorted(set(expected) - set(parameters))
        problems = []
        if unknown:
            problems.append(f"unknown parameters: {', '.join(unknown)}")
        if missing:
            problems.append(f"missing parameters: {', '.join(missing)}")
        values: dict[str, Any] = {}
        for name, kind in expected.items():
            if name not in parameters:
                continue
            try:
                values[name] = _coerce(name, str(kind), parameters[name])
            except EditionError as error:
                problems.append(str(error))
        if problems:
            raise EditionError(f"rule set {slug}: " + "; ".join(problems))
        return cls(slug=slug, **values)

    def parameters(self) -> dict[str, Any]:
        values = asdict(self)
        values.pop("slug")
        return values


_CHOICES = {
    "battle_shocked_oc": BATTLE_SHOCKED_OC_CHOICES,
    "battle_shock_tests": BATTLE_SHOCK_TESTS_CHOICES,
    "half_strength": HALF_STRENGTH_CHOICES,
    "fall_back": FALL_BACK_CHOICES,
    "hazard_consequence": HAZARD_CONSEQUENCE_CHOICES,
    "cover": COVER_CHOICES,
    "stealth": STEALTH_CHOICES,
    "allocation": ALLOCATION_CHOICES,
    "devastating_wounds": DEVASTATING_WOUNDS_CHOICES,
    "fight_order_starts_with": FIGHT_ORDER_CHOICES,
    "coherency": COHERENCY_CHOICES,
    "heavy_condition": HEAVY_CONDITION_CHOICES,
    "rules_citation": RULES_CITATION_CHOICES,
    "attached_starting_strength": ATTACHED_STARTING_STRENGTH_CHOICES,
    "battle_shock_ends": BATTLE_SHOCK_ENDS_CHOICES,
    "cover_scope": COVER_SCOPE_CHOICES,
    "obscuring_terrain": OBSCURING_TERRAIN_CHOICES,
    "close_combat_moves": CLOSE_COMBAT_MOVES_CHOICES,
    "indirect_fire": INDIRECT_FIRE_CHOICES,
    "fly_vertical_distance": FLY_VERTICAL_DISTANCE_CHOICES,
    "disembark_modes": DISEMBARK_MODES_CHOICES,
    "emergency_disembark": EMERGENCY_DISEMBARK_CHOICES,
}


def parameter_choices(name: str) -> frozenset[str] | None:
    """The allowed values of a named-strategy parameter, or None for numbers and flags."""
    return _CHOICES.get(name)


def _coerce(name: str, kind: str, value: Any) -> Any:
    if kind == "bool":
        if not isinstance(value, bool):
            raise EditionError(f"{name} must be true or false, not {value!r}")
        return value
    if kind == "int":
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise EditionError(f"{name} must be a whole number of 0 or more, not {value!r}")
        return value
    if kind == "float":
        if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
            raise EditionError(f"{name} must be a distance of 0 or more, not {value!r}")
        return float(value)
    choices = _CHOICES.get(name)
    if choices is not None and value not in choices:
        raise EditionError(f"{name} must be one of {', '.join(sorted(choices))}, not {value!r}")
    return value
