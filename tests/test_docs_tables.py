"""Docs describe each thing once: no docs table repeats a row or describes one file in two rows,
and every code fence is closed (the check of /work/shared/hooks/before-stop, run by `make test`)."""

import re
from pathlib import Path

import pytest

DOCS = sorted((Path(__file__).resolve().parent.parent / "docs").glob("**/*.md"))
SEPARATOR = re.compile(r"^\|?[\s:|-]+\|?$")
NAMES_A_FILE = re.compile(r"\.(py|js|md|html|json)`")


def repeated_rows(lines: list[str]) -> list[str]:
    found = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, 1):
        row = line.strip()
        if not row.startswith("|"):
            seen = {}  # a table ends at the first line that is not a row
            continue
        following = lines[number].strip() if number < len(lines) else ""
        if SEPARATOR.match(row) or SEPARATOR.match(following):
            continue  # a header row or its separator
        first = row.strip("|").split("|")[0].strip()
        for key in (row, first if NAMES_A_FILE.search(first) else None):
            if key and key in seen:
                found.append(f"line {number}: {first[:40]!r} again (first at line {seen[key]})")
                break
        seen.setdefault(row, number)
        seen.setdefault(first, number)
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_no_docs_table_describes_a_thing_twice(doc):
    assert repeated_rows(doc.read_text("utf-8").splitlines()) == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_every_code_fence_in_the_docs_is_closed(doc):
    fences = [
        line for line in doc.read_text("utf-8").splitlines() if line.lstrip().startswith("```")
    ]
    assert len(fences) % 2 == 0


def test_the_check_finds_a_repeated_row_and_a_file_described_twice():
    table = [
        "| module | job |",
        "| --- | --- |",
        "| `a.py` | one |",
        "| `a.py` | two |",
        "| x | y |",
    ]
    assert len(repeated_rows([*table, "| x | y |"])) == 2
    assert repeated_rows(["| a | b |", "| --- | --- |", "| x | y |", "", "| x | y |"]) == []
