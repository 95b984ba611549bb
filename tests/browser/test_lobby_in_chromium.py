"""Two players and a spectator meet in real Chromium: sign up, invite, watch, talk."""

import re

import pytest

from tests.browser.table_helpers import show_tab, sign_up

pytestmark = pytest.mark.browser


def test_two_players_and_a_spectator_share_a_table(site, new_context):
    alice = new_context("alice").new_page()
    missing = []  # every file the pages ask for exists (the tab's icon included)
    alice.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    sign_up(alice, site, "alice")
    alice.select_option("select[name=ruleset]", "11e")
    alice.click("text=Create game")
    alice.wait_for_url(re.compile(r"/games/\d+/$"))
    invite = alice.locator("input[value*='/games/join/']").input_value()
    watch = alice.locator("input[value*='/watch/']").input_value()

    bob = new_context("bob").new_page()
    sign_up(bob, site, "bob")
    bob.goto(invite)
    bob.wait_for_url(re.compile(r"/games/\d+/$"))
    assert "You are seat 2" in bob.inner_text("main")

    spectator = new_context("spectator").new_page()
    spectator.goto(watch)
    assert "You are watching" in spectator.inner_text("main")
    assert spectator.locator("[data-chat-form]").count() == 0  # spectators only read

    for page in (alice, bob, spectator):
        page.wait_for_selector("[data-connection][data-status=connected]")
        show_tab(page, "chat")
    alice.fill("[data-chat-form] input", "Good luck, have fun")
    alice.press("[data-chat-form] input", "Enter")
    for page in (alice, bob, spectator):
        page.wait_for_selector("[data-chat-list] li:has-text('Good luck, have fun')")

    late = new_context("late-spectator").new_page()
    late.goto(watch)
    show_tab(late, "chat")
    late.wait_for_selector("[data-chat-list] li:has-text('Good luck, have fun')")

    # Back in the lobby, the games come first: above the forms that start one.
    alice.goto(f"{site}/games/")
    games = alice.locator("table.games").bounding_box()
    new_game = alice.locator("section.new-game h2").bounding_box()
    assert games["y"] + games["height"] <= new_game["y"]
    # On a phone the games list keeps to the screen's width (the wide table scrolls in its own
    # box).
    alice.set_viewport_size({"width": 390, "height": 844})
    width = "() => [document.documentElement.scrollWidth, window.innerWidth]"
    scroll, screen = alice.evaluate(width)
    assert scroll <= screen, (scroll, screen)
    assert missing == [], missing

    carol = new_context("carol").new_page()
    sign_up(carol, site, "carol")
    carol.goto(invite)
    assert "already been used" in carol.inner_text("main")
