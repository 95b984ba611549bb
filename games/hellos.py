"""The `hello` a socket reads when it connects: its text built once per game, version and audience
and shared by every socket of this process that connects to the game at that version.

A page-reload storm (a server restart, a network blip, a tournament round starting) opens every
socket of every game at once. Each `hello` used to read the game row with both army lists and
the setup (for the mission's name and the rules not enforced), copy the engine state to build the
state its seat may see, compute the seat's legal actions and encode the whole message, about
140 KB for a Strike Force game: some 12 ms of worker CPU per socket, the same work for every
spectator of a game (docs/performance.md, "Thirteenth pass").

Now a socket reads one small row, the game's `key` (version, `updated`, both players' names;
every save of the row sets `updated`), and the chat, which changes without the row. The rest comes
from this process's memory when it was built from a row with that very key:

- the text of `game`, the header every audience shares;
- for each audience (spectators, seat 1, seat 2), the text of the rest in pieces: the state the
  audience may see is encoded member by member, and a member's text is kept by the identity of
  its value (engine states are never mutated; games/live_states.py): the frozen rules data
  (FROZEN_KEYS, some 40 KB) are encoded once per game and the units once per version for all
  three audiences, which differ only in each player's own window preferences and legal actions.

The database stays the truth: an entry serves only the key it was built from, so a newer version
is never answered with an older text. Each text is byte for byte what `messages.encode` gives of
`selectors.hello` (tests/test_hellos.py compares them at every version of a game played through
the database, and the state's pieces with the state encoded whole over the recorded games of
both editions).
What the key does not cover is rules data an admin edits while a game is played (an
enhancement's text in `display`), which reaches a `hello` from the game's next version on.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import F

from games import live_states, messages, selectors
from games.compiled import CompiledQuery
from games.models import Game
from rules.engine import FROZEN_KEYS

# Games whose texts a worker keeps: as many as the engine states it keeps. An entry holds the
# encoded members of one version of the state once (~140 KB for a Strike Force game), whatever
# the number of audiences.
CAPACITY = live_states.CAPACITY

_USERNAME = get_user_model().USERNAME_FIELD
# The row's key and whether the computer plays seat 2, in one statement compiled once
# (games/compiled.py): every socket that connects reads it.
_KEY_READ = CompiledQuery(
    lambda game_id: (
        Game.objects.only("version", "updated", "computer")
        .annotate(
            creator_name=F(f"creator__{_USERNAME}"), opponent_name=F(f"opponent__{_USERNAME}")
        )
        .filter(pk=game_id)
        .order_by()
    ),
    game_id=2_000_000_017,
)


@dataclass(frozen=True)
class Hello:
    """The text to send, and what the connection needs of it (the window's clock, the practice
    game's computer)."""

    text: str
    version: int
    window: dict[str, Any] | None
    practice: bool


class _Entry:
    """What was built from one key of one game's row."""

    __slots__ = (
        "key",
        "game",
        "version",
        "status",
        "over",
        "window",
        "state",
        "current",
        "values",
        "frozen",
    )

    def __init__(self, key: tuple, game: Game, frozen: dict[str, tuple[Any, str]]) -> None:
        self.key = key
        self.game = messages.encode(selectors.public_game(game))
        self.version = game.version
        self.status = game.status
        self.over = game.is_over
        self.window = selectors.window(game)
        # The engine state at the version (shared with games/live_states.py, never mutated).
        self.state = live_states.engine_state(game)
        # Audience -> the pieces of the message after `chat_more`, built when first asked for.
        self.current: dict[int, tuple[str, ...]] = {}
        # The texts of this version's members, by the identity of the value (kept alive here, so
        # an identity is never another object's).
        self.values: dict[int, tuple[Any, str]] = {}
        # The frozen rules data's texts, by member, carried from one version to the next.
        self.frozen = frozen


_lock = threading.Lock()
_entries: OrderedDict[int, _Entry] = OrderedDict()


def clear() -> None:
    """Forget every game (what a restart does)."""
    with _lock:
        _entries.clear()


def hello(game_id: int, seat: int) -> Hello:
    """The `hello` for `seat` (1, 2 or SPECTATOR) of the game as its row is now. Raises
    Game.DoesNotExist when there is no such game."""
    row = next(iter(_KEY_READ.raw(game_id=game_id)), None)
    if row is None:
        raise Game.DoesNotExist(f"no game {game_id}")
    key = (row.version, row.updated, row.creator_name, row.opponent_name)
    with _lock:
        entry = _entries.get(game_id)
        if entry is not None:
            _entries.move_to_end(game_id)
    if entry is None or entry.key != key:
        entry = _entry(game_id, entry)
    audience = messages.audience_of(seat)
    current = entry.current.get(audience)
    if current is None:
        current = entry.current[audience] = _current(entry, audience)
    chat, more = selectors.hello_chat(game_id)
    text = "".join(
        (
            '{"type":"hello","seat":',
            messages.encode(seat or None),
            ',"game":',
            entry.game,
            ',"chat":',
            messages.encode(chat),
            ',"chat_more":',
            messages.encode(more),
            *current,
        )
    )
    return Hello(text, entry.version, entry.window, bool(row.computer))


def _entry(game_id: int, known: _Entry | None) -> _Entry:
    """The entry of the whole row, read again (it may have moved on since its key was read),
    kept unless the cache holds a newer version meanwhile."""
    # Without the JSON columns: the header reads their few keys in the database.
    game = (
        Game.objects.select_related("creator", "opponent", "ruleset")
        .defer("stored_state", "setup", "army_snapshots")
        .get(pk=game_id)
    )
    key = (
        game.version,
        game.updated,
        game.creator.get_username(),
        game.opponent.get_username() if game.opponent else None,
    )
    if known is not None and known.key == key:
        return known
    entry = _Entry(key, game, dict(known.frozen) if known is not None else {})
    with _lock:
        cached = _entries.get(game_id)
        if cached is None or cached.version <= entry.version:
            _entries[game_id] = entry
            _entries.move_to_end(game_id)
            while len(_entries) > CAPACITY:
                _entries.popitem(last=False)
    return entry


def _current(entry: _Entry, audience: int) -> tuple[str, ...]:
    """The text after `chat_more` in pieces: what `selectors.game_state` gives, encoded."""
    seat = audience if audience in (1, 2) else None
    pieces = [
        ',"version":',
        messages.encode(entry.version),
        ',"status":',
        messages.encode(entry.status),
        ',"state":',
    ]
    if entry.state is None:
        pieces.append("null")
    else:
        pieces.extend(_members(_visible(entry.state, seat), entry))
    pieces += [',"window":', messages.encode(entry.window)]
    if seat is not None:
        # Nothing is offered in a game that has ended (a concession leaves the engine mid-turn).
        legal = [] if entry.over else selectors.legal_actions_for(entry.state, seat)
        pieces += [',"legal_actions":', messages.encode(legal)]
    pieces.append("}")
    return tuple(pieces)


def _visible(state: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """`selectors.state_for(state, seat)` without its copy of the state: the members are the
    state's own, which is safe here because they are only encoded. The public state is the
    changing part and then the frozen rules data, in that order (rules.engine's copy_state)."""
    view = messages.changing_part(state)
    view.update({name: state[name] for name in FROZEN_KEYS if name in state})
    return selectors.with_display(selectors.without_others_private(view, seat), state)


def _members(visible: dict[str, Any], entry: _Entry) -> list[str]:
    """The text `messages.encode` gives of `visible` (a dict with text keys), member by member,
    each member's text taken from the entry when the same value was encoded before."""
    if not visible:
        return ["{}"]
    pieces = []
    separator = "{"
    for name, value in visible.items():
        pieces.append(f"{separator}{messages.encode(name)}:")
        separator = ","
        if name in FROZEN_KEYS:
            known = entry.frozen.get(name)
            if known is None or known[0] is not value:
                known = entry.frozen[name] = (value, messages.encode(value))
        elif isinstance(value, dict | list):
            known = entry.values.get(id(value))
            if known is None or known[0] is not value:
                known = entry.values[id(value)] = (value, messages.encode(value))
        else:
            known = (value, messages.encode(value))
        pieces.append(known[1])
    pieces.append("}")
    return pieces
