"""Games saved by an earlier engine stay loadable: the names a saved state stores (a pending
decision's `kind`, the continuation names in its `resume` data and in the `then` it carries)
are renamed through these alias tables before the state is used.

An entry is added when a name is renamed or merged; it is never removed while saved games may
hold the old name (`tests/test_engine_snapshot.py` fails for a pinned name that neither exists
nor has an alias; `tests/test_engine_compat.py` plays on states saved by the engine before the
package layout).
"""

from __future__ import annotations

from typing import Any

# old continuation name -> the name that resumes it now
CONTINUATION_ALIASES: dict[str, str] = {}
# old decision kind -> the kind now
DECISION_KIND_ALIASES: dict[str, str] = {}


def _renamed(data: Any) -> Any:
    if isinstance(data, dict):
        renamed = {key: _renamed(value) for key, value in data.items()}
        step = renamed.get("step")
        if isinstance(step, str) and step in CONTINUATION_ALIASES:
            renamed["step"] = CONTINUATION_ALIASES[step]
        return renamed
    if isinstance(data, list):
        return [_renamed(item) for item in data]
    return data


def upgrade(state: dict[str, Any]) -> dict[str, Any]:
    """The state with every aliased name in its pending decisions renamed (the same object when
    nothing needs renaming, so the common case costs one look at the stack)."""
    pending = state.get("pending") or []
    if not (CONTINUATION_ALIASES or DECISION_KIND_ALIASES) or not pending:
        return state
    upgraded = []
    for decision in pending:
        decision = {**decision, "resume": _renamed(decision.get("resume"))}
        decision["kind"] = DECISION_KIND_ALIASES.get(decision["kind"], decision["kind"])
        upgraded.append(decision)
    return {**state, "pending": upgraded}
