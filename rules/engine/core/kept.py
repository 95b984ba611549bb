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
        """The entry of `key`, made (under the lock: `make` must be quick) when missing."""
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                found = self._entries[key] = make()
                while len(self._entries) > self.size:
                    self._entries.popitem(last=False)
            else:
                self._entries.move_to_end(key)
            return found

    def __len__(self) -> int:
        return len(self._entries)
