"""Reading a Wahapedia CSV export: `|`-separated files with a trailing `|`, UTF-8 with a BOM.

Rows keep their line number so that anything the converter cannot use is reported as
(file, row, id, reason) and a person can find it in the export.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path


@dataclass(frozen=True, order=True)
class SkippedRow:
    """One record (or one field of a record) the converter left out, and why."""

    file: str
    row: int
    id: str
    reason: str

    def __str__(self) -> str:
        return f"{self.file} row {self.row} ({self.id}): {self.reason}"


@dataclass(frozen=True)
class Row:
    """A data row: its file, its line number in that file (the header is row 1) and its values."""

    file: str
    number: int
    values: dict[str, str]

    def __getitem__(self, column: str) -> str:
        return self.values.get(column, "")

    def skip(self, reason: str, id_column: str | None = None) -> SkippedRow:
        identity = self[id_column] if id_column else _identity(self.values)
        return SkippedRow(self.file, self.number, identity, reason)


def _identity(values: dict[str, str]) -> str:
    for column in ("id", "datasheet_id", "leader_id", "faction_id"):
        if values.get(column):
            return values[column]
    return ""


@dataclass
class Export:
    """Every file of one export, read once; files missing from the directory read as empty."""

    directory: Path
    tables: dict[str, list[Row]]
    report: list[SkippedRow] = field(default_factory=list)

    def rows(self, file: str) -> list[Row]:
        return self.tables.get(file, [])

    def by_datasheet(self, file: str) -> dict[str, list[Row]]:
        grouped: dict[str, list[Row]] = defaultdict(list)
        for row in self.rows(file):
            grouped[row["datasheet_id"]].append(row)
        for rows in grouped.values():
            rows.sort(key=lambda row: _line_number(row["line"]))
        return grouped

    @property
    def date(self) -> str:
        """The export's date, from Last_update.csv (`2026-02-14 02:04:28` gives `2026-02-14`)."""
        rows = self.rows("Last_update.csv")
        if not rows or not rows[0]["last_update"].strip():
            raise ExportError(f"{self.directory}/Last_update.csv holds no date")
        return rows[0]["last_update"].strip().split()[0]


def _line_number(text: str) -> int:
    return int(text) if text.strip().isdigit() else 0


class ExportError(ValueError):
    """The directory is not a Wahapedia export this converter can read."""


def read_export(directory: str | Path) -> Export:
    """Read every `*.csv` of the directory; a row with the wrong number of fields is reported."""
    directory = Path(directory)
    if not (directory / "Datasheets.csv").is_file():
        raise ExportError(f"{directory} is not a Wahapedia export: it has no Datasheets.csv")
    tables: dict[str, list[Row]] = {}
    report: list[SkippedRow] = []
    for path in sorted(directory.glob("*.csv")):
        tables[path.name], malformed = _read_table(path)
        report.extend(malformed)
    return Export(directory, tables, report)


def _read_table(path: Path) -> tuple[list[Row], list[SkippedRow]]:
    # Text fields hold inch marks (`24"`), so the csv module's quoting would corrupt them: a row
    # is one line and a field never contains the separator.
    lines = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n").split("\n")
    header = _fields(lines[0])
    rows: list[Row] = []
    malformed: list[SkippedRow] = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        values = _fields(line)
        if len(values) != len(header):
            identity = values[0] if values else ""
            malformed.append(
                SkippedRow(
                    path.name,
                    number,
                    identity,
                    f"{len(values)} fields where the header has {len(header)}",
                )
            )
            continue
        rows.append(Row(path.name, number, dict(zip(header, values, strict=True))))
    return rows, malformed


def _fields(line: str) -> list[str]:
    fields = line.split("|")
    if fields and fields[-1] == "":
        fields.pop()  # every line ends with a separator
    return fields
