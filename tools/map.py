"""The house at a glance: ``python -m tools.map [--where]``.

Prints the floors of the code as import-linter holds them (``pyproject.toml``), lowest
last, each folder or module with the first line of its docstring; ``--where`` adds where
the pieces of a new rule, a new section of the game page and a new notification channel
go. A test keeps every path named here in existence."""

from __future__ import annotations

import argparse
import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Where a change of each kind goes, in the order one would write it.
WHERE = {
    "a new rule or table option": [
        ("games/engine/options.py", "the option, its default and its JSON name"),
        ("games/engine/hands.py", "what cards can do (sets, what beats what, scoring)"),
        ("games/engine/round/", "the phase it changes: play.py, taxes.py or trade.py"),
        ("games/engine/round/view.py", "what a seat may see of it, if anything"),
        ("games/engine/events.py", "a new kind of event, if it tells the table something"),
        ("games/core/words.py", "its sentence in the game log, in every language"),
        ("games/forms.py", "the option on the new-table form"),
        ("docs/RULES.md", "the rule, written down"),
        ("tests/engine/", "a test per reading of the rule"),
    ],
    "a new section of the game page": [
        ("games/read/seat.py", "a small builder that adds its keys to the page's context"),
        ("templates/games/table/", "its own partial, included by the page and the update"),
        ("templates/games/game.html", "where the page and its `update` include it"),
        ("games/views/updates.py", "alike for every reader, else a slot or the page asks"),
        ("static/css/dalmuti.css", "its rules, in the section of its component"),
        ("tests/games/test_privacy.py", "what other seats must not see in it"),
    ],
    "a new notification channel": [
        ("games/commands/notifications.py", "who is told, when: one row per channel"),
        ("games/away/content.py", "what a message may say (the player's own view only)"),
        ("games/away/", "its sender, beside emails.py (web push: push/sender.py)"),
        ("dalmuti_site/outbound.py", "the guard every request to a player's address uses"),
        ("games/tasks.py", "sending: the notification task claims each row once"),
        ("accounts/forms.py", "the player's choice on the profile"),
    ],
}


def first_line(path: Path) -> str:
    """The first sentence of a module's (or a package's ``__init__``) docstring."""
    source = path / "__init__.py" if path.is_dir() else path
    if not source.exists():
        return ""
    doc = ast.get_docstring(ast.parse(source.read_text())) or ""
    text = " ".join(doc.split("\n\n")[0].split())
    end = text.find(". ")
    return text if end < 0 else text[: end + 1]


def module_path(name: str) -> Path:
    base = ROOT.joinpath(*name.split("."))
    return base if base.is_dir() else base.with_suffix(".py")


def floors() -> list[list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract["type"] == "layers":
            return [[m.strip() for m in layer.replace("|", ":").split(":")]
                    for layer in contract["layers"]]
    raise SystemExit("pyproject.toml has no layers contract")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--where", action="store_true", help="where new pieces go")
    args = parser.parse_args(argv)
    layers = floors()
    print("Floors, highest first: each imports only from the floors below it.")
    for number, layer in enumerate(layers):
        print(f"\n{len(layers) - number}.")
        for name in layer:
            path = module_path(name)
            print(f"  {path.relative_to(ROOT)}{'/' if path.is_dir() else ''}  {first_line(path)}")
            if path.is_dir() and name.startswith("games."):
                for child in sorted(path.iterdir()):
                    if child.name.startswith("_") or child.name in ("migrations", "__pycache__"):
                        continue
                    if child.suffix == ".py" or (child / "__init__.py").exists():
                        print(f"      {child.name:<18} {first_line(child)}")
    if args.where:
        for what, places in WHERE.items():
            print(f"\nWhere {what} goes:")
            for place, why in places:
                print(f"  {place:<34} {why}")


if __name__ == "__main__":
    main()
