"""The table a player wants (issue 15), in real Chromium against the server: datacards, the
roster with distinct unit names, stratagem prompts that say what they do, the damage preview,
refusals worded with names, and the layout at a laptop's and a tablet's size.

The positions are stored by tests/browser/table_fixtures.py (`store_shooting_scene`,
`store_window_game`): whole engine states, so the server plays on from them.
"""

import json
import re

import pytest

from tests.browser.table_helpers import (
    drag_on_table,
    fixture_call,
    join_game,
    open_game,
    page_view,
    person,
    players_in_a_game,
    save_screenshot,
    screen_point,
    show_tab,
)

pytestmark = pytest.mark.browser
TIMEOUT = 15_000
IDS = re.compile(r"\bp[12]-u\d+")


@pytest.fixture
def two_players(site, new_context):
    laptop = {"width": 1440, "height": 900}
    alice = new_context("alice", viewport=laptop).new_page()
    bob = new_context("bob", viewport=laptop).new_page()
    return join_game(alice, bob, site, (person("alma"), person("bert")))


def test_an_enemy_datacard_shows_its_stat_line_and_a_weapon_abilitys_text(two_players, site_shell):
    scene = fixture_call(site_shell, f"store_shooting_scene({two_players['id']})")
    alice = two_players["alice"]
    view = open_game(alice, f"{two_players['site']}/games/{two_players['id']}/")
    enemy = view["state"]["units"][scene["near"]]
    model = next(m for m in enemy["models"] if m["wounds_left"] > 0)
    # Hovering a model shows its unit's card; a click keeps it open.
    alice.hover(f"[data-model='{model['id']}']")
    card = alice.locator("[data-datacard]")
    card.wait_for(timeout=TIMEOUT)
    assert enemy["name"] in card.locator("h3").inner_text()
    alice.click(f"[data-model='{model['id']}']")
    stat_line = card.locator("[data-stat-line] tbody tr").first.inner_text()
    for value in (f'{model["M"]}"', f"{model['Sv']}+", f"{model['Ld']}+", str(model["OC"])):
        assert value in stat_line
    ability = card.locator("[data-weapon-ability]").first
    text = ability.get_attribute("title")
    assert ability.inner_text().startswith("[") and len(text) > 20, text
    assert "keywords" in card.inner_text().lower() and "INFANTRY" in card.inner_text()
    assert "wounds left" in card.inner_text()
    assert not IDS.search(card.inner_text())
    save_screenshot(alice, "datacard-of-an-enemy-unit", publish=True)
    # The card stays as the pointer leaves; its close button closes it.
    alice.mouse.move(5, 5)
    assert card.is_visible()
    card.locator("button.close").click()
    assert card.is_hidden()


