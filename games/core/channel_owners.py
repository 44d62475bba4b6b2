"""Whose channel a table's notices go to: the table's own, else one it inherits (a
league's: the leagues app registers how to find it, as games knows nothing of leagues).
Each finder returns the owner (a ChannelOwner) and the people to tell when it is paused."""

from collections.abc import Callable

_inherited: list[Callable] = []


def register(finder: Callable) -> None:
    if finder not in _inherited:
        _inherited.append(finder)


def for_game(game) -> tuple[object, list] | None:
    """The owner of the channel the table's notices go to, and who is told about it; None
    if the table has none."""
    if game.channel_url:
        return game, [game.host]
    for finder in _inherited:
        found = finder(game)
        if found and found[0].channel_url:
            return found
    return None
