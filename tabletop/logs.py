"""Plain-text log lines that still carry the context the code adds (game, version, seat...)."""

import logging

# The context fields the application adds with `extra=` (README, "Operating").
CONTEXT_FIELDS = (
    "game_id",
    "version",
    "seat",
    "action_type",
    "message_type",
    "code",
    "duration_ms",
)


class ContextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        line = super().format(record)
        context = " ".join(
            f"{name}={getattr(record, name)}"
            for name in CONTEXT_FIELDS
            if getattr(record, name, None) is not None
        )
        if not context:
            return line
        head, _, tail = line.partition("\n")
        return f"{head} [{context}]" + (f"\n{tail}" if tail else "")