def test_two_units_of_one_datasheet_are_told_apart_in_the_roster_targets_and_log(
    two_players, site_shell
):
    scene = fixture_call(site_shell, f"store_shooting_scene({two_players['id']})")
    alice, bob = two_players["alice"], two_players["bob"]
    url = f"{two_players['site']}/games/{two_players['id']}/"
    open_game(alice, url)
    open_game(bob, url)
    near, far = scene["names"]
    assert (near, far) == ("Strike Squad A", "Strike Squad B")
    roster = alice.locator("[data-roster]")
    assert roster.locator(f"[data-roster-unit='{scene['near']}'] .name").inner_text() == near
    assert roster.locator(f"[data-roster-unit='{scene['far']}'] .name").inner_text() == far
    # Hovering a roster line lights the unit on the board.
    roster.locator(f"[data-roster-unit='{scene['far']}']").hover()
    lit = alice.locator(f"[data-unit-group='{scene['far']}']")
    assert "hovered" in lit.get_attribute("class")

    alice.click(f"[data-select-unit='{scene['shooter']}']")
    lasgun = alice.locator("[data-targets-for=shoot] select[data-assignment=Lasgun]")
    options = lasgun.locator("option").all_inner_texts()
    assert near in options and far in options

    # The preview: the expected damage and a chart, recomputed when the target changes.
    chart = alice.locator("[data-preview] [data-chart] rect.bar")
    chart.first.wait_for(timeout=TIMEOUT)
    before = alice.locator("[data-preview]").inner_text()
    bars = [chart.nth(i).get_attribute("height") for i in range(chart.count())]
    lasgun.select_option(label=far)
    alice.wait_for_function(
        f"() => document.querySelector('[data-preview] [data-preview-target={scene['far']}]')",
        timeout=TIMEOUT,
    )
    after = alice.locator("[data-preview]").inner_text()
    assert after != before and far in after
    assert [chart.nth(i).get_attribute("height") for i in range(chart.count())] != bars
    # Enemy units it cannot shoot, and why not.
    reason = alice.locator(f"[data-unavailable='{scene['out_of_range']}']").inner_text()
    assert scene["terminators"] in reason and "not within" in reason
    save_screenshot(alice, "shooting-with-the-damage-preview", publish=True)

    lasgun.select_option(label=near)
    alice.click("[data-targets-for=shoot] button[data-action=shoot]")
    alice.wait_for_function("() => strategium.view.sent.size === 0", timeout=TIMEOUT)
    for page in (alice, bob):
        show_tab(page, "log")
        page.wait_for_selector(
            "[data-log] li[data-kind=targets_selected]", state="attached", timeout=TIMEOUT
        )
        log = page.locator("[data-log]").inner_text()
        assert f"Cadian Shock Troops shoots at {near}" in log or near in log
        assert not IDS.search(log) and "null" not in log


def test_a_stratagem_prompt_names_the_moment_its_cost_and_text_and_stops_asking(
    two_players, site_shell
):
    offered = fixture_call(site_shell, f"store_window_game({two_players['id']})")
    alice, bob = two_players["alice"], two_players["bob"]
    url = f"{two_players['site']}/games/{two_players['id']}/"
    open_game(alice, url)
    open_game(bob, url)
    box = alice.locator("[data-actions] .decision[data-decision=stratagem_window]")
    box.wait_for(timeout=TIMEOUT)
    words = box.inner_text()
    assert "phase begins" in words and "phase_start" not in words
    offer = box.locator("[data-offer=inspired-command]")
    assert "Inspired Command" in offer.locator(".offer-name").inner_text()
    assert offer.locator(".cp").inner_text() == "1 CP"
    assert "EFFECT:" in offer.inner_text() and "issue one Order" in offer.inner_text()
    labels = offer.locator("button[data-use-stratagem]").all_inner_texts()
    assert len(labels) == len(offered["options"]) == len(set(labels))  # each says which Order
    assert any("Take Aim!" in label for label in labels)
    assert "Use it: Order:" in offer.locator(".offer-shared").inner_text()  # said once
    assert "Target: Cadian Shock Troops A" in offer.inner_text()
    assert not IDS.search(words) and "null" not in words
    # The opponent sees who is deciding.
    bob.wait_for_selector("[data-actions] .deciding", timeout=TIMEOUT)
    assert "is deciding" in bob.locator("[data-actions] .deciding").inner_text()
    save_screenshot(alice, "stratagem-window", publish=True)

    offer.locator("[data-never-offer]").click()
    alice.wait_for_function(
        "() => (strategium.view.state.window_preferences['1'] || {}).never_offer"
        "?.includes('inspired-command') && !strategium.view.state.pending.some("
        f"d => d.id === '{offered['decision']}')",
        timeout=TIMEOUT,
    )
    assert "Inspired Command" in alice.locator(".standing-choices").inner_text()
    # Rulings R-ST-32: Command Re-roll after every roll is a standing choice, off by default.
    every_roll = alice.locator("[data-reroll-every-roll]")
    assert not every_roll.is_checked()
    every_roll.check()
    alice.wait_for_function(
        "() => (strategium.view.state.window_preferences['1'] || {}).reroll_every_roll === true",
        timeout=TIMEOUT,
    )


