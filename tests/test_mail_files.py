"""`make run` writes emails where a person can read them (var/mail/, the site's default
without EMAIL_HOST): every subject and sender as itself, in every language, not as the
encoded words a mail server gets; and a subject that needs encoding goes to a mail server
starting on the header's own line."""

import os
import subprocess
import sys
from email import message_from_bytes
from email.policy import default as email_policy

import pytest
from django.core.mail import get_connection

from dalmuti_site.mail import Email

SUBJECTS = {"en": "Your turn at “Vrijdag”", "nl": "Jouw beurt: “Vrijdag”",
            "de": "Du bist dran: „Vrijdag“", "fr": "À vous de jouer\u00a0: «\u00a0Vrijdag\u00a0»"}


def test_without_a_mail_server_the_site_writes_emails_to_files():
    environment = {name: value for name, value in os.environ.items() if name != "EMAIL_HOST"}
    shown = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); from django.conf import "
         "settings; print(settings.EMAIL_BACKEND)"],
        capture_output=True, text=True, env=environment, timeout=60, check=True)
    assert shown.stdout.strip() == "dalmuti_site.mail.FileBackend"


@pytest.mark.parametrize("language", sorted(SUBJECTS))
def test_an_email_written_to_a_file_reads_as_itself(tmp_path, language):
    subject = SUBJECTS[language]
    mail = get_connection("dalmuti_site.mail.FileBackend", file_path=tmp_path)
    unsubscribe = "<http://127.0.0.1:8000/unsubscribe/" + "x" * 90 + "/>"
    Email(subject, "Bonjour Zoë,\n", "Dalmuti <dalmuti@localhost>", ["zoë@example.com"],
          headers={"List-Unsubscribe": unsubscribe}, connection=mail).send()
    (written,) = tmp_path.iterdir()
    text = written.read_text("utf-8")
    assert f"\nSubject: {subject}\n" in text
    assert "To: zoë@example.com\n" in text and "Bonjour Zoë," in text
    assert "=?utf-8?" not in text
    # A header the mail server gets folded reads on one line.
    assert f"\nList-Unsubscribe: {unsubscribe}\n" in text


def test_a_long_encoded_subject_starts_on_its_line():
    subject = "The stand-in bot now plays for you at “Friday night at Bram's, with cake”"
    raw = Email(subject, "Hello", "a@example.com", ["b@example.com"]).message().as_bytes()
    assert any(line.startswith(b"Subject: =?utf-8?") for line in raw.split(b"\n"))
    assert message_from_bytes(raw, policy=email_policy)["Subject"] == subject
