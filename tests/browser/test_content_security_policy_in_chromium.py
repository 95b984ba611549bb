"""The Content-Security-Policy (script-src 'self', no inline code) holds on every page in real
Chromium: no violation is reported on the login, sign-up, lobby, army builder, game (a drawn
table), spectator, admin and API documentation pages. And a spectator whose link is revoked is
told so, and its page stops reconnecting (close 4403, docs/protocol.md)."""

from __future__ import annotations

import pytest

from tests.browser.table_helpers import (
    PASSWORD,
    create_game,
    fixture_call,
    person,
    sign_up,
)

pytestmark = pytest.mark.browser
TIMEOUT = 15_000

LISTEN_FOR_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(
    `${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`);
});
"""


def watched_context(new_context, name: str):
    """A browser context whose pages record every CSP violation (DOM events and console)."""
    context = new_context(name)
    context.add_init_script(LISTEN_FOR_VIOLATIONS)
    context.violations = []
    context.on(
        "console",
        lambda message: (
            "Content Security Policy" in message.text and context.violations.append(message.text)
        ),
    )
    return context


def violations(page) -> list[str]:
    return page.evaluate("window.__cspViolations") + page.context.violations


def visit(page, url: str, ready: str) -> None:
    response = page.goto(url)
    assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector(ready, timeout=TIMEOUT)
    page.wait_for_timeout(300)  # late scripts and styles report too
    assert violations(page) == [], url


def test_every_page_passes_the_content_security_policy(site, site_shell, new_context):
    alice = watched_context(new_context, "alice").new_page()
    visit(alice, f"{site}/accounts/login/", "input[name=password]")
    visit(alice, f"{site}/accounts/sign-up/", "input[name=password1]")
    sign_up(alice, site, person("csp"))
    visit(alice, f"{site}/games/", "select[name=ruleset]")
    visit(alice, f"{site}/armies/", "main")
    visit(alice, f"{site}/api/docs/", ".swagger-ui .info")
    alice.goto(f"{site}/games/")
    game_id, invite, watch = create_game(alice)
    bob = watched_context(new_context, "bob").new_page()
    sign_up(bob, site, person("csp-opponent"))
    bob.goto(invite)
    fixture_call(site_shell, f"store_close_combat_game({game_id})")
    for page in (alice, bob):
        visit(page, f"{site}/games/{game_id}/", "[data-board] .model")
        page.wait_for_selector("[data-connection][data-status=connected]")
    spectator = watched_context(new_context, "spectator").new_page()
    visit(spectator, watch, "[data-board] .model")
    staff = person("csp-staff")
    site_shell(
        "from django.contrib.auth import get_user_model; "
        f"get_user_model().objects.create_superuser({staff!r}, password={PASSWORD!r})"
    )
    admin = watched_context(new_context, "admin").new_page()
    visit(admin, f"{site}/admin/login/", "input[name=password]")
    admin.fill("input[name=username]", staff)
    admin.fill("input[name=password]", PASSWORD)
    admin.click("input[type=submit]")
    visit(admin, f"{site}/admin/games/game/{game_id}/change/", "#content")
    assert violations(alice) == violations(bob) == violations(spectator) == []
    # Three drawn tables are heavy to screenshot on a busy machine; the admin page is kept.
    for page in (alice, bob, spectator):
        page.close()


def test_a_revoked_spectator_is_told_and_stops_reconnecting(site, new_context):
    alice = new_context("alice").new_page()
    sign_up(alice, site, person("host"))
    _, _, watch = create_game(alice)
    spectator = new_context("spectator").new_page()
    sockets = []
    spectator.on("websocket", lambda socket: sockets.append(socket.url))
    spectator.goto(watch)
    spectator.wait_for_selector("[data-connection][data-status=connected]", timeout=TIMEOUT)
    alice.click("text=Revoke spectator link")
    spectator.wait_for_selector("[data-connection][data-status=refused]", timeout=TIMEOUT)
    assert "revoked" in spectator.inner_text("[data-error]")
    spectator.wait_for_timeout(3000)  # the page would have reconnected by now (500 ms, 1 s...)
    assert len(sockets) == 1
    # Opening the old link again: refused at once, no reconnection loop either.
    assert spectator.goto(watch).status == 404
