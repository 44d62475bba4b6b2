"""`python -m tools.map` names the house's rooms: every path it points a newcomer to exists."""

from pathlib import Path

from tools import map as house


def test_every_place_the_map_names_exists():
    root = Path(house.ROOT)
    missing = [place for places in house.WHERE.values() for place, _why in places
               if not (root / place).exists()]
    assert missing == []


def test_every_floor_of_the_contract_is_a_folder_or_module_that_exists():
    missing = [name for layer in house.floors() for name in layer
               if not house.module_path(name).exists()]
    assert missing == []


def test_the_map_prints_every_floor_and_where_things_go(capsys):
    house.main(["--where"])
    out = capsys.readouterr().out
    for folder in ("games/engine/", "games/core/", "games/commands/", "games/read/",
                   "games/away/", "games/views/"):
        assert folder in out
    assert "Where a new notification channel goes:" in out
