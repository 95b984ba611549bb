"""Unknown fields of an accepted action are stripped before it is logged and broadcast.

The engine ignores fields it does not read, so an accepted action could carry kilobytes of
anything into the log and every broadcast. Fields outside the engine's vocabulary are candidates:
the action is applied again without them, and when the new state and the events are the same,
the stripped action is the one logged (replaying it gives the same game, by construction). When
they differ, the field mattered and the action is kept whole: the vocabulary below only decides
what is tried, never what is accepted.
"""

from __future__ import annotations

from typing import Any

from rules.engine import apply

# The fields the engine's actions use (docs/engine.md, "Actions"): never stripped.
ENGINE_FIELDS = frozenset(
    {
        "type",
        "player",
        "unit",
        "units",
        "positions",
        "targets",
        "target",
        "assignments",
        "method",
        "choice",
        "decision",
        "embarked",
        "take_to_the_skies",
        "fight_type",
        "pile_in",
        "pile_in_targets",
        "transport",
        "firing_deck",
        "officer",
        "order",
        "stratagem",
        "slug",
        "never_offer",
        "never_reroll",
        "pass_phase",
        "quiet_without_cp",
        "reroll_every_roll",
    }
)


def without_unknown_fields(
    state: dict[str, Any],
    action: dict[str, Any],
    applied: tuple[dict[str, Any], list[dict[str, Any]]],
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """`applied` (the engine's answer to `action` on `state`), or the same answer to the action
    without its unknown fields when those changed nothing."""
    unknown = set(action) - ENGINE_FIELDS
    if not unknown:
        return applied
    stripped = {key: value for key, value in action.items() if key not in unknown}
    try:
        again = apply(state, stripped)
    except Exception:  # noqa: BLE001 - the stripped action is refused: the fields mattered
        return applied
    if again[0] == applied[0] and _same_events(again[1], applied[1]):
        return again
    return applied


def _same_events(left: list[dict[str, Any]], right: list[dict[str, Any]]) -> bool:
    """The same events, but for the action that `action_applied` carries."""
    if len(left) != len(right):
        return False
    return all(
        {k: v for k, v in a.items() if k != "action"}
        == {k: v for k, v in b.items() if k != "action"}
        for a, b in zip(left, right, strict=True)
    )
