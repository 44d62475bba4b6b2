"""The migration that gave every league its organisers: the one who created it, or, with
no creator on record, every organiser (who all had access before); and the admin's
history so far copied into the record that outlives accounts.

Apart from the organisers' tests: those share a ground of leagues and games, which this
migration must not find."""

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Group

from games.models import Action
from leagues.models import AdminRecord, League

from .helpers import make_user

pytestmark = pytest.mark.django_db


def test_an_existing_league_gets_its_creator_as_organiser():
    from importlib import import_module

    from django.apps import apps
    from django.contrib.admin.models import ADDITION
    from django.contrib.contenttypes.models import ContentType

    migration = import_module("leagues.migrations.0003_league_organisers_and_time_limit")
    olga = make_user("olga", is_staff=True)
    olga.groups.add(Group.objects.get(name="league organiser"))
    fred = make_user("fred", is_staff=True)
    fred.groups.add(Group.objects.get(name="league organiser"))
    made = League.objects.create(name="Made", slug="made")
    LogEntry.objects.create(
        user=olga, content_type=ContentType.objects.get_for_model(League),
        object_id=str(made.pk), object_repr="Made", action_flag=ADDITION)
    orphan = League.objects.create(name="Orphan", slug="orphan")
    migration.name_organisers(apps, None)
    assert list(made.organisers.all()) == [olga]
    # No creator on record: every organiser keeps the access they had.
    assert set(orphan.organisers.all()) == {olga, fred}
    assert not Action.objects.exists()
    # The history so far is copied into the record that outlives accounts.
    migration.keep_the_history(apps, None)
    olga.delete()
    record = AdminRecord.objects.get()
    assert (record.actor_name, record.league, record.kind) == ("olga", made, "addition")
