"""Parts of pages drawn once per process and shown again (dalmuti_site.drawings): the
site's header, a player's standing-orders panel, a hand, the taxes, the seating draw, the
trick, the talk's forms, the notification box. Each page still shows its own reader's name, links
and form tokens, and a change shows at once."""

import re

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from django.utils import translation

from dalmuti_site import drawings
from games.models import Game
from tests.helpers import (
    make_user,
    names,
    play_out,
    play_until,
    start_table,
    templates_drawn,
    waiting_humans,
)

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@pytest.fixture
def drawn(monkeypatch):
    """The templates drawn since the test began, afresh (nothing kept before it)."""
    drawings.forget()
    return templates_drawn(monkeypatch, drawings)


def _signed_in(user) -> Client:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    return client


def _header(page: str) -> str:
    return page[page.index('<header class="site-header">'):page.index("</header>")]


@pytest.mark.django_db
def test_the_header_is_drawn_once_and_shows_each_reader_their_own(drawn):
    ada = make_user("ada", display_name='Ada <b>&"')
    bob = make_user("bob")
    first = _header(_signed_in(ada).get("/rules/").content.decode())
    second = _header(_signed_in(bob).get("/history/?page=2&x=<y>").content.decode())
    assert drawn.count("_site_header.html") == 1
    # Each reader's name (escaped) and page; the page they are on marked, and only it.
    assert '<span class="who">Ada &lt;b&gt;&amp;&quot;</span>' in first
    assert 'href="/players/ada/"' in first and "/players/bob/" not in first
    assert '<span class="who">Bob</span>' in second and not names(second, "Ada")
    assert 'href="/players/bob/"' in second
    assert first.count('aria-current="page"') == 1
    assert '<a href="/rules/" aria-current="page">' in first
    assert second.count('aria-current="page"') == 1
    assert '<a href="/history/" aria-current="page">' in second
    # The language menu brings each back to their own page, its query escaped.
    assert 'name="next" value="/rules/"' in first
    assert 'name="next" value="/history/?page=2&amp;x=%3Cy%3E"' in second
    assert "\ue000" not in first + second


@pytest.mark.django_db
def test_the_header_marks_a_players_own_page_whatever_their_name_is_written_in(drawn):
    zoe = make_user("zoë")
    page = _header(_signed_in(zoe).get(reverse("player", args=["zoë"])).content.decode())
    assert '<a href="/players/zo%C3%AB/" aria-current="page">' in page
    assert page.count('aria-current="page"') == 1


@pytest.mark.django_db
def test_the_header_is_drawn_again_for_what_differs_beyond_the_reader(drawn, client):
    ada = make_user("ada")
    _signed_in(ada).get("/")
    client.get("/")  # signed out: its own links
    with translation.override("de"):
        german = _signed_in(ada).get("/", headers={"accept-language": "de"}).content.decode()
    assert drawn.count("_site_header.html") == 3
    assert "Verlauf" in _header(german)
    # A table awaiting the player: the count is in the header.
    play_until(start_table(ada, [make_user("bob"), make_user("cy"), make_user("dee")]),
               lambda game: any(seat.user == ada for seat in waiting_humans(game)))
    page = _header(_signed_in(ada).get("/").content.decode())
    assert drawn.count("_site_header.html") == 4
    assert 'class="awaiting-count"' in page


@pytest.mark.django_db
def test_each_page_of_a_kept_header_carries_its_own_form_token(drawn):
    ada, bob = make_user("ada"), make_user("bob")
    _signed_in(ada).get("/")
    client = _signed_in(bob)
    page = client.get("/").content.decode()
    assert drawn.count("_site_header.html") == 1
    tokens = set(TOKEN.findall(_header(page)))
    assert len(tokens) == 1
    # Bob's token, which his session accepts (another's would be refused: 403).
    logout = client.post("/accounts/logout/", {"csrfmiddlewaretoken": tokens.pop()})
    assert logout.status_code == 302
    assert client.get("/accounts/profile/").status_code == 302  # signed out


def _orders(page: str) -> str:
    start = page.index('<details class="orders"')
    return page[start:page.index("</section>", start)]


