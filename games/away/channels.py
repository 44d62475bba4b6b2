"""Messages to chat channels: a table's group channel (short public notices, in the
host's language) and a player's own channel (the same notifications as their emails and
pushes). Sent by workers, through dalmuti_site.channels (Apprise behind the outbound
guard). A channel that keeps failing is paused and its owner told."""

import logging

from django.conf import settings
from django.db.models import F
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts import outbox
from accounts.models import OutgoingEmail
from dalmuti_site import channels, outbound
from games.commands import group_channel
from games.core import channel_owners
from games.models import ChannelNotice, Game, Notification, Round
from games.read.results import nobody_won, ranked
from push import sender as push_sender

log = logging.getLogger(__name__)
Kind = ChannelNotice.Kind
Status = Notification.Status


def _names(game) -> dict[int, str]:
    return {s.player: s.name for s in game.seats_with_users()}


def notice_message(notice: ChannelNotice) -> channels.Message:
    """What the group channel is told: the table's name, one public sentence, the link."""
    game = notice.game
    names = _names(game)
    payload = notice.payload
    language = game.host.reading_language or settings.LANGUAGE_CODE
    with translation.override(language):
        if notice.kind == Kind.STARTED:
            players = ", ".join(names[p] for p in sorted(names) if p is not None)
            text = _("The game started: %(players)s.") % {"players": players}
        elif notice.kind == Kind.TURN:
            text = _("It's %(name)s's turn.") % {"name": names.get(payload["player"], "?")}
        elif notice.kind == Kind.ROUND:
            played = Round.objects.get(game=game, number=payload["round"])
            order = ", ".join(f"{i}. {names.get(p, '?')}"
                              for i, p in enumerate(played.finish_order or [], 1))
            text = _("Round %(round)s is over. Finishing order: %(order)s.") % {
                "round": payload["round"], "order": order}
        elif notice.kind == Kind.OVER:
            state = game.engine_state()
            # As the table ranks them: whoever left shares the last place.
            placed = ranked(state.view(None)["game"], {s.player: s for s in game.seats.all()})
            if state.options.scoring:
                standings = ", ".join(f"{rank}. {names.get(s['player'], '?')} ({s['score']})"
                                      for rank, s, _left in placed)
            else:
                standings = ", ".join(f"{rank}. {names.get(s['player'], '?')}"
                                      for rank, s, _left in placed)
            if not standings:
                text = _("The game is over. No round was finished.")
            elif nobody_won(placed):
                text = _("The game is over. Everybody left: nobody won. Final standings: "
                         "%(standings)s.") % {"standings": standings}
            else:
                text = _("The game is over. Final standings: %(standings)s.") % {
                    "standings": standings}
        elif notice.kind == Kind.NUDGE:
            text = _("%(by)s nudged %(name)s: the table is waiting for them.") % {
                "by": names.get(payload["by"], "?"), "name": names.get(payload["player"], "?")}
        else:
            text = _("This channel will hear the table's news: the start, whose turn it "
                     "is, each round's result and the end.")
    return channels.Message(game.name, f"{text}\n{settings.SITE_URL}{game.get_absolute_url()}")


def deliver_notice(notice_id: int) -> str:
    """Send one group notice if it is still wanted; returns what happened. Only the run
    that claims it sends; a failure goes back to pending and raises ChannelFailed (the
    task retries with a growing delay, the sweep picks up what is left)."""
    notice = group_channel.claim(notice_id)
    if notice is None:
        return "not pending"
    verdict = group_channel.still_wanted(notice)
    if verdict != "send":
        group_channel.finish(notice, Status.SKIPPED, verdict)
        return verdict
    owner, people = channel_owners.for_game(notice.game)
    try:
        send(owner, people, notice_message(notice))
    except channels.ChannelFailed:
        group_channel.finish(notice, Status.PENDING, "failed")
        raise
    group_channel.finish(notice, Status.SENT)
    return "sent"


def send_personal(notification: Notification) -> None:
    """A notification to the player's own channel: what their push says, with the link."""
    content = push_sender.message(notification)
    user = notification.user
    send(user, [user], channels.Message(
        content["title"], f"{content['body']}\n{settings.SITE_URL}{content['url']}"))


def send_test(user) -> None:
    """The player's test message, from the profile."""
    language = user.reading_language or settings.LANGUAGE_CODE
    with translation.override(language):
        message = channels.Message(
            "Dalmuti", _("Your game notifications will arrive here.") + "\n"
            + settings.SITE_URL + reverse("profile"))
    send(user, [user], message)


def send(owner, people, message: channels.Message) -> None:
    """Post to the owner's channel, keeping count of the failures in a row; the one that
    makes too many pauses it. Raises ChannelFailed on any failure (the guard's refusals
    too). The address itself is never logged, only its service."""
    model = type(owner)
    try:
        channels.send(owner.channel_url, message)
    except (channels.ChannelFailed, outbound.Refused) as failure:
        model.objects.filter(pk=owner.pk).update(channel_failures=F("channel_failures") + 1)
        failures = model.objects.values_list("channel_failures", flat=True).get(pk=owner.pk)
        log.warning("channel: a %s message for %s %s failed (%d in a row): %s",
                    channels.service_name(owner.channel_url) or "?", model.__name__.lower(),
                    owner.pk, failures, failure)
        if failures >= channels.FAILURES_BEFORE_PAUSE and model.objects.filter(
                pk=owner.pk, channel_paused=None).update(channel_paused=timezone.now()):
            for person in people:
                _tell_paused(person, owner)
        raise channels.ChannelFailed(str(failure)) from None
    if owner.channel_failures:
        model.objects.filter(pk=owner.pk).update(channel_failures=0)


def _tell_paused(person, owner) -> None:
    """An email to the owner: the channel was paused, and where to switch it on again."""
    if not person.verified_email:
        return  # the settings page says so too
    language = person.reading_language or settings.LANGUAGE_CODE
    if owner == person:
        where = reverse("profile")
    elif isinstance(owner, Game):
        where = reverse("table_channel", args=[owner.pk])
    else:  # a league's, set in the admin
        meta = owner._meta
        where = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[owner.pk])
    where = settings.SITE_URL + where
    with translation.override(language):
        subject = _("Your notification channel was paused")
        service = channels.service_name(owner.channel_url)
        # Two sentences, not one with a word put in: "notification" does not go into
        # every language's word for a channel as a service's name does.
        if service:
            why = _("Messages to your %(service)s channel failed several times in a row, "
                    "so none are sent there for now. Check the address and save it again "
                    "to switch it back on: %(where)s") % {"service": service, "where": where}
        else:
            why = _("Messages to your notification channel failed several times in a row, "
                    "so none are sent there for now. Check the address and save it again "
                    "to switch it back on: %(where)s") % {"where": where}
        text = "\n\n".join([_("Hello %(name)s,") % {"name": person.name}, why, ""])
    outbox.enqueue(person, OutgoingEmail.Kind.CHANNEL_PAUSED, person.verified_email,
                   subject, text)
