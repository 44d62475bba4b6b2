"""The "My games" list: for each game in play of a player, the round, their title and
whose turn it is, as far as they may know (from their own view of the table only)."""

from games.models import Seat
from games.read.narration import since


def describe_turns(entries: list[dict]) -> None:
    """For "My games": the round, my title and whose turn it is (as far as I may know) for
    each game in play; `entries` are dicts with the game and my seat."""
    if not entries:
        return
    names = {}
    for seat in Seat.objects.filter(game__in=[e["game"] for e in entries]).select_related("user"):
        names[(seat.game_id, seat.player)] = seat.name
    for entry in entries:
        game, seat = entry["game"], entry["seat"]
        view = game.engine_state().view(seat.player)
        # A newcomer or a leaver has no seat in the round in play.
        entry["my_title"] = view["titles"][view["seat"]] if view["seat"] is not None else ""
        # Said to me as "you", never by my own name.
        entry["waiting_for_me"] = view["seat"] in view["awaiting"]
        entry["waiting_for"] = [
            names.get((game.pk, view["seats"][s]), "?")
            for s in view["awaiting"] if s != view["seat"]
        ]
        entry["since"] = since(game, view)
