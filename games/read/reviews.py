"""The expert's review as the pages show it: each player's summary on the game record,
each judged decision in the replay ("Your choice: 2 Masons; better: pass — about 0.4
places lost on average") and a player's accuracy game by game.

Everybody who may see a game's record sees the whole review: it is about decisions, and
the record already shows every hand."""

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from games.core.words import card_name, cards_phrase
from games.engine.review import BLUNDER, INACCURACY, MISTAKE
from games.models import Game, Review, ReviewedDecision, ReviewSummary

KIND_NAMES = {
    "inaccuracy": pgettext_lazy("review", "Inaccuracy"),
    "mistake": pgettext_lazy("review", "Mistake"),
    "blunder": pgettext_lazy("review", "Blunder"),
}
# Where the replay's "next mistake" stops.
SERIOUS = ("mistake", "blunder")

ACCURACY_EXPLAINED = gettext_lazy(
    "For every decision where a player's choice mattered (where its possible moves came "
    "out at least %(mistake)s places apart, so that a mistake was possible), the expert "
    "bot played the round out many times from what that player knew then (never from the "
    "hidden cards), once for each possible move, everybody then playing on as a good "
    "player would. Places lost is how much worse, on average, the player's finishing "
    "place came out than after the best move. A decision scores 100%% when nothing was "
    "lost, one point less per hundredth of a place lost, and 0%% from a whole place; the "
    "accuracy is the average score.")


def thresholds() -> dict[str, str]:
    """The classes' thresholds in places lost, as the page states them."""
    return {"inaccuracy": places(INACCURACY), "mistake": places(MISTAKE),
            "blunder": places(BLUNDER)}


def places(value: float, digits: int = 2) -> str:
    """A number of places in the reader's way of writing numbers (rounded here: Django's
    number_format cuts the digits off)."""
    return number_format(round(value + 1e-9, digits), digits)


def percent(value: float) -> str:
    return number_format(round(value), 0)


def review_of(game: Game) -> Review | None:
    return Review.objects.filter(game=game).first()


def summary_rows(review: Review | None, names: dict[int, str], me: int | None) -> list[dict]:
    if review is None or not review.is_done:
        return []
    return [
        {"name": names.get(s.player, "?"), "is_me": s.player == me,
         "decisions": s.decisions, "inaccuracies": s.inaccuracies, "mistakes": s.mistakes,
         "blunders": s.blunders, "places_lost": places(s.places_lost),
         "accuracy": percent(s.accuracy)}
        for s in review.summaries.all()
    ]


def review_context(game: Game, names: dict[int, str], me: int | None) -> dict:
    """The review's part of the game record: in progress (how far) or its summaries."""
    review = review_of(game)
    return {
        "review": review,
        "review_rows": summary_rows(review, names, me),
        "accuracy_explained": ACCURACY_EXPLAINED % {"mistake": places(MISTAKE)},
        "thresholds": thresholds(),
    }


def action_phrase(action: dict, name_of_seat) -> str:
    """A decision in a few words: "2 Masons", "pass", "give back 1 Peasant"..."""
    kind = action["type"]
    if kind == "play":
        return cards_phrase(action["cards"])
    if kind == "pass":
        return _("pass")
    if kind == "give_back":
        return _("give back %(cards)s") % {"cards": cards_phrase(action["cards"])}
    if kind == "revolution":
        return _("declare a revolution") if action["declare"] else _("keep quiet")
    if kind == "trade":
        if action["partner"] is None:
            return _("no trade")
        return _("trade with %(name)s") % {"name": name_of_seat(action["partner"])}
    if kind == "trade_card":
        return _("give a %(card)s in the trade") % {"card": card_name(action["card"])}
    return kind


def decision_marks(game: Game) -> dict[int, ReviewedDecision]:
    """The judged decisions of the game's review by the seq of their action."""
    return {d.seq: d for d in ReviewedDecision.objects.filter(
        review__game=game, review__status=Review.Status.DONE, verdict__isnull=False)}


def verdict_sentence(decision: ReviewedDecision, name: str, is_me: bool,
                     name_of_seat) -> str:
    v = decision.verdict
    chosen = action_phrase(v["chosen"], name_of_seat)
    if decision.loss <= 0:
        if is_me:
            return _("Your choice: %(chosen)s — as good as the best, by the review.") % {
                "chosen": chosen}
        return _("%(name)s's choice: %(chosen)s — as good as the best, by the review.") % {
            "name": name, "chosen": chosen}
    values = {"name": name, "chosen": chosen, "best": action_phrase(v["best"], name_of_seat),
              "loss": places(decision.loss, 2 if decision.loss < 0.1 else 1)}
    if is_me:
        return _("Your choice: %(chosen)s; better: %(best)s — about %(loss)s places lost "
                 "on average.") % values
    return _("%(name)s's choice: %(chosen)s; better: %(best)s — about %(loss)s places lost "
             "on average.") % values


def replay_mark(marks: dict[int, ReviewedDecision], actions, step: int, state_before,
                names: dict[int, str], me: int | None) -> dict:
    """What the replay says of the decision at ``step`` (1-based), and where the next
    mistake or blunder is: anybody's, and the reader's own (``me``) where it comes later
    (a table of friends has every person's decisions reviewed)."""
    action = actions[step - 1]
    out: dict = {"mark": None, "next_mistake": None, "next_own_mistake": None}
    later = [(i + 1, marks[a.seq].player) for i, a in enumerate(actions)
             if i + 1 > step and a.seq in marks and marks[a.seq].kind in SERIOUS]
    out["next_mistake"] = later[0][0] if later else None
    own = [at for at, player in later if me is not None and player == me]
    if own and own[0] != out["next_mistake"]:
        out["next_own_mistake"] = own[0]
    decision = marks.get(action.seq)
    if decision is None or state_before is None:
        return out

    def name_of_seat(seat: int) -> str:
        return names.get(state_before.seats[seat], "?")

    out["mark"] = {
        "kind": decision.kind,
        "kind_name": KIND_NAMES.get(decision.kind, ""),
        "text": verdict_sentence(decision, names.get(decision.player, "?"),
                                 decision.player == me, name_of_seat),
    }
    return out


def accuracy_history(user, count: int = 20) -> list[ReviewSummary]:
    """The user's last ``count`` reviewed games, oldest first."""
    rows = list(ReviewSummary.objects.filter(user=user, review__status=Review.Status.DONE)
                .select_related("review__game").order_by("-game_finished", "-pk")[:count])
    return rows[::-1]
