"""A count of a thousand or more is grouped as the reader's language groups it ("1 185"
in French, "1.185" in German), and a share on a chart is written as the page writes it
("25 %" in French)."""

import pytest
from django.utils import translation

from players.charts import accuracy_chart
from players.reliability import Reliability
from tests.helpers import make_user, play_out, start_table

NBSP = "\u00a0"  # French groups thousands with a no-break space


@pytest.mark.parametrize(("code", "said"), [
    ("en", "based on 1,185 turns in 1,002 games"),
    ("de", "1.185 Zügen in 1.002 Partien"),
    ("fr", f"1{NBSP}185 tours"),
])
def test_the_basis_of_a_players_record_groups_its_thousands(code, said):
    record = Reliability(turns=1185, on_time=1100, timeouts=85, stand_ins=0, games=1002,
                         left=0)
    with translation.override(code):
        assert said in record.basis()


def test_a_chart_of_shares_writes_them_as_the_page_does():
    reviewed = [type("Summary", (), {"accuracy": 87.0})()]
    with translation.override("fr"):
        labels = [tick["label"] for tick in accuracy_chart(reviewed).y_ticks]
    assert labels == ["0\u00a0%", "25\u00a0%", "50\u00a0%", "75\u00a0%", "100\u00a0%"]


@pytest.mark.django_db
def test_the_replay_groups_its_count_of_steps(client):
    tess = make_user("tess", language="de")
    game = play_out(start_table(tess, bots=9, options={"rounds": 5}))
    total = game.actions.count()
    assert total >= 1000, total  # a game long enough to need a separator
    client.force_login(tess)
    page = client.get(f"/history/{game.pk}/replay/?step=1",
                      HTTP_ACCEPT_LANGUAGE="de").content.decode()
    grouped = f"{total // 1000}.{total % 1000:03d}"
    assert f"Schritt 1 von {grouped}" in page
