"""Browser tests: Debian's Chromium driven by Playwright against the site served by daphne.

The site runs in a subprocess on its own SQLite database and the in-memory channel layer, exactly
as `make run` serves it. Screenshots go to test-artifacts/ (kept by CI as artefacts).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from tests.browser.table_helpers import players_in_a_game

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="session")
def site_env(tmp_path_factory) -> dict:
    """The environment of the served site: its own SQLite database and in-memory channel layer."""
    home = tmp_path_factory.mktemp("site")
    return {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{home / 'browser.sqlite3'}",
        "REDIS_URL": "",
        "DEBUG": "1",
        "DJANGO_SETTINGS_MODULE": "tabletop.settings",
        "STRATEGIUM_SITE_HOME": str(home),
    }


@pytest.fixture(scope="session")
def site_shell(site_env):
    """Run Python in `manage.py shell` on the served site's database; returns what it prints."""

    def run(code: str) -> str:
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=ROOT,
            env=site_env,
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            raise RuntimeError(done.stderr)
        return done.stdout

    return run


@pytest.fixture(scope="session")
def site(site_env) -> str:
    """The whole site served by daphne on a free port, with its own fresh database."""
    env = site_env
    home = Path(env["STRATEGIUM_SITE_HOME"])
    for command in (["migrate", "--noinput"], ["load_rules"]):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
        )
    port = _free_port()
    log = (home / "daphne.log").open("w")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "daphne",
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "tabletop.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1) as response:
                if response.status == 200:
                    break
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                raise RuntimeError((home / "daphne.log").read_text()) from None
            time.sleep(0.2)
    yield url
    server.terminate()
    server.wait(timeout=10)


@pytest.fixture(scope="session")
def browser():
    path = chromium_path()
    if path is None:
        if os.environ.get("STRATEGIUM_REQUIRE_BROWSER"):
            pytest.fail("Chromium is not installed: apt-get install chromium chromium-driver")
        pytest.skip("Chromium is not installed (make test installs it with apt-get when it can)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def firefox():
    """Debian's Firefox ESR, headless, driven over WebDriver BiDi (tests/browser/firefox_bidi.py);
    an uncaught script error on its page fails the test."""
    from tests.browser.firefox_bidi import Firefox, firefox_path

    path = firefox_path()
    if path is None:
        if os.environ.get("STRATEGIUM_REQUIRE_BROWSER"):
            pytest.fail("Firefox is not installed: apt-get install firefox-esr")
        pytest.skip(
            "Firefox is not installed (make test installs firefox-esr with apt-get when it can)"
        )
    launched = Firefox(path)
    yield launched
    errors = launched.script_errors()
    launched.close()
    assert not errors, f"script errors in Firefox: {errors}"


@pytest.fixture
def new_context(browser, request):
    """Open browser contexts (separate people); screenshots of each page are saved at the end, and
    an uncaught script error on any page fails the test."""
    contexts = []
    script_errors = []

    def open_context(name: str, **options):
        context = browser.new_context(**{"viewport": {"width": 1280, "height": 800}, **options})
        context.set_default_timeout(10_000)
        context.on("weberror", lambda error, name=name: script_errors.append((name, error.error)))
        contexts.append((name, context))
        return context

    yield open_context
    ARTIFACTS.mkdir(exist_ok=True)
    for name, context in contexts:
        for index, page in enumerate(context.pages):
            page.screenshot(
                path=ARTIFACTS / f"{request.node.name}-{name}-{index}.png", full_page=True
            )
        context.close()
    assert not script_errors, f"script errors in the page: {script_errors}"


@pytest.fixture
def laptop_players(site, new_context):
    """Two new people in a game (`table_helpers.players_in_a_game`), Alice's page at 1440x900."""
    return players_in_a_game(
        site, new_context, ("nova", "nils"), viewport={"width": 1440, "height": 900}
    )
