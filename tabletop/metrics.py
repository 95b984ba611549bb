"""What an operator watches (README, "Operating"): Prometheus counters and gauges of this process,
served at /metrics in the Prometheus text format.

Each daphne process keeps its own numbers: scrape every worker (one port each).
"""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from prometheus_client import CONTENT_TYPE_LATEST, Counter, Gauge, Histogram, generate_latest

ACTIONS = Counter(
    "strategium_actions_total",
    "Players' actions answered, by outcome (accepted, refused) and refusal code.",
    ["outcome", "code"],
)
APPLY_SECONDS = Histogram(
    "strategium_action_apply_seconds",
    "Time to apply one action: lock, engine, log and state written (seconds).",
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
BROADCAST_FAILURES = Counter(
    "strategium_broadcast_failures_total",
    "Messages committed but not handed to the channel layer (clients catch up by version).",
    ["type"],
)
OPEN_SOCKETS = Gauge("strategium_open_sockets", "Game websockets open in this process.", ["role"])
WINDOW_TIMEOUTS = Counter(
    "strategium_window_timeouts_total", "Stratagem windows passed because their time ran out."
)
FRAMES_REFUSED = Counter(
    "strategium_frames_refused_total",
    "Websocket frames answered with an `error`, by code.",
    ["code"],
)
SERVER_ERRORS = Counter(
    "strategium_server_errors_total",
    "Unexpected exceptions answered with `server_error` (websocket) or logged (broadcasts).",
    ["where"],
)


def metrics(request: HttpRequest) -> HttpResponse:
    """The process's metrics; with METRICS_TOKEN set, only for `Authorization: Bearer <token>`."""
    token = settings.METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return HttpResponseForbidden("metrics need the bearer token\n")
    return HttpResponse(generate_latest(), content_type=CONTENT_TYPE_LATEST)
