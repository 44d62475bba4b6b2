"""A page left open after its visitor signed out (in another tab, or their session ran
out) asks for parts of itself with htmx: the answer is not the login page swapped into
the part asked for (htmx follows the redirect), but a reload of the whole page, which
then goes to the login page as any page does."""

import pytest
from django.test import Client

from tests.helpers import start_table

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


@pytest.fixture
def table(alice, bob):
    return start_table(alice, [bob], bots=2)


def test_a_signed_out_pages_parts_reload_the_page(table):
    stranger = Client()
    asks = [
        ("get", f"/t/{table.pk}/poll/?v=0&me="),
        ("get", f"/t/{table.pk}/log/"),
        ("get", f"/t/{table.pk}/chat/"),
        ("post", f"/t/{table.pk}/act/"),
        ("post", f"/t/{table.pk}/orders/"),
        ("post", f"/t/{table.pk}/chat/post/"),
        ("get", "/accounts/profile/"),
    ]
    for method, path in asks:
        answer = getattr(stranger, method)(path, headers=HTMX)
        assert answer.status_code == 204, (path, answer.status_code)
        assert answer["HX-Refresh"] == "true", path
        # Without htmx, the page itself goes to the login page as before.
        answer = getattr(stranger, method)(path)
        assert answer.status_code == 302 and answer["Location"].startswith(
            "/accounts/login/"), path