@pytest.mark.django_db
def test_the_standing_orders_panel_is_drawn_once_for_what_it_shows(drawn):
    people = [make_user(name) for name in ("ada", "bob", "cy", "dee")]
    game = start_table(people[0], people[1:])
    pages = {user.username: _orders(_signed_in(user).get(f"/t/{game.pk}/").content.decode())
             for user in people[1:]}
    # Three guests whose orders are alike share one drawing (the host's has her own tools).
    assert drawn.count("games/_orders_panel.html") == 1
    assert len({TOKEN.sub("", page) for page in pages.values()}) == 1
    # A guest changes their orders: their panel shows it, drawn for it.
    client = _signed_in(people[1])
    page = client.get(f"/t/{game.pk}/").content.decode()
    token = TOKEN.search(_orders(page))[1]
    assert '<input type="checkbox" name="auto_pass" checked>' in page  # the default
    answer = client.post(f"/t/{game.pk}/orders/", {"csrfmiddlewaretoken": token})
    assert answer.status_code == 302
    after = _orders(client.get(f"/t/{game.pk}/").content.decode())
    assert '<input type="checkbox" name="auto_pass">' in after
    assert drawn.count("games/_orders_panel.html") == 2
    # The others' panels are as they were.
    other = _orders(_signed_in(people[2]).get(f"/t/{game.pk}/").content.decode())
    assert '<input type="checkbox" name="auto_pass" checked>' in other
    assert drawn.count("games/_orders_panel.html") == 2


@pytest.mark.django_db
def test_the_hosts_panel_shows_the_watch_link_the_page_came_by(drawn):
    ada = make_user("ada")
    game = start_table(ada, [make_user("bob"), make_user("cy"), make_user("dee")])
    game.watch_token = "a-watch-token"
    game.save(update_fields=["watch_token"])
    page = _signed_in(ada).get(f"/t/{game.pk}/", secure=True).content.decode()
    assert 'value="https://testserver/watch/a-watch-token/"' in _orders(page)


def _scoreboard(page: str) -> str:
    return page[page.index('<details class="panel scoreboard"'):page.index("</details>",
                                                                           page.index("score-table"))]


@pytest.mark.django_db
def test_the_scoreboard_is_drawn_once_for_what_it_shows(drawn):
    people = [make_user(name) for name in ("ada", "bob", "cy", "dee")]
    game = play_until(start_table(people[0], people[1:], options={"rounds": 3}),
                      lambda g: g.round_number == 2)
    ada, bob = _signed_in(people[0]), _signed_in(people[1])
    first = _scoreboard(ada.get(f"/t/{game.pk}/").content.decode())
    again = _scoreboard(ada.get(f"/t/{game.pk}/").content.decode())
    theirs = _scoreboard(bob.get(f"/t/{game.pk}/").content.decode())
    # Each reader's own row marked: one drawing for each, kept for the next page.
    assert drawn.count("games/table/_scoreboard.html") == 2
    assert again == first
    assert re.search(r'<tr class="is-me">\s*<th scope="row"><bdi>Ada</bdi>', first)
    assert re.search(r'<tr class="is-me">\s*<th scope="row"><bdi>Bob</bdi>', theirs)
    assert first.count("is-me") == theirs.count("is-me") == 1
    with translation.override("nl"):
        dutch = _scoreboard(ada.get(f"/t/{game.pk}/", headers={"accept-language": "nl"})
                            .content.decode())
    assert drawn.count("games/table/_scoreboard.html") == 3 and dutch != first
    # A round later, a column more.
    play_until(game, lambda g: g.round_number == 3)
    later = _scoreboard(ada.get(f"/t/{game.pk}/").content.decode())
    assert drawn.count("games/table/_scoreboard.html") == 4
    assert later.count("<td data-label=") == first.count("<td data-label=") + 4


def _between(page: str, start: str, end: str) -> str:
    at = page.index(start)
    return page[at:page.index(end, at)]


def _hand(page: str) -> str:
    return _between(page, '<fieldset class="hand', "</fieldset>")


def _trick_as_included(response) -> str:
    """The felt's centre as the page's template drew it before it was kept: the trick's
    template included in the page's own context."""
    page_context = next(c for c in response.context if "to_beat_play" in c and "game" in c)
    return render_to_string("games/table/_trick.html", page_context.flatten())


def _play_if_able(actions: list[dict]) -> dict:
    """Play rather than pass, so that tricks grow."""
    return next((a for a in actions if a["type"] == "play"), actions[0])