def test_a_refused_move_names_the_unit_and_model(two_players, site_shell):
    scene = fixture_call(site_shell, f"store_shooting_scene({two_players['id']}, phase='movement')")
    alice = two_players["alice"]
    view = open_game(alice, f"{two_players['site']}/games/{two_players['id']}/")
    unit = view["state"]["units"][scene["shooter"]]
    model = next(m for m in unit["models"] if m["wounds_left"] > 0)
    alice.click(f"[data-select-unit='{scene['shooter']}']")
    drag_on_table(alice, (model["x"], model["y"]), (model["x"] + 14, model["y"] - 2))
    error = alice.locator("[data-error]")
    error.wait_for(timeout=TIMEOUT)
    message = error.inner_text()
    assert message.startswith(f"{unit['name']}: "), message
    assert not IDS.search(message)
    save_screenshot(alice, "refused-move-named", publish=True)


def test_the_arrival_area_is_drawn_and_a_set_up_waits_for_confirmation(two_players, site_shell):
    scene = fixture_call(
        site_shell, f"store_shooting_scene({two_players['id']}, phase='movement', reserve=True)"
    )
    alice = two_players["alice"]
    open_game(alice, f"{two_players['site']}/games/{two_players['id']}/")
    alice.click(f"[data-action=arrive][data-unit='{scene['chimera']}']")
    area = alice.locator("[data-arrival-area=ingress]")
    area.wait_for(timeout=TIMEOUT)
    assert area.locator("path.arrival-area").count() >= 1
    assert area.locator("path.no-arrival").count() >= 1  # around the enemy models
    save_screenshot(alice, "arrival-area", publish=True)
    # Dropped in the middle of the table: nothing is sent, and the referee's answer shows.
    start = page_view(alice)["legal"]
    glyph = alice.locator(f"[data-model^='{scene['chimera']}-m']").first
    box = glyph.bounding_box()
    alice.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    alice.mouse.down()
    alice.mouse.move(*screen_point(alice, 36, 22), steps=6)  # open ground, far from any edge
    alice.mouse.up()
    verdict = alice.locator("[data-verdict].illegal")
    verdict.wait_for(timeout=TIMEOUT)
    assert "edge" in verdict.inner_text() and not IDS.search(verdict.inner_text())
    assert page_view(alice)["state"]["units"][scene["chimera"]]["location"] == "strategic_reserves"
    assert page_view(alice)["legal"] == start


def _drawn_size(page, selector: str) -> list[float]:
    """The width and depth of the shape drawn, once drawn (the board's overlays are drawn anew
    when the referee answers: a shape taken away meanwhile measures nothing)."""
    script = """selector => {
        const shape = document.querySelector(selector);
        const box = shape && shape.isConnected ? shape.getBBox() : null;
        return box && box.width > 0 ? [box.width, box.height] : null;
    }"""
    return page.wait_for_function(script, arg=selector, timeout=TIMEOUT).json_value()


@pytest.mark.parametrize(
    ("prognisticated", "method", "inches"),
    [(False, "teleport_assault", 9), (True, "prognisticated_arrival", 6)],
    ids=["teleport-assault", "prognisticated-arrival"],
)
def test_the_area_of_a_rules_own_way_to_arrive_is_drawn(
    two_players, site_shell, prognisticated, method, inches
):
    """Teleport Assault (the `arrive` template) and Prognisticated Arrival (the
    `stratagem_arrival` decision): anywhere on the battlefield more than 9" / 6" from enemy
    models, drawn as the whole table with the area around the enemy models kept out."""
    stored = fixture_call(
        site_shell,
        f"store_teleport_arrival_game({two_players['id']}, prognisticated={prognisticated})",
    )
    bob = two_players["bob"]
    view = open_game(bob, two_players["url"])
    if prognisticated:
        assert stored["decision"] == "stratagem_arrival"
        bob.click("[data-actions] .decision [data-action=place]")
    else:
        bob.click(f"[data-action=arrive][data-unit='{stored['unit']}']")
    area = bob.locator(f"[data-arrival-area={method}]")
    area.wait_for(timeout=TIMEOUT)
    assert area.locator("path.arrival-area").count() == 1
    box = _drawn_size(bob, f"[data-arrival-area={method}] path.arrival-area")
    table = view["state"]["mission"]["battlefield"]
    assert box == [pytest.approx(table["width"]), pytest.approx(table["depth"])]
    assert area.locator("path.no-arrival").count() >= 1  # around the enemy models
    assert f'more than {inches}"' in area.locator("title").text_content()
    save_screenshot(bob, f"arrival-area-{method.replace('_', '-')}")


