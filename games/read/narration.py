"""What a page tells of what happened: the record read back as one player's log lines,
and which of them a page has not shown yet."""

from datetime import datetime, timedelta

from django.utils import timezone

from games.models import Action, Game, Seat
from games.read.table import log_lines

# A page left alone this long says "While you were away" over what happened meanwhile.
AWAY = timedelta(minutes=10)
# How many earlier rounds a page's summary reaches back (a page open for days).
SUMMARY_ROUNDS = 2
# The most plays that land one after another (the stylesheet has a delay for each).
ARRIVALS = 9


def lines_of_round(game: Game, me: Seat | None, names: dict[int, str]) -> list[dict]:
    """The log lines of the round in play, as this seat (or a watcher) may read them."""
    actions = Action.objects.filter(game=game, round_number=game.round_number).order_by("seq")
    return log_lines(list(actions), me, names)


def lines_of_game(game: Game, me: Seat | None, names: dict[int, str]) -> list[dict]:
    """The log lines of the whole game, as this seat (or a watcher) may read them."""
    return log_lines(list(Action.objects.filter(game=game).order_by("seq")), me, names)


def unseen_lines(game: Game, me: Seat | None, names: dict[int, str], log: list[dict],
                 shown: tuple[int, int] | None, looked: datetime | None
                 ) -> tuple[list[dict], bool]:
    """The log lines a page has not shown yet, and whether its player was away.

    An answer to a poll or an action knows what the page showed (`shown`): the round and
    how many of its log lines, counted in this player's own log, so they tell nothing
    another player could not see. A full page goes by when its player last `looked`."""
    if shown is not None and 0 < shown[0] <= game.round_number:
        seen_round, seen_lines = shown
        if seen_round == game.round_number:
            return log[seen_lines:], False
        first = max(seen_round, game.round_number - SUMMARY_ROUNDS)
        earlier = list(Action.objects.filter(
            game=game, round_number__gte=first, round_number__lt=game.round_number,
        ).order_by("seq"))
        lines = log_lines(earlier, me, names)
        if first == seen_round:
            # The lines of the round the page was in, less those it showed.
            already = [line for line in lines if line["round"] == seen_round][:seen_lines]
            lines = lines[len(already):]
        return lines + log, False
    if looked is not None and timezone.now() - looked > AWAY:
        return [line for line in log if line["time"] > looked], True
    return [], False


def mark_arrivals(trick_plays: list[dict], new_lines: list[dict]) -> None:
    """Number the plays of the current trick that arrived since the page last looked, in
    order (`arrive`), so that the stylesheet can let them land one after another."""
    arrived = 0
    for line in new_lines:
        kind = line["event"]["type"]
        if kind == "play":
            arrived += 1
        elif kind in ("trick_won", "round_starts"):
            arrived = 0
    fresh = trick_plays[len(trick_plays) - min(arrived, len(trick_plays), ARRIVALS):]
    for number, play in enumerate(fresh, start=1):
        play["arrive"] = number