def _trick_plays(game: Game) -> list | None:
    """The plays of the trick in play; None between tricks' phases (taxes, trade)."""
    view = game.engine_state().round.view(None)
    return view["trick"]["plays"] if view["phase"] == "play" else None


@pytest.mark.django_db
@pytest.mark.parametrize("plays", [0, 1, 2, "the game over"])
def test_the_trick_is_drawn_once_for_each_way_it_reads(drawn, plays):
    """In play, the centre reads alike to every reader but the one whose play is to beat
    ("You played") or, before the first play of a trick, the one who leads ("Your
    lead") and who won the trick before ("You won this trick"); once the game is over,
    alike to all ("The last play, by…"): one drawing for each, kept for every page
    after; each page's centre is what the trick's template drew in its place, names
    escaped."""
    people = [make_user(name, display_name=f"{name.title()} <b>&") for name in
              ("ada", "bob", "cy", "dee", "eve")]
    game = start_table(people[0], people[1:], options={"rounds": 2})
    if plays == "the game over":
        game = play_out(game, _play_if_able)
    else:
        game = play_until(game, lambda g: g.round_number == 2 and _trick_plays(g) is not None
                          and len(_trick_plays(g)) == plays, _play_if_able)
        assert not game.is_over
    view = game.engine_state().view(None)
    readers = {person.username: _signed_in(person) for person in people}
    for client in readers.values():
        client.get(f"/t/{game.pk}/")  # first looks: what arrived since, numbered
    # From here each page shows what it showed the last time: drawn afresh, and counted.
    drawings.forget()
    drawn.clear()
    centres = {}
    for name, client in readers.items():
        response = client.get(f"/t/{game.pk}/")
        page = response.content.decode()
        assert _trick_as_included(response) in page
        centres[name] = _centre(page)
    assert drawn.count("games/table/_trick.html") == len(set(centres.values()))
    again = {name: _centre(client.get(f"/t/{game.pk}/").content.decode())
             for name, client in readers.items()}
    assert again == centres
    assert drawn.count("games/table/_trick.html") == len(set(centres.values()))
    assert all("<b>" not in centre for centre in centres.values())
    seat_of = {s.user.username: s.player for s in game.seats.select_related("user")}
    if plays == "the game over":
        assert all("The last play, by" in centre for centre in centres.values())
        assert len(set(centres.values())) == 1
    elif plays:
        mover = view["seats"][view["trick"]["plays"][-1]["seat"]]
        for name, centre in centres.items():
            if seat_of[name] == mover:
                assert "You played; the others must beat this:" in centre
            else:
                assert "&lt;b&gt;&amp; played, to beat:" in centre
        assert len(set(centres.values())) == 2
    else:
        leader = view["seats"][view["to_act"]]
        for name, centre in centres.items():
            assert ("Your lead" in centre) == (seat_of[name] == leader)
        assert len(set(centres.values())) == 2


def _centre(page: str) -> str:
    return _between(page, '<div class="centre"', "\n  </div>\n</div>")


@pytest.mark.django_db
def test_a_hand_is_drawn_once_for_what_it_holds(drawn):
    people = [make_user(name) for name in ("ada", "bob", "cy", "dee")]
    game = play_until(start_table(people[0], people[1:]),
                      lambda g: g.state["round"]["phase"] == "play")
    pages = {user.username: _signed_in(user) for user in people}
    first = {name: _hand(client.get(f"/t/{game.pk}/").content.decode())
             for name, client in pages.items()}
    again = _hand(pages["ada"].get(f"/t/{game.pk}/").content.decode())
    # Each reader's own cards, drawn once for them and kept for their next page.
    assert drawn.count("games/table/_hand_panel.html") == 4
    assert again == first["ada"] and len(set(first.values())) == 4
    state = game.engine_state()
    for seat in game.seats.select_related("user"):
        shown = re.findall(r'class="card(?: jester)? rank-(\d+)"', first[seat.user.username])
        assert sorted(map(int, shown)) == sorted(state.view(seat.player)["hand"])
    # A move changes the mover's hand (fewer cards, no longer to choose from) and the next
    # player's (now to choose from): theirs are drawn again, the others' kept.
    mover = waiting_humans(game)[0]
    game = play_until(game, lambda g: waiting_humans(g)[0] != mover)
    moved = {mover.user.username, waiting_humans(game)[0].user.username}
    after = {name: _hand(client.get(f"/t/{game.pk}/").content.decode())
             for name, client in pages.items()}
    assert drawn.count("games/table/_hand_panel.html") == 6
    assert all(after[name] != first[name] for name in moved)
    assert all(after[name] == first[name] for name in first if name not in moved)
    with translation.override("fr"):
        french = _hand(pages["ada"].get(f"/t/{game.pk}/", headers={"accept-language": "fr"})
                       .content.decode())
    assert "Votre main" in french and drawn.count("games/table/_hand_panel.html") == 7


