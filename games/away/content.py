"""What a notification may say about a game (an email, a push message): only what the
player's own view shows."""


from django.conf import settings

from games.core.clock import current_deadline
from games.core.words import TITLE_NAMES


def game_context(game, user) -> dict:
    """What the email may say about the game: only what the player's own view shows."""
    seat = game.seats.get(user=user)
    context = {"game": game, "game_url": settings.SITE_URL + game.get_absolute_url()}
    if game.state is not None:
        view = game.engine_state().view(seat.player)
        kinds = {a["type"] for a in view["legal_actions"]}
        context.update({
            "round_number": view["game"]["round_number"],
            "my_title": TITLE_NAMES[view["titles"][view["seat"]]] if view["seat"] is not None
            else "",
            "decision": _decision(view["phase"], kinds),
            "standings": _standings(game, view),
        })
    if game.is_playing and game.wait_for(seat.player) is not None:
        # Timed tables: when the player's time runs out, in the reader's zone.
        context["deadline"] = current_deadline(game, seat)
    return context


def _decision(phase: str, kinds: set[str]) -> str:
    if "revolution" in kinds:
        return "revolution"
    if "give_back" in kinds:
        return "give_back"
    if "trade" in kinds or "trade_card" in kinds:
        return "trade"
    return "play"


def _standings(game, view) -> list[dict]:
    names = {s.player: s.name for s in game.seats.select_related("user")}
    return [{"rank": s["rank"], "name": names.get(s["player"], "?"), "score": s["score"]}
            for s in view["game"]["standings"]]


def end_proposal_context(notification) -> dict:
    """Who proposes to end the game, and until when it is open."""
    proposal = notification.game.end_proposals.select_related("proposer__user").get(
        pk=notification.key.split(":")[2])
    return {"proposer": proposal.proposer.name, "expires": proposal.expires}
