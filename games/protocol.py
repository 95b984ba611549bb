"""The websocket protocol's message parsing: typed errors for bad input, nothing else.

See docs/protocol.md for every message type. Parsing is pure: it never touches the game.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

MAX_MESSAGE_BYTES = 64 * 1024
MAX_CLIENT_ID = 64


@dataclass(frozen=True)
class ProtocolError(Exception):  # noqa: N818 - sent to the client as {"type": "error", ...}
    code: str
    message: str
    field: str | None = None

    def as_message(self) -> dict[str, Any]:
        message = {"type": "error", "code": self.code, "message": self.message}
        if self.field is not None:
            message["field"] = self.field
        return message


def _reject_constant(name: str) -> None:
    raise ProtocolError("not_finite", f"{name} is not a finite number")


def _require(content: dict, name: str, kind: type | tuple[type, ...], label: str) -> Any:
    if name not in content:
        raise ProtocolError("missing_field", f"the message needs {name!r} ({label})", name)
    value = content[name]
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise ProtocolError("invalid_field", f"{name!r} must be {label}", name)
    if not isinstance(value, kind):
        raise ProtocolError("invalid_field", f"{name!r} must be {label}", name)
    return value


def _check_finite(value: Any, path: str) -> None:
    if isinstance(value, float) and not math.isfinite(value):
        raise ProtocolError("not_finite", f"{path} is not a finite number", path)
    if isinstance(value, dict):
        for key, item in value.items():
            _check_finite(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _check_finite(item, f"{path}[{index}]")


def parse_message(text: str | None) -> dict[str, Any]:
    """Turn a client's text frame into a checked message dict, or raise ProtocolError."""
    if text is None:
        raise ProtocolError("not_json", "send JSON text frames, not binary ones")
    if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"messages are at most {MAX_MESSAGE_BYTES} bytes")
    try:
        content = json.loads(text, parse_constant=_reject_constant)
    except ProtocolError:
        raise
    except ValueError as error:
        raise ProtocolError("not_json", f"the message is not JSON: {error}") from None
    if not isinstance(content, dict):
        raise ProtocolError("not_an_object", "a message is a JSON object with a 'type'")
    kind = _require(content, "type", str, "a string")
    parser = _PARSERS.get(kind)
    if parser is None:
        known = ", ".join(sorted(_PARSERS))
        raise ProtocolError(
            "unknown_type", f"unknown message type {kind!r}; known: {known}", "type"
        )
    return parser(content)


def _parse_sync(content: dict) -> dict:
    since = _require(content, "since", int, "the last version you saw (a whole number)")
    if since < 0:
        raise ProtocolError("invalid_field", "'since' cannot be negative", "since")
    return {"type": "sync", "since": since}


def _parse_chat(content: dict) -> dict:
    return {"type": "chat", "text": _require(content, "text", str, "a string")}


def _parse_action(content: dict) -> dict:
    version = _require(content, "version", int, "the game version you act on (a whole number)")
    client_id = _require(content, "client_id", str, "a string you generate for this action")
    if not client_id or len(client_id) > MAX_CLIENT_ID:
        raise ProtocolError(
            "invalid_field", f"'client_id' must have 1 to {MAX_CLIENT_ID} characters", "client_id"
        )
    action = _require(content, "action", dict, "an object with the action's 'type'")
    _require(action, "type", str, "a string")
    _check_finite(action, "action")
    return {"type": "action", "version": version, "client_id": client_id, "action": action}


_PARSERS = {"sync": _parse_sync, "chat": _parse_chat, "action": _parse_action}
