"""The site's emails as Django sends them, but for their subject; and where `make run`
writes them (var/mail/) without a mail server, as a person reads them."""

from email import message_from_bytes
from email.header import Header
from email.policy import default as email_policy

from django.core.mail import EmailMultiAlternatives
from django.core.mail.backends import filebased

# Every header written again from its value, in UTF-8 and on one line (not as the
# encoded words a mail server gets).
READABLE = email_policy.clone(utf8=True, refold_source="all", max_line_length=None)


class Email(EmailMultiAlternatives):
    """An email whose encoded subject (one with a table's name in quotes, or in any
    language but English) starts on the header's own line. Django encodes it without
    counting "Subject: ", so a subject near a line's length was folded before its first
    word, and read with a leading space."""

    def message(self):
        message = super().message()
        if not self.subject.isascii():
            message.replace_header(
                "Subject", Header(self.subject, self.encoding or "utf-8",
                                  header_name="Subject").encode())
        return message


class FileBackend(filebased.EmailBackend):
    """One file per batch of emails, each as it would be sent but with its headers in
    plain UTF-8: a subject, a sender or an address in any language reads as itself, not
    as the encoded words a mail server gets."""

    def write_message(self, message):
        sent = message_from_bytes(message.message().as_bytes(), policy=email_policy)
        self.stream.write(sent.as_bytes(policy=READABLE) + b"\n")
        self.stream.write(b"-" * 79 + b"\n")
