"""`{% card %}` draws games/_card.html once per card, name and language, and keeps it."""

from django.template import Context, Template
from django.utils import translation

DRAWN = Template("{% load games %}{% for rank, name in cards %}{% card rank name %}{% endfor %}")
INCLUDED = Template('{% for rank, name in cards %}'
                    '{% include "games/_card.html" with rank=rank name=name %}{% endfor %}')


def _both(language: str, cards: list[tuple[int, str]]) -> tuple[str, str]:
    with translation.override(language):
        context = Context({"cards": cards})
        return DRAWN.render(context), INCLUDED.render(context)


def test_a_kept_card_is_the_card_the_template_draws_in_each_language():
    for language, cards in (("en", [(12, "Peasant"), (13, "Jester"), (1, "Dalmuti")]),
                            ("nl", [(12, "Keuterboer"), (13, "Nar")]),
                            ("de", [(4, "Äbtissin"), (12, "Leibeigener")]),
                            ("en", [(12, "Peasant")])):
        for _ in range(2):  # drawn, then kept
            drawn, included = _both(language, cards)
            assert drawn == included
            assert all(name[:2] in drawn for _rank, name in cards)


def test_the_same_name_is_broken_into_syllables_by_the_readers_language():
    english = _both("en", [(5, "Hofmaarschalk")])[0]
    assert "Hof\xadmaar\xadschalk" in _both("nl", [(5, "Hofmaarschalk")])[0]
    assert "Hofmaarschalk" in english
    assert _both("en", [(5, "Hofmaarschalk")])[0] == english


PLAYS = Template("{% load games %}{% for cards, label, big in plays %}"
                 "{% cards cards label big=big %}{% endfor %}")
PLAYS_INCLUDED = Template('{% for cards, label, big in plays %}'
                          '{% include "games/_cards.html" with cards=cards label=label big=big %}'
                          '{% endfor %}')


def test_a_kept_play_is_the_play_the_template_draws():
    plays = [([5, 5], "two 5s", False), ([12, 12, 13], "three 12s (a jester)", True),
             ([13], "a jester", False), ([5, 5], "two 5s", True), ([1], "a <b>", False)]
    for _ in range(2):  # drawn, then kept
        context = Context({"plays": plays})
        kept = PLAYS.render(context)
        assert kept == PLAYS_INCLUDED.render(context)
        assert kept.count('class="cards big"') == 2 and "a &lt;b&gt;" in kept


HAND = Template("{% load games %}{% for c in hand %}{% hand_card c pick %}{% endfor %}")
HAND_INCLUDED = Template('{% for c in hand %}'
                         '{% include "games/table/_hand_card.html" %}{% endfor %}')


def test_a_kept_card_of_the_hand_is_the_one_the_template_draws():
    hand = [{"rank": 2, "name": "Archbishop", "ok": True, "checked": True, "aside": ""},
            {"rank": 2, "name": "Archbishop", "ok": True, "checked": False, "aside": ""},
            {"rank": 7, "name": "Stonecutter", "ok": False, "checked": False, "aside": ""},
            {"rank": 13, "name": "Jester", "ok": True, "checked": False, "aside": ""},
            {"rank": 9, "name": "Cook", "ok": True, "checked": False, "aside": "give_back"},
            {"rank": 10, "name": "Shepherdess", "ok": True, "checked": False,
             "aside": "trade"}]
    for language in ("en", "nl", "en"):
        for pick in ("", "play", "trade_card", "taxes"):
            with translation.override(language):
                context = Context({"hand": hand, "pick": pick})
                kept = HAND.render(context)
                assert kept == HAND_INCLUDED.render(context)
            assert kept.count(" checked") == (1 if pick else 0)
            assert kept.count('type="radio"') == (6 if pick == "trade_card" else 0)
            assert kept.count("hcard aside") == (0 if pick else 2)


def test_the_games_own_word_breaks_between_its_syllables_in_every_language():
    """"Dalmuti" is in no language's hyphenation patterns but the ones that guess it: a
    narrow seat broke the British English "Great Dalmuti" as "Dalmut|i"."""
    from games.templatetags.games import syllables

    for language, title in (("en", "Great Dalmuti"), ("en", "Lesser Dalmuti"),
                            ("nl", "Grote Dalmuti"), ("de", "Großer Dalmuti"),
                            ("fr", "Grand Dalmuti")):
        with translation.override(language):
            assert "Dal\xadmu\xadti" in syllables(title), (language, syllables(title))
    with translation.override("en"):
        assert syllables("Dalmutis") == "Dal\xadmu\xadtis"
        assert syllables("Merchant") == "Mer\xadchant"  # the patterns still at work


def test_a_players_long_name_breaks_between_syllables_and_a_short_word_stays_whole():
    """A seat's name: its long words broken between syllables by the rules that find the
    most of them (English rules left "Friederike" whole), its short words whole so that
    "Anna Maria" breaks at its space, its own hyphen with no soft hyphen beside it."""
    from games.templatetags.games import name_syllables

    for language in ("en", "nl", "de", "fr"):
        with translation.override(language):
            assert name_syllables("Anna Maria") == "Anna Maria"
            assert name_syllables("Tess") == "Tess"
            assert "\xad" in name_syllables("Friederike"), language
            assert name_syllables("Wilhelmina-Jo").endswith("a-Jo"), language
            assert name_syllables("Bartholomeus").replace("\xad", "") == "Bartholomeus"
            # Three letters at least either side of a break.
            parts = name_syllables("Christopher").split("\xad")
            assert min(len(parts[0]), len(parts[-1])) >= 3, (language, parts)
