"""The checks the rules app makes on a mission's layout before storing it.

The layout's schema (battlefield, deployment zones, objective markers, terrain) belongs to the
rules engine and is documented in `docs/missions.md`; this module only refuses what can never be a
layout, so a mission file that the engine would reject is at least well-formed JSON of the right
shape. When the engine publishes a parser for layouts, call it from `check_layout`.
"""

from __future__ import annotations

import json
from typing import Any

RESERVED_KEYS = frozenset({"slug", "name", "edition", "source", "catalogue_id"})


class MissionLayoutError(ValueError):
    """A mission layout that is not an object of JSON values."""


def check_layout(layout: Any) -> None:
    if not isinstance(layout, dict):
        raise MissionLayoutError(f"a mission layout is a JSON object, not {type(layout).__name__}")
    reserved = sorted(RESERVED_KEYS & set(layout))
    if reserved:
        raise MissionLayoutError(
            f"{', '.join(reserved)} belong to the mission record, not to its layout"
        )
    try:
        json.dumps(layout, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise MissionLayoutError(f"a mission layout holds only JSON values: {error}") from error
