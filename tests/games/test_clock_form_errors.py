"""A refused vacation or nudge form, sent without htmx, answers with a 4xx and the table
shown again with the form and its error (not a redirect with a flash message); with htmx
the message goes over the table it returns to."""

import pytest

from games import commands
from games.models import TurnLimit
from tests.helpers import make_user, start_table, waiting_humans

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(db):
    players = [make_user(name) for name in ("ana", "ben", "cas")]
    return start_table(players[0], players[1:], bots=1, turn_limit=TurnLimit.HOUR)


def _me(table):
    return waiting_humans(table)[0]


def test_a_vacation_of_an_impossible_length_answers_400_with_the_form_again(client, table):
    me = _me(table)
    client.force_login(me.user)
    answer = client.post(f"/t/{table.pk}/vacation/", {"days": 30})
    page = answer.content.decode()
    assert answer.status_code == 400
    assert "Choose between 1 and 7 days." in page
    # The form is there again, its panel open, with the error inside it.
    form = page.split(f'action="/t/{table.pk}/vacation/"', 1)[1].split("</form>", 1)[0]
    assert "Choose between 1 and 7 days." in form and 'name="days"' in form
    assert '<details class="orders" open>' in page
    me.refresh_from_db()
    assert me.vacation_until is None


def test_a_second_vacation_is_refused_with_a_409_and_the_form_again(client, table):
    me = _me(table)
    commands.start_vacation(table.pk, me.user, 1)
    client.force_login(me.user)
    answer = client.post(f"/t/{table.pk}/vacation/", {"days": 2})
    assert answer.status_code == 409
    assert "Your clock is already paused." in answer.content.decode()


def test_a_nudge_too_early_answers_4xx_with_the_table_and_the_reason(client, table):
    waiting = _me(table)
    other = table.seats.exclude(pk=waiting.pk).exclude(user=None).first()
    client.force_login(other.user)
    answer = client.post(f"/t/{table.pk}/nudge/", {"player": waiting.player})
    assert answer.status_code == 409
    assert "once their turn has lasted" in answer.content.decode()
    malformed = client.post(f"/t/{table.pk}/nudge/", {"player": "x"})
    assert malformed.status_code == 400
    assert "That request was not understood" in malformed.content.decode()


def test_with_htmx_the_refusal_goes_back_to_the_table_with_the_message(client, table):
    me = _me(table)
    client.force_login(me.user)
    answer = client.post(f"/t/{table.pk}/vacation/", {"days": 30}, HTTP_HX_REQUEST="true")
    assert answer.status_code == 302 and answer.url == f"/t/{table.pk}/"
    assert "Choose between 1 and 7 days." in client.get(answer.url).content.decode()
