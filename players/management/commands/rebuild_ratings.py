"""Recompute every rating from the finished games' action records alone:

    python manage.py rebuild_ratings           # replace the stored ratings with the recomputed ones
    python manage.py rebuild_ratings --check   # only compare; exit status 1 if any differs

Each finished game is replayed by the engine from its record (games.read.replay.rebuild_state)
to get its final standings, in the order the games ended, and rated as it was when it
ended (players.services). Nothing stored about ratings, rounds or states is read.
"""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from games.models import Game
from games.read.replay import rebuild_state
from players import services
from players.models import Rating, RatingChange


class Command(BaseCommand):
    help = "Recompute every rating from the games' action records (--check only compares)."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true",
                            help="compare with the stored ratings and change nothing")

    def handle(self, *args, check=False, **options):
        table: dict = {}
        steps: list = []
        replayed, unreadable = 0, []
        games = Game.objects.filter(status=Game.Status.FINISHED).order_by("finished", "pk")
        for game in games.iterator(chunk_size=50):
            state = rebuild_state(game)
            if state is None or not state.is_over:
                unreadable.append(game.pk)
                continue
            replayed += 1
            current = {key: (mu, sigma) for key, (mu, sigma, _n) in table.items()}
            for key, step in services.compute(services.entrants(game, state), current).items():
                table[key] = (step.mu, step.sigma, table.get(key, (0, 0, 0))[2] + 1)
                steps.append((key, game, step))
        stored = {services.key_of(r): (r.mu, r.sigma, r.games) for r in Rating.objects.all()}
        differ = sorted((k for k in set(table) | set(stored) if table.get(k) != stored.get(k)),
                        key=repr)
        self.stdout.write(
            f"{replayed} finished games replayed from their records"
            f" ({len(unreadable)} could not be: {unreadable}); {len(table)} ratings;"
            f" {len(differ)} differ from the stored ones."
        )
        for key in differ:
            self.stdout.write(f"  {key}: stored {stored.get(key)}, recomputed {table.get(key)}")
        if check:
            if differ:
                raise CommandError("the stored ratings differ from the records")
            return
        with transaction.atomic():
            services.forget_ratings()
            rows = {}
            for key, (mu, sigma, n) in table.items():
                fields = {"user_id": key[1]} if key[0] == "user" else {"bot_level": key[1]}
                rows[key] = Rating.objects.create(mu=mu, sigma=sigma, games=n, **fields)
            RatingChange.objects.bulk_create(
                RatingChange(rating=rows[key], game=game, place=s.place, players=s.players,
                             mu_before=s.mu_before, sigma_before=s.sigma_before, mu=s.mu,
                             sigma=s.sigma)
                for key, game, s in steps
            )
        self.stdout.write(f"Stored {len(table)} ratings and {len(steps)} rating changes.")
