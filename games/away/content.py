"""What a notification may say about a game (an email, a push message): only what the
player's own view shows, and never a card of anyone's hand, the reader's own included
(emails are forwarded and read on shared screens): what the table did, what lies on it,
how many cards each player holds, the time left and the table talk."""

from datetime import timedelta

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from chat.flourishes import BY_KEY as FLOURISHES
from chat.models import Message, ReadMarker
from games.core.clock import promised_deadline
from games.core.words import TITLE_NAMES, cards_phrase, names_phrase
from games.models import CANCELLED_BEFORE_START, NOT_STARTED_IN_TIME, OPEN_TABLE_DAYS
from games.read.access import replacement_context
from games.read.narration import log_lines, since_you_looked
from games.read.results import nobody_won, ranked
from leagues.models import League, Rematch, Replacement

# How many lines of table talk an email quotes: the latest, the rest is on the site.
TALK_LINES = 5


def game_context(game, user) -> dict:
    """What the email may say about the game: only what the player's own view shows.
    Call it in the reader's language: its sentences are made here."""
    seat = game.seats.get(user=user)
    context = {"game": game, "game_url": settings.SITE_URL + game.get_absolute_url(),
               "talk": table_talk(game, seat)}
    if game.state is not None:
        view = game.engine_state().view(seat.player)
        kinds = {a["type"] for a in view["legal_actions"]}
        seats = {s.player: s for s in game.seats_with_users()}
        names = {player: s.name for player, s in seats.items()}
        context.update({
            "round_number": view["game"]["round_number"],
            "my_title": TITLE_NAMES[view["titles"][view["seat"]]] if view["seat"] is not None
            else "",
            "decision": _decision(view["phase"], kinds),
            "standings": _standings(view, seats, names, seat.player),
            # Everybody left: the standings name no winner, and the email says so.
            "nobody_won": game.is_over and nobody_won(ranked(view["game"], seats)),
        })
        if game.is_over and game.seq:  # the number of its last action: 0, none
            # The whole game to read back, every hand shown, and replay.
            context["record_url"] = settings.SITE_URL + reverse("game_record", args=[game.pk])
        if game.is_playing:
            context.update({
                "since_your_move": since_your_move(game, seat, names),
                "to_beat": to_beat(view),
                "counts": card_counts(view, names),
            })
    if game.is_playing and game.wait_for(seat.player) is not None:
        # Timed tables: when the player's time runs out, in the reader's zone.
        context["deadline"] = promised_deadline(game, seat)
        if context["deadline"]:
            context.update(_pause(seat, user))
    return context


def _pause(seat, user) -> dict:
    """The pause the player took that holds their clock now (why their time runs out so
    late): their account-wide absence, else a vacation at this table, whichever lasts
    longer."""
    now = timezone.now()
    away = user.away_until if user.away_until and user.away_until > now else None
    vacation = seat.vacation_until if seat.vacation_until and seat.vacation_until > now else None
    if away and (vacation is None or away >= vacation):
        return {"away_until": away}
    return {"vacation_until": vacation} if vacation else {}


def since_your_move(game, seat, names: dict[int, str]) -> str:
    """The "while you were away" line for what the table did since the player's last move
    (the round so far if they have not moved yet), from the public events alone. Counted
    from their move's place in the record: the passes standing orders make right after
    it are recorded in its transaction, before the time of the move was stamped."""
    actions = game.actions.order_by("seq")
    moved = None
    if seat.last_acted:
        moved = (game.actions.filter(player=seat.player, by="player",
                                     created__lte=seat.last_acted)
                 .order_by("-seq").values_list("seq", flat=True).first())
    if moved is not None:
        actions = actions.filter(seq__gt=moved)
    else:
        actions = actions.filter(round_number=game.round_number)
    lines = [line for line in log_lines(list(actions), seat, names)
             if not line["private"]]
    return since_you_looked(lines, seat.player, names)


def to_beat(view: dict) -> str:
    """The play on the table the player must beat, in words ("3 Masons"); empty when the
    table is empty (the player leads) or the round is not in its play."""
    if view["phase"] != "play" or not view["trick"]["plays"]:
        return ""
    return cards_phrase(view["trick"]["plays"][-1]["cards"])


def card_counts(view: dict, names: dict[int, str]) -> list[dict]:
    """How many cards each player holds, in the order they play; who went out says so."""
    seats, out = view["seats"], set(view["finish_order"])
    return [{"name": names.get(seats[i], "?"), "count": view["counts"][i],
             "me": i == view["seat"], "out": i in out} for i in view["order"]]


def table_talk(game, seat) -> list[dict]:
    """The last lines of table talk the player has not read (by others), oldest first: the
    table's own conversation, public to everyone seated."""
    read = ReadMarker.objects.filter(seat=seat).values_list("last_read", flat=True).first()
    messages = (Message.objects.filter(game=game, pk__gt=read or 0).exclude(seat=seat)
                .order_by("-pk")[:TALK_LINES])
    lines = []
    for m in reversed(messages):
        flourish = FLOURISHES.get(m.flourish) if m.flourish else None
        text = str(flourish.text) if flourish else m.text or _("(deleted)")
        lines.append({"id": m.pk, "name": m.speaker, "text": text})
    return lines


