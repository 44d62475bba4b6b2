from django.conf import settings


def _form(**overrides):
    data = {
        "display_name": "Ana",
        "email": "ana@example.com",
        "notify": "daily",
        "notify_by": "email",
        "language": "nl",
    }
    data.update(overrides)
    return data


def test_an_anonymous_visitor_is_sent_to_log_in(client):
    response = client.get("/accounts/profile/")
    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/accounts/profile/"


def test_it_shows_the_current_settings(client, alice):
    client.force_login(alice)
    response = client.get("/accounts/profile/")
    html = response.content.decode()
    assert response.status_code == 200
    assert 'value="Alice"' in html
    assert 'value="alice@example.com"' in html
    assert 'value="every_turn" required id="id_notify_0" checked' in html
    assert '<option value="" selected>Follow my browser</option>' in html


def test_it_offers_every_notification_choice_and_language(client, alice):
    client.force_login(alice)
    html = client.get("/accounts/profile/").content.decode()
    for label in ("Every turn", "One daily summary", "Never"):
        assert label in html
    for name in ("English", "Nederlands", "Deutsch", "Français"):
        assert name in html


def test_it_saves_the_settings_and_says_so(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/profile/", _form(language=""))
    assert response.status_code == 302
    assert response.url == "/accounts/profile/"

    alice.refresh_from_db()
    assert alice.display_name == "Ana"
    # A confirmed address stays until the new one is confirmed.
    assert (alice.email, alice.new_email) == ("alice@example.com", "ana@example.com")
    assert alice.notify == "daily"
    assert alice.language == ""

    page = client.get(response.url)
    assert "Your profile has been saved." in page.content.decode()


def test_the_header_then_shows_the_new_name(client, alice):
    client.force_login(alice)
    client.post("/accounts/profile/", _form(language=""))
    page = client.get("/")
    assert '<span class="who">Ana</span>' in page.content.decode()


def test_choosing_a_language_also_sets_the_cookie(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/profile/", _form(language="de"))
    alice.refresh_from_db()
    assert alice.language == "de"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    assert client.get("/").headers["Content-Language"] == "de"


def test_following_the_browser_forgets_the_cookie(client, alice):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    client.force_login(alice)
    response = client.post("/accounts/profile/", _form(language=""))
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == ""
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="nl")
    assert page.headers["Content-Language"] == "nl"


def test_it_requires_an_email_address(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/profile/", _form(email=""))
    assert response.status_code == 400
    assert response.context["form"].has_error("email", "required")
    alice.refresh_from_db()
    assert alice.email == "alice@example.com"


def test_an_invalid_form_changes_nothing_not_even_the_header(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/profile/", _form(email="", display_name="Mallory"))
    assert '<span class="who">Alice</span>' in response.content.decode()
    alice.refresh_from_db()
    assert alice.display_name == "Alice"


def test_another_players_address_is_not_refused_but_stays_theirs(client, alice, bob):
    client.force_login(alice)
    response = client.post("/accounts/profile/", _form(email="BOB@example.com"))
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.new_email == "BOB@example.com" and alice.verified_email == "alice@example.com"


def test_it_keeps_your_own_email_address(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/profile/", _form(email="alice@example.com"))
    assert response.status_code == 302


def test_it_refuses_an_unknown_notification_choice_or_language(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/profile/", _form(notify="hourly", language="xx"))
    form = response.context["form"]
    assert form.has_error("notify", "invalid_choice")
    assert form.has_error("language", "invalid_choice")


def test_the_header_links_to_the_profile(client, alice):
    client.force_login(alice)
    assert 'href="/accounts/profile/"' in client.get("/").content.decode()


def _section(page: str, section_id: str) -> str:
    start = page.index(f'id="{section_id}"')
    return page[start:page.index("</section>", start)]


def test_a_sections_answer_shows_in_that_section(client, alice):
    """The standing orders and the channel are saved far down the profile, which the page
    comes back to: their answer is said there, not at the top out of sight."""
    client.force_login(alice)
    page = client.post("/accounts/profile/standing-orders/", {"auto_pass": "on"},
                       follow=True).content.decode()
    said = "Your standing orders are saved."
    assert said in _section(page, "standing-orders")
    assert page.count(said) == 1
    page = client.post("/accounts/profile/channel/", {"action": "remove"},
                       follow=True).content.decode()
    assert "Your channel has been removed." in _section(page, "channel")
    assert page.count("Your channel has been removed.") == 1


def test_the_profiles_own_answer_stays_at_the_top(client, alice):
    client.force_login(alice)
    page = client.post("/accounts/profile/", _form(language="en"), follow=True).content.decode()
    assert page.index("Your profile has been saved.") < page.index('id="main"')


def test_a_refused_save_says_so_at_the_top_with_a_way_to_each_field(client, alice):
    """On a phone the page is long and a refused field may sit far below: the form opens
    with what was refused, each a link to its field."""
    client.force_login(alice)
    response = client.post("/accounts/profile/", _form(away_until="2001-01-01"))
    assert response.status_code == 400
    page = response.content.decode()
    summary = page.split('class="form-errors error-summary"', 1)[1].split("</div>", 1)[0]
    assert 'role="alert"' in page.split('class="form-errors error-summary"', 1)[0][-80:] + summary
    assert 'href="#id_away_until"' in summary and "Choose today or a later day." in summary
    assert page.index("error-summary") < page.index('name="display_name"')
    ok = client.post("/accounts/profile/", _form(), follow=True).content.decode()
    assert "error-summary" not in ok
