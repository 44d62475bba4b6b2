from django.apps import AppConfig, apps
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _

ORGANISER_GROUP = "league organiser"
# What the group may do at all (which leagues and tables: League.organisers, per object).
# Migration 0004 set these on the group; this is kept in step with it.
ORGANISER_PERMISSIONS = {
    "leagues": {
        "league": ("add", "change", "view"),
        "membership": ("add", "change", "delete", "view"),
        "season": ("add", "change", "delete", "view"),
        "leaguegame": ("change", "view"),
        "replacement": ("view",),
        "adminrecord": ("view",),
    },
    "games": {"game": ("change", "view"), "seat": ("view",), "round": ("view",)},
    "accounts": {"user": ("view",)},
}


def organiser_group(using="default", **_signal):
    """The organiser group, made again where a flush of the database (between tests) took
    it away with the rest of what the migrations wrote. A group that exists is left as its
    administrators keep it."""
    from django.contrib.auth.management import create_permissions
    from django.contrib.auth.models import Group, Permission

    if Group.objects.using(using).filter(name=ORGANISER_GROUP).exists():
        return
    for label in ORGANISER_PERMISSIONS:
        create_permissions(apps.get_app_config(label), verbosity=0, using=using)
    group = Group.objects.using(using).create(name=ORGANISER_GROUP)
    group.permissions.set(
        Permission.objects.using(using).get(content_type__app_label=label,
                                            codename=f"{action}_{model}")
        for label, models in ORGANISER_PERMISSIONS.items()
        for model, actions in models.items()
        for action in actions
    )


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self):
        post_migrate.connect(organiser_group, sender=self)
        from games.core import channel_owners

        from .models import League

        def league_channel(game):
            """A league's channel reaches each of its tables that has none of its own."""
            # Asked after every public move: a league without a channel costs one query.
            league = (League.objects.filter(league_games__game=game)
                      .exclude(channel_url="").first())
            return (league, list(league.organisers.all())) if league else None

        channel_owners.register(league_channel)
