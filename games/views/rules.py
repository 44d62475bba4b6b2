"""How to play: the rules as this site plays them (docs/RULES.md), every table option with an
anchor of its own so that a table can link to the explanation of each of its options, and
the rulebooks' strategy tips. Open to visitors."""

from django.shortcuts import render

from games.core.words import card_name

from ..engine import JESTER


def rules(request):
    cards = [{"rank": rank, "name": card_name(rank), "count": rank} for rank in range(1, 13)]
    cards.append({"rank": JESTER, "name": card_name(JESTER), "count": 2})
    return render(request, "games/rules.html", {"cards": cards})
