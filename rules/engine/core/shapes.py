"""Typed shapes of what the state stores and the events say, for mypy (`make test`): the game
state, a player's record, a unit, its parts and models, an objective marker, a pending decision,
a persisting effect and an event. At run time they are plain dicts, so saved games and the JSON
log are unchanged. The keys are documented in docs/engine.md ("State", "Events"); a key that only
some units, models or states carry is `NotRequired`. Rules data frozen into the state (edition,
mission, datasheets, stratagem records) and the facts' contents stay `dict[str, Any]`: they are
read, keyed by variables, not shaped by the engine."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict


class Decision(TypedDict):
    """A pending decision (`core/decisions.py`): only the top one of `state["pending"]` answers."""

    id: str
    player: int
    kind: str
    options: list[Any] | dict[str, Any]
    resume: dict[str, Any]
    rule: str
    prompt: str
    time_limit_seconds: NotRequired[int]


class EffectStart(TypedDict):
    battle_round: int
    active_player: int | None
    phase: str | None
    player: int


class Effect(TypedDict):
    """A persisting effect (`core/effects.py`, 01.02.02)."""

    id: str
    source: str
    selector: dict[str, Any]
    modifier: dict[str, Any]
    duration: str
    started_at: EffectStart


# The characteristics of a model profile that are numbers (`core/effects.characteristic`).
Characteristic = Literal["M", "T", "Sv", "W", "Ld", "OC"]


class Model(TypedDict):
    """A model of a unit (`army/muster.py`); `x`, `y` are None off the battlefield."""

    id: str
    name: str
    composition_name: str
    weapons: list[str]
    wargear_abilities: list[str]
    part: int
    M: int
    T: int
    Sv: int
    invulnerable_save: int | None
    W: int
    Ld: int
    OC: int
    base: dict[str, Any]
    character: bool
    wounds_left: int
    x: float | None
    y: float | None
    facing: float
    # Given after the muster by `army/names.py` ("Strike Marine 2").
    label: NotRequired[str]
    # Height above ground level on an upper floor (R-MV-13); absent on the ground.
    z: NotRequired[float]
    # The enhancements its bearer took (`army/muster.py`).
    enhancements: NotRequired[list[str]]
    # Keywords of this model only, beyond its unit's (read by `battlefield/board.py`).
    keywords: NotRequired[list[str]]


class Part(TypedDict):
    """One datasheet of a unit: its Bodyguard, or a Leader or Support unit attached to it."""

    key: str
    datasheet: str
    name: str
    role: str
    wargear: list[Any]
    unit_wargear: list[str]
    enhancements: list[str]
    warlord: bool
    starting_strength: int | None
    # What the part's enhancements cost (`army/muster.price_enhancements`).
    enhancement_points: NotRequired[int]


class TransportCapacity(TypedDict):
    """A TRANSPORT's capacity as read from its datasheet (`army/transport_capacity.py`)."""

    capacity: int
    eligible: list[str]
    space: dict[str, int]
    excluded: list[str]


class AwaitingArrival(TypedDict):
    """A unit removed to be set up later (Teleport Assault, Rapid Tactical Relocation)."""

    method: str
    source: str


class Unit(TypedDict):
    """A unit of `state["units"]`, keyed by its `id` (`army/muster.py`)."""

    id: str
    player: int
    name: str
    datasheet: str
    keywords: list[str]
    abilities: list[str]
    parts: list[Part]
    models: list[Model]
    location: str
    warlord: bool
    starting_strength: int | None
    transport: NotRequired[TransportCapacity]
    # The TRANSPORT a unit with location `embarked` is in.
    embarked_in: NotRequired[str]
    # The turn number it last shot in (11e 13.09 Hidden).
    shot_in_turn: NotRequired[int]
    awaiting_arrival: NotRequired[AwaitingArrival]
    # Leader abilities lent by Battlefield Command (R-GK-08).
    granted_abilities: NotRequired[list[str]]
    # Moved to Strategic Reserves during the battle (`phases/movement.py`).
    repositioned: NotRequired[bool]


