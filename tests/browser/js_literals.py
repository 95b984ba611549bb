"""The English a page script would show: its string literals and the text of its template
literals (between their `${…}` parts), comments and regular expression literals left out, kept
where they read as words (two words side by side, or one capitalised word: "Other actions",
"Shoot"), not as code (CSS selectors, class names, attribute values, event names)."""

from __future__ import annotations

import re
from pathlib import Path

# After one of these (or `return`, or at the start) a "/" opens a regular expression literal.
REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^")
ENGLISH = re.compile(r"[A-Za-z]+ [a-z]{2,}|^\W*[A-Z][a-z]+\W*$")
CODE = re.compile(r"\[data-|^\.?[a-z-]+( [.#]?[a-z-]+)*$")
NAME = re.compile(r"[A-Za-z_$][\w$]*")
# Not shown on the page: a message for the developer (the console, a thrown error), a key's name.
NOT_SHOWN = re.compile(r"(console\.\w+|Error)\(\s*$|\.key\s*[!=]==?\s*$")


def literals(source: str) -> list[tuple[int, str]]:
    """Each literal's line and text, in source order; those passed to `console.*` or to an
    `Error` or compared with a key's name left out (and the template literals' parts inside
    them)."""
    found: list[tuple[int, str]] = []
    end = len(source)
    state = {"i": 0, "line": 1, "last": ""}

    def template() -> None:
        text: list[str] = []
        while state["i"] < end:
            i = state["i"]
            char = source[i]
            if char == "\\":
                text.append(source[i : i + 2])
                state["i"] += 2
            elif char == "`":
                found.append((state["line"], "".join(text)))
                state["i"] += 1
                return
            elif source.startswith("${", i):
                found.append((state["line"], "".join(text)))
                text = []
                state["i"] += 2
                code(closing=True)
            else:
                state["line"] += char == "\n"
                text.append(char)
                state["i"] += 1

    def regex() -> None:
        i, in_class = state["i"] + 1, False
        while source[i] != "/" or in_class:
            if source[i] == "\\":
                i += 1
            elif source[i] == "[":
                in_class = True
            elif source[i] == "]":
                in_class = False
            i += 1
        i += 1
        while i < end and source[i].isalpha():
            i += 1
        state["i"] = i

    def code(closing: bool = False) -> None:
        depth = 0
        while state["i"] < end:
            i = state["i"]
            char = source[i]
            if char.isspace():
                state["line"] += char == "\n"
                state["i"] += 1
                continue
            if source.startswith("//", i):
                stop = source.find("\n", i)
                state["i"] = end if stop < 0 else stop
                continue
            if source.startswith("/*", i):
                stop = source.index("*/", i)
                state["line"] += source.count("\n", i, stop)
                state["i"] = stop + 2
                continue
            if char in "\"'`" and NOT_SHOWN.search(source, max(0, i - 40), i):
                state["i"] = skip_literal(source, i)
                state["line"] += source.count("\n", i, state["i"])
                state["last"] = "a"
                continue
            if char in "\"'":
                j, text = i + 1, []
                while source[j] != char:
                    step = 2 if source[j] == "\\" else 1
                    text.append(source[j : j + step])
                    j += step
                found.append((state["line"], "".join(text)))
                state["i"], state["last"] = j + 1, "a"
                continue
            if char == "`":
                state["i"] += 1
                template()
                state["last"] = "a"
                continue
            if char == "/" and (state["last"] in REGEX_BEFORE or state["last"] in ("return", "")):
                regex()
                state["last"] = "a"
                continue
            if char == "{":
                depth += 1
            elif char == "}":
                if closing and depth == 0:
                    state["i"] += 1
                    return
                depth -= 1
            word = NAME.match(source, i)
            if word:
                state["last"] = "return" if word.group(0) == "return" else "a"
                state["i"] += len(word.group(0))
                continue
            state["last"] = "a" if char in ")]" else char
            state["i"] += 1

    code()
    return found


def skip_literal(source: str, start: int) -> int:
    """Where the string or template literal opening at `start` ends (its `${…}` parts with it)."""
    quote, i, depth = source[start], start + 1, 0
    while source[i] != quote or depth:
        if source[i] == "\\":
            i += 1
        elif quote == "`" and source.startswith("${", i):
            depth += 1
        elif depth and source[i] == "}":
            depth -= 1
        i += 1
    return i + 1


def english_in(source: str) -> list[tuple[int, str]]:
    """The literals of a script that read as English, with their lines."""
    return [
        (line, text)
        for line, text in literals(source)
        if ENGLISH.search(text) and not CODE.search(text)
    ]


def english(path: Path) -> list[tuple[int, str]]:
    return english_in(path.read_text())
