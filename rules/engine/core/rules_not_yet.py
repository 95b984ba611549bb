"""The rules of the data (other than stratagems) without an implementation yet, each with what it
waits for, and the entries that print no effect at all.

`tests/test_rule_coverage.py` fails for any ability, datasheet ability, detachment rule or
enhancement of the rules data that is neither registered in `hooks.IMPLEMENTED` nor listed
here, and for any entry listed here that has since been implemented: the gap stays visible and
shrinks. Keys are those of `hooks` (kind, key).
"""

from __future__ import annotations

# The seeds name these but lost their text (catalogue: "Text missing - GAP"); a player may still
# take them, and they do nothing in play.
NO_PRINTED_EFFECT: dict[tuple[str, str], str] = {
    ("enhancement", "blackweave-shroud"): "text missing in seed 000 (E-BLACKWEAVE-SHROUD)",
    ("enhancement", "daemon-slayer"): "text missing in seed 000 (catalogue E-DAEMON-SLAYER)",
    ("enhancement", "laud-hailer"): "text missing in seed 003 (catalogue E-LAUD-HAILER)",
}


NOT_IMPLEMENTED: dict[tuple[str, str], str] = {}