@pytest.mark.django_db
def test_a_kept_hand_to_choose_from_takes_the_pages_own_token(drawn):
    people = [make_user(name) for name in ("ada", "bob", "cy", "dee")]
    game = play_until(start_table(people[0], people[1:]),
                      lambda g: g.state["round"]["phase"] == "taxes" and waiting_humans(g))
    giver = waiting_humans(game)[0]
    _signed_in(giver.user).get(f"/t/{game.pk}/")  # the hand drawn and kept
    client = _signed_in(giver.user)
    form = _between(client.get(f"/t/{game.pk}/").content.decode(), '<form id="move-form"',
                    "</form>")
    assert drawn.count("games/table/_hand_panel.html") == 1
    assert 'class="hand picking"' in form and 'type="checkbox" name="card"' in form
    due = int(re.search(r'data-due="(\d+)"', form)[1])
    cards = re.findall(r'name="card" value="(\d+)"\s*>', form)[:due]
    # This session's token, which it accepts (another's would be refused: 403).
    answer = client.post(f"/t/{game.pk}/act/", {
        "csrfmiddlewaretoken": TOKEN.search(form)[1],
        "turn": re.search(r'name="turn" value="(\d+)"', form)[1],
        "action": "give_back", "card": cards})
    assert answer.status_code == 302
    assert giver.player not in map(int, Game.objects.get(pk=game.pk).awaiting)


@pytest.mark.django_db
def test_the_seating_draw_and_the_taxes_are_drawn_once_for_what_they_show(drawn):
    people = [make_user(name) for name in ("ada", "bob", "cy", "dee", "eve")]
    game = play_until(start_table(people[0], people[1:]),
                      lambda g: g.state["round"]["phase"] == "play")
    pages = {user.username: _signed_in(user).get(f"/t/{game.pk}/").content.decode()
             for user in people}
    # The first round's draw is the same for everybody: one drawing for the table.
    draws = {_between(page, '<details class="panel seating-draw">', "</details>")
             for page in pages.values()}
    assert len(draws) == 1 and drawn.count("games/table/_seating_draw.html") == 1
    draw = draws.pop()
    for _player, card in game.state["seating_draws"][0]:
        assert f'rank-{card}"' in draw
    # The taxes read alike to the merchant, who takes no part, and to nobody else: the
    # others are told what they gave or received. Each drawn once for its words.
    taxes = {name: _between(page, '<div class="taxes">', "</div>") for name, page in pages.items()}
    assert len(set(taxes.values())) == drawn.count("games/table/_taxes.html") == 5
    state = game.engine_state()
    merchant = next(s for s in game.seats.select_related("user")
                    if not state.view(s.player)["taxes"]["gave"]
                    and not state.view(s.player)["taxes"]["received"])
    assert "You gave" not in taxes[merchant.user.username]
    assert "You received" not in taxes[merchant.user.username]
    with translation.override("de"):
        german = _signed_in(people[0]).get(f"/t/{game.pk}/", headers={"accept-language": "de"})
    german_draw = _between(german.content.decode(), '<details class="panel seating-draw">',
                           "</details>")
    assert german_draw != draw and drawn.count("games/table/_seating_draw.html") == 2


def _chat_form(page: str) -> str:
    return _between(page, '<form id="chat-form"', "</form>")


@pytest.mark.django_db
def test_the_talk_form_is_drawn_once_for_each_speaker_and_takes_the_pages_token(drawn):
    people = [make_user(name) for name in ("ada", "bob", "cy", "dee")]
    game = start_table(people[0], people[1:])
    _signed_in(people[0]).get(f"/t/{game.pk}/")
    client = _signed_in(people[0])
    form = _chat_form(client.get(f"/t/{game.pk}/").content.decode())
    assert drawn.count("chat/_form.html") == 1
    # "@" completes to everybody seated but the speaker.
    assert 'data-name="Bob"' in form and 'data-name="Ada"' not in form
    theirs = _chat_form(_signed_in(people[1]).get(f"/t/{game.pk}/").content.decode())
    assert drawn.count("chat/_form.html") == 2 and 'data-name="Ada"' in theirs
    answer = client.post(reverse("chat_post", args=[game.pk]),
                         {"csrfmiddlewaretoken": TOKEN.search(form)[1], "text": "hello"})
    assert answer.status_code == 302
    assert "hello" in client.get(reverse("chat", args=[game.pk])).content.decode()