def _outlines(area) -> list[str]:
    """The outline of each allowed path of an arrival area (its `d`)."""
    paths = area.locator("path.arrival-area")
    return [paths.nth(i).get_attribute("d") for i in range(paths.count())]


@pytest.mark.parametrize("rapid_ingress", [False, True], ids=["arrive", "rapid-ingress"])
def test_a_deep_strike_unit_arrives_by_the_way_the_player_picks(
    two_players, site_shell, rapid_ingress
):
    """A Deep Strike unit in strategic reserves (11e 20.04, 24.09): the `arrive` template, or
    the `stratagem_arrival` decision of Rapid Ingress, offers an ingress move or Deep Strike.
    The player picks Deep Strike on the panel: the area drawn becomes the whole battlefield less
    the enemy's surroundings, stays so while the unit is dragged, and the engine sets it up by
    Deep Strike where an ingress move would be refused."""
    stored = fixture_call(
        site_shell,
        f"store_deep_strike_arrival_game({two_players['id']}, rapid_ingress={rapid_ingress})",
    )
    assert stored["spot"], "no spot for a Deep Strike"
    bob = two_players["bob"]
    view = open_game(bob, two_players["url"])
    unit = stored["unit"]
    if rapid_ingress:
        assert stored["decision"] == "stratagem_arrival"
        place = "[data-actions] .decision [data-action=place]"
    else:
        place = f"[data-action=arrive][data-unit='{unit}']"
    # One button per way, named as the rules name them.
    buttons = bob.locator(place)
    assert buttons.count() == 2
    assert "ingress move" in bob.locator(f"{place}[data-method=ingress]").inner_text()
    assert "Deep Strike" in bob.locator(f"{place}[data-method=deep_strike]").inner_text()
    bob.click(f"{place}[data-method=ingress]")
    ingress = bob.locator("[data-arrival-area=ingress]")
    ingress.wait_for(timeout=TIMEOUT)
    along_the_edges = _outlines(ingress)
    # While placing, the way can still be changed: the area follows.
    ways = bob.locator(f"[data-arrival-ways='{unit}']")
    assert bob.locator("[data-arrival-way=ingress]").is_checked()
    assert "Deep Strike" in ways.inner_text() and "ingress move" in ways.inner_text()
    bob.check("[data-arrival-way=deep_strike]")
    area = bob.locator("[data-arrival-area=deep_strike]")
    area.wait_for(timeout=TIMEOUT)
    assert not ingress.count()
    whole = _outlines(area)
    assert len(whole) == 1 and whole != along_the_edges
    assert whole[0].count("M") == 1 and whole[0].count("L") == 4  # one rectangle
    box = _drawn_size(bob, "[data-arrival-area=deep_strike] path.arrival-area")
    table = view["state"]["mission"]["battlefield"]
    assert box == [pytest.approx(table["width"]), pytest.approx(table["depth"])]
    # Dragged into the open, far from every edge: still Deep Strike, and the referee agrees.
    draft = json.loads(bob.evaluate("() => JSON.stringify(strategium.view.draft.positions)"))
    xs, ys = [p[0] for p in draft.values()], [p[1] for p in draft.values()]
    grab = next(iter(draft.values()))
    spot = stored["spot"]
    target = (grab[0] + spot[0] - sum(xs) / len(xs), grab[1] + spot[1] - sum(ys) / len(ys))
    drag_on_table(bob, (grab[0], grab[1]), target)
    bob.locator("[data-verdict].legal").wait_for(timeout=TIMEOUT)
    assert bob.locator("[data-arrival-area=deep_strike]").count() == 1
    assert bob.locator("[data-arrival-way=deep_strike]").is_checked()
    save_screenshot(bob, f"deep-strike-picked-{'rapid-ingress' if rapid_ingress else 'arrive'}")
    # Back to an ingress move there: the referee refuses it, naming the edge.
    bob.check("[data-arrival-way=ingress]")
    bob.locator("[data-verdict].illegal").wait_for(timeout=TIMEOUT)
    bob.check("[data-arrival-way=deep_strike]")
    bob.locator("[data-verdict].legal").wait_for(timeout=TIMEOUT)
    bob.click("[data-action=confirm-positions]")
    bob.wait_for_function(
        f"() => strategium.view.state.units['{unit}'].location === 'battlefield'", timeout=TIMEOUT
    )
    arrived = fixture_call(site_shell, f"last_event({two_players['id']}, 'unit_arrived')")
    assert arrived["unit"] == unit and arrived["method"] == "deep_strike"


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (1024, 768)])
def test_board_actions_and_decision_fit_the_screen(site, site_shell, new_context, width, height):
    game = players_in_a_game(
        site, new_context, ("lena", "olaf"), {"width": width, "height": height}
    )
    alice, game_id = game["alice"], game["id"]
    fixture_call(site_shell, f"store_window_game({game_id})")
    open_game(alice, f"{site}/games/{game_id}/")
    alice.locator("[data-actions] .decision").wait_for(timeout=TIMEOUT)

    def inside(selector: str) -> bool:
        box = alice.locator(selector).first.bounding_box()
        return box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 60) <= height

    parts = ("[data-board]", "[data-actions]", "[data-actions] .decision", "[data-tab=log]")
    for part in (*parts, "[data-actions] .decision button[data-choice=pass]"):
        assert inside(part), part
    board = alice.locator("[data-board]").bounding_box()
    assert board["height"] > height * 0.45
    # The whole board is in the window, whatever the header above it holds.
    assert board["y"] + board["height"] <= height, (board, height)
    assert alice.evaluate("() => document.documentElement.scrollWidth") <= width
    save_screenshot(alice, f"game-page-{width}x{height}", publish=True)


