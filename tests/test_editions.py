import json

import pytest

from rules.engine.core.editions import Edition, EditionError
from rules.loader import DATA_DIR


def _rulesets() -> dict:
    bundle = json.loads((DATA_DIR / "rulesets.json").read_text())
    return {r["slug"]: r for r in bundle["rulesets"]}


def test_both_editions_in_the_data_files_are_complete_and_valid():
    rulesets = _rulesets()
    eleventh = Edition.from_parameters("11e", rulesets["11e"]["parameters"])
    tenth = Edition.from_parameters("10e", rulesets["10e"]["parameters"])
    # DIFF-01: engagement range is 2" in 11th edition, 1" in 10th.
    assert (eleventh.engagement_range_horizontal, tenth.engagement_range_horizontal) == (2, 1)
    # DIFF-24: cover worsens BS in 11th edition, improves the armour save in 10th.
    assert (eleventh.cover, tenth.cover) == ("worsen_ballistic_skill", "improve_armour_save")


def test_unknown_missing_and_mistyped_parameters_are_refused():
    parameters = dict(_rulesets()["11e"]["parameters"])
    parameters["engagement_range_horizontal"] = "two"
    parameters["cover"] = "sandbags"
    parameters["made_up"] = 1
    del parameters["battle_rounds"]
    with pytest.raises(EditionError) as error:
        Edition.from_parameters("11e", parameters)
    message = str(error.value)
    for expected in ("made_up", "battle_rounds", "engagement_range_horizontal", "sandbags"):
        assert expected in message