class PlayerRecord(TypedDict):
    """`state["players"]["1"|"2"]`."""

    army: str
    cp: int
    vp: int
    primary_vp: int
    detachment: str | None
    faction: str | None


class Objective(TypedDict):
    id: str
    x: float
    y: float
    controller: int | None


class Dice(TypedDict):
    """The dice stream's position; `seed` is left out of what players see until it is revealed
    (`state.public_state`)."""

    seed: NotRequired[str]
    next_index: int


class GameState(TypedDict):
    """The whole game state (`core/state.py`, built by `sequence/game.new_game`)."""

    version: int
    edition: dict[str, Any]
    mission: dict[str, Any]
    datasheets: dict[str, dict[str, Any]]
    stratagems: dict[str, dict[str, Any]]
    stratagems_used: list[str]
    window_preferences: dict[str, dict[str, Any]]
    window_time_limit_seconds: int | None
    players: dict[str, PlayerRecord]
    units: dict[str, Unit]
    objectives: list[Objective]
    effects: list[Effect]
    # Scopes `phase`, `turn`, `battle_round`, each a dict of facts (`core/facts.py`).
    facts: dict[str, dict[str, Any]]
    pending: list[Decision]
    # Consequences of destroyed models still to resolve (`phases/transports.resolve_aftermath`).
    aftermath: list[dict[str, Any]]
    stage: str
    awaiting: int | None
    battle_round: int
    active_player: int
    first_player: int | None
    phase: str | None
    winner: int | None
    dice: Dice
    seed_commitment: str
    revealed_seed: str | None
    next_decision_id: int
    next_effect_id: int
    next_roll_id: int
    # Once-per-battle abilities used (Imperial Agents' Formidable Resolve, ...).
    abilities_used: NotRequired[list[str]]


class EventFields(TypedDict, total=False):
    """What an event may say besides its `type` and `version` (`Context.emit` checks every call
    against it): the vocabulary of docs/engine.md ("Events")."""

    ability: str
    action: dict[str, Any]
    amount: int
    attacks: list[Any]
    automatic: bool
    automatic_wounds: int
    battle_round: int
    boundary: str
    charging: str
    choice: Any
    commissar: str
    controller: int | None
    counted: Any
    critical_hits: int
    datasheet: str
    decision: Any
    edition: str
    effect: Any
    enemy: str
    engaged: bool
    failed: list[Any]
    failures: Any
    fight_type: str
    flag: str
    indices: list[int]
    leadership: int
    levels: dict[str, Any]
    location: str
    method: str
    mission: str
    mode: str | None
    model: str
    modifier: int
    modifier_applied: int
    mortal_wounds: int
    move: str
    name: str
    needed: float | None
    never_offer: list[Any]
    never_reroll: list[Any]
    objective: str
    objectives: list[Any]
    officer: str
    # An Order's slug, or the allocation order of an attack group's models.
    order: str | list[int]
    part: str
    pass_phase: Any
    passed: bool
    phase: str | None
    player: int
    position: Any
    positions: Any
    purpose: str
    quiet_without_cp: bool
    reason: str
    requested: int
    reroll_every_roll: bool
    reroll_rule: str
    rerolled: list[bool]
    roll: int | str | None
    rule: str
    seed: str
    seed_commitment: str
    sides: int
    source: str
    stage: str
    step: str
    stratagem: str
    support: str
    take_to_the_skies: bool
    target: str | None
    targets: list[Any]
    total: int | None
    transport: str
    tray: dict[str, Any]
    trigger: str | None
    unit: str | None
    units: Any
    values: list[int]
    victory_points: dict[str, Any]
    winner: int | None
    wounds_lost: Any


class Event(EventFields):
    """An event (`core/events.Context.emit`): its type, the state version it belongs to."""

    type: str
    version: int
