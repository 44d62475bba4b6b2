"""One-tap flourishes: playing your rank, as the rulebooks urge ("the Great Dalmuti may be
arrogant or magnanimous, the Peons servile or rebellious, the Merchants fawn on their
betters and scorn the lower ranks"; the Greater Peon shuffles, deals, collects the cards
and serves the coffee; the best chair and the wine for the Dalmutis, a stool, water and
dry bread for the Peons).

A message stores only the key, so every reader sees it in their own language.
"""

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class Flourish:
    key: str
    icon: str
    label: Promise
    text: Promise


BY_TITLE: dict[str, tuple[Flourish, ...]] = {
    "great_dalmuti": (
        Flourish("refreshment", "🍷", _("Demand refreshment"),
                 _("Refreshment, Peons! Wine and sweets for your Great Dalmuti, and be quick "
                   "about it.")),
        Flourish("best_chair", "👑", _("Take the best chair"),
                 _("Make way: the Great Dalmuti takes the most comfortable chair.")),
        Flourish("magnanimous", "🤲", _("Be magnanimous"),
                 _("Your Great Dalmuti feels magnanimous today. You may all keep your crusts "
                   "of bread.")),
    ),
    "lesser_dalmuti": (
        Flourish("toast", "🥂", _("Raise a glass"),
                 _("A toast to the upper ranks! Water for the Peons, naturally.")),
        Flourish("eye_throne", "👀", _("Eye the throne"),
                 _("Enjoy the throne while it lasts, Great Dalmuti…")),
    ),
    "merchant": (
        Flourish("flatter", "🎩", _("Flatter your betters"),
                 _("A masterful play, Your Excellency! Truly masterful.")),
        Flourish("scorn", "🙄", _("Scorn the Peons"),
                 _("Stand aside, Peons: some of us have business to attend to.")),
    ),
    "lesser_peon": (
        Flourish("grovel", "🙇", _("Grovel"),
                 _("Yes, my lord. Of course, my lord. Whatever you say, my lord.")),
        Flourish("grumble", "😤", _("Grumble"),
                 _("Water and dry bread again… One day the Peons will rise!")),
    ),
    "greater_peon": (
        Flourish("deal", "🃏", _("Deal the cards"),
                 _("The Greater Peon shuffles the cards and deals them out, as is their "
                   "humble duty.")),
        Flourish("coffee", "☕", _("Serve the coffee"),
                 _("Coffee is served, Your Highness. Shall I gather up the cards as well?")),
        Flourish("stool", "🪑", _("Sit on the stool"),
                 _("Don't mind me. I'll sit here on my little stool.")),
        Flourish("rebel", "✊", _("Rebel"),
                 _("Enjoy it while it lasts: one round from now you may be fetching the "
                   "coffee yourself!")),
    ),
}

BY_KEY: dict[str, Flourish] = {f.key: f for fs in BY_TITLE.values() for f in fs}


def for_title(title: str | None) -> tuple[Flourish, ...]:
    return BY_TITLE.get(title or "", ())
