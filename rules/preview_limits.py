"""What one damage preview may cost: caps by who asks, throttles on the shared cache, and a time
budget in a small pool of worker threads (off the event loop and off Django's request thread)."""

from __future__ import annotations

import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from dataclasses import dataclass

from rest_framework.throttling import AnonRateThrottle, UserRateThrottle

from rules.engine import preview
from rules.rulesets import edition_for

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PreviewLimits:
    trials: int
    # trials × attacking models × the weapon's most attacks: the number of attack dice rolled,
    # which the time and the memory of a preview grow with.
    attack_dice: int


PREVIEW_LIMITS = {
    "anonymous": PreviewLimits(trials=10_000, attack_dice=1_000_000),
    "user": PreviewLimits(trials=100_000, attack_dice=5_000_000),
}
# Seconds a request waits for its preview; past that it is answered 503 (the capped work still
# finishes in its thread, so the pool stays bounded).
TIME_BUDGET_SECONDS = 5.0
WORKERS = 2
_pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="attack-preview")
# One waiting preview per worker at most: more are refused at once instead of queueing.
_slots = threading.BoundedSemaphore(WORKERS * 2)


class PreviewBusy(Exception):  # noqa: N818 - answered 503 with its message
    pass


def run_within_budget(spec: dict) -> dict:
    """The preview of a checked SPEC, computed in the pool; its rule set is read here, in the
    request's thread (and its database connection), and handed to the pool."""
    edition = edition_for(spec.get("edition", "11e"))
    if not _slots.acquire(blocking=False):
        raise PreviewBusy("The preview is busy: try again in a few seconds.")
    try:
        future = _pool.submit(preview, spec, lambda _slug: edition)
        future.add_done_callback(lambda _: _slots.release())
    except BaseException:
        _slots.release()
        raise
    try:
        return future.result(timeout=TIME_BUDGET_SECONDS)
    except FutureTimeout:
        log.warning("attack preview over its time budget", extra={"trials": spec.get("trials")})
        raise PreviewBusy(
            f"The preview took longer than {TIME_BUDGET_SECONDS:g} s: ask for fewer trials."
        ) from None


class FailOpenMixin:
    """Throttles count on the shared cache (Redis when REDIS_URL is set); if the cache is down,
    requests go through rather than fail."""

    def allow_request(self, request, view) -> bool:
        try:
            return super().allow_request(request, view)
        except Exception:
            log.warning("throttle cache unavailable", exc_info=True)
            return True


class PreviewAnonThrottle(FailOpenMixin, AnonRateThrottle):
    scope = "attack_preview_anon"


class PreviewUserThrottle(FailOpenMixin, UserRateThrottle):
    scope = "attack_preview_user"
