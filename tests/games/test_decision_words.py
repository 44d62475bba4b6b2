"""What an email, a push or a player's channel says of a decision before the first trick
tells nothing of the reader's cards: emails are forwarded and read on shared screens, a
push shows on a locked phone, a channel may be a group chat. The holder of both jesters
hears of "a decision" as a Greater Peon asked in a first round without taxes does (who
need not hold them); a Dalmuti holding both hears of the cards to give back, as every
Dalmuti does."""

import dataclasses
import re
from datetime import timedelta

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from games import engine
from games.commands import notifications
from games.commands.base import save_state
from games.models import Notification
from push.sender import message
from tests.engine.helpers import give_both_jesters
from tests.helpers import deliver_due, make_user, start_table

pytestmark = pytest.mark.django_db

GREAT_DALMUTI, LESSER_DALMUTI, MERCHANT, LESSER_PEON, GREATER_PEON = 0, 1, 2, 3, 4
TOLD = ("jester", "revolution")


def _dealt(name: str, holder: int | None, first_round_taxes: bool = True):
    """Five people, the seat at position `holder` dealt both jesters (None: a deal where
    nobody holds both), in round 2 (or, without taxes in the first, round 1); the
    people by position."""
    users = [make_user(f"{name}{i}") for i in range(5)]
    game = start_table(users[0], users[1:],
                       options={"rounds": 3, "first_round_taxes": first_round_taxes})
    game.seats.update(first_game=False, auto_pass=False, auto_tax_worst=False)
    state = game.engine_state()
    hands = engine.deal(5, state.options, 7)
    if holder is not None:
        hands = give_both_jesters(hands, holder)
    else:
        hands = give_both_jesters(hands, GREATER_PEON)  # then one jester each to two
        jester = max(hands[GREATER_PEON])
        hands[GREATER_PEON].remove(jester)
        hands[GREATER_PEON].append(hands[MERCHANT].pop(0))
        hands[MERCHANT].append(jester)
        hands = [sorted(h) for h in hands]
    first = not first_round_taxes
    rnd = engine.Round.start(hands, state.options, first_round=first, seed=1)
    game.awaiting = {}
    mail.outbox.clear()
    Notification.objects.all().delete()
    save_state(game, dataclasses.replace(state, round=rnd, round_number=1 if first else 2))
    # The notices of a private wait, as the work the deal sends for after its commit
    # records them.
    notifications.for_private_waits(game.pk)
    game.refresh_from_db()
    by_player = {s.player: s.user for s in game.seats.select_related("user")}
    return game, [by_player[state.seats[p]] for p in range(5)]


def _told(user) -> list[str]:
    """Every email body the player was sent, and what a push to them says."""
    with time_machine.travel(timezone.now() + timedelta(hours=1), tick=False):
        deliver_due()
    bodies = [m.body for m in mail.outbox if user.email in m.to]
    pushes = [" ".join(message(n).values())
              for n in Notification.objects.filter(user=user)]
    assert bodies and pushes
    return bodies + pushes


def _hears(user, expected: str) -> None:
    """Everything the player was told says `expected`, and nothing of jesters or of a
    revolution."""
    for said in _told(user):
        assert not any(word in said.lower() for word in TOLD), said
        assert expected in said, said


@pytest.mark.parametrize("holder", [MERCHANT, LESSER_PEON, GREATER_PEON])
def test_a_holder_who_is_no_dalmuti_hears_of_a_decision_and_nothing_of_jesters(holder):
    _game, users = _dealt(f"h{holder}", holder)
    _hears(users[holder], "A decision awaits you before the first trick")


@pytest.mark.parametrize("holder", [GREAT_DALMUTI, LESSER_DALMUTI])
def test_a_dalmuti_holding_both_hears_what_every_dalmuti_hears(holder):
    _game, users = _dealt(f"d{holder}", holder)
    _hears(users[holder], "Choose the cards you give back in the taxes.")


@pytest.mark.parametrize("holds", [True, False])
def test_a_greater_peon_asked_in_a_first_round_hears_the_same_with_or_without_them(holds):
    _game, users = _dealt(f"p{holds}", GREATER_PEON if holds else None,
                          first_round_taxes=False)
    _hears(users[GREATER_PEON], "A decision awaits you before the first trick")


JESTERS_AND_REVOLUTIONS = {
    "nl": r"\bnar(ren)?\b|revolutie", "de": r"\bnarr(en)?\b|revolution",
    "fr": r"\bjokers?\b|révolution",
}
SAYS = {"nl": "Er wacht een beslissing op je vóór de eerste slag.",
        "de": "Vor dem ersten Stich wartet eine Entscheidung auf dich.",
        "fr": "Une décision vous attend avant le premier pli."}


@pytest.mark.parametrize("language", ["nl", "de", "fr"])
def test_in_every_language(language):
    game, users = _dealt(f"l{language}", MERCHANT)
    holder = users[MERCHANT]
    holder.language = language
    holder.save()
    for said in _told(holder):
        assert not re.search(JESTERS_AND_REVOLUTIONS[language], said.lower()), said
        assert SAYS[language] in said, said
