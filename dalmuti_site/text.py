"""Plain one-line text written by players (chat messages, display names, table names):
one sanitiser for all of them, so a name cannot read differently from what was typed."""

import re
import unicodedata

from django import forms

# Marks that reorder text on screen (right-to-left overrides and isolates, the
# directional marks): a name or a message could read differently from what was written.
BIDI_CONTROLS = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A),
                                           0x200E, 0x200F, 0x061C))


def plain_line(text: str) -> str:
    """One line of plain text: control characters (newlines, NUL…) become spaces, and
    bidirectional controls are dropped."""
    text = "".join(c for c in text if c not in BIDI_CONTROLS)
    text = "".join(" " if unicodedata.category(c) == "Cc" else c for c in text)
    return " ".join(text.split(" ")).strip()


class PlainLineField(forms.CharField):
    """A form field for a name: cleaned by plain_line before it is checked, so a name
    made only of control characters counts as empty."""

    def to_python(self, value):
        value = super().to_python(value)
        return plain_line(value) if value else value


def one_line(text: str) -> str:
    """Text the site drew (an email's subject, a notification's title) as one line: each
    run of spaces, tabs and line breaks one space. No-break spaces stay: French writes
    one inside « » and before ":", "?" and "!", which a line must not break."""
    return re.sub(r"[ \t\r\n\f\v]+", " ", text).strip(" \t\r\n\f\v")
