"""The Redis channel layer of the scaled deployment, configured so that a busy worker keeps its
sockets.

channels-redis waits for messages with a blocking read of `brpop_timeout` (5 s). Two things used
to close every socket of a worker with 1011 under load: redis-py 8 reads with a 5 s socket
timeout by default, so an event loop busy for a moment past the blocking read raised TimeoutError
(pyproject pins redis-py below 8, and the socket timeout here is set well above the blocking read
anyway); and the connection pool raised MaxConnectionsError when 100 connections were in use
(`group_discard` on disconnect failed, leaving members that every later broadcast still went to).
Here the pool waits for a free connection (`BlockingConnectionPool`) instead of raising.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool

# Above channels-redis's blocking read (5 s) with room for a stalled event loop; a dead Redis is
# still noticed.
SOCKET_TIMEOUT = 30
# Connections per worker process and event loop: the blocking read holds one, every group_send,
# group_add, group_discard and send takes one for a moment.
POOL_SIZE = 200
# How long an operation waits for a free connection before it fails.
POOL_WAIT = 20


def with_database_offset(url: str, offset: int) -> str:
    """The Redis URL `offset` database numbers after the one `url` names (0 when it names none)."""
    parts = urlsplit(url)
    database = int(parts.path.strip("/") or 0) + offset
    if database >= 16:
        raise ValueError(f"Redis database {database} is past Redis's default 16 (0-15)")
    return urlunsplit(parts._replace(path=f"/{database}"))


def host(url: str) -> dict:
    return {
        "address": url,
        "socket_timeout": SOCKET_TIMEOUT,
        "socket_connect_timeout": 5,
        "socket_keepalive": True,
        "health_check_interval": 30,
        "retry_on_timeout": True,
        "max_connections": POOL_SIZE,
        "timeout": POOL_WAIT,
    }


class WaitingRedisChannelLayer(RedisChannelLayer):
    """channels-redis whose connection pool waits for a free connection instead of raising."""

    def create_pool(self, index):
        options = dict(self.hosts[index])
        return BlockingConnectionPool.from_url(options.pop("address"), **options)
