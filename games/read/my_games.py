"""The "My games" list: for each game in play of a player, the round, their title and
whose turn it is, as far as they may know (from their own view of the table only), the
tables awaiting them first, the most urgent on top."""

from datetime import datetime, timedelta

from django.utils import timezone

from games.core.clock import promised_deadline, soonest_first
from games.core.turns import awaits_person
from games.models import Seat
from games.read.narration import since

# Under this much time left a turn is shown as urgent.
URGENT = timedelta(hours=1)


def urgency_first(my_turn: list[dict], now: datetime | None = None) -> list[dict]:
    """The tables awaiting me, the one whose time runs out first on top (tables without
    a promised time after them, the latest activity first), each with its deadline and
    whether it is urgent; `my_turn` comes ordered by the latest activity."""
    now = now or timezone.now()
    for entry in my_turn:
        entry["deadline"] = promised_deadline(entry["game"], entry["seat"])
        entry["urgent"] = bool(entry["deadline"] and entry["deadline"] - now < URGENT)
    return soonest_first(my_turn, lambda entry: entry["deadline"])


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
        # Said to me as "you", never by my own name; by the rule that sorts the list.
        entry["waiting_for_me"] = awaits_person(seat)
        entry["waiting_for"] = [
            names.get((game.pk, view["seats"][s]), "?")
            for s in view["awaiting"] if s != view["seat"]
        ]
        entry["since"] = since(game, view)
