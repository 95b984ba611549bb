"""Importing a list in real Chromium: a player pastes the Warhammer 40,000 app's text export into
the army builder, sees the report of what was not used beside the army, fixes it, saves it and
starts a game with it."""

from pathlib import Path

import pytest

from tests.browser.table_helpers import (
    create_game,
    fixture_call,
    person,
    save_screenshot,
    sign_up,
)

pytestmark = pytest.mark.browser
LIST = Path(__file__).resolve().parent.parent / "data" / "army_lists" / "grey-knights-app.txt"


def test_paste_a_list_fix_it_save_it_and_start_a_game(site, site_shell, new_context):
    alice = new_context("importer").new_page()
    alice_name = person("importer")
    sign_up(alice, site, alice_name)
    alice.goto(f"{site}/armies/")
    alice.wait_for_selector("#army-builder[data-ready=true]")
    alice.fill("#import-text", LIST.read_text("utf-8"))
    alice.click("#import-list")
    alice.wait_for_selector("#import-status:has-text('3 units')")
    alice.wait_for_selector("#army-builder[data-ready=true]")
    # The report beside the army: each unused line with its number and the server's reason.
    report = alice.locator("#import-lines")
    report.locator("li:has-text('Line 35: Land Raider (240 Points)')").wait_for()
    assert "Plasma cannon" in report.inner_text()
    assert alice.input_value("input[name=name]") == "Castellans of Titan"
    assert alice.input_value("select[name=faction]") == "grey-knights"
    assert alice.locator("#army-units tr").count() == 3
    alice.wait_for_selector("#army-check:has-text('410 of 1000 points — ready to play')")
    save_screenshot(alice, "army-import-report", publish=True)
    # Fix before saving: the Strike Squad grows to 10 models.
    alice.locator("#army-units tr").nth(1).locator("td").nth(1).locator("select").select_option(
        "10"
    )
    alice.wait_for_selector("#army-check:has-text('530 of 1000 points — ready to play')")
    alice.click("#save-army")
    alice.wait_for_selector("#saved-armies button:has-text('Castellans of Titan')")
    alice.click("#export-army")
    alice.wait_for_selector("#export-text:not([hidden])")
    assert "Strike Squad (240 Points)" in alice.input_value("#export-text")

    alice.goto(f"{site}/games/")
    game_id, invite, _watch = create_game(alice)
    bob = new_context("opponent").new_page()
    bob_name = person("opponent")
    sign_up(bob, site, bob_name)
    bob.goto(invite)
    armies = fixture_call(site_shell, f"store_saved_armies({[bob_name]!r})")
    for page, army in ((alice, "Castellans of Titan"), (bob, armies[bob_name]["name"])):
        page.goto(f"{site}/games/{game_id}/")
        form = page.locator("[data-muster]")
        form.locator("select").select_option(label=army)
        form.locator("button[type=submit], button[data-action=muster]").first.click()
    for page in (alice, bob):
        page.wait_for_function("() => strategium.view && strategium.view.state !== null")
    units = alice.evaluate(
        "() => Object.values(strategium.view.state.units).filter(u => u.player === 1)"
    )
    assert sorted(unit["name"] for unit in units) == [
        "Brotherhood Terminator Squad",
        "Strike Squad",
    ]
    # The Brother-Captain leads the Terminators, as the list's "Attached to" line said.
    terminators = next(u for u in units if u["name"] == "Brotherhood Terminator Squad")
    assert {"datasheet": "brother-captain", "role": "leader"} in [
        {"datasheet": part["datasheet"], "role": part["role"]} for part in terminators["parts"]
    ]
