from functools import partial

from django.apps import AppConfig, apps
from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_migrate, post_save
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

        from .models import League, LeagueGame

        def league_channel(game):
            """A league's channel reaches each of its tables that has none of its own.
            Asked after every public move, and a league rarely has one: which league's
            channel a table hears (0: none) is kept in the shared cache, forgotten when
            a league or a table's league changes (`forget`)."""
            key = _league_channel_key(game.pk)
            known = cache.get(key)
            if known == 0:
                return None
            league = (League.objects.filter(league_games__game=game)
                      .exclude(channel_url="").first())
            if known is None:
                cache.add(key, league.pk if league else 0, LEAGUE_CHANNEL_SECONDS)
            return (league, list(league.organisers.all())) if league else None

        def forget(sender, instance, **_signal):
            """Forget now and once the change commits: a page that read the leagues in
            between keeps nothing that outlives the change."""
            games = ([instance.game_id] if isinstance(instance, LeagueGame) else
                     list(instance.league_games.values_list("game_id", flat=True)))
            keys = [_league_channel_key(game) for game in games]
            cache.delete_many(keys)
            transaction.on_commit(partial(cache.delete_many, keys))

        channel_owners.register(league_channel)
        for model in (League, LeagueGame):
            post_save.connect(forget, sender=model, dispatch_uid=f"league-channel-{model}")
            post_delete.connect(forget, sender=model, dispatch_uid=f"league-channel-x-{model}")


# How long the shared cache keeps which league's channel a table hears.
LEAGUE_CHANNEL_SECONDS = 3600


def _league_channel_key(game_id: int) -> str:
    return f"league-channel:{game_id}"
