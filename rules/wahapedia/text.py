"""Text as the export prints it (HTML) turned into the plain text and slugs the data files use."""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser

_BLOCKS = {"p", "div", "ul", "ol", "table", "tr", "h1", "h2", "h3", "h4"}  # a line each


class _PlainText(HTMLParser):
    """Collects the text of an HTML fragment; paragraphs, breaks and list items become lines."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "br" or tag in _BLOCKS:
            self.parts.append("\n")
        elif tag == "li":
            self.parts.append("\n• ")
        elif tag in {"td", "th"}:
            self.parts.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag in _BLOCKS or tag == "li":
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def clean_text(html: str) -> str:
    """Plain text of an HTML fragment: tags removed, entities decoded, one paragraph per line."""
    parser = _PlainText()
    parser.feed(html)
    parser.close()
    lines = ("".join(parser.parts)).replace("\xa0", " ").split("\n")
    tidy = [" ".join(line.split()).strip(" |") for line in lines]
    return "\n".join(line for line in tidy if line)


def slugify(name: str) -> str:
    """`Brother-captain` -> `brother-captain`, `Hell’s Last` -> `hells-last`, `T’au` -> `tau`."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    without_apostrophes = re.sub(r"['\u2019\u2018`]", "", ascii_name)
    return re.sub(r"[^a-z0-9]+", "-", without_apostrophes.lower()).strip("-")


def upper_keyword(text: str) -> str:
    """A keyword as the data files spell it: `Agents of the Imperium` -> `AGENTS OF THE IMPERIUM`.

    The export sometimes prints keywords in a broken small-caps casing (`INqUISITOR`).
    """
    return " ".join(clean_text(text).upper().split())
