"""The army builder in real Chromium: live points, the server's check, saving."""

import re

import pytest

from tests.browser.table_helpers import save_screenshot
from tests.browser.test_lobby_in_chromium import sign_up

pytestmark = pytest.mark.browser


def test_build_check_and_save_an_army(site, new_context):
    page = new_context("builder").new_page()
    sign_up(page, site, "builder")
    page.goto(f"{site}/armies/")
    page.wait_for_selector("#army-builder[data-ready=true]")
    ready = "#army-builder[data-ready=true]"
    page.select_option("select[name=faction]", "astra-militarum")
    page.wait_for_selector(ready)
    page.select_option("select[name=detachment]", "combined-arms")
    page.wait_for_selector(ready)
    for slug in ("cadian-shock-troops", "cadian-castellan"):
        page.select_option("#datasheet-picker", slug)
        page.click("#add-unit")
    page.wait_for_selector("#army-check:has-text('CHARACTER model as your Warlord')")
    castellan = page.locator("#army-units tr").nth(1)
    castellan.locator("td").nth(2).locator("select").select_option("u1")
    castellan.locator("td").nth(3).locator("select").select_option("drill-commander")
    castellan.locator("input[type=radio]").check()
    page.wait_for_selector("#army-check:has-text('140 of 1000 points — ready to play')")
    assert page.inner_text("#army-points") == "140"
    # Wargear: the server's options for the Shock Troops; 2 flamers in a 10-model unit are refused.
    flamers = (
        page.locator("#army-units tr").nth(0).locator("input[data-option='0'][data-choice='0']")
    )
    flamers.fill("2")
    flamers.dispatch_event("change")
    page.wait_for_selector("#army-check:has-text('takes flamer 2 times')")
    flamers.fill("1")
    flamers.dispatch_event("change")
    page.wait_for_selector("#army-check:has-text('ready to play')")
    save_screenshot(page, "army-builder", publish=True)
    page.fill("input[name=name]", "Cadia stands")
    page.click("#save-army")
    page.wait_for_selector("#saved-armies button:has-text('Cadia stands')")
    page.goto(f"{site}/games/")
    assert re.search(r"Armies", page.inner_text("header"))
