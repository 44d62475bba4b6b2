"""Answers that every view of a table shares, whichever view was asked."""

from django.shortcuts import redirect

from games.read.access import InvitedHere, NeverDealtInTable, SeatGivenToBot, TakenOffTable
from games.views.page import never_dealt_in, seat_given_to_bot, taken_off_table


class SeatGoneMiddleware:
    """A player whose seat is gone (an organiser gave it to a bot, the host took them off
    before the start, or the game ended before a newcomer's first round), asking anything
    of that table (its page, an open page's poll, a move, a line of talk): told what
    happened, by any view that looks for their seat (games.read.access), instead of "no
    seat here". Someone invited who opens the table's page is led to the seat offered."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, SeatGivenToBot):
            return seat_given_to_bot(request, exception.replacement)
        if isinstance(exception, TakenOffTable):
            return taken_off_table(request, exception.game)
        if isinstance(exception, NeverDealtInTable):
            return never_dealt_in(request, exception.game)
        if (isinstance(exception, InvitedHere) and request.method == "GET"
                and not request.headers.get("HX-Request")):
            # The table's address, opened by someone invited: the seat on offer.
            return redirect("join", exception.game.invite_token)
        return None  # an InvitedHere otherwise: Django's 404
