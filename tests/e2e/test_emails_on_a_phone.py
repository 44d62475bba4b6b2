"""The HTML emails as a mail reader shows them (the email's HTML loaded into a page) on a
phone and a laptop, in French and Dutch: nothing wider than the screen, the words at
their size (no desktop-wide layout shrunk to fit), the way to the table and to the
notification settings on screen; and the unsubscribe page the email's footer opens,
which offers the notification settings before giving every email up. Screenshots go to
var/screenshots/emails/."""

from datetime import timedelta
from types import SimpleNamespace
from urllib.parse import parse_qs, urlsplit

import pytest
import time_machine
from django.core import mail
from django.utils import timezone
from playwright.sync_api import expect

from chat import services as chat
from games.commands import notifications
from games.models import TurnLimit
from tests.games.test_emails_away_from_the_site import (
    GRACE,
    _friends,
    _html,
    _sent_to,
    _table,
    _until_waiting_for,
)
from tests.helpers import PASSWORD, deliver_due

from .harness import SIZES, new_context, wider_than_screen

pytestmark = pytest.mark.e2e


@pytest.fixture(params=["fr", "nl"])
def emails_read(request, live_server):
    """Rosa's turn email and daily summary (two tables waiting, a line of talk), in
    `request.param`, and the path of the unsubscribe link of the summary."""
    language = request.param
    ana, rosa = _friends(language)
    game = _until_waiting_for(_table(ana, rosa, "Vrijdagavond aan de keukentafel"), rosa)
    _until_waiting_for(_table(ana, rosa, "Sunday", TurnLimit.THREE_DAYS), rosa)
    deliver_due()  # the news of the starts
    seat = game.seats.get(user=ana)
    chat.post(game, seat, "Rosa, on t'attend pour la revanche, prends ton temps ! 🙂")
    mail.outbox.clear()
    with time_machine.travel(timezone.now() + GRACE):
        deliver_due()
    turn = _html(_sent_to(rosa)[0])
    rosa.notify = rosa.Notify.DAILY
    rosa.save()
    mail.outbox.clear()
    local = timezone.localtime(timezone.now(), rosa.zone)
    with time_machine.travel(local.replace(hour=8, minute=0) + timedelta(days=1), tick=False):
        notifications.for_daily_summaries()
        deliver_due()
    # The summary: the one email that names both tables.
    [summary] = [m for m in _sent_to(rosa) if "Sunday" in m.body and "keukentafel" in m.body]
    unsubscribe = summary.extra_headers["List-Unsubscribe"].strip("<>")
    return SimpleNamespace(language=language, turn=turn, summary=_html(summary),
                           unsubscribe=unsubscribe[unsubscribe.index("/unsubscribe/"):])


def test_the_emails_read_at_a_phones_width_and_lead_on(emails_read, browser, live_server,
                                                       screenshots):
    folder = screenshots / "emails"
    folder.mkdir(exist_ok=True)
    language = emails_read.language
    for size in SIZES:
        context = new_context(browser, size)
        page = context.new_page()
        for name in ("turn", "summary"):
            page.set_content(getattr(emails_read, name))
            page.screenshot(path=str(folder / f"{name}-{language}-{size}.png"), full_page=True)
            assert wider_than_screen(page) == 0, (name, size)
            # The email's own width: a phone's, not a desktop's 980 px shrunk to fit.
            assert page.evaluate("window.innerWidth") == SIZES[size]["width"]
            button = page.locator("a[style*='background']").first
            assert button.is_visible()
            assert page.locator("a[href*='/accounts/profile/#id_notify']").is_visible()
        page.goto(f"{live_server.url}{emails_read.unsubscribe}")
        page.screenshot(path=str(folder / f"unsubscribe-{language}-{size}.png"), full_page=True)
        assert wider_than_screen(page) == 0
        settings_link = page.locator("main a[href='/accounts/profile/#id_notify']")
        assert settings_link.is_visible()
        settings_link.click()
        page.wait_for_load_state()
        assert "/accounts/login/?next=/accounts/profile/" in page.url
        # The link's "#id_notify" comes through the login (and the way to sign up): the
        # settings open at the notifications, not at the profile's top.
        signup = page.locator(".account-links a[href*='next=']").get_attribute("href")
        assert parse_qs(urlsplit(signup).query)["next"] == ["/accounts/profile/#id_notify"]
        page.locator("input[name=username]").fill("rosa")
        page.locator("input[name=password]").fill(PASSWORD)
        page.locator("main button[type=submit]").click()
        page.wait_for_url(f"{live_server.url}/accounts/profile/#id_notify")
        expect(page.locator("#id_notify")).to_be_in_viewport()
        context.close()
