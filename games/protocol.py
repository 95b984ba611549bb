"""The websocket protocol's message parsing: typed errors for bad input, nothing else.

See docs/protocol.md for every message type. Parsing is pure: it never touches the game.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any

MAX_MESSAGE_BYTES = 64 * 1024
MAX_CLIENT_ID = 64
# An action goes into the log and into every broadcast: a real one (a move of 20 models along
# paths) is a few KiB, so this leaves room and still keeps the log and `sync` small.
MAX_ACTION_BYTES = 16 * 1024
# Deeper JSON than this is no message of the protocol (the deepest action, `positions` with
# paths, is 5 levels); checking it also keeps the encoder and the database far from recursion.
MAX_DEPTH = 12
# Integers beyond this are not exact in JavaScript, PostgreSQL's jsonb or msgpack (the Redis
# channel layer): refused at the edge, before anything is stored or broadcast.
MAX_SAFE_INTEGER = 2**53 - 1
# NUL cannot be stored by PostgreSQL; lone surrogates cannot be encoded as UTF-8.
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


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


def check_plain(value: Any, path: str, depth: int = 0) -> None:
    """Refuse what could not be stored, encoded or read back exactly: nesting deeper than
    MAX_DEPTH, NaN and infinities, integers outside the JSON-safe range, and text with NUL or lone
    surrogates (in keys as in values)."""
    if depth > MAX_DEPTH:
        raise ProtocolError("too_deep", f"messages nest at most {MAX_DEPTH} levels", path)
    if isinstance(value, bool) or value is None:
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ProtocolError("not_finite", f"{path} is not a finite number", path)
        if abs(value) > MAX_SAFE_INTEGER:
            raise ProtocolError("out_of_range", f"{path} is out of range", path)
    elif isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            raise ProtocolError(
                "out_of_range", f"{path} must be between -(2^53-1) and 2^53-1", path
            )
    elif isinstance(value, str):
        _check_text(value, path)
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key, f"{path} key")
            check_plain(item, f"{path}.{key}", depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_plain(item, f"{path}[{index}]", depth + 1)


def _check_text(text: str, path: str) -> None:
    if _UNSTORABLE.search(text):
        raise ProtocolError(
            "invalid_text", f"{path} contains a NUL character or a lone surrogate", path
        )


def _refuse_unknown_fields(content: dict, allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(content) - {"type", *allowed})
    if unknown:
        raise ProtocolError(
            "unknown_field",
            f"unknown field {unknown[0]!r}; a {content['type']!r} message has: "
            + ", ".join(allowed),
            unknown[0],
        )


def parse_frame(text: str | None) -> Any:
    """A text frame's JSON, checked to be storable and encodable (check_plain), or ProtocolError."""
    if text is None:
        raise ProtocolError("not_json", "send JSON text frames, not binary ones")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise ProtocolError("too_large", f"messages are at most {MAX_MESSAGE_BYTES} bytes")
    try:
        content = json.loads(text, parse_constant=_reject_constant)
    except ProtocolError:
        raise
    except RecursionError:
        raise ProtocolError("too_deep", f"messages nest at most {MAX_DEPTH} levels") from None
    except ValueError as error:
        raise ProtocolError("not_json", f"the message is not JSON: {error}") from None
    check_plain(content, "message")
    return content


def parse_message(text: str | None) -> dict[str, Any]:
    """Turn a client's text frame into a checked message dict, or raise ProtocolError."""
    content = parse_frame(text)
    if not isinstance(content, dict):
        raise ProtocolError("not_an_object", "a message is a JSON object with a 'type'")
    kind = _require(content, "type", str, "a string")
    if kind not in _PARSERS:
        known = ", ".join(sorted(_PARSERS))
        raise ProtocolError(
            "unknown_type", f"unknown message type {kind[:40]!r}; known: {known}", "type"
        )
    return _PARSERS[kind](content)


def _parse_sync(content: dict) -> dict:
    _refuse_unknown_fields(content, ("since",))
    since = _require(content, "since", int, "the last version you saw (a whole number)")
    if since < 0:
        raise ProtocolError("invalid_field", "'since' cannot be negative", "since")
    return {"type": "sync", "since": since}


def _parse_chat(content: dict) -> dict:
    _refuse_unknown_fields(content, ("text",))
    return {"type": "chat", "text": _require(content, "text", str, "a string")}


def _parse_action(content: dict) -> dict:
    _refuse_unknown_fields(content, ("version", "client_id", "action"))
    version = _require(content, "version", int, "the game version you act on (a whole number)")
    client_id = _require(content, "client_id", str, "a string you generate for this action")
    if not client_id or len(client_id) > MAX_CLIENT_ID:
        raise ProtocolError(
            "invalid_field", f"'client_id' must have 1 to {MAX_CLIENT_ID} characters", "client_id"
        )
    action = _require(content, "action", dict, "an object with the action's 'type'")
    _require(action, "type", str, "a string")
    if len(json.dumps(action)) > MAX_ACTION_BYTES:
        raise ProtocolError(
            "too_large", f"an action is at most {MAX_ACTION_BYTES} bytes of JSON", "action"
        )
    shape = _ACTION_SHAPES.get(action["type"])
    if shape is not None:
        action = shape(action)
    return {"type": "action", "version": version, "client_id": client_id, "action": action}


def _string_list(action: dict, name: str) -> list[str]:
    value = action.get(name, [])
    if not isinstance(value, list) or not all(
        isinstance(item, str) and 0 < len(item) <= 100 for item in value
    ):
        raise ProtocolError(
            "invalid_field", f"{name!r} must be a list of names (strings)", f"action.{name}"
        )
    if len(value) > 200:
        raise ProtocolError("invalid_field", f"{name!r} has at most 200 entries", f"action.{name}")
    return value


def _window_preferences(action: dict) -> dict:
    """`set_window_preferences`: two lists of names and three true/false choices, nothing else
    (docs/protocol.md)."""
    flags = ("pass_phase", "quiet_without_cp", "reroll_every_roll")
    _refuse_unknown_fields(action, ("never_offer", "never_reroll", *flags, "player"))
    for flag in flags:
        if not isinstance(action.get(flag, False), bool):
            raise ProtocolError("invalid_field", f"{flag!r} is true or false", f"action.{flag}")
    return {
        "type": action["type"],
        "never_offer": _string_list(action, "never_offer"),
        "never_reroll": _string_list(action, "never_reroll"),
        **{flag: action[flag] for flag in flags if flag in action},
    }


# The actions the protocol knows the whole shape of. Every other action is the engine's to check
# (docs/engine.md, "Actions"); its size, depth, numbers and text are checked above.
_ACTION_SHAPES = {"set_window_preferences": _window_preferences}

_PARSERS = {"sync": _parse_sync, "chat": _parse_chat, "action": _parse_action}
