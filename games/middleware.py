"""Answers that every view of a table shares, whichever view was asked."""

from games.read.access import SeatGivenToBot, TakenOffTable
from games.views.page import seat_given_to_bot, taken_off_table


class SeatGoneMiddleware:
    """A player whose seat is gone (an organiser gave it to a bot, or the host took them
    off before the start), asking anything of that table (its page, an open page's poll,
    a move, a line of talk): told what happened, by any view that looks for their seat
    (games.read.access), instead of "no seat here"."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, SeatGivenToBot):
            return seat_given_to_bot(request, exception.replacement)
        if isinstance(exception, TakenOffTable):
            return taken_off_table(request, exception.game)
        return None
