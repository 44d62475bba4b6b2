"""The new-table form: every table option, named after its rulebook, refused with a reason
where it cannot apply, and listed on the table's pages."""

import itertools

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from games.engine import Options
from games.forms import TableForm
from games.models import Game

# What the one-tap "New table (standard rules)" confirmation posts
# (templates/games/new_table_confirm.html).
STANDARD = {
    "name": "Friday", "seats": "5", "end": "rounds", "rounds": "10",
    "first_round_taxes": "on", "tribute_return": "choice", "merchant_trade": "off",
    "philanthropic": "off",
}


def submit(**changes) -> TableForm:
    data = {**STANDARD, **changes}
    return TableForm({k: v for k, v in data.items() if v is not None})


def test_the_standard_submission_is_the_standard_rules():
    form = submit()
    assert form.is_valid(), form.errors
    assert Options.from_json(form.engine_options()) == Options.from_json({}) == Options()


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({"seating_ties": "until_unique"}, {"seating_ties": "until_unique"}),
        ({"seating_ties": "tied_redraw"}, {"seating_ties": "tied_redraw"}),
        ({"great_revolution": "at_once"}, {"great_revolution": "at_once"}),
        ({"great_revolution": "declared"}, {"great_revolution": "declared"}),
        ({"rounds": "30"}, {"rounds": 30, "target_score": None}),
        # a target score has no hidden round cap
        ({"end": "score", "target_score": "120"}, {"rounds": None, "target_score": 120}),
        ({"end": "open"}, {"rounds": None, "target_score": None}),
        ({"end": "open", "rounds": "", "target_score": "40"},
         {"rounds": None, "target_score": None}),
        ({"no_points": "on"}, {"scoring": False}),
        ({"no_points": "on", "end": "open"}, {"scoring": False, "rounds": None}),
        ({"seats": "6", "merchant_trade": "random"},
         {"merchant_trade": "random", "merchant_trade_from": 6}),
        ({"seats": "7", "merchant_trade": "chosen", "merchant_trade_from": "7"},
         {"merchant_trade": "chosen", "merchant_trade_from": 7}),
        ({"seats": "4", "reduced_deck": "on"}, {"reduced_deck": True}),
        ({"seats": "5", "reduced_deck": "on"}, {"reduced_deck": True}),
    ],
)
def test_each_option_reaches_the_engine(changes, expected):
    form = submit(**changes)
    assert form.is_valid(), form.errors
    stored = form.engine_options()
    assert {k: stored[k] for k in expected} == expected
    assert Options.from_json(stored).to_json() == stored


def test_an_open_ended_game_is_open_ended_in_the_engine():
    form = submit(end="open")
    assert form.is_valid(), form.errors
    assert Options.from_json(form.engine_options()).open_ended


@pytest.mark.parametrize(
    ("changes", "field", "reason"),
    [
        ({"seats": "6", "merchant_trade": "chosen", "merchant_trade_from": "7"},
         "merchant_trade", "Merchant trade needs at least 7 players; this table has 6 seats."),
        ({"seats": "5", "merchant_trade": "random"},
         "merchant_trade", "Merchant trade needs at least 6 players; this table has 5 seats."),
        ({"seats": "4", "merchant_trade": "chosen"},
         "merchant_trade", "Merchant trade needs at least 6 players; this table has 4 seats."),
        ({"seats": "6", "reduced_deck": "on"}, "reduced_deck",
         "The reduced deck is for 4 or 5 players; with 6 seats it would change nothing."),
        ({"no_points": "on", "end": "score", "target_score": "50"}, "no_points",
         "A game without points cannot end at a target score."),
        ({"no_points": "on", "philanthropic": "flat"}, "philanthropic",
         "Philanthropic scoring gives points: it needs a game with points."),
        ({"end": "score"}, "target_score", "Choose the score that ends the game."),
        ({"rounds": ""}, "rounds", "Choose how many rounds to play."),
        ({"rounds": "31"}, "rounds", None),
        ({"seating_ties": "best_of_three"}, "seating_ties", None),
        ({"great_revolution": "never"}, "great_revolution", None),
        ({"merchant_trade_from": "8"}, "merchant_trade_from", None),
    ],
)
def test_options_that_cannot_apply_are_refused_with_the_reason(changes, field, reason):
    form = submit(**changes)
    assert not form.is_valid()
    assert field in form.errors
    if reason:
        assert reason in form.errors[field]


