"""Every message the game's websocket sends, built and encoded here (docs/protocol.md).

A broadcast is encoded once per audience (spectators, seat 1, seat 2), not once per receiver, and
each connection sends the text of its audience as it is (games/fanout.py hands it over). `events`
carries the events and an RFC 6902 patch of the public state (games/state_patches.py) instead of
the state: the frozen rules data (datasheets, stratagems, edition, mission) travel once, in
`hello` and in a catch-up's `state`.
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder

from rules.engine import FROZEN_KEYS, public_state_dice

SPECTATOR = 0
AUDIENCES = (SPECTATOR, 1, 2)
_TYPE_HEAD = re.compile(r'\{"type":"(\w+)"')


def encode(message: dict[str, Any]) -> str:
    """The text of a message: compact JSON (dates as ISO text)."""
    return json.dumps(message, cls=DjangoJSONEncoder, separators=(",", ":"))


def kind_of(text: str) -> str | None:
    """The `type` of an encoded message (every message here starts with it)."""
    head = _TYPE_HEAD.match(text)
    return head.group(1) if head else json.loads(text).get("type")


def audience_of(seat: int | None) -> int:
    return seat if seat in (1, 2) else SPECTATOR


def changing_part(state: dict[str, Any]) -> dict[str, Any]:
    """What a client sees of the state that can change: the public state without the frozen
    rules data. A view, not a copy (the patch only reads it): copying a Strike Force state
    twice per action cost more than the diff."""
    visible = {key: value for key, value in state.items() if key not in FROZEN_KEYS}
    if state.get("revealed_seed") is None and "dice" in state:
        visible["dice"] = public_state_dice(state)
    return visible


# --- messages to one connection ------------------------------------------------------------


def table(
    version: int,
    status: str,
    state: dict[str, Any] | None,
    window: dict[str, Any] | None,
    legal_actions: list[dict[str, Any]] | None,
) -> dict[str, Any]:
    """What a client needs to draw the table: the whole state it may see (games.selectors) and
    its own legal actions (`legal_actions` None for a spectator, who has none)."""
    reply = {"version": version, "status": status, "state": state, "window": window}
    if legal_actions is not None:
        reply["legal_actions"] = legal_actions
    return reply


def hello(
    seat: int | None, game: dict[str, Any], chat: list[dict], current: dict, chat_more: bool
) -> dict:
    """`chat` is the newest messages; `chat_more` says whether older ones are to be paged."""
    return {
        "type": "hello",
        "seat": seat or None,
        "game": game,
        "chat": chat,
        "chat_more": chat_more,
        **current,
    }


def caught_up(since: int, events: list[dict[str, Any]], current: dict) -> dict:
    """The answer to `sync`: the events after `since` and the whole state now."""
    return {"type": "events", "since": since, "events": events, **current}


def snapshot(current: dict) -> dict:
    return {"type": "snapshot", **current}


def accepted(client_id: str, version: int) -> dict:
    return {"type": "accepted", "client_id": client_id, "version": version}


def refused(client_id: str, code: str, rule: str, message: str, **details: Any) -> dict:
    return {
        "type": "refused",
        "client_id": client_id,
        "code": code,
        "rule": rule,
        "message": message,
        **details,
    }


def error(code: str, message: str, field: str | None = None) -> dict:
    reply = {"type": "error", "code": code, "message": message}
    if field is not None:
        reply["field"] = field
    return reply


# --- broadcasts ----------------------------------------------------------------------------


def chat(message: dict[str, Any]) -> dict:
    return {"type": "chat", "message": message}


def lobby(status: str, **news: Any) -> dict:
    """A change of the game's status and what came with it (`opponent`, `armies_picked`,
    `winner`, `dice_seed`)."""
    return {"type": "lobby", "status": status, **news}


def same_for_everyone(message: dict[str, Any]) -> dict[int, str]:
    """One text for every audience."""
    text = encode(message)
    return dict.fromkeys(AUDIENCES, text)


def with_legal_actions(
    message: dict[str, Any], legal_actions_by_seat: dict[int, list[dict[str, Any]]]
) -> dict[int, str]:
    """One text per audience: each seat's with its own legal actions, the spectators' without."""
    texts = {SPECTATOR: encode(message)}
    for seat in (1, 2):
        texts[seat] = encode({**message, "legal_actions": legal_actions_by_seat.get(seat, [])})
    return texts


def events_texts(
    *,
    since: int,
    version: int,
    events_by_audience: dict[int, list[dict[str, Any]]],
    patch_by_audience: dict[int, list[dict[str, Any]]],
    status: str,
    window: dict[str, Any] | None,
    legal_actions_by_seat: dict[int, list[dict[str, Any]]],
) -> dict[int, str]:
    """The `events` broadcast of an accepted action, one text per audience: the events and the
    patch (applied to the state at version `since`) as that audience may see them, each seat
    with its own legal actions."""
    texts = {}
    # Encoded once for the audiences that see the same events and patch (all three, unless an
    # event or a change is one player's own): a seat's text is that one with its legal actions
    # added last, the very text `encode` gives of the message with them.
    encoded: list[tuple[list, list, str]] = []
    for audience in AUDIENCES:
        events, patch = events_by_audience[audience], patch_by_audience[audience]
        common = next((text for e, p, text in encoded if e == events and p == patch), None)
        if common is None:
            message = {
                "type": "events",
                "since": since,
                "version": version,
                "events": events,
                "patch": patch,
                "status": status,
                "window": window,
            }
            common = encode(message)
            encoded.append((events, patch, common))
        if audience == SPECTATOR:
            texts[audience] = common
        else:
            legal = encode(legal_actions_by_seat.get(audience, []))
            texts[audience] = f'{common[:-1]},"legal_actions":{legal}}}'
    return texts
