"""What the site keeps about one player, for them to download: their account and
settings, leagues (those they belong to and those they run), devices, the tables they sat
at with their seat, settings and result, their rating, the invitations waiting for them
(by name and at their confirmed address) and those they sent, the players whose
invitations they refuse, the tables a host took them off, their absences and vacations,
the notices and account emails sent to them, the tips they dismissed and what they said.
Only what is theirs: no other player's talk, and no address but theirs and those they
typed themselves (an invitation sent to an address never says whose it is); and no cards
(a hand in play is secret, and a finished game's record has its own download)."""

from django.utils import timezone

from accounts.models import OutgoingEmail
from chat.models import Message
from dalmuti_site import channels
from games.models import (
    DismissedTip,
    Game,
    Invitation,
    InvitationBlock,
    NeverDealtIn,
    Notification,
    Pause,
    Removal,
    Review,
    ReviewSummary,
    Seat,
)
from games.read.replay import game_results
from leagues.models import Membership, Replacement
from leagues.standings import finished_rounds
from push.models import PushSubscription

from .models import Rating
from .stats import OVER, games_held, visibility


def _when(moment) -> str | None:
    return moment.isoformat() if moment else None


def account_data(user) -> dict:
    return {
        "exported": _when(timezone.now()),
        "account": _account(user),
        "leagues": [
            {"league": m.league.name, "joined": m.joined.isoformat()}
            for m in Membership.objects.filter(user=user).select_related("league")
            .order_by("joined", "league__name")
        ],
        "leagues_organised": list(user.organised_leagues.order_by("name")
                                  .values_list("name", flat=True)),
        "devices": [
            {"device": d.device, "switched_on": _when(d.created),
             "last_sent": _when(d.last_sent)}
            for d in PushSubscription.objects.filter(user=user).order_by("created")
        ],
        "games": _games(user),
        "rating": _rating(user),
        # The expert's review of their decisions in each game it reviewed.
        "reviews": [
            {"table": r.review.game_id, "decisions": r.decisions,
             "inaccuracies": r.inaccuracies, "mistakes": r.mistakes, "blunders": r.blunders,
             "places_lost_per_decision": r.places_lost, "accuracy": r.accuracy}
            for r in ReviewSummary.objects.filter(user=user, review__status=Review.Status.DONE)
            .select_related("review").order_by("game_finished", "pk")
        ],
        "invitations": [
            {"table": i.game_id, "name": i.game.name, "from": i.invited_by.name,
             "to_address": i.email or None, "sent": _when(i.created)}
            for i in Invitation.objects.for_user(user)
            .select_related("game", "invited_by").order_by("created", "pk")
        ],
        "invitations_sent": [
            # As the host typed it: a player's name, or an address (whoever's it is).
            {"table": i.game_id, "name": i.game.name, "to": i.email or i.user.name,
             "sent": _when(i.created)}
            for i in Invitation.objects.filter(invited_by=user)
            .select_related("game", "user").order_by("created", "pk")
        ],
        "invitations_refused_from": [
            {"player": b.blocked.name, "since": _when(b.created)}
            for b in InvitationBlock.objects.filter(user=user).select_related("blocked")
            .order_by("created")
        ],
        "taken_off_tables": [
            {"table": r.game_id, "name": r.game.name, "on": _when(r.created)}
            for r in Removal.objects.filter(user=user).select_related("game")
            .order_by("created", "pk")
        ],
        # Tables they waited to join at the next round when the game ended.
        "tables_never_dealt_in": [
            {"table": n.game_id, "name": n.game.name, "on": _when(n.created)}
            for n in NeverDealtIn.objects.filter(user=user).select_related("game")
            .order_by("created", "pk")
        ],
        # A vacation at one table, or an absence from every table (no table).
        "away_and_vacations": [
            {"table": p.game_id, "from": _when(p.start), "until": _when(p.end)}
            for p in Pause.objects.filter(user=user).order_by("start", "pk")
        ],
        "messages": [
            {"table": m.game_id, "said": _when(m.created), "text": m.text,
             "flourish": m.flourish, "as_watcher": m.by_watcher}
            for m in Message.objects.filter(author=user).order_by("created", "pk")
        ],
        "notices": [
            {"kind": n.kind, "channel": n.channel, "table": n.game_id, "sent": _when(n.sent)}
            for n in Notification.objects.filter(user=user, status=Notification.Status.SENT)
            .order_by("sent", "pk")
        ],
        "account_emails": [
            {"kind": e.kind, "to": e.to, "subject": e.subject, "sent": _when(e.sent)}
            for e in OutgoingEmail.objects.filter(user=user, status=OutgoingEmail.Status.SENT)
            .order_by("sent", "pk")
        ],
        "tips_dismissed": [
            {"tip": t.key, "on": _when(t.created)}
            for t in DismissedTip.objects.filter(user=user).order_by("created", "pk")
        ],
    }


