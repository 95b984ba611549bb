"""A stratagem's printed WHEN (and the export's turn and phase columns) as the structured `when`.

Only timings this module recognises are mapped; anything else raises `Unreadable` so the stratagem
is reported rather than given a window it does not have.
"""

from __future__ import annotations

import re

from rules.wahapedia.stats import Unreadable

_TURNS = {
    "your turn": "own",
    "opponent’s turn": "opponent",
    "opponent's turn": "opponent",
    "either player’s turn": "either",
    "either player's turn": "either",
}
_PHASES = {
    "command phase": "command",
    "movement phase": "movement",
    "shooting phase": "shooting",
    "charge phase": "charge",
    "fight phase": "fight",
    "any phase": "any",
}
# Triggers that only happen in the Shooting and Fight phases, so "Shooting or Fight phase" can be
# written as phase `any` without widening the window.
_SHOOTING_OR_FIGHT_TRIGGERS = {
    "enemy_unit_selected_targets",
    "enemy_unit_resolved_attacks",
    "after_roll",
}

# (pattern on the WHEN text, trigger); the first that matches wins, so specific before general.
_TRIGGERS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(p, re.IGNORECASE), trigger)
    for p, trigger in [
        (r"just after an enemy unit has selected its targets", "enemy_unit_selected_targets"),
        (
            r"just after an enemy unit has (shot|resolved its attacks)",
            "enemy_unit_resolved_attacks",
        ),
        (r"just after an enemy unit has fought", "enemy_unit_fought"),
        (r"after an enemy unit has selected targets for its charge", "enemy_charge_declared"),
        (r"just after an enemy unit (has )?declare[sd]? a charge", "enemy_charge_declared"),
        (r"just after an enemy unit (ends|starts or ends) a normal", "enemy_move_started_or_ended"),
        (r"just after an enemy unit is set up", "enemy_unit_set_up"),
        (r"just after .* from your army has been selected to shoot", "unit_selected_to_shoot"),
        (r"just after .* from your army has been selected to fight", "unit_selected_to_fight"),
        (r"just after .* from your army ends a charge move", "charge_move_ended"),
        (r"just after .* from your army (has )?declare[sd]? a charge", "charge_declared"),
        (r"just after .* from your army (is|was) destroyed", "unit_destroyed"),
        (r"just after you have made a hit roll|just after you make an? ", "after_roll"),
        (r"reinforcements step", "reinforcements_step"),
        (r"^start of\b", "phase_start"),
        (r"^end of\b", "phase_end"),
        (r"^(your |your opponent[’']s )?(command|movement|shooting|charge|fight) phase\.?$", ""),
        (r"^(the )?fight phase\.?$", ""),
        (r"^(your |your opponent[’']s )?\w+ (phase )?or (the |your )?\w+ phase\.?$", ""),
        (r"^any phase\.?$", ""),
    ]
]


def stratagem_when(turn: str, phase: str, when_text: str) -> dict:
    """`{"phase", "turn", "trigger"}` for the engine, or `Unreadable` with the reason."""
    turn_value = _TURNS.get(turn.strip().lower())
    if turn_value is None:
        raise Unreadable(f"turn {turn.strip()!r} is not your, your opponent's or either turn")
    trigger = _trigger(when_text)
    phase_value = _phase(phase, when_text, trigger)
    if re.search(r"end of (your |your opponent[’']s |any |the )?turn", when_text, re.IGNORECASE):
        raise Unreadable(f"WHEN {when_text!r}: the end of a turn is not a window the engine opens")
    return {"phase": phase_value, "turn": turn_value, "trigger": trigger}


def _trigger(when_text: str) -> str:
    text = " ".join(when_text.split())
    if re.search(r"battle-shock test", text, re.IGNORECASE):
        if re.search(r"failed|fail", text, re.IGNORECASE):
            return "battle_shock_after_fail"
        return "battle_shock_before_roll"
    for pattern, trigger in _TRIGGERS:
        if pattern.search(text):
            return trigger or "any_time"
    raise Unreadable(f"WHEN {when_text!r} matches no timing point the engine opens a window at")


def _phase(phase: str, when_text: str, trigger: str) -> str:
    printed = phase.strip().lower()
    if printed == "command phase" and re.search(r"battle-shock", when_text, re.IGNORECASE):
        return "battle-shock-step"
    if printed in _PHASES:
        return _PHASES[printed]
    if printed == "shooting or fight phase" and trigger in _SHOOTING_OR_FIGHT_TRIGGERS:
        return "any"
    raise Unreadable(
        f"phase {phase.strip()!r} with WHEN {when_text!r}: the format has one phase per stratagem"
    )


def stratagem_limit(restrictions_text: str) -> str:
    """`none`, or the once-per-battle/turn/phase limit the RESTRICTIONS print."""
    text = restrictions_text.lower()
    for phrase, limit in (
        ("once per battle", "once_per_battle"),
        ("once per turn", "once_per_turn"),
        ("once per phase", "once_per_phase"),
    ):
        if phrase in text:
            return limit
    return "none"
