"""`rules.engine.core.kept.Kept`: the bounded map the engine keeps answers in between actions."""

from rules.engine.core.kept import Kept


def test_an_entry_is_made_once_and_the_least_recently_used_goes_first():
    kept: Kept[str, list] = Kept(2)
    made: list[str] = []

    def make(key: str):
        return lambda: made.append(key) or [key]

    first = kept.get_or_make("a", make("a"))
    assert kept.get_or_make("a", make("a")) is first
    kept.get_or_make("b", make("b"))
    kept.get_or_make("a", make("a"))  # "a" used last: "b" is the oldest now
    kept.get_or_make("c", make("c"))
    assert len(kept) == 2
    assert kept.get_or_make("a", make("a")) is first
    kept.get_or_make("b", make("b"))
    assert made == ["a", "b", "c", "b"]


def test_an_entry_is_made_outside_the_lock():
    """A slow answer (a union of buffered bases) holds up no other lookup: making one entry may
    look up another (with the lock held, this would wait for itself for ever)."""
    kept: Kept[str, int] = Kept(4)
    assert kept.get_or_make("outer", lambda: kept.get_or_make("inner", lambda: 2) + 1) == 3
    assert kept.get_or_make("inner", lambda: 0) == 2
