"""The site's emails as Django sends them, but for their subject; and where `make run`
writes them (var/mail/) without a mail server, as a person reads them."""

from email.header import Header
from email.parser import BytesHeaderParser
from email.policy import default as email_policy

from django.core.mail import EmailMultiAlternatives
from django.core.mail.backends import filebased


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
    """One file per batch of emails, each as it would be sent but with its headers
    written as their values read: a subject, a sender or an address in any language reads
    as itself, not as the encoded words a mail server gets, each header on one line."""

    def write_message(self, message):
        head, _, body = message.message().as_bytes().partition(b"\n\n")
        headers = BytesHeaderParser(policy=email_policy).parsebytes(head + b"\n\n")
        lines = [f"{name}: {str(value).strip()}" for name, value in headers.items()]
        self.stream.write("\n".join(lines).encode() + b"\n\n" + body + b"\n")
        self.stream.write(b"-" * 79 + b"\n")
