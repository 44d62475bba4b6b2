"""The game's words in the player's language: card names, titles, rule messages and the
sentences of the game log."""

from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _

from dalmuti_site.formats import zone_abbreviation
from games.engine import JESTER

CARD_NAMES = {
    1: gettext_lazy("Dalmuti"),
    2: gettext_lazy("Archbishop"),
    3: gettext_lazy("Earl Marshal"),
    4: gettext_lazy("Baroness"),
    5: gettext_lazy("Abbess"),
    6: gettext_lazy("Knight"),
    7: gettext_lazy("Seamstress"),
    8: gettext_lazy("Mason"),
    9: gettext_lazy("Cook"),
    10: gettext_lazy("Shepherdess"),
    11: gettext_lazy("Stonecutter"),
    12: gettext_lazy("Peasant"),
    JESTER: gettext_lazy("Jester"),
}

TITLE_NAMES = {
    "great_dalmuti": gettext_lazy("Great Dalmuti"),
    "lesser_dalmuti": gettext_lazy("Lesser Dalmuti"),
    "merchant": gettext_lazy("Merchant"),
    "lesser_peon": gettext_lazy("Lesser Peon"),
    "greater_peon": gettext_lazy("Greater Peon"),
}


def card_name(rank: int) -> str:
    return str(CARD_NAMES[rank])


def title_name(title: str) -> str:
    return str(TITLE_NAMES[title])


# A number of cards of each rank in words, asked in the reader's language when drawn.
_CARD_SETS = {
    1: lambda n: ngettext("%(count)d Dalmuti", "%(count)d Dalmutis", n),
    2: lambda n: ngettext("%(count)d Archbishop", "%(count)d Archbishops", n),
    3: lambda n: ngettext("%(count)d Earl Marshal", "%(count)d Earl Marshals", n),
    4: lambda n: ngettext("%(count)d Baroness", "%(count)d Baronesses", n),
    5: lambda n: ngettext("%(count)d Abbess", "%(count)d Abbesses", n),
    6: lambda n: ngettext("%(count)d Knight", "%(count)d Knights", n),
    7: lambda n: ngettext("%(count)d Seamstress", "%(count)d Seamstresses", n),
    8: lambda n: ngettext("%(count)d Mason", "%(count)d Masons", n),
    9: lambda n: ngettext("%(count)d Cook", "%(count)d Cooks", n),
    10: lambda n: ngettext("%(count)d Shepherdess", "%(count)d Shepherdesses", n),
    11: lambda n: ngettext("%(count)d Stonecutter", "%(count)d Stonecutters", n),
    12: lambda n: ngettext("%(count)d Peasant", "%(count)d Peasants", n),
    JESTER: lambda n: ngettext("%(count)d Jester", "%(count)d Jesters", n),
}


def card_set(rank: int, count: int) -> str:
    """"3 Knights", "1 Jester": a number of cards of one rank, with the proper plural."""
    return _CARD_SETS[rank](count) % {"count": count}


def names_phrase(names: list[str]) -> str:
    """Names (or anything counted out) as a list in the reader's language: "Ada, Bram and
    Cato"."""
    if len(names) < 2:
        return "".join(names)
    return _("%(names)s and %(last)s") % {"names": ", ".join(names[:-1]), "last": names[-1]}


def cards_phrase(cards: list[int]) -> str:
    """A played set in words: "3 Knights (1 Jester)" for two Knights and a jester played as
    three Knights; "2 Jesters" for jesters alone; "1 Cook and 1 Peasant" for loose cards."""
    ranks = sorted({c for c in cards if c != JESTER})
    jesters = cards.count(JESTER)
    if not ranks:
        return card_set(JESTER, jesters)
    if len(ranks) == 1:
        phrase = card_set(ranks[0], len(cards))
        if jesters:
            phrase = _("%(set)s (%(jesters)s)") % {
                "set": phrase, "jesters": card_set(JESTER, jesters),
            }
        return phrase
    parts = [card_set(r, cards.count(r)) for r in ranks]
    if jesters:
        parts.append(card_set(JESTER, jesters))
    return names_phrase(parts)