LABELS = ".terrain-label, .unit-label, .objective-label, .zone-label"


def label_boxes(page) -> list[dict]:
    """Every board label on the screen: its text, kind and box in CSS pixels, and font size."""
    return page.evaluate(
        """(selector) => {
            const frame = document.querySelector('[data-board]').getBoundingClientRect();
            return [...document.querySelectorAll(`[data-board] :is(${selector})`)].map((t) => {
                const r = t.getBoundingClientRect();
                const m = t.getScreenCTM();
                return {text: t.textContent, kind: t.getAttribute('class').split(' ')[0],
                        x: r.left, y: r.top, w: r.width, h: r.height,
                        px: parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b)};
            }).filter((b) => b.w > 0 && b.x < frame.right && b.x + b.w > frame.left
                             && b.y < frame.bottom && b.y + b.h > frame.top);
        }""",
        LABELS,
    )


def overlapping(boxes: list[dict]) -> list[tuple[str, str]]:
    """Pairs of labels whose boxes cross (by more than half a pixel: rounding)."""
    pairs = []
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            across = min(a["x"] + a["w"], b["x"] + b["w"]) - max(a["x"], b["x"])
            down = min(a["y"] + a["h"], b["y"] + b["h"]) - max(a["y"], b["y"])
            if across > 0.5 and down > 0.5:
                pairs.append((a["text"], b["text"]))
    return pairs


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (1024, 768)])
def test_labels_stay_legible_and_apart_at_every_zoom(site, site_shell, new_context, width, height):
    screen = {"width": width, "height": height}
    game = players_in_a_game(site, new_context, ("iris", "ugo"), screen)
    alice, game_id = game["alice"], game["id"]
    scene = fixture_call(site_shell, f"store_crowded_labels({game_id})")
    assert len(scene["units"]) >= 4
    open_game(alice, f"{site}/games/{game_id}/")
    # Zoomed out past the whole table, then in step by step to about 5 times.
    steps = ["fit", "zoom-out", "zoom-out", "fit"] + ["zoom-in"] * 7
    for step, tool in enumerate(steps):
        alice.click(f"[data-tool={tool}]")
        boxes = label_boxes(alice)
        kinds = {b["kind"] for b in boxes}
        assert "unit-label" in kinds and "terrain-label" in kinds or step > 4, (tool, kinds)
        assert overlapping(boxes) == [], (step, tool)
        sizes = [b["px"] for b in boxes if b["kind"] == "unit-label"]
        assert all(10.5 <= px <= 16.5 for px in sizes), (step, tool, sizes)
    # The scene is crowded: labels had to move off each other and off the models.
    alice.click("[data-tool=fit]")
    assert alice.locator("[data-board] .displaced").count() >= 1
    save_screenshot(alice, f"labels-apart-{width}x{height}", publish=width == 1024)


