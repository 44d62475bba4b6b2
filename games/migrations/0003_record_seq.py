from datetime import datetime, timedelta

from django.db import migrations, models
from django.db.models import Max


def _deadline(since: str, turn_limit: int) -> str | None:
    if not turn_limit:
        return None
    return (datetime.fromisoformat(since) + timedelta(seconds=turn_limit)).isoformat()


def number_the_record(apps, schema_editor):
    """Until now the version was the record's sequence; keep both in step for old games,
    and turn old turn tokens (versions) into the new ones (version × 16)."""
    Game = apps.get_model("games", "Game")
    for game in Game.objects.all():
        game.seq = game.actions.aggregate(last=Max("seq"))["last"] or 0
        game.awaiting = {
            player: [wait[0] * 16, wait[1], _deadline(wait[1], game.turn_limit)]
            for player, wait in game.awaiting.items()
        }
        game.save(update_fields=["seq", "awaiting"])


class Migration(migrations.Migration):
    dependencies = [("games", "0002_absent_players_and_notifications")]

    operations = [
        migrations.AddField(
            model_name="game", name="seq",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(number_the_record, migrations.RunPython.noop),
    ]
