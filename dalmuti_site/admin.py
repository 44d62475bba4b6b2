"""The site's admin: titled for Dalmuti, and its index ordered for the people who use it
(organisers come for their leagues and seasons; the games come next; the rest after)."""

import functools

from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.admin.apps import AdminConfig
from django.contrib.admin.filters import ChoicesFieldListFilter, FieldListFilter
from django.contrib.admin.views.autocomplete import AutocompleteJsonView
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from dalmuti_site.errors import bad_request

# Apps and models in the order an organiser looks for them; anything not named keeps
# Django's alphabetical order after these.
APP_ORDER = ["leagues", "games", "players", "accounts", "chat", "push"]
MODEL_ORDER = {
    "leagues": ["League", "Season", "LeagueGame", "Rematch", "Replacement"],
    "games": ["Game", "Action"],
}


def _rank(order: list[str], name: str) -> tuple[int, str]:
    return (order.index(name) if name in order else len(order), name)


class CapitalChoicesFilter(ChoicesFieldListFilter):
    """A list's filter by a field's choices, each starting with a capital letter as the
    admin's own ("All", "Yes") do: a choice's words are written for the middle of a line
    ("an addition", "given up")."""

    def choices(self, changelist):
        for choice in super().choices(changelist):
            yield {**choice, "display": capfirst(choice["display"])}


# Every model's filter by choices, whichever list names it.
FieldListFilter.register(lambda field: bool(field.choices), CapitalChoicesFilter,
                         take_priority=True)


# The parts of a changelist's address that name a day of its date hierarchy.
DAY_PARTS = ("__year", "__month", "__day")


def unreadable(request) -> bool:
    """Whether the admin's own code would fail on this request: no form or link of the
    admin's sends it, but a hand-made address or a script may, and the admin reads its
    filters, its date hierarchy and its action's choice of rows without a check of its own
    (a NUL byte, which PostgreSQL refuses in a string outright; a day too large for a date;
    a row chosen by something other than its number)."""
    for data in (request.GET, request.POST):
        for key, values in data.lists():
            if "\x00" in key or any("\x00" in value for value in values):
                return True
    return (any(key.endswith(DAY_PARTS) and not (value.isdecimal() and len(value) <= 4)
                for key, value in request.GET.items())
            or any(not (chosen.isdecimal() and len(chosen) <= 18)
                   for chosen in request.POST.getlist("_selected_action")))


def readable_only(view):
    """The site's 400 page ("Nothing was changed") for a request the admin cannot read,
    rather than a server error deep inside it."""

    @functools.wraps(view)
    def checked(request, *args, **kwargs):
        if unreadable(request):
            return bad_request(request)
        return view(request, *args, **kwargs)

    return checked


class PickJsonView(AutocompleteJsonView):
    """The autocomplete's answers name a person as a picker must tell them apart (with
    their username); other objects as they name themselves."""

    def serialize_result(self, obj, to_field_name):
        return {**super().serialize_result(obj, to_field_name),
                "text": getattr(obj, "name_to_pick", None) or str(obj)}


class DalmutiAdminSite(admin.AdminSite):
    site_header = _("Dalmuti administration")
    site_title = _("Dalmuti administration")
    # The index links superusers to the System status page (hosting/).
    index_template = "hosting/admin_index.html"

    def admin_view(self, view, cacheable=False):
        """The admin's own scripts (select2, the calendar, the collapsible fieldsets) write
        `style` attributes: its pages, and only they, let style attributes through. Style
        elements, scripts and other origins stay refused here as on the rest of the site."""
        return csp_update({"style-src-attr": ["'unsafe-inline'"]})(
            super().admin_view(readable_only(view), cacheable))

    def autocomplete_view(self, request):
        return PickJsonView.as_view(admin_site=self)(request)

    def get_urls(self):
        from hosting.views import urls

        return urls(self) + super().get_urls()

    def get_app_list(self, request, app_label=None):
        apps = super().get_app_list(request, app_label)
        for app in apps:
            order = MODEL_ORDER.get(app["app_label"], [])
            app["models"].sort(key=lambda m: _rank(order, m["object_name"]))
        apps.sort(key=lambda a: _rank(APP_ORDER, a["app_label"]))
        return apps


class DalmutiAdminConfig(AdminConfig):
    default_site = "dalmuti_site.admin.DalmutiAdminSite"
