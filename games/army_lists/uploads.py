"""Turning what a player pastes or uploads into a `ParsedList`, within limits.

Limits (all refusals are `UploadRefused` with a message a player can act on, raised before
anything is stored): `MAX_UPLOAD_BYTES` for the text or file as sent, `MAX_UNITS` and `MAX_LINES`
for what is matched; a `.rosz` must hold one
`.ros`, at most `MAX_UNZIPPED_BYTES` once unpacked, compressed at most `MAX_ZIP_RATIO` times
(a zip bomb is refused from its declared sizes, and the unpacking stops at the limit whatever
the zip declares); XML is read by defusedxml, which refuses entity declarations and DTDs.
"""

from __future__ import annotations

import io
import zipfile

from defusedxml import DefusedXmlException

from games.army_lists.app_text import read_app_text
from games.army_lists.parsed import ParsedList
from games.army_lists.rosters import RosterError, read_roster_json, read_roster_xml

MAX_UPLOAD_BYTES = 512 * 1024
MAX_UNZIPPED_BYTES = 2 * 1024 * 1024
MAX_ZIP_RATIO = 50
MAX_ZIP_MEMBERS = 4
# Matching costs CPU per unit and per line: far above any real list (an Onslaught horde of
# single models is about 100 units), far below what 512 KB could hold.
MAX_UNITS = 300
MAX_LINES = 5000


class UploadRefused(ValueError):
    """The text or file is refused; the message says why."""


def read_list(data: bytes | str, filename: str = "") -> ParsedList:
    """Read a pasted text or an uploaded file (`.txt`, `.json`, `.ros`, `.rosz`)."""
    parsed = _read(data, filename)
    if len(parsed.units) > MAX_UNITS or len(parsed.lines) > MAX_LINES:
        raise UploadRefused(
            f"The list has {len(parsed.units)} units in {len(parsed.lines)} lines; an army list "
            f"has at most {MAX_UNITS} units and {MAX_LINES} lines."
        )
    return parsed


def _read(data: bytes | str, filename: str) -> ParsedList:
    size = len(data.encode("utf-8") if isinstance(data, str) else data)
    if size > MAX_UPLOAD_BYTES:
        raise UploadRefused(
            f"The list is {size // 1024} KB; an army list is at most {MAX_UPLOAD_BYTES // 1024} KB."
        )
    if not size:
        raise UploadRefused("The list is empty.")
    name = filename.lower()
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        if name.endswith(".rosz") or raw[:4] == b"PK\x03\x04":
            return read_roster_xml(_unzip_roster(raw))
        text = _decode(raw)
        stripped = text.lstrip()
        if name.endswith(".ros") or stripped.startswith("<"):
            return read_roster_xml(raw)
        if name.endswith(".json") or stripped.startswith("{"):
            return read_roster_json(text)
        return read_app_text(text)
    except DefusedXmlException as error:
        raise UploadRefused(
            f"The roster's XML declares entities or a DTD ({type(error).__name__}); "
            "rosters never need them, so it is refused."
        ) from None
    except RosterError as error:
        raise UploadRefused(f"The file is not a roster this site reads: {error}.") from None


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UploadRefused("The list is not UTF-8 text, a .ros, .rosz or .json roster.") from None


def _unzip_roster(raw: bytes) -> bytes:
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
    except zipfile.BadZipFile:
        raise UploadRefused("The .rosz file is not a zip archive.") from None
    members = archive.infolist()
    if len(members) > MAX_ZIP_MEMBERS:
        raise UploadRefused(f"The .rosz holds {len(members)} files; a roster holds one .ros.")
    rosters = [m for m in members if m.filename.lower().endswith(".ros")]
    if len(rosters) != 1:
        raise UploadRefused("The .rosz must hold exactly one .ros roster.")
    member = rosters[0]
    if member.file_size > MAX_UNZIPPED_BYTES or (
        member.compress_size and member.file_size / member.compress_size > MAX_ZIP_RATIO
    ):
        raise UploadRefused(
            "The .rosz unpacks to far more than a roster (a zip bomb?); it is refused."
        )
    with archive.open(member) as stream:
        data = stream.read(MAX_UNZIPPED_BYTES + 1)
    if len(data) > MAX_UNZIPPED_BYTES:
        raise UploadRefused(
            "The .rosz unpacks to far more than a roster (a zip bomb?); it is refused."
        )
    return data
