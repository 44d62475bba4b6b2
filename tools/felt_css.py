"""Write static/css/felt.css: where each seat sits round the felt, for every reader.

    python -m tools.felt_css           # rewrite the file
    python -m tools.felt_css --check   # exit 1 if the file is not what this writes

The seats round the felt are drawn once per table and shared by every page that shows
them (games.views.page), so their markup cannot say whose page it is. Each seat carries
its position in the turn order (`pos-1` …), the felt the reader's (`me-K`, and `seated` for
a player at the table), and these rules put the reader's seat at the bottom and the
others clockwise after it, in the grid areas games.read.seat.seat_slots gives them.
"""

import argparse
import sys
from pathlib import Path
from types import SimpleNamespace

from tools.project import setup_django

setup_django()

from games.read.seat import SLOTS, seat_slots  # noqa: E402

PATH = Path(__file__).resolve().parent.parent / "static" / "css" / "felt.css"
MOST_SEATS = 10
# The top seats of small tables, which get a narrower box centred in a wider column.
NARROW = {4: ("t3",), 5: ("t2", "t4"), 6: ("t3",), 7: ("t2", "t4")}


def _seats_in(slots: tuple[str, ...], seats: int | None = None) -> list[str]:
    """The selectors of the seats that sit in one of `slots`, over every table size (or
    one) and every reader's position."""
    found = []
    for n in [seats] if seats else range(1, MOST_SEATS + 1):
        for me in range(1, n + 1):
            # The game page's own rule, for the seats in positions 1..n.
            rows = [SimpleNamespace(player=position, slot="") for position in range(1, n + 1)]
            seat_slots(rows, me)
            found += [f".felt.seats-{n}.me-{me} .pos-{row.player}" for row in rows
                      if row.slot in slots]
    return found


def _mine(suffix: str = "", seated: bool = False) -> list[str]:
    seated_class = ".seated" if seated else ""
    return [f".felt{seated_class}.me-{k} .pos-{k}{suffix}" for k in range(1, MOST_SEATS + 1)]


def _rule(selectors: list[str], declarations: str, indent: str = "") -> str:
    joined = (",\n" + indent).join(selectors)
    return f"{indent}{joined} {{ {declarations} }}\n"


def css() -> str:
    slots = sorted({slot for row in SLOTS.values() for slot in row})
    out = [
        "/* Written by `python -m tools.felt_css` (see there): edit that, not this. */\n",
        "/* The reader's seat at the bottom, the others clockwise after it. */\n",
        _rule(_mine(), "grid-area: me; justify-self: center; width: min(100%, 15rem); "
                       "max-width: 15rem;"),
    ]
    out += [_rule(_seats_in((slot,)), f"grid-area: {slot};") for slot in slots]
    out.append("/* The top seats of small tables: a narrower box, centred. */\n")
    out.append(_rule([s for n, top in NARROW.items() for s in _seats_in(top, n)],
                     "justify-self: center; width: min(100%, 11rem);"))
    out.append("/* A player's own seat, told apart; a watcher's page has none. */\n")
    out.append(_rule(_mine(":not(.is-out)", seated=True), "background: #fff;"))
    out.append(".seat .you { display: none; }\n")
    out.append(_rule(_mine(" .you", seated=True), "display: inline;"))
    out.append("@media (min-width: 60rem) {\n")
    out.append(_rule(_seats_in(("l1", "l2")), "justify-self: start;", "  "))
    out.append(_rule(_seats_in(("r1", "r2")), "justify-self: end;", "  "))
    out.append("}\n")
    return "".join(out)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    if args.check:
        if PATH.read_text() != css():
            sys.exit(f"{PATH} is out of date: run python -m tools.felt_css")
        return
    PATH.write_text(css())


if __name__ == "__main__":
    main()