def _account(user) -> dict:
    return {
        "username": user.username,
        "display_name": user.display_name,
        "email": user.email,
        "email_confirmed": user.email_verified,
        "new_email_waiting_for_confirmation": user.new_email,
        "joined": _when(user.date_joined),
        "last_login": _when(user.last_login),
        "language": user.language,
        # The language of the last page served: emails follow it while `language` is empty.
        "page_language": user.page_language,
        "time_zone": user.time_zone,
        "notify": user.notify,
        "notify_by": user.notify_by,
        "away_until": _when(user.away_until),
        "pass_when_i_cannot_beat": user.auto_pass,
        "give_back_my_worst_cards": user.auto_tax_worst,
        "call_a_revolution_as_a_peon": user.auto_revolution,
        # The channel's address holds its secret (a bot's token): shown as the profile
        # shows it.
        "channel": channels.masked(user.channel_url) if user.channel_url else "",
        "player_page_seen_by": visibility(user),
    }


def _rating(user) -> dict | None:
    rating = Rating.objects.filter(user=user).first()
    if rating is None:
        return None
    return {
        "rating": round(rating.mu), "uncertainty": round(rating.sigma),
        "rated_games": rating.games,
        "changes": [
            {"table": c.game_id, "place": c.place, "players": c.players,
             "before": round(c.mu_before), "after": round(c.mu), "on": _when(c.created)}
            for c in rating.changes.order_by("pk")
        ],
    }


def _games(user) -> list[dict]:
    """Every table they sat at: the seat and its settings, and for a game over that they
    played to its end, their final place and points (a game's standings, as its page
    shows them)."""
    seats = {s.game_id: s for s in Seat.objects.filter(user=user)}
    held = games_held(user)
    replaced = dict(Replacement.objects.filter(user=user)
                    .values_list("game_id", "round_number"))
    games = Game.objects.filter(pk__in=set(seats) | set(held)).only(
        "pk", "name", "status", "created", "started", "finished", "host_id").order_by("created")
    over = [g.pk for g in games if g.status in OVER]
    results = game_results(finished_rounds(game__in=over))
    out = []
    for game in games:
        seat = seats.get(game.pk)
        player = held[game.pk][0] if game.pk in held else None
        standing = {row["player"]: row for row in results.get(game.pk, [])}
        mine = standing.get(player) if game.pk not in replaced else None
        out.append({
            "table": game.pk, "name": game.name, "status": game.status,
            "opened": _when(game.created), "started": _when(game.started),
            "finished": _when(game.finished), "hosted": game.host_id == user.pk,
            # Counted from 1, as the record's text counts the players.
            "seat": player + 1 if player is not None else None,
            "left": bool(seat and seat.left) or bool(mine and mine["left"]),
            "replaced_by_a_bot_from_round": replaced.get(game.pk),
            "place": mine["rank"] if mine else None,
            "points": mine["score"] if mine else None,
            # What they chose for this table alone (it starts with the profile's).
            "settings": {
                "pass_when_i_cannot_beat": seat.auto_pass,
                "give_back_my_worst_cards": seat.auto_tax_worst,
                "call_a_revolution_as_a_peon": seat.auto_revolution,
                "no_notices_of_table_talk": seat.talk_muted,
            } if seat else None,
        })
    return out
