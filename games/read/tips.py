"""The tips of a guided first game ("Learn by playing"): a short word the first time each
situation arises, chosen from the player's own view only (their hand, what they may do,
the public table), never from anything hidden.

One tip shows at a time: the first of `TIPS` whose situation holds and that the player
has not dismissed yet (dismissals are kept per user, `DismissedTip`, at every table).
"""

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.engine import JESTER
from games.models import DismissedTip, Game, Seat


def _kinds(view: dict) -> set[str]:
    return {a["type"] for a in view["legal_actions"]}


def _playing(view: dict) -> bool:
    return view["phase"] == "play" and "play" in _kinds(view)


def _revolution(view: dict) -> bool:
    return "revolution" in _kinds(view)


def _give_back(view: dict) -> bool:
    return "give_back" in _kinds(view)


def _round_result(view: dict) -> bool:
    # A round ended and the next has not had its first play yet (or the game is over).
    return bool(view["game"]["results"]) and (
        view["phase"] == "over" or not any(view["played"]))


def _lead(view: dict) -> bool:
    return _playing(view) and not view["trick"]["plays"]


def _follow(view: dict) -> bool:
    return _playing(view) and bool(view["trick"]["plays"])


def _jesters(view: dict) -> bool:
    return _playing(view) and JESTER in view["hand"]


def _passed(view: dict) -> bool:
    return view["phase"] == "play" and view["seat"] in view["trick"]["passed"]


@dataclass(frozen=True)
class Tip:
    key: str
    title: Promise
    text: Promise
    applies: Callable[[dict], bool]


# In the order they are offered when several situations hold at once: the decision in
# front of the player first.
TIPS = [
    Tip("revolution", _("A revolution?"), _(
        "You were dealt both Jesters: you may show them and declare a revolution. Then "
        "nobody pays taxes this round; declared by the Greater Peon, it is a Great "
        "Revolution and the whole table turns round. Or keep quiet and keep your Jesters."),
        _revolution),
    Tip("give_back", _("Giving back"), _(
        "The Peons had to hand you their best cards. Now you give cards back: choose the "
        "ones you need least, usually your worst (highest) numbers."), _give_back),
    Tip("round_result", _("A round's result"), _(
        "Whoever sheds their cards first becomes the Great Dalmuti of the next round, the "
        "last one the Greater Peon. The new order decides who pays taxes to whom."), _round_result),
    Tip("lead", _("Your lead"), _(
        "You open the trick: play one card or several of the same number. Lower numbers "
        "are better (1 is the best). A big set is hard to beat, so the others may have to "
        "pass."), _lead),
    Tip("follow", _("Following"), _(
        "To beat the play, put down exactly as many cards, of a better (lower) number. You "
        "may also pass, even when you could play, to keep good cards for later."), _follow),
    Tip("jesters", _("Jesters"), _(
        "A Jester joins any set as a card of that number. Played alone it counts as 13, "
        "the worst card."), _jesters),
    Tip("passed", _("Passing"), _(
        "You passed. You may still play when your turn comes round again in this trick. "
        "When everybody else passes after a play, whoever made it leads the next trick."), _passed),
]
TIP_KEYS = {tip.key for tip in TIPS}


def tip_for(view: dict, dismissed: set[str]) -> Tip | None:
    """The tip this view calls for, unless the player dismissed it already."""
    for tip in TIPS:
        if tip.key not in dismissed and tip.applies(view):
            return tip
    return None


def dismissed_tips(user) -> set[str]:
    return set(DismissedTip.objects.filter(user=user).values_list("key", flat=True))


def tip_context(game: Game, me: Seat | None, view: dict) -> dict:
    """The tip for my seat at a guided table (nothing elsewhere, or for a watcher)."""
    if not game.guided or me is None or me.user_id is None or not game.is_playing:
        return {"tip": None}
    return {"tip": tip_for(view, dismissed_tips(me.user))}
