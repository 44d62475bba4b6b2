from tests.helpers import PASSWORD

NEW_PASSWORD = "a-brand-new-passphrase"


def test_an_anonymous_visitor_is_sent_to_log_in(client):
    response = client.get("/accounts/password/change/")
    assert response.status_code == 302
    assert response.url == "/accounts/login/?next=/accounts/password/change/"


def test_it_changes_the_password_and_keeps_the_user_logged_in(client, alice):
    client.force_login(alice)
    response = client.post(
        "/accounts/password/change/",
        {"old_password": PASSWORD, "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.status_code == 302
    assert response.url == "/accounts/password/change/done/"
    assert client.get(response.url).status_code == 200

    alice.refresh_from_db()
    assert alice.check_password(NEW_PASSWORD)


def test_it_needs_the_old_password(client, alice):
    client.force_login(alice)
    response = client.post(
        "/accounts/password/change/",
        {"old_password": "wrong", "new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
    )
    assert response.context["form"].has_error("old_password", "password_incorrect")
    alice.refresh_from_db()
    assert alice.check_password(PASSWORD)


def test_the_profile_links_to_it(client, alice):
    client.force_login(alice)
    response = client.get("/accounts/profile/")
    assert 'href="/accounts/password/change/"' in response.content.decode()
