"""Helpers for the tabletop browser tests: people, games, and table coordinates on the page."""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
SCREENSHOTS = ROOT / "docs" / "screenshots"
PASSWORD = "tabletop-dice-77"
_people = itertools.count(1)
# Where each player's units are deployed (x, y) by `deploy_one`: clear of terrain, within each
# other's range.
DEPLOY_AT = {1: [(46, 9), (14, 9), (55, 9)], 2: [(46, 35), (14, 35), (55, 35)]}


def person(name: str) -> str:
    """A username not used before on the session's site (the tests share one database)."""
    return f"{name}{next(_people)}"


def sign_up(page, site: str, username: str) -> None:
    page.goto(f"{site}/accounts/sign-up/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r"/games/$"))


def create_game(page, edition: str = "11e") -> tuple[int, str, str]:
    """Create a game from the lobby; returns its id, the invite link and the spectator link."""
    page.select_option("select[name=ruleset]", edition)
    page.click("text=Create game")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game_id = int(re.search(r"/games/(\d+)/$", page.url).group(1))
    invite = page.locator("input[value*='/games/join/']").input_value()
    watch = page.locator("input[value*='/watch/']").input_value()
    return game_id, invite, watch


def join_game(alice, bob, site: str, names: tuple[str, str], edition: str = "11e") -> dict:
    """Alice signs up as `names[0]` and creates a game from the lobby; Bob signs up as `names[1]`
    and joins it by the invite link. The game's id, both pages, the spectator link and the URLs."""
    sign_up(alice, site, names[0])
    game_id, invite, watch = create_game(alice, edition)
    sign_up(bob, site, names[1])
    bob.goto(invite)
    return {
        "id": game_id,
        "alice": alice,
        "bob": bob,
        "watch": watch,
        "site": site,
        "url": f"{site}/games/{game_id}/",
    }


def players_in_a_game(
    site: str, new_context, people: tuple[str, str], viewport: dict | None = None
) -> dict:
    """`join_game` for two new people (`person` names from `people`) in their own browser
    contexts; Alice's page at `viewport` when given."""
    options = {"viewport": viewport} if viewport else {}
    alice = new_context("alice", **options).new_page()
    bob = new_context("bob").new_page()
    return join_game(alice, bob, site, (person(people[0]), person(people[1])))


def open_game(page, url: str, legal: bool = True) -> dict:
    """Open a game page and wait until the board is drawn (and, with `legal`, until the server
    has said what the page may do); returns `page_view`."""
    page.goto(url)
    page.wait_for_selector("[data-board] .model")
    if legal:
        page.wait_for_function("() => strategium.view.legalActions !== undefined")
    return page_view(page)


def fixture_call(site_shell, call: str) -> dict:
    """Run a tests.browser.table_fixtures function on the served site's database."""
    out = site_shell(
        f"import json; from tests.browser import table_fixtures as f; print(json.dumps(f.{call}))"
    )
    return json.loads(out.strip().splitlines()[-1])


def screen_point(page, x: float, y: float) -> tuple[float, float]:
    """Where the table point (x, y) in inches is on the screen."""
    return tuple(
        page.evaluate(
            """([x, y]) => {
                const m = window.strategium.board.table.getScreenCTM();
                const p = new DOMPoint(x, y).matrixTransform(m);
                return [p.x, p.y];
            }""",
            [x, y],
        )
    )


def centre_on(page, x: float, y: float) -> None:
    """Scroll the page so that the table point (x, y) is in the middle of the window."""
    _, top = screen_point(page, x, y)
    page.evaluate("top => window.scrollBy(0, top - window.innerHeight / 2)", top)


def drag_on_table(page, start: tuple[float, float], end: tuple[float, float], steps: int = 8):
    centre_on(page, (start[0] + end[0]) / 2, (start[1] + end[1]) / 2)
    page.mouse.move(*screen_point(page, *start))
    page.mouse.down()
    page.mouse.move(*screen_point(page, *end), steps=steps)
    page.mouse.up()


def page_view(page) -> dict:
    """What the page was last told by the server (state, legal actions, seat)."""
    return json.loads(
        page.evaluate(
            "() => JSON.stringify({state: strategium.view.state,"
            " legal: strategium.view.legalActions, seat: strategium.view.seat})"
        )
    )


def deploy_one(seat: int, page, placed: dict, timeout: int = 15_000) -> None:
    """Deploy the seat's next unit by dragging it to the next spot of `DEPLOY_AT` and confirming;
    `placed` counts each seat's units deployed so far."""
    view = page_view(page)
    template = next(a for a in view["legal"] if a["type"] == "deploy")
    page.click(f"[data-action=deploy][data-unit='{template['unit']}']")
    draft = json.loads(page.evaluate("() => JSON.stringify(strategium.view.draft.positions)"))
    xs = [p[0] for p in draft.values()]
    ys = [p[1] for p in draft.values()]
    start = (sum(xs) / len(xs), sum(ys) / len(ys))
    target = DEPLOY_AT[seat][placed[seat] % len(DEPLOY_AT[seat])]
    grab = next(iter(draft.values()))
    drag_on_table(
        page,
        (grab[0], grab[1]),
        (grab[0] + target[0] - start[0], grab[1] + target[1] - start[1]),
    )
    # Place, then confirm: nothing is sent on release (issue 15).
    assert page_view(page)["state"]["units"][template["unit"]]["location"] != "battlefield"
    page.click("[data-action=confirm-positions]")
    page.wait_for_function(
        f"() => strategium.view.state.units['{template['unit']}'].location === 'battlefield'"
        " || document.querySelector('[data-note]')",
        timeout=timeout,
    )
    assert not page.locator("[data-note]").count(), page.inner_text("[data-error]")
    placed[seat] += 1


def show_tab(page, tab: str) -> None:
    """Open one of the side panel's tabs: roster, log, dice or chat."""
    page.click(f"[data-tab={tab}]")


def save_screenshot(page, name: str, publish: bool = False) -> Path:
    """Save to test-artifacts/; the ones worth `publish`ing are copied to docs/screenshots/ when
    STRATEGIUM_PUBLISH_SCREENSHOTS=1 (so an ordinary test run leaves the worktree clean)."""
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=path, full_page=True)
    if publish and os.environ.get("STRATEGIUM_PUBLISH_SCREENSHOTS") == "1":
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, SCREENSHOTS / f"{name}.png")
    return path