def mention_context(notification) -> dict:
    """What a notice of being named in the table talk says: who said what, and the other
    lines of talk the player has not read."""
    game, user = notification.game, notification.user
    seat = game.seats.get(user=user)
    message_id = int(notification.key.split(":")[2])
    message = Message.objects.filter(pk=message_id, game=game).first()
    return {
        "game": game, "game_url": settings.SITE_URL + game.get_absolute_url(),
        # The table with its talk open, to answer.
        "answer_url": settings.SITE_URL + game.get_absolute_url() + "?chat=open#chat",
        "speaker": message.speaker if message else "",
        "said": (message.text or _("(deleted)")) if message else "",
        "talk": [line for line in table_talk(game, seat) if line["id"] != message_id],
    }


def replaced_context(notification) -> dict:
    """What a player whose seat an organiser gave to a bot is told, as their page at the
    table tells it."""
    replacement = Replacement.objects.select_related("game").get(
        pk=notification.key.split(":")[2])
    return replacement_context(replacement)


def hosting_context(notification) -> dict:
    """What the host of a league table an organiser opened for them is told: who opened
    it, for which league, whom it invites, and until when it waits for its start."""
    game = notification.game
    organiser = User.objects.get(pk=notification.key.split(":")[2])
    # Each once, though invited both by name and by address.
    invited = list(dict.fromkeys(
        invitation.user.name for invitation in
        game.invitations.exclude(user=None).select_related("user").order_by("pk")))
    return {"game": game, "organiser": organiser, "league": League.objects.of_game(game),
            "invited": names_phrase(invited) if invited else "",
            "closes": game.created + timedelta(days=OPEN_TABLE_DAYS),
            "link": settings.SITE_URL + game.get_absolute_url()}


def last_seat_context(notification) -> dict:
    """What the host of a table that filled is told: who took the last seat, who sits at
    it, and until when it waits for its start."""
    game = notification.game
    seats = game.seats_with_users()  # before the start: in the order they sat down
    last = int(notification.key.split(":")[2])
    return {"game": game, "newcomer": next((s.name for s in seats if s.pk == last), ""),
            "seated": names_phrase([s.name for s in seats]), "count": len(seats),
            "closes": game.created + timedelta(days=OPEN_TABLE_DAYS),
            "link": settings.SITE_URL + game.get_absolute_url()}


def join_place_context(notification) -> dict:
    """What the Great Dalmuti is told of a newcomer whose place they choose: the two
    places and the one taken without a choice, as their page at the table says it."""
    game = notification.game
    newcomer = game.seats.filter(pk=notification.key.split(":")[2]).first()
    state = game.engine_state()
    upper, lower = state.join_places()
    return {"game": game, "name": newcomer.name if newcomer else "",
            "number": state.round_number + 1, "upper": upper, "lower": lower,
            "link": settings.SITE_URL + game.get_absolute_url()}


def invitation_context(invitation) -> dict:
    """What an invitation to a table says: who invites, to which table, until when, and,
    where an organiser invites to a league's table they do not host, the league and its
    host; whether taking the seat asks for an account first."""
    game = invitation.game
    context = {"game": game, "host": invitation.invited_by,
               "link": settings.SITE_URL + reverse("join", args=[game.invite_token]),
               # Into a game in play: how many play at it, not how many it was opened for.
               "seated": game.seats.filter(left=False).count() if game.is_playing else None,
               "lapses": invitation.lapses, "newcomer": invitation.user_id is None,
               # A rematch says so: its seats follow the earlier game's final standings.
               "rematch_of": Rematch.objects.filter(game=game).values_list(
                   "previous__name", flat=True).first()}
    if invitation.invited_by_id != game.host_id:
        league = League.objects.of_game(game)
        if league is not None:
            context.update({"organiser": invitation.invited_by, "league": league,
                            "host": game.host})
    return context


def closed_context(notification) -> dict:
    """What a friend seated at a table that closed before its start is told: by whom, or
    why."""
    game = notification.game
    cause = {CANCELLED_BEFORE_START: "host", NOT_STARTED_IN_TIME: "time"}
    return {"game": game, "host": game.host, "cause": cause.get(game.end_reason, ""),
            "reason": _(game.end_reason) if game.end_reason else ""}


def removed_context(notification) -> dict:
    """What a friend the host took off their table is told, as the table's link tells it."""
    game = notification.game
    return {"game": game, "host": game.host}


def _decision(phase: str, kinds: set[str]) -> str:
    """What the player is asked, in words that tell nothing of their cards (emails are
    forwarded, a push shows on a locked phone): a Dalmuti dealt both jesters hears of the
    cards to give back, as every Dalmuti does; anyone else who may call a revolution of
    "a decision before the first trick", as a Greater Peon asked in a first round without
    taxes hears it, jesters or not."""
    if "give_back" in kinds:
        return "give_back"
    if "revolution" in kinds:
        return "before_play"
    if "trade" in kinds or "trade_card" in kinds:
        return "trade"
    return "play"


def _standings(view, seats: dict, names: dict[int, str], me: int | None) -> list[dict]:
    """The final standings as the table ranks them (`ranked`: whoever left shares the
    last place); none for a game ended before a round was finished."""
    return [{"rank": rank, "name": names.get(s["player"], "?"), "score": s["score"],
             "me": s["player"] == me, "left": left}
            for rank, s, left in ranked(view["game"], seats)]


def end_proposal_context(notification) -> dict:
    """Who proposes to end the game, and until when it is open."""
    proposal = notification.game.end_proposals.select_related("proposer__user").get(
        pk=notification.key.split(":")[2])
    return {"proposer": proposal.proposer.name, "expires": proposal.expires}