# The token a one-tap flourish is sent with (said once if sent again): fresh each drawing.
FLOURISH_TOKEN = re.compile(r'name="token" value="([^"]+)"')


def _flourishes(page: str) -> str:
    form = _between(page, '<form id="chat-flourishes"', "</form>")
    return FLOURISH_TOKEN.sub("", TOKEN.sub("", form))


@pytest.mark.django_db
def test_the_flourishes_are_drawn_once_for_each_title_and_take_the_pages_token(drawn):
    people = [make_user(name) for name in ("ada", "bob", "cy", "dee")]
    game = start_table(people[0], people[1:])
    ada = _signed_in(people[0])
    form = _flourishes(ada.get(f"/t/{game.pk}/").content.decode())
    assert drawn.count("chat/_flourishes.html") == 1
    # Her page again, and the talk's own page: the same form, not drawn again.
    again = ada.get(f"/t/{game.pk}/").content.decode()
    assert _flourishes(again) == form
    assert _flourishes(ada.get(reverse("chat", args=[game.pk])).content.decode()) == form
    assert drawn.count("chat/_flourishes.html") == 1
    # ...each with a flourish token of its own.
    first, second = (FLOURISH_TOKEN.search(_between(ada.get(f"/t/{game.pk}/").content.decode(),
                                                    '<form id="chat-flourishes"', "</form>"))[1]
                     for _ in range(2))
    assert first != second
    # Another player, another title: other flourishes.
    bob = _signed_in(people[1])
    theirs = _flourishes(bob.get(f"/t/{game.pk}/").content.decode())
    assert theirs != form and drawn.count("chat/_flourishes.html") == 2
    # A flourish sent from the kept form goes through with the page's own token.
    key = re.search(r'name="flourish" value="([^"]+)"', theirs)[1]
    token = TOKEN.search(_between(bob.get(f"/t/{game.pk}/").content.decode(),
                                  '<form id="chat-flourishes"', "</form>"))[1]
    answer = bob.post(reverse("chat_post", args=[game.pk]),
                      {"csrfmiddlewaretoken": token, "flourish": key})
    assert answer.status_code == 302
    assert game.chat_messages.get().flourish == key


@pytest.mark.django_db
def test_the_notification_box_is_drawn_once_for_what_it_shows(drawn):
    from push.keys import public_key

    people = [make_user(name) for name in ("ada", "bob", "cy", "dee")]
    game = start_table(people[0], people[1:])
    box = '<div class="push-box"'
    for person in people[:2]:
        page = _signed_in(person).get(f"/t/{game.pk}/").content.decode()
        assert f'data-key="{public_key()}"' in _between(page, box, "</div>")
        assert "data-reload" not in _between(page, box, "</div>")
    assert drawn.count("push/_device.html") == 1
    # The profile's box reloads the page once notifications are on: drawn for that.
    profile = _signed_in(people[0]).get(reverse("profile")).content.decode()
    assert 'data-reload="1"' in _between(profile, box, "</div>")
    assert drawn.count("push/_device.html") == 2


def test_only_a_kept_part_with_a_form_asks_for_the_pages_token():
    from django.template import Context

    class Unasked:
        """A page's token that must not be asked for."""

        def __bool__(self):
            raise AssertionError("the token was asked for")

        __str__ = __bool__

    drawings.forget()
    box = drawings.drawn_once("push/_device.html", {"reload": False, "key": "K"},
                              Context({"csrf_token": Unasked()}))
    assert 'data-key="K"' in box
    form = drawings.drawn_once(
        "chat/_flourishes.html",
        {"game": {"pk": 1}, "oob": False, "chat": {"my_title": "", "flourishes": []}},
        Context({"csrf_token": "page-token"}))
    assert 'name="csrfmiddlewaretoken" value="page-token"' in form
