"""The site's emails, as Django sends them but for one line: the subject."""

from email.header import Header

from django.core.mail import EmailMultiAlternatives


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
