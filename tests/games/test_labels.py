from django.utils import translation

from games import engine
from games.core.words import cards_phrase, event_sentence, illegal_move_message


def test_a_set_with_a_jester_reads_as_the_rulebook_says():
    assert cards_phrase([6, 6, 13]) == "3 Knights (1 Jester)"
    assert cards_phrase([13]) == "1 Jester"
    assert cards_phrase([13, 13]) == "2 Jesters"
    assert cards_phrase([1]) == "1 Dalmuti"


def test_loose_cards_read_as_a_list_in_the_readers_language():
    """Cards given in the taxes are of different ranks: "1 Dalmuti and 1 Archbishop",
    so that "you gave 1 Dalmuti, 1 Archbishop and received …" no longer runs on."""
    assert cards_phrase([2, 1]) == "1 Dalmuti and 1 Archbishop"
    assert cards_phrase([11, 12, 12, 10]) == "1 Shepherdess, 1 Stonecutter and 2 Peasants"
    with translation.override("de"):
        assert " und " in cards_phrase([2, 1])


def test_the_log_names_the_player_and_their_title():
    event = {"type": "play", "player": 0, "title": "great_dalmuti", "cards": [6, 6, 13]}
    assert event_sentence(event, {0: "Ana"}.get) == (
        "Ana, Great Dalmuti, played 3 Knights (1 Jester)"
    )


def test_rule_messages_count_cards_with_proper_plurals():
    one = engine.IllegalMove("wrong_count", count=1)
    three = engine.IllegalMove("wrong_count", count=3)
    assert illegal_move_message(one) == "You must play exactly 1 card, as many as the last play."
    assert illegal_move_message(three) == (
        "You must play exactly 3 cards, as many as the last play."
    )
    with translation.override("de"):
        assert "1 Karte " in illegal_move_message(one)


def test_every_rule_message_has_a_translation_in_the_players_language():
    for code, template in engine.MESSAGES.items():
        params = {name: 2 for name in ("count", "rank", "seat", "player", "max", "card", "place")}
        params.update(phase="play", cards="1 Cook", places="3")
        exc = engine.IllegalMove(code, **{k: v for k, v in params.items() if "{" + k in template})
        with translation.override("fr"):
            assert illegal_move_message(exc) != str(exc), code


def test_every_kind_of_event_has_its_sentence():
    from games.core.words import SENTENCES
    from games.engine import EVENT_KINDS

    assert set(SENTENCES) == set(EVENT_KINDS)


def test_since_you_looked_decides_for_every_kind_of_event():
    """A kind added to the registry must be told or left out of "since you looked" on
    purpose: each kind is in exactly one of the narration's two sets."""
    from games.engine import EVENT_KINDS
    from games.read.narration import NOT_TOLD_SINCE_YOU_LOOKED, TOLD_SINCE_YOU_LOOKED

    assert TOLD_SINCE_YOU_LOOKED.isdisjoint(NOT_TOLD_SINCE_YOU_LOOKED)
    assert TOLD_SINCE_YOU_LOOKED | NOT_TOLD_SINCE_YOU_LOOKED == set(EVENT_KINDS)


def test_the_players_waited_for_read_as_a_list_and_stay_escaped():
    from django.template import Context, Template

    turn = Template('{% load i18n games %}{% blocktranslate with names=waiting|listed %}'
                    'Waiting for {{ names }}{% endblocktranslate %}')
    assert turn.render(Context({"waiting": ["Ada", "Bram"]})) == "Waiting for Ada and Bram"
    with translation.override("fr"):
        assert turn.render(Context({"waiting": ["Ada", "<b>", "Cy"]})) == (
            "On attend Ada, &lt;b&gt; et Cy")
