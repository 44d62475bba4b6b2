"""What answers the same to everybody reads neither the session nor the database, for a
signed-in browser too: the health check (asked by a load balancer, or by a person who is
signed in), the service worker, which browsers ask for again as pages open, and the
old-style icon's address."""

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("path", "status"),
                         [("/health/", 200), ("/sw.js", 200), ("/favicon.ico", 301)])
def test_a_signed_in_browser_is_answered_without_its_session_or_the_database(
        client, alice, path, status, django_assert_num_queries):
    client.force_login(alice)
    with django_assert_num_queries(0):
        response = client.get(path)
    assert response.status_code == status
    assert not response.wsgi_request.session.accessed
