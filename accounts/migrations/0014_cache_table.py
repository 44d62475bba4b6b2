"""The database cache's table, made with the schema: without Redis the login limits and
the pages' shared parts live there, so a site set up with `migrate` alone (not `make`)
must not fail at its first sign-up. Idempotent, like the command it runs; with Redis as
the cache it makes nothing."""

from django.core.management import call_command
from django.db import migrations


def create_cache_table(apps, schema_editor):
    call_command("createcachetable", database=schema_editor.connection.alias, verbosity=0)


class Migration(migrations.Migration):
    dependencies = [("accounts", "0013_new_email")]

    operations = [migrations.RunPython(create_cache_table, migrations.RunPython.noop)]