def test_merchant_trade_off_is_fine_at_any_size_whatever_it_would_start_from():
    form = submit(seats="4", merchant_trade="off", merchant_trade_from="7")
    assert form.is_valid(), form.errors


def test_the_help_names_the_rulebook_of_each_option():
    form = TableForm()
    texts = {
        name: " ".join(
            [str(field.help_text)] + [str(label) for _, label in getattr(field, "choices", [])]
        )
        for name, field in form.fields.items()
    }
    assert "French book" in texts["seating_ties"] and "Amigo" in texts["seating_ties"]
    assert "Dutch" in texts["great_revolution"] and "French book" in texts["great_revolution"]
    assert "Amigo" in texts["end"]
    assert "French book" in texts["no_points"]
    assert "Korean-German" in texts["merchant_trade_from"]
    assert "French book" in texts["merchant_trade_from"]


def test_the_new_table_page_offers_every_option(client, alice):
    client.force_login(alice)
    page = client.get(reverse("new_table")).content.decode()
    for name in ("seating_ties", "great_revolution", "end", "no_points",
                 "merchant_trade_from", "target_score", "rounds"):
        assert f'name="{name}"' in page
    assert 'value="open"' in page


def test_a_table_opened_with_options_stores_them(client, alice):
    client.force_login(alice)
    response = client.post(reverse("new_table"), {
        **STANDARD, "seats": "7", "end": "open", "no_points": "on",
        "seating_ties": "until_unique", "great_revolution": "at_once",
        "merchant_trade": "chosen", "merchant_trade_from": "7",
    })
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.engine_options() == Options(
        rounds=None, scoring=False, seating_ties="until_unique", great_revolution="at_once",
        merchant_trade="chosen", merchant_trade_from=7,
    )


def test_a_refused_table_is_not_opened(client, alice):
    client.force_login(alice)
    response = client.post(reverse("new_table"), {
        **STANDARD, "seats": "6", "merchant_trade": "chosen", "merchant_trade_from": "7",
    })
    assert response.status_code == 400
    assert "Merchant trade needs at least 7 players" in response.content.decode()
    assert not Game.objects.exists()


# -- how a table's options are listed ------------------------------------------------------


def listed(options: dict) -> str:
    return " ".join(render_to_string("games/_options.html", {"options": options}).split())


@pytest.mark.parametrize(
    ("options", "shown", "not_shown"),
    [
        # {} is the standard rules (a league's default): it used to crash the page
        ({}, ["10 rounds"], ["No taxes", "points"]),
        ({"rounds": 1}, ["1 round"], []),
        ({"rounds": None, "target_score": 80}, ["reaches 80 points"], ["round"]),
        ({"rounds": 30, "target_score": 80}, ["reaches 80 points", "At most 30 rounds"], []),
        ({"rounds": None}, ["until the host ends it"], ["10 rounds"]),
        ({"scoring": False}, ["No points", "10 rounds"], []),
        ({"seating_ties": "until_unique"}, ["draws again until it is their own"], []),
        ({"great_revolution": "at_once"}, ["The Great Revolution happens at once"], []),
        ({"merchant_trade": "chosen", "merchant_trade_from": 7},
         ["Merchant trade: chosen cards", "only from 7 players"], []),
        ({"merchant_trade": "off", "merchant_trade_from": 7}, [], ["7 players"]),
        ({"first_round_taxes": False}, ["No taxes in the first round"], []),
    ],
)
def test_a_tables_options_are_listed(options, shown, not_shown):
    text = listed(options)
    for words in shown:
        assert words in text
    for words in not_shown:
        assert words not in text


def test_every_combination_of_options_is_listed_without_error():
    values = {
        "end": [{"rounds": 3}, {"rounds": None, "target_score": 40},
                {"rounds": None}, {}],
        "scoring": [True, False],
        "seating_ties": ["tied_redraw", "until_unique"],
        "great_revolution": ["declared", "at_once"],
        "merchant_trade": ["off", "chosen", "random"],
        "merchant_trade_from": [6, 7],
    }
    for end, *rest in itertools.product(*values.values()):
        options = {**end, **dict(zip(list(values)[1:], rest, strict=True))}
        if not options["scoring"] and options.get("target_score"):
            continue
        stored = Options.from_json(options).to_json()
        for shown in (options, stored):
            assert "<li>" in listed(shown)


