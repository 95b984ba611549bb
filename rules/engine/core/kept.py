"""A bounded map shared by the engine's threads, for answers kept between actions: the least
recently used entry goes first once it holds `size` entries."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class Kept(Generic[K, V]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._entries: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get_or_make(self, key: K, make: Callable[[], V]) -> V:
        """The entry of `key`, made when missing. `make` runs outside the lock, so a slow one
        holds up no other thread; two threads missing the same key may both make it, and the
        first entry kept is the one both get."""
        with self._lock:
            found = self._entries.get(key)
            if found is not None:
                self._entries.move_to_end(key)
                return found
        made = make()
        with self._lock:
            found = self._entries.setdefault(key, made)
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)
            return found

    def __len__(self) -> int:
        return len(self._entries)
