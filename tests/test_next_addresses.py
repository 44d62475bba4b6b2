"""Where a form sends the browser next (`next`, or the page it came from) is a path on
this site or nothing: a bare word is neither a page nor a route's name (it once resolved
as one: "logout" sent the browser to the log-out page, "x" broke the answer after the
change was saved). Whatever it says, the change is made once and the answer redirects."""

import pytest

from games.models import InvitationBlock

pytestmark = pytest.mark.django_db

WORDS = ["x", "logout", "home", "profile", "javascript:alert(1)", "//evil.example/",
         "https://evil.example/"]


@pytest.mark.parametrize("word", WORDS)
def test_the_language_menu_goes_back_only_to_a_page_of_this_site(client, alice, word):
    client.force_login(alice)
    answer = client.post("/accounts/language/", {"language": "nl", "next": word})
    assert answer.status_code == 302 and answer["Location"] == "/"
    alice.refresh_from_db()
    assert alice.language in ("nl", "")
    answer = client.post("/accounts/language/", {"language": "de"}, HTTP_REFERER=word)
    assert answer.status_code == 302 and answer["Location"] == "/"
    answer = client.post("/accounts/language/", {"language": "fr", "next": "/rules/"})
    assert answer["Location"] == "/rules/"


@pytest.mark.parametrize("word", WORDS)
def test_blocking_invitations_goes_back_only_to_a_page_of_this_site(client, alice, bob, word):
    client.force_login(alice)
    answer = client.post("/invitations/block/", {"block": bob.pk, "next": word})
    assert answer.status_code == 302 and answer["Location"] == "/accounts/profile/"
    assert InvitationBlock.objects.filter(user=alice, blocked=bob).count() == 1


@pytest.mark.parametrize("word", WORDS)
def test_signing_up_while_signed_in_goes_on_only_to_a_page_of_this_site(client, alice, word):
    client.force_login(alice)
    answer = client.get("/accounts/signup/", {"next": word})
    assert answer.status_code == 302 and not answer["Location"].startswith(("//", "http"))
    assert answer["Location"] != "/accounts/logout/"


@pytest.mark.parametrize("raw", ["²", "1" * 5000, "-1", "", "x"])
def test_blocking_someone_by_a_number_that_is_not_one_finds_nobody(client, alice, raw):
    client.force_login(alice)
    for field in ("block", "unblock"):
        assert client.post("/invitations/block/", {field: raw}).status_code == 404
    assert not InvitationBlock.objects.exists()


def test_a_refused_form_answers_400_with_its_errors(client, alice):
    """A form sent back with errors is a request refused: 400, the page with the errors,
    nothing made or saved (a new table, the profile)."""
    from games.models import Game

    client.force_login(alice)
    answer = client.post("/tables/new/", {"name": "Big", "seats": "99", "end": "rounds",
                                          "rounds": "10"})
    assert answer.status_code == 400 and 'class="errorlist' in answer.content.decode()
    assert not Game.objects.exists()
    answer = client.post("/accounts/profile/", {
        "display_name": "A", "email": "not an address", "notify": alice.notify,
        "notify_by": alice.notify_by, "language": "", "time_zone": "", "away_until": ""})
    assert answer.status_code == 400 and 'class="errorlist' in answer.content.decode()
    alice.refresh_from_db()
    assert alice.display_name != "A"


@pytest.mark.parametrize("word", WORDS)
def test_an_error_page_for_a_form_leads_back_only_to_a_page_of_this_site(rf, word):
    """Its "Try again" link: the page the form was sent from, by the same rule."""
    from dalmuti_site.errors import return_path

    assert return_path(rf.post("/t/1/act/", HTTP_REFERER=word)) == "/"
    came_from = "http://testserver/t/1/?v=3"
    assert return_path(rf.post("/t/1/act/", HTTP_REFERER=came_from)) == "/t/1/?v=3"
