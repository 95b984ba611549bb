"""The game page in Firefox (Debian's firefox-esr, driven over WebDriver BiDi): the same ES
modules, SVG and Pointer Events as in Chromium draw the server's state, select a vehicle, turn it
with the keys and drag it; the server takes the move with the new facing."""

import json
import re

import pytest

from tests.browser.table_helpers import ARTIFACTS, PASSWORD, fixture_call, person

pytestmark = pytest.mark.browser


def screen_point(firefox, x: float, y: float) -> tuple[float, float]:
    """The table point (x, y), scrolled into the middle of the window, in viewport pixels."""
    firefox.js(
        f"""(() => {{
            const m = strategium.board.table.getScreenCTM();
            const p = new DOMPoint({x}, {y}).matrixTransform(m);
            window.scrollBy(0, p.y - window.innerHeight / 2);
        }})()"""
    )
    return tuple(
        firefox.js(
            f"""(() => {{
                const p = new DOMPoint({x}, {y}).matrixTransform(
                    strategium.board.table.getScreenCTM());
                return [p.x, p.y];
            }})()"""
        )
    )


def test_the_game_page_draws_turns_and_moves_a_vehicle_in_firefox(firefox, site, site_shell):
    assert int(firefox.version.split(".")[0]) >= 128  # a current ESR
    firefox.goto(f"{site}/accounts/sign-up/")
    name = person("firefox")
    for field, value in (("username", name), ("password1", PASSWORD), ("password2", PASSWORD)):
        firefox.fill(f"input[name={field}]", value)
    firefox.click("button[type=submit]")
    firefox.wait_for("location.pathname === '/games/'")
    firefox.js("document.querySelector('select[name=ruleset]').value = '11e'")
    firefox.click("form.stacked button[type=submit]")
    path = firefox.wait_for("/^\\/games\\/\\d+\\/$/.test(location.pathname) && location.pathname")
    game_id = int(re.search(r"/games/(\d+)/", path).group(1))

    chimera = fixture_call(site_shell, f"store_vehicle_to_turn({game_id})")
    unit, model = chimera["unit"], chimera["model"]
    firefox.goto(f"{site}/games/{game_id}/")
    firefox.wait_for("document.querySelectorAll('[data-board] .model').length > 0")
    state = firefox.js("strategium.view.state")
    on_table = [
        m
        for u in state["units"].values()
        if u["location"] == "battlefield"
        for m in u["models"]
        if m["wounds_left"] > 0
    ]
    assert firefox.js("document.querySelectorAll('[data-board] .model').length") == len(on_table)
    assert firefox.js(f"document.querySelectorAll('[data-model=\"{model}\"] rect.base').length")

    firefox.click(f"[data-select-unit='{unit}']")
    firefox.wait_for(f"document.querySelector('[data-turn=\"{model}\"]')")
    for _ in range(2):
        firefox.press("}")  # Shift+]: 45 degrees
    facing = firefox.js(f"strategium.view.draft.positions[{json.dumps(model)}][2]")
    assert facing == 90
    body = firefox.js(
        f"document.querySelector('[data-model=\"{model}\"] > g').getAttribute('transform')"
    )
    assert body == "rotate(90)"

    # Dragged 2" down the table (the whole unit): sent on release with its new facing.
    start = screen_point(firefox, chimera["x"], chimera["y"])
    end = firefox.js(
        f"""(() => {{
            const p = new DOMPoint({chimera["x"]}, {chimera["y"] + 2}).matrixTransform(
                strategium.board.table.getScreenCTM());
            return [p.x, p.y];
        }})()"""
    )
    firefox.pointer_drag(start, end)
    moved = firefox.wait_for(
        f"""(() => {{
            const m = strategium.view.state.units['{unit}'].models[0];
            return m.y > {chimera["y"] + 1} && m;
        }})()"""
    )
    assert moved["facing"] == 90
    assert moved["y"] == pytest.approx(chimera["y"] + 2, abs=0.1)
    assert not firefox.js("document.querySelector('[data-note]') !== null")
    ARTIFACTS.mkdir(exist_ok=True)
    firefox.screenshot(ARTIFACTS / "firefox-vehicle-moved.png")
