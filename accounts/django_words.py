"""Django's own words that a player reads (the password rules under a new password, a
wrong old password), in the site's voice. Django's Dutch says "u" where the site says
"je" to its players; listed here, these words are in the site's catalogues, which win
over Django's. Never imported: the catalogue tools read it."""

from django.utils.translation import gettext_noop, ngettext_lazy

DJANGO_WORDS = (
    gettext_noop("Your password can’t be too similar to your other personal information."),
    gettext_noop("Your password can’t be a commonly used password."),
    gettext_noop("Your password can’t be entirely numeric."),
    ngettext_lazy("Your password must contain at least %(min_length)d character.",
                  "Your password must contain at least %(min_length)d characters."),
    gettext_noop("Your old password was entered incorrectly. Please enter it again."),
)
