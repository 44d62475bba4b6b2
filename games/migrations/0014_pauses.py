"""Pauses of the turn clock, each with its start: vacations and absences running now are
recorded from the earliest moment they can have begun, so no deadline comes sooner.
Table names lose the bidirectional controls that made them read otherwise."""

import django.db.models.deletion
from django.conf import settings
import unicodedata
from datetime import timedelta

from django.db import migrations, models
from django.utils import timezone

# accounts.models.AWAY_DAYS: an absence is announced at most this far ahead.
AWAY_DAYS = 14

# dalmuti_site.text.plain_line as it was when this migration was written.
BIDI = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E,
                                  0x200F, 0x061C))


def plain_line(text):
    text = "".join(c for c in text if c not in BIDI)
    text = "".join(" " if unicodedata.category(c) == "Cc" else c for c in text)
    return " ".join(text.split(" ")).strip()


def plain_table_names(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    for game in Game.objects.only("pk", "name").iterator():
        name = plain_line(game.name)
        if name != game.name:
            Game.objects.filter(pk=game.pk).update(name=name or "?")


def running_pauses(apps, schema_editor):
    Pause = apps.get_model("games", "Pause")
    Seat = apps.get_model("games", "Seat")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    now = timezone.now()
    for seat in Seat.objects.filter(vacation_until__gt=now).exclude(user=None):
        Pause.objects.create(user_id=seat.user_id, game_id=seat.game_id,
                             start=seat.vacation_until - seat.vacation_used,
                             end=seat.vacation_until)
    for user in User.objects.filter(away_until__gt=now):
        Pause.objects.create(user_id=user.pk, start=user.away_until - timedelta(days=AWAY_DAYS),
                             end=user.away_until)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0013_taxes_events_name_players'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('accounts', '0003_time_zone_and_away'),
    ]

    operations = [
        migrations.CreateModel(
            name='Pause',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('start', models.DateTimeField()),
                ('end', models.DateTimeField()),
                ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='pauses', to='games.game')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='pauses', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'indexes': [models.Index(fields=['user', 'end'], name='pause_user_end')],
            },
        ),
        migrations.RunPython(running_pauses, migrations.RunPython.noop),
        migrations.RunPython(plain_table_names, migrations.RunPython.noop),
    ]
