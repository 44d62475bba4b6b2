"""The "league organiser" group holds only what running one's own leagues needs.

Which leagues, tables and records an organiser reaches is decided per object by the admin
(League.organisers); the group says what may be done to them at all. Gone: deleting a
league (with its whole history), adding or removing a table's league link (a table moves
between the organiser's own leagues instead), the action record and the invitations (the
table's page in the admin tells its course without private lines), and the rematch links.
"""

from django.db import migrations

GROUP = "league organiser"

PERMISSIONS = {
    "leagues": {
        "league": ("add", "change", "view"),
        "membership": ("add", "change", "delete", "view"),
        "season": ("add", "change", "delete", "view"),
        "leaguegame": ("change", "view"),
        "replacement": ("view",),
        "adminrecord": ("view",),
    },
    "games": {
        "game": ("change", "view"),
        "seat": ("view",),
        "round": ("view",),
    },
    # Looking people up by username or name, to add them as members.
    "accounts": {"user": ("view",)},
}


def least_permissions(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after all migrations; the group needs them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP)
    wanted = []
    for app_label, models in PERMISSIONS.items():
        for model, actions in models.items():
            codenames = [f"{action}_{model}" for action in actions]
            perms = list(Permission.objects.filter(
                content_type__app_label=app_label, codename__in=codenames
            ))
            if len(perms) != len(codenames):
                raise RuntimeError(f"missing permissions for {app_label}.{model}")
            wanted += perms
    group.permissions.set(wanted)


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0003_league_organisers_and_time_limit"),
        ("games", "0013_taxes_events_name_players"),
        ("accounts", "0004_notify_by"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(least_permissions, migrations.RunPython.noop)]
