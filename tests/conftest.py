import asyncio

import pytest

PLAYWRIGHT_FIXTURES = {"browser", "new_context"}


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_protocol(item, nextitem):
    """Playwright's sync API runs its event loop in a greenlet of the main thread and leaves that
    loop marked as the thread's running loop between calls. A later test in the same process (the
    parallel processes of `make test` mix browser and other tests) would then be taken for async
    code: Django refuses database access, asyncio refuses to start a loop. Tests that do not drive
    the browser run with the mark cleared, and Playwright gets it back afterwards."""
    playwright_loop = asyncio._get_running_loop()
    if playwright_loop is None or PLAYWRIGHT_FIXTURES & set(item.fixturenames):
        return (yield)
    asyncio._set_running_loop(None)
    try:
        return (yield)
    finally:
        asyncio._set_running_loop(playwright_loop)


@pytest.fixture
def staff_user(django_user_model):
    return django_user_model.objects.create_user(
        "organiser", password="a-long-test-password", is_staff=True, is_superuser=True
    )


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("alice", password="a-long-test-password")


@pytest.fixture
def rules_loaded(db):
    """The project's rules data in the test database, as `make run` loads it."""
    from io import StringIO

    from django.core.management import call_command

    call_command("load_rules", stdout=StringIO())


@pytest.fixture(autouse=True)
def _empty_cache():
    """Throttles, chat budgets and the like count in the cache, and a worker remembers the engine
    states of the games it served (games/live_states.py): each test starts from none. Test
    databases number their games from 1 again, so a state remembered from an earlier test's game
    would be taken for an older version of this test's game and caught up with its patches.

    Each test gets a new channel layer too. A daphne process has one event loop for its life;
    tests have one each. A test that ends with a socket still open leaves the process's receiver
    (games/fanout.py) waiting in channels-redis's `receive` on a loop that is then closed, and
    channels-redis counts it as a receiver for good: the next test's receive on the same layer
    would be refused ("Two event loops are trying to receive()") and its broadcasts lost."""
    from channels.layers import channel_layers
    from django.core.cache import cache

    from games import hellos, live_states

    cache.clear()
    live_states.clear()
    hellos.clear()
    channel_layers.backends.clear()
    yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, whose teardown drops it. On PostgreSQL a connection still
    open in another thread (the websocket consumers' action threads keep theirs) would stop the
    drop ("is being accessed by other users") and leave the database behind: those sessions are
    ended first."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
