import pytest

from rules.engine.core.refusals import Refusal


def test_a_refusal_names_its_code_rule_and_reason():
    refusal = Refusal("move_too_far", "09.05", 'model 3 moved 7.4" of 6"', {"model": 3})
    with pytest.raises(Refusal) as raised:
        raise refusal
    assert raised.value.as_dict() == {
        "code": "move_too_far",
        "rule": "09.05",
        "message": 'model 3 moved 7.4" of 6"',
        "model": 3,
    }
    assert str(raised.value) == 'model 3 moved 7.4" of 6" (09.05)'
