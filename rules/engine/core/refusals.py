"""Refusals: how the engine says no.

Every illegal action is refused with a stable `code` (for programs), the `rule` it breaks (a
section number such as `03.04`, or a 10th-edition heading such as `Engagement Range`) and a
`message` a player understands, with the numbers that matter. A refused action changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


# Not frozen: Python sets `__traceback__` on exceptions passing through context managers
# (contextlib), which a frozen dataclass forbids.
@dataclass(eq=False)
class Refusal(Exception):  # noqa: N818 - a refusal is the engine's answer, not a crash
    code: str
    rule: str
    message: str
    details: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})"

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "rule": self.rule, "message": self.message, **self.details}
