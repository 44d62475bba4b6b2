"""A hint in the reader's language: the suggested move and a one-line reason, from what
`games.commands.hints` kept (the expert's evaluation of the player's own view)."""

from django.utils.formats import number_format
from django.utils.translation import gettext as _

from games.core.words import card_name, cards_phrase

# Below this difference in expected place the choices are as good as each other: the
# sampled deals cannot tell them apart more finely than that.
CLOSE = 0.1


def move_words(action: dict, name_at) -> str:
    """The move of an action (its JSON form) as a short imperative; `name_at(seat)` names
    whoever sits at a seat of the round."""
    kind = action["type"]
    if kind == "play":
        return _("Play %(cards)s") % {"cards": cards_phrase(action["cards"])}
    if kind == "pass":
        return _("Pass")
    if kind == "give_back":
        return _("Give back %(cards)s") % {"cards": cards_phrase(action["cards"])}
    if kind == "revolution":
        return _("Declare the revolution") if action["declare"] else _("Keep quiet")
    if kind == "trade":
        if action["partner"] is None:
            return _("Do not trade")
        return _("Trade with %(name)s") % {"name": name_at(action["partner"])}
    if kind == "trade_card":
        return _("Give %(card)s") % {"card": card_name(action["card"])}
    return kind


def hint_line(hint: dict, name_at) -> str:
    """One line: the move, and why, from the expected places of the best move and the next
    best one ("Pass — playing now costs about 0.5 places on average")."""
    move = move_words(hint["best"], name_at)
    other, place = hint.get("alternative"), hint.get("best_place")
    if other is None or place is None:
        return _("%(move)s: it is your only choice.") % {"move": move}
    lost = hint["alternative_place"] - place
    places = number_format(round(lost, 1), 1)
    expected = number_format(round(place, 1), 1)
    if lost < CLOSE:
        return _("%(move)s — the other choices are about as good (you can expect to "
                 "finish about place %(place)s).") % {"move": move, "place": expected}
    if hint["best"]["type"] == "pass":
        return _("Pass — playing now costs about %(places)s places on average.") % {
            "places": places}
    if other["type"] == "pass":
        return _("%(move)s — passing costs about %(places)s places on average.") % {
            "move": move, "places": places}
    return _("%(move)s — the next best choice (%(other)s) costs about %(places)s places "
             "on average.") % {"move": move, "other": move_words(other, name_at),
                               "places": places}
