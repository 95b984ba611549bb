"""The scaled deployment's channel layer (tabletop/channel_layer.py) under a busy worker: an
event loop stalled past channels-redis's blocking read must not break the layer (with redis-py
8's default 5 s socket timeout the read raised TimeoutError and every socket of the worker closed
with 1011), and a burst of group changes must wait for pool connections instead of failing."""

from __future__ import annotations

import asyncio
import os
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from redis.exceptions import TimeoutError as RedisTimeoutError

from tabletop.channel_layer import WaitingRedisChannelLayer, host

REDIS_URL = os.environ.get("REDIS_URL", "")
pytestmark = pytest.mark.skipif(
    not REDIS_URL, reason="needs Redis: set REDIS_URL (.ci/run does, for the scaled deployment)"
)


def run_on_its_own_loop(coroutine):
    """Run `coroutine` on a fresh event loop in a thread of its own: the browser tests' Playwright
    keeps an event loop running in the main thread for the whole session, and this module stalls
    its loop on purpose."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def layer(**options) -> WaitingRedisChannelLayer:
    return WaitingRedisChannelLayer(hosts=[{**host(REDIS_URL), **options}], prefix="test-stall")


async def receive_across_a_stall(channel_layer) -> dict:
    channel = await channel_layer.new_channel()
    receiving = asyncio.create_task(channel_layer.receive(channel))
    await asyncio.sleep(0.5)  # the blocking read is on its way
    time.sleep(channel_layer.brpop_timeout + 1.5)  # the worker busy past the blocking read
    await channel_layer.send(channel, {"type": "after.stall"})
    try:
        return await asyncio.wait_for(receiving, 10)
    finally:
        await channel_layer.flush()


def test_a_stalled_event_loop_does_not_break_the_layers_blocking_read():
    assert run_on_its_own_loop(receive_across_a_stall(layer())) == {"type": "after.stall"}


def test_with_a_socket_timeout_as_long_as_the_blocking_read_the_stall_breaks_it():
    """The failure the configuration prevents (what redis-py 8 does by default)."""
    with pytest.raises(RedisTimeoutError):
        run_on_its_own_loop(receive_across_a_stall(layer(socket_timeout=5, retry_on_timeout=False)))


def test_a_burst_of_group_changes_waits_for_pool_connections():
    run_on_its_own_loop(a_burst_of_group_changes())


async def a_burst_of_group_changes():
    channel_layer = layer(max_connections=4, timeout=20)
    channels = [await channel_layer.new_channel() for _ in range(60)]
    await asyncio.gather(*(channel_layer.group_add("burst", c) for c in channels))
    await asyncio.gather(*(channel_layer.group_discard("burst", c) for c in channels))
    connection = channel_layer.connection(0)
    assert await connection.zcard(f"{channel_layer.prefix}:group:burst") == 0
    await channel_layer.flush()
