import re

import pytest
from django.contrib.auth import get_user_model

from games import commands

User = get_user_model()

NEW_PASSWORD = "a-long-and-unusual-passphrase"


def _form(**overrides):
    data = {
        "username": "carol",
        "email": "carol@example.com",
        "password1": NEW_PASSWORD,
        "password2": NEW_PASSWORD,
    }
    data.update(overrides)
    return data


def test_it_shows_the_form_with_labelled_fields(client):
    response = client.get("/accounts/signup/")
    assert response.status_code == 200
    for name in ("username", "email", "password1", "password2"):
        assert f'for="id_{name}"' in response.content.decode()


def test_it_creates_the_account_and_logs_the_user_in(client):
    response = client.post("/accounts/signup/", _form())
    assert response.status_code == 302
    assert response.url == "/accounts/welcome/"

    carol = User.objects.get(username="carol")
    assert carol.email == "carol@example.com"
    assert carol.check_password(NEW_PASSWORD)
    assert client.session["_auth_user_id"] == str(carol.pk)


def test_it_requires_an_email_address(client):
    response = client.post("/accounts/signup/", _form(email=""))
    assert response.status_code == 400
    assert response.context["form"].has_error("email", "required")
    assert not User.objects.exists()


def test_an_email_address_already_in_use_gets_the_same_answer(client, alice):
    response = client.post("/accounts/signup/", _form(email="ALICE@example.com"))
    assert response.status_code == 302 and response.url == "/accounts/welcome/"
    carol = User.objects.get(username="carol")
    assert carol.email == "ALICE@example.com" and not carol.email_verified


def test_it_refuses_a_username_already_taken_in_another_case(client, alice):
    response = client.post("/accounts/signup/", _form(username="Alice"))
    assert response.context["form"].has_error("username")


@pytest.mark.parametrize("field", ["username", "email", "password1"])
def test_a_nul_byte_in_any_field_is_refused_with_a_word(client, field, settings):
    """As a browser never sends it, but a script may: the form says what is wrong, and the
    database is never asked (PostgreSQL refuses a NUL in a string outright)."""
    settings.DEBUG = False
    client.raise_request_exception = False
    response = client.post("/accounts/signup/", _form(**{field: "car\x00ol"}))
    assert response.status_code == 400
    assert "Null characters are not allowed." in response.content.decode()
    assert not User.objects.exists()


def test_a_time_zone_the_browser_cannot_have_sent_is_the_sites(client, settings):
    """The hidden zone is the browser's to fill: whatever else comes is no zone, not an
    error on a field nobody sees."""
    for i, zone in enumerate(["Europe/Ber\x00lin", "Mars/Olympus", "../../etc/passwd"]):
        client.logout()
        response = client.post("/accounts/signup/", _form(username=f"carol{i}",
                                                          time_zone=zone))
        assert response.status_code == 302, zone
        assert User.objects.get(username=f"carol{i}").time_zone == ""


@pytest.mark.parametrize(
    "password, code",
    [
        ("short1!", "password_too_short"),
        ("password123", "password_too_common"),
        ("84736251940387", "password_entirely_numeric"),
        ("carol-example", None),
    ],
)
def test_it_applies_the_password_validators(client, password, code):
    response = client.post("/accounts/signup/", _form(password1=password, password2=password))
    assert response.status_code == 400
    assert response.context["form"].has_error("password2", code)
    assert not User.objects.exists()


def test_it_refuses_two_different_passwords(client):
    response = client.post("/accounts/signup/", _form(password2=NEW_PASSWORD + "x"))
    assert response.context["form"].has_error("password2", "password_mismatch")


def test_an_error_is_tied_to_its_field(client):
    response = client.post("/accounts/signup/", _form(email="not an address"))
    html = response.content.decode()
    assert 'id="id_email_error"' in html
    assert 'aria-describedby="id_email_helptext id_email_error"' in html


def test_it_carries_next_into_the_form(client):
    response = client.get("/accounts/signup/?next=/join/abc/")
    assert '<input type="hidden" name="next" value="/join/abc/">' in response.content.decode()


def test_it_honours_a_safe_next(client):
    response = client.post("/accounts/signup/?next=/join/abc/", _form())
    assert response.status_code == 302
    assert response.url == "/accounts/welcome/?next=%2Fjoin%2Fabc%2F"
    page = client.get(response.url).content.decode()
    assert 'href="/join/abc/"' in page


def test_it_ignores_an_off_site_next(client):
    response = client.post("/accounts/signup/", _form(next="https://evil.example.com/"))
    assert response.url == "/accounts/welcome/"
    assert User.objects.filter(username="carol").exists()


def test_a_logged_in_user_is_sent_on_to_next(client, alice):
    client.force_login(alice)
    response = client.get("/accounts/signup/?next=/join/abc/")
    assert response.status_code == 302
    assert response.url == "/join/abc/"


def test_the_header_offers_sign_up_to_a_visitor(client):
    response = client.get("/")
    assert 'href="/accounts/signup/"' in response.content.decode()


def test_probing_usernames_from_one_browser_is_limited(client, alice, settings):
    settings.SIGNUP_ATTEMPT_LIMIT = 3
    client.cookies["csrftoken"] = "p" * 32
    for _ in range(3):
        answer = client.post("/accounts/signup/", _form(username="alice"))
        assert answer.status_code == 400
    answer = client.post("/accounts/signup/", _form(username="alice"))
    assert answer.status_code == 429 and "Retry-After" in answer.headers
    assert "Too many sign-ups from here" in answer.content.decode()
    # Not even the refusal says whether the name is taken; the form keeps what was typed.
    assert "already exists" not in answer.content.decode()
    assert 'value="alice"' in answer.content.decode()
    assert not User.objects.filter(email="carol@example.com").exists()


def _continue_button(page: str) -> tuple[str, str]:
    return re.search(r'<a class="button big" href="([^"]*)">(.*?)</a>', page, re.S).groups()


def test_the_welcome_says_which_table_continue_leads_to(client, alice, bob):
    """A newcomer who came by a table's link goes on to that table, and is told so by
    its name; a table they may not see is not named, whatever `next` says."""
    game = commands.create_table(alice, "Thursday night", 5, {"rounds": 2})
    secret = commands.create_table(bob, "Bob's secret", 5, {"rounds": 2})
    response = client.post(f"/accounts/signup/?next=/join/{game.invite_token}/", _form())
    page = client.get(response.url).content.decode()
    assert _continue_button(page) == (f"/join/{game.invite_token}/",
                                      "Continue to “Thursday night”")
    page = client.get("/accounts/welcome/", {"next": f"/t/{secret.pk}/"}).content.decode()
    assert _continue_button(page) == (f"/t/{secret.pk}/", "Continue")
    assert "Bob's secret" not in page and "Bob&#x27;s secret" not in page
    page = client.get("/accounts/welcome/", {"next": "/join/no-such-token/"}).content.decode()
    assert _continue_button(page)[1] == "Continue"
    assert _continue_button(client.get("/accounts/welcome/").content.decode())[1] == "Continue"
    # A table's page names it to someone seated there.
    commands.join(secret.pk, User.objects.get(username="carol"))
    page = client.get("/accounts/welcome/", {"next": f"/t/{secret.pk}/"}).content.decode()
    assert _continue_button(page)[1] == "Continue to “Bob&#x27;s secret”"
