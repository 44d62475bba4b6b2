import re

import pytest

from games.engine import MESSAGES, IllegalMove


def test_every_message_names_its_parameters_in_braces():
    for code, template in MESSAGES.items():
        assert re.fullmatch(r"[a-z_]+", code)
        assert template.endswith(".")


def test_an_illegal_move_carries_a_code_params_and_its_english_message():
    exc = IllegalMove("wrong_count", count=3)
    assert exc.code == "wrong_count" and exc.params == {"count": 3}
    assert str(exc) == exc.message == "You must play exactly 3 cards, as many as the last play."


def test_an_unknown_code_is_a_programming_error():
    with pytest.raises(KeyError):
        IllegalMove("no_such_code")
