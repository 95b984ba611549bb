import pytest


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
    """Throttles, chat budgets and the like count in the cache: each test starts from none."""
    from django.core.cache import cache

    cache.clear()
    yield
