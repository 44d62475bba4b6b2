import pytest

from games.engine import Options


def test_the_default_options_are_the_classic_game():
    o = Options()
    assert (o.reduced_deck, o.first_round_taxes, o.tribute_return, o.merchant_trade) == (
        False,
        True,
        "choice",
        "off",
    )
    assert (o.master_rule, o.philanthropic, o.rounds, o.target_score) == (False, "off", 10, None)


@pytest.mark.parametrize(
    "bad",
    [
        {"tribute_return": "best"},
        {"merchant_trade": "yes"},
        {"philanthropic": True},
        {"rounds": 0},
        {"rounds": 31},
        {"rounds": True},
        {"target_score": 0},
        {"target_score": "50"},
        {"reduced_deck": 1},
        {"master_rule": "no"},
    ],
)
def test_invalid_options_are_refused(bad):
    with pytest.raises(ValueError):
        Options(**bad)


def test_options_are_frozen_and_round_trip_through_json():
    o = Options(merchant_trade="random", philanthropic="flat", rounds=30, target_score=40)
    assert Options.from_json(o.to_json()) == o
    with pytest.raises(AttributeError):
        o.rounds = 3


def test_unknown_options_in_json_are_refused():
    with pytest.raises(ValueError):
        Options.from_json({"rounds": 5, "colour": "red"})