@pytest.mark.parametrize(
    ("kind", "sentence"),
    [
        ("game_ending", "alice will end the game after this round"),
        ("game_continues", "alice lets the game go on after this round"),
    ],
)
def test_the_log_tells_when_the_host_ends_the_game_after_this_round(kind, sentence):
    from games.core.words import event_sentence

    assert event_sentence({"type": kind, "player": 0}, {0: "alice"}.__getitem__) == sentence


# -- the game page under the new options -------------------------------------------------


@pytest.mark.parametrize(
    ("options", "shown", "not_shown"),
    [
        ({"rounds": None, "target_score": 60}, ["Round 1", "first to 60 points"], ["of None"]),
        ({"rounds": None}, ["Round 1"], ["of None", " of 10"]),
        ({"rounds": 3}, ["Round 1 of 3"], []),
        ({"scoring": False, "seating_ties": "until_unique", "great_revolution": "at_once",
          "merchant_trade": "chosen", "merchant_trade_from": 7},
         ["Round 1 of 2", "whoever draws a rank already drawn draws again"], ["A tie!"]),
    ],
)
def test_the_game_page_shows_a_started_game_under_the_options(
    client, alice, options, shown, not_shown
):
    from tests.helpers import start_table

    game = start_table(alice, bots=6, options=options)
    client.force_login(alice)
    page = " ".join(client.get(f"/t/{game.pk}/").content.decode().split())
    for words in shown:
        assert words in page
    for words in not_shown:
        assert words not in page


# Each value of each option, the others standard; a game page must render for every one.
OPTION_VALUES = {
    "reduced_deck": [True], "first_round_taxes": [False], "tribute_return": ["worst"],
    "merchant_trade": ["chosen", "random"], "master_rule": [True],
    "philanthropic": ["per_position", "flat"], "seating_ties": ["until_unique"],
    "great_revolution": ["at_once"], "merchant_trade_from": [7], "scoring": [False],
    "target_score": [20], "rounds": [None],
}


def _walk():
    yield {}
    for name, values in OPTION_VALUES.items():
        for value in values:
            yield {name: value}
    # And some of everything together.
    yield {"first_round_taxes": False, "tribute_return": "worst", "merchant_trade": "random",
           "master_rule": True, "philanthropic": "per_position", "seating_ties": "until_unique",
           "great_revolution": "at_once", "rounds": 3}


@pytest.mark.django_db
@pytest.mark.parametrize("options", list(_walk()), ids=str)
def test_the_game_page_renders_under_every_option(client, make_user, options):
    from tests.helpers import play_until, start_table

    if options.get("rounds", 0) is None:
        options = {**options, "target_score": None}
    Options.from_json(options)  # each is a valid table
    seats = 7 if options.get("merchant_trade", "off") != "off" else 5
    if options.get("reduced_deck"):
        seats = 5
    host = make_user("walker")
    game = start_table(host, bots=seats - 1, options=options)
    client.force_login(host)
    for _step in range(3):
        assert client.get(f"/t/{game.pk}/").status_code == 200
        game = play_until(game, lambda g, seq=game.seq: g.seq > seq + 10)
        if game.is_over:
            break
    assert client.get(f"/t/{game.pk}/").status_code == 200


def test_a_time_bank_is_chosen_beside_a_limit_per_turn_and_never_alone(client, alice):
    client.force_login(alice)
    refused = client.post(reverse("new_table"), {**STANDARD, "turn_limit": "0",
                                                 "time_bank": "172800"})
    assert "A time bank goes with a time limit per turn" in refused.content.decode()
    assert not Game.objects.exists()
    assert client.post(reverse("new_table"), {**STANDARD, "turn_limit": "43200",
                                              "time_bank": "172800"}).status_code == 302
    game = Game.objects.get()
    assert (game.turn_limit, game.bank_reserve) == (43200, 172800)
    lobby = client.get(game.get_absolute_url()).content.decode()
    assert "time bank: 2 days each" in lobby


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_box_to_tick_has_no_colon_after_its_words(client, make_user, language):
    """"Reduced deck" is ticked, not filled in: no "Jeu réduit :" (Django puts its colon
    after every label), while the fields to fill keep theirs."""
    client.force_login(make_user("host", language=language))
    page = client.get(reverse("new_table")).content.decode()
    deck = {"fr": "Jeu réduit", "en": "Reduced deck"}[language]
    assert f"{deck}</label>" in page and f"{deck}\u00a0:" not in page and f"{deck}:" not in page
    name = {"fr": "Nom de la table", "en": "Table name"}[language]
    assert f"{name}\u00a0:</label>" in page or f"{name}:</label>" in page
