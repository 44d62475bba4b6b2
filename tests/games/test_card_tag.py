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
