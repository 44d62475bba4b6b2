"""Display names and table names are shown as typed: the bidirectional controls that make
text read otherwise (U+202E and friends) are dropped by the one sanitiser chat uses, on
every path that sets a name."""

import pytest
from django.contrib.auth import get_user_model

from dalmuti_site.text import BIDI_CONTROLS, plain_line
from games import commands
from games.models import Game
from tests.helpers import make_user

pytestmark = pytest.mark.django_db

RLO, PDF, LRI, PDI, RLM, ALM = "\u202e", "\u202c", "\u2066", "\u2069", "\u200f", "\u061c"
TRICKY = f"{RLO}gnp.exe{PDF} {LRI}Ana{PDI}{RLM}{ALM}"


def _profile(client, user, **changes):
    data = {"display_name": user.display_name, "email": user.email, "notify": user.notify,
            "notify_by": user.notify_by, "language": "", "time_zone": "", "away_until": ""}
    data.update(changes)
    client.force_login(user)
    return client.post("/accounts/profile/", data)


def _new_table(client, name):
    return client.post("/tables/new/", {
        "name": name, "seats": 5, "end": "rounds", "rounds": 10,
        "tribute_return": "choice", "merchant_trade": "off", "philanthropic": "off",
    })


def test_the_sanitiser_drops_every_bidi_control_and_nothing_else():
    assert {chr(c) for c in range(0x202A, 0x202F)} <= BIDI_CONTROLS
    assert {chr(c) for c in range(0x2066, 0x206A)} <= BIDI_CONTROLS
    assert {"\u200e", "\u200f", "\u061c"} <= BIDI_CONTROLS
    assert plain_line(TRICKY) == "gnp.exe Ana"
    assert plain_line("Zoë ʻOhana 王") == "Zoë ʻOhana 王"


def test_the_profile_stores_a_display_name_without_controls(client):
    user = make_user("ana")
    assert _profile(client, user, display_name=TRICKY).status_code == 302
    user.refresh_from_db()
    assert user.display_name == "gnp.exe Ana"


def test_a_display_name_of_controls_only_is_no_name(client):
    user = make_user("ana")
    _profile(client, user, display_name=RLO + PDF)
    user.refresh_from_db()
    assert user.display_name == "" and user.name == "ana"


def test_the_new_table_form_stores_the_name_without_controls(client):
    client.force_login(make_user("ana"))
    assert _new_table(client, f"Friday {RLO}night").status_code == 302
    assert Game.objects.get().name == "Friday night"


def test_a_table_name_of_controls_only_is_refused(client):
    client.force_login(make_user("ana"))
    answer = _new_table(client, RLO + LRI)
    assert answer.status_code in (200, 400)
    assert "This field is required" in answer.content.decode()
    assert not Game.objects.exists()


def test_every_other_path_that_sets_a_name_is_covered():
    user = get_user_model().objects.create_user("bo", "bo@example.com", "x",
                                                display_name=f"{RLO}Bo")
    assert user.display_name == "Bo"
    game = commands.create_table(user, f"{RLO}League night", 4, {"rounds": 1})
    game.refresh_from_db()
    assert game.name == "League night"
    game.name = f"Renamed{LRI}"
    game.save()
    game.refresh_from_db()
    assert game.name == "Renamed"
