"""Each league names its organisers, and keeps a record of what was done in the admin.

Before this, any member of the "league organiser" group ran every league. So that nothing
stops working, a league's organisers become the group's members who already worked on it
in the admin (its history names them), else, for a league nobody touched, every member of
the group. The admin's history so far is copied into the record that outlives accounts.
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.models import Q


GROUP = "league organiser"
ADDITION, CHANGE, DELETION = 1, 2, 3


def name_organisers(apps, schema_editor):
    League = apps.get_model("leagues", "League")
    LeagueGame = apps.get_model("leagues", "LeagueGame")
    LogEntry = apps.get_model("admin", "LogEntry")
    ContentType = apps.get_model("contenttypes", "ContentType")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    group = list(User.objects.filter(groups__name=GROUP, is_staff=True)
                 .values_list("pk", flat=True))
    types = {(ct.app_label, ct.model): ct.pk for ct in ContentType.objects.filter(
        app_label__in=["leagues", "games"])}
    for league in League.objects.all():
        games = [str(pk) for pk in LeagueGame.objects.filter(league=league)
                 .values_list("game_id", flat=True)]
        touched = LogEntry.objects.filter(
            Q(content_type_id=types.get(("leagues", "league")), object_id=str(league.pk))
            | Q(content_type_id=types.get(("games", "game")), object_id__in=games)
        )
        worked = {entry.user_id for entry in touched} & set(group)
        league.organisers.add(*(worked or group))


def keep_the_history(apps, schema_editor):
    from django.contrib.admin.models import LogEntry as Entry  # only to word the message

    LogEntry = apps.get_model("admin", "LogEntry")
    AdminRecord = apps.get_model("leagues", "AdminRecord")
    League = apps.get_model("leagues", "League")
    Game = apps.get_model("games", "Game")
    LeagueGame = apps.get_model("leagues", "LeagueGame")
    kinds = {ADDITION: "addition", CHANGE: "change", DELETION: "deletion"}
    records = []
    for entry in LogEntry.objects.select_related("user", "content_type"):
        league = game = None
        ct = entry.content_type
        if ct is not None and ct.app_label == "leagues" and ct.model == "league":
            league = League.objects.filter(pk=entry.object_id).first()
        elif ct is not None and ct.app_label == "games" and ct.model == "game":
            game = Game.objects.filter(pk=entry.object_id).first()
            link = LeagueGame.objects.filter(game=game).first() if game else None
            league = link.league if link else None
        records.append(AdminRecord(
            created=entry.action_time, actor=entry.user,
            actor_name=entry.user.username, kind=kinds.get(entry.action_flag, "change"),
            content_type=ct, object_id=entry.object_id or "",
            object_repr=entry.object_repr[:200],
            message=Entry(change_message=entry.change_message).get_change_message(),
            league=league, game=game,
        ))
    AdminRecord.objects.bulk_create(records)


class Migration(migrations.Migration):

    dependencies = [
        ('admin', '0003_logentry_add_action_flag_choices'),
        ('contenttypes', '0002_remove_content_type_name'),
        ('games', '0013_taxes_events_name_players'),
        ('leagues', '0002_league_organiser_group'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='league',
            name='organisers',
            field=models.ManyToManyField(blank=True, help_text='They run this league, its seasons and its tables from the admin.', related_name='organised_leagues', to=settings.AUTH_USER_MODEL, verbose_name='organisers'),
        ),
        migrations.AddField(
            model_name='league',
            name='turn_limit',
            field=models.PositiveIntegerField(choices=[(0, 'No time limit'), (3600, '1 hour'), (43200, '12 hours'), (86400, '1 day'), (259200, '3 days')], default=86400, help_text='For the tables the admin opens for this league, unless a season or the new table says otherwise.', verbose_name='time limit per turn'),
        ),
        migrations.AddField(
            model_name='season',
            name='turn_limit',
            field=models.PositiveIntegerField(blank=True, choices=[(0, 'No time limit'), (3600, '1 hour'), (43200, '12 hours'), (86400, '1 day'), (259200, '3 days')], help_text="Leave empty for the league's.", null=True, verbose_name='time limit per turn'),
        ),
        migrations.CreateModel(
            name='AdminRecord',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created', models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name='when')),
                ('actor_name', models.CharField(max_length=150, verbose_name='by')),
                ('kind', models.CharField(choices=[('addition', 'addition'), ('change', 'change'), ('deletion', 'deletion'), ('reveal', 'look at a game in play')], max_length=16, verbose_name='what')),
                ('object_id', models.CharField(blank=True, max_length=64, verbose_name='record id')),
                ('object_repr', models.CharField(max_length=200, verbose_name='record')),
                ('message', models.TextField(blank=True, verbose_name='details')),
                ('reason', models.CharField(blank=True, max_length=200, verbose_name='reason')),
                ('actor', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='account')),
                ('content_type', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='contenttypes.contenttype', verbose_name='kind of record')),
                ('game', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='games.game', verbose_name='table')),
                ('league', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='leagues.league', verbose_name='league')),
            ],
            options={
                'verbose_name': 'admin record',
                'verbose_name_plural': 'admin records',
                'ordering': ['-created', '-pk'],
                'indexes': [models.Index(fields=['content_type', 'object_id'], name='leagues_adm_content_c90cc7_idx')],
            },
        ),
        migrations.RunPython(name_organisers, migrations.RunPython.noop),
        migrations.RunPython(keep_the_history, migrations.RunPython.noop),
    ]
