from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self):
        from games.core import channel_owners

        from .models import League

        def league_channel(game):
            """A league's channel reaches each of its tables that has none of its own."""
            league = League.objects.filter(league_games__game=game).first()
            return (league, list(league.organisers.all())) if league else None

        channel_owners.register(league_channel)