def pass_every_window(pages, rounds: int = 30) -> None:
    """Both players pass each stratagem window as it comes, until none is left."""
    for _ in range(rounds):
        for page in pages:
            page.wait_for_function("() => strategium.view.sent.size === 0", timeout=TIMEOUT)
        button = None
        for page in pages:
            found = page.locator("[data-actions] .decision button[data-choice=pass]")
            if found.count():
                button = found.first
                break
        if button is None:
            return
        button.click()
        pages[0].wait_for_timeout(400)
    raise AssertionError("the windows never ended")


def test_one_shot_is_one_log_entry_and_each_weapon_one_dice_group(two_players, site_shell):
    """The log says who shot what with which weapons in one entry, windows passed on the way
    included; the dice tray has one group per weapon, its numbers agreeing with their nouns."""
    scene = fixture_call(site_shell, f"store_shooting_scene({two_players['id']})")
    alice, bob = two_players["alice"], two_players["bob"]
    url = f"{two_players['site']}/games/{two_players['id']}/"
    open_game(alice, url)
    open_game(bob, url)
    near = scene["names"][0]
    alice.click(f"[data-select-unit='{scene['shooter']}']")
    shoot = alice.locator("[data-targets-for=shoot] button[data-action=shoot]")
    box, panel = shoot.bounding_box(), alice.locator("[data-actions]").bounding_box()
    assert box["y"] + box["height"] <= panel["y"] + panel["height"]  # in sight, not scrolled to
    shoot.click()
    pass_every_window([alice, bob])
    for page in (alice, bob):
        show_tab(page, "log")
        entries = page.locator("[data-log] li.entry.action")
        shots = [e for e in entries.all_inner_texts() if "shoots at" in e]
        assert len(shots) == 1, shots
        headline = page.locator("[data-log] li.entry.action .headline").all_inner_texts()
        shot = next(h for h in headline if "shoots at" in h)
        assert shot.startswith(f"Cadian Shock Troops shoots at {near} (") and "Lasgun ×" in shot
        assert re.search(r"— \d+ hits?, \d+ wounds?, \d+ models? destroyed", shot), shot
        log = page.locator("[data-log]").inner_text()
        assert " a attacks" not in log and "wound(s)" not in log and "chose pass" not in log
        # Each entry says its headline once: the line it comes from is not repeated under it.
        repeated = page.evaluate(
            """() => [...document.querySelectorAll('[data-log] li.entry')].filter((entry) => {
                const head = entry.querySelector('.headline').firstChild.textContent;
                return [...entry.querySelectorAll(':scope > ol > li')].some(
                    (line) => !line.hidden && head.split(' — ')[0] === line.firstChild.textContent);
            }).map((entry) => entry.innerText)"""
        )
        assert repeated == [], repeated
    show_tab(bob, "dice")
    groups = bob.locator("[data-dice-tray] [data-weapon-group]")
    weapons = [groups.nth(i).get_attribute("data-weapon-group") for i in range(groups.count())]
    assert len(weapons) == len(set(weapons)) >= 3, weapons
    tray = bob.locator("[data-dice-tray]").inner_text()
    assert not re.search(r"(^|\D)1 (hits|wounds|hit rolls|wound rolls|save rolls)\b", tray), tray
    assert "0 hit rolls" not in tray
    save_screenshot(bob, "one-shot-in-the-dice-tray", publish=True)
