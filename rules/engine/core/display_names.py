"""Names of things the engine knows by slug, registered by the rule packages that define them
(an Order's name by the Astra Militarum package), for the table to show (`tools.display`)."""

from __future__ import annotations

NAMES: dict[str, dict[str, str]] = {"orders": {}}


def register(kind: str, names: dict[str, str]) -> None:
    NAMES.setdefault(kind, {}).update(names)
