"""Comparing names as players, apps and the rules data print them."""

from __future__ import annotations

import re
import unicodedata

# Grand-alliance prefixes the app prints before a faction ("Imperium - Grey Knights").
_PREFIX = re.compile(r"^\s*(imperium|chaos|xenos|aeldari|tyranids)\s*[-–—:]\s+", re.IGNORECASE)


def normalise(name: str) -> str:
    """Lower case, no accents, no punctuation, one space: `Khârn the Betrayer`, `KHARN THE
    BETRAYER` and `Kharn, the Betrayer` are one name; `Imperium - Grey Knights` is
    `grey knights`."""
    name = _PREFIX.sub("", name or "")
    name = unicodedata.normalize("NFKD", name)
    name = "".join(char for char in name if not unicodedata.combining(char))
    name = name.replace("’", "'").replace("‘", "'").replace("'", "")
    name = re.sub(r"[^0-9a-z]+", " ", name.lower())
    return " ".join(name.split())


def singular_name(name: str) -> str:
    """`Brotherhood Terminators` -> `brotherhood terminator`, `Veteran Guardsmen` -> `veteran
    guardsman`, `Boyz` -> `boy`: a model line may print either number."""
    words = normalise(name).split()
    if not words:
        return ""
    last = words[-1]
    if last.endswith("men"):
        last = last[:-3] + "man"
    elif last.endswith("yz") or last.endswith("s") and not last.endswith("ss"):
        last = last[:-1]
    return " ".join([*words[:-1], last])