def illegal_move_message(exc) -> str:
    """The player's-language message for an engine IllegalMove."""
    params = dict(exc.params)
    if exc.code in COUNTED_MESSAGES and isinstance(params.get("count"), int):
        return COUNTED_MESSAGES[exc.code](params["count"]) % {"count": params["count"]}
    template = ILLEGAL_MOVE_MESSAGES.get(exc.code)
    if template is None:
        return str(exc)
    if "rank" in params and isinstance(params["rank"], int):
        params["rank"] = card_name(params["rank"])
    try:
        return str(template).format(**params)
    except (KeyError, IndexError):
        return str(exc)


# Messages that name a number of cards, with proper plurals.
COUNTED_MESSAGES = {
    "wrong_count": lambda n: ngettext(
        "You must play exactly %(count)d card, as many as the last play.",
        "You must play exactly %(count)d cards, as many as the last play.", n),
    "wrong_give_count": lambda n: ngettext(
        "You must give back exactly %(count)d card.",
        "You must give back exactly %(count)d cards.", n),
}

# The engine's IllegalMove codes (games.engine.MESSAGES), in the player's language.
ILLEGAL_MOVE_MESSAGES = {
    "unknown_action": gettext_lazy("That is not something you can do in this game."),
    "wrong_phase": gettext_lazy("You cannot do that now."),
    "round_over": gettext_lazy("The round is over."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    "not_awaited": gettext_lazy("You have nothing to decide now."),
    "no_such_seat": gettext_lazy("There is no such seat at this table."),
    "bad_card": gettext_lazy("That is not a card."),
    "empty_play": gettext_lazy("Play at least one card."),
    "mixed_ranks": gettext_lazy(
        "Cards played together must all be of one rank (jesters may join them)."
    ),
    "cards_not_in_hand": gettext_lazy("You do not hold those cards."),
    "leader_must_play": gettext_lazy("You lead this trick, so you must play; you cannot pass."),
    "wrong_count": gettext_lazy("You must play exactly {count} cards, as many as the last play."),
    "not_better": gettext_lazy("Your cards must be better (a lower number) than {rank}."),
    "jester_not_given": gettext_lazy("Jesters are never given away in taxes or trades."),
    "wrong_give_count": gettext_lazy("You must give back exactly {count} cards."),
    "already_chosen": gettext_lazy("You have already chosen."),
    "worst_required": gettext_lazy("You must give back your worst cards: {cards}."),
    "no_revolution": gettext_lazy(
        "Only the player holding both jesters may declare a revolution."
    ),
    "not_a_merchant": gettext_lazy("You can only trade with another Merchant."),
    "wrong_card_count": gettext_lazy("Give exactly one card."),
    "game_over": gettext_lazy("The game is over."),
    "not_seated": gettext_lazy("You have no seat in this round."),
    "unknown_player": gettext_lazy("There is no such player at this table."),
    "not_between_rounds": gettext_lazy("Players can join or leave only between rounds."),
    "round_not_over": gettext_lazy("The round is not over yet."),
    "table_full": gettext_lazy("The table is full: at most {max} players."),
    "place_required": gettext_lazy("The Great Dalmuti chooses the newcomer's place."),
    "bad_place": gettext_lazy("A newcomer sits in the middle of the table."),
}


def _revolution(event: dict, name_of, who: str) -> str:
    if event["great"]:
        return _(
            "%(player)s reveals both Jesters: a Great Revolution! Everybody swaps "
            "places with their opposite, and there are no taxes."
        ) % {"player": who}
    return _(
        "%(player)s reveals both Jesters: a revolution! No taxes this round."
    ) % {"player": who}


def _exchange(event: dict, name_of, who: str) -> str:
    return _("%(giver)s gave %(cards)s to %(taker)s") % {
        "giver": name_of(event["from"]), "taker": name_of(event["to"]),
        "cards": cards_phrase(event["cards"]),
    }


# One sentence for each kind of event (games.engine.EVENT_KINDS): event, name_of, who.
SENTENCES = {
    "play": lambda event, name_of, who: _("%(player)s, %(title)s, played %(cards)s") % {
        "player": who, "title": title_name(event["title"]),
        "cards": cards_phrase(event["cards"]),
    },
    "pass": lambda event, name_of, who: _("%(player)s passed") % {"player": who},
    "trick_won": lambda event, name_of, who: _(
        "%(player)s wins the trick; %(leader)s leads") % {
        "player": who, "leader": name_of(event["leader"]),
    },
    "out": lambda event, name_of, who: (_(
        "%(player)s is left holding cards and finishes last, in place %(place)d")
        if event.get("last") else _(
        "%(player)s is out of cards and finishes in place %(place)d")) % {
        "player": who, "place": event["place"],
    },
    "round_over": lambda event, name_of, who: _("The round is over."),
    "revolution": _revolution,
    "revolution_declined": lambda event, name_of, who: _(
        "You kept your two Jesters to yourself: no revolution."),
    "give_back_chosen": lambda event, name_of, who: _(
        "%(player)s has chosen the cards to give back") % {"player": who},
    "taxes": lambda event, name_of, who: _("The taxes are paid."),
    "tax_exchange": _exchange,
    "trade_offer": lambda event, name_of, who: _(
        "%(player)s may trade with another Merchant") % {"player": who},
    "trade": lambda event, name_of, who: _("%(giver)s trades with %(taker)s") % {
        "giver": name_of(event["from"]), "taker": name_of(event["to"]),
    },
    "trade_declined": lambda event, name_of, who: _(
        "%(player)s declines to trade") % {"player": who},
    "trade_card_chosen": lambda event, name_of, who: _(
        "%(player)s has chosen a card to trade") % {"player": who},
    "trade_done": lambda event, name_of, who: _(
        "%(giver)s and %(taker)s have traded a card") % {
        "giver": name_of(event["from"]), "taker": name_of(event["to"]),
    },
    "trade_exchange": _exchange,
    "play_starts": lambda event, name_of, who: _(
        "%(player)s leads the first trick") % {"player": name_of(event["leader"])},
    "round_starts": lambda event, name_of, who: _(
        "Round %(number)d is dealt; %(player)s, the Greater Peon, dealt the cards") % {
        "number": event["round"], "player": name_of(event["dealer"]),
    },
    "joined": lambda event, name_of, who: _(
        "%(player)s joins the table in place %(place)d") % {
        "player": who, "place": event["place"],
    },
    "left": lambda event, name_of, who: _(
        "%(player)s leaves the table; their points stay on the scoreboard") % {
        "player": who},
    "leaving": lambda event, name_of, who: (_(
        "%(player)s leaves the table; a bot plays their seat for the rest of the game")
        if event["bot"] else _(
        "%(player)s will leave the table when this round ends; a bot plays their cards "
        "until then")) % {"player": who},
    "game_ending": lambda event, name_of, who: _(
        "%(player)s will end the game after this round") % {"player": who},
    "game_continues": lambda event, name_of, who: _(
        "%(player)s lets the game go on after this round") % {"player": who},
    # No winner: everybody left the game (games.core.standing.winner).
    "game_over": lambda event, name_of, who: _(
        "The game is over: %(player)s wins!") % {"player": name_of(event["winner"])}
    if event["winner"] is not None else _("The game is over: everybody left, nobody wins."),
    "end_proposed": lambda event, name_of, who: _(
        "%(player)s proposes to end the game after this round") % {"player": who},
    "end_vote": lambda event, name_of, who: (
        _("%(player)s agrees to end the game") if event["agree"]
        else _("%(player)s wants to play on")) % {"player": who},
    "end_agreed": lambda event, name_of, who: _(
        "Most players agree: the game ends after this round"),
    "end_declined": lambda event, name_of, who: _(
        "Too few players can still agree: the game goes on"),
    "end_lapsed": lambda event, name_of, who: _(
        "The proposal to end the game lapsed: the game goes on"),
    "stand_in_plays": lambda event, name_of, who: _(
        "The stand-in bot now plays for %(player)s") % {"player": who},
}


def event_sentence(event: dict, name_of) -> str | None:
    """One line of the game log for an engine event whose seats have been mapped to
    players (see games.commands); None for events the log does not show."""
    sentence = SENTENCES.get(event["type"])
    if sentence is None:
        return None
    who = name_of(event["player"]) if "player" in event else ""
    return sentence(event, name_of, who)


def move_sentence(event: dict, name_of, by: str = "", actor: int | None = None,
                  reader: int | None = None) -> str | None:
    """A line of the log as `reader` (a player index; None: anybody) reads it, saying who
    made the move when it was not its player: the clock ("bob's time ran out"), the
    stand-in bot, or (to the player alone) their own standing order. `by` and `actor`
    are the recorded action's maker and player."""
    kind = event["type"]
    if kind == "game_over" and reader is not None and event.get("winner") == reader:
        return _("The game is over: you win!")
    if kind in ("tax_exchange", "trade_exchange") and reader in (event["from"], event["to"]):
        # Private to the two: each reads their own part as "you", as their hand tells it.
        cards = cards_phrase(event["cards"])
        if reader == event["from"]:
            return _("You gave %(cards)s to %(taker)s") % {
                "cards": cards, "taker": name_of(event["to"])}
        return _("%(giver)s gave %(cards)s to you") % {
            "cards": cards, "giver": name_of(event["from"])}
    if actor is None or event.get("player") != actor:
        return event_sentence(event, name_of)
    who = name_of(actor)
    if by == "timeout":
        if kind == "pass":
            return _("%(player)s's time ran out: passed for them") % {"player": who}
        if kind == "play":
            return _("%(player)s's time ran out: played %(cards)s for them") % {
                "player": who, "cards": cards_phrase(event["cards"])}
        if kind == "give_back_chosen":
            return _("%(player)s's time ran out: the cards to give back were chosen for "
                     "them") % {"player": who}
        if kind == "trade_declined":
            return _("%(player)s's time ran out: no trade") % {"player": who}
    elif by == "stand_in":
        if kind == "pass":
            return _("The stand-in passed for %(player)s") % {"player": who}
        if kind == "play":
            return _("The stand-in played %(cards)s for %(player)s, %(title)s") % {
                "player": who, "title": title_name(event["title"]),
                "cards": cards_phrase(event["cards"])}
        if kind == "give_back_chosen":
            return _("The stand-in chose the cards to give back for %(player)s") % {
                "player": who}
        if kind == "trade_declined":
            return _("The stand-in declined to trade for %(player)s") % {"player": who}
    elif by == "standing_order" and reader == actor:
        # Private: to the others it is an ordinary pass (why is nobody else's business).
        # Said to the player as "you", as the order is theirs.
        if kind == "pass":
            return _("You passed by your standing order")
        if kind == "give_back_chosen":
            return _("You chose the cards to give back by your standing order")
        if kind == "revolution" and event["great"]:
            return _("You revealed both Jesters by your standing order: a Great "
                     "Revolution! Everybody swaps places with their opposite, and there "
                     "are no taxes.")
        if kind == "revolution":
            return _("You revealed both Jesters by your standing order: a revolution! No "
                     "taxes this round.")
    elif by == "closed" and kind == "revolution_declined":
        # Only the holder reads this line (the event is theirs alone).
        return _("The taxes are due: the Dalmutis have chosen what they give back, and you "
                 "kept your two Jesters to yourself.")
    return event_sentence(event, name_of)


def moment(value) -> str:
    """A moment as a player reads it: in the active (the reader's) time zone, in the one
    date and time format of their language (Django's DATETIME_FORMAT for the locale), the
    zone named: "Nov. 23, 2026, 12:15 p.m. CET", "23 november 2026 12:15 CET"."""
    if not value:
        return ""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    local = timezone.localtime(value)
    written = _first_of_month(date_format(local, "DATETIME_FORMAT"), local)
    return f"{written} {zone_abbreviation(local)}"


def day(value) -> str:
    """A day as a player reads it, in the one date format of their language (Django's
    DATE_FORMAT for the locale): "Nov. 23, 2026", "23 november 2026". A moment is taken
    in the reader's time zone."""
    if not value:
        return ""
    if isinstance(value, datetime):
        value = timezone.localtime(value)
    return _first_of_month(date_format(value, "DATE_FORMAT"), value)


def _first_of_month(written: str, value) -> str:
    """French writes the first day of a month as an ordinal, « 1er décembre », which
    Django's formats (« j F Y ») cannot say."""
    if value.day == 1 and (get_language() or "").startswith("fr") and written.startswith("1 "):
        return "1er" + written[1:]
    return written
