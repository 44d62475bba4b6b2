"""The "league organiser" group: runs leagues and their tables from the admin, and may
look people up to add them, but never touches their accounts or credentials."""

from django.db import migrations

GROUP = "league organiser"

PERMISSIONS = {
    "leagues": {
        "league": ("add", "change", "delete", "view"),
        "membership": ("add", "change", "delete", "view"),
        "season": ("add", "change", "delete", "view"),
        "leaguegame": ("add", "change", "delete", "view"),
        "replacement": ("view",),
        "rematch": ("view",),
    },
    "games": {
        "game": ("change", "view"),
        "seat": ("view",),
        "round": ("view",),
        "action": ("view",),
        "invitation": ("view",),
    },
    # Seeing who is who (to add members); no change, add or delete: no passwords.
    "accounts": {"user": ("view",)},
}


def create_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    # Permissions are normally created after all migrations; the group needs them now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None

    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name=GROUP)
    for app_label, models in PERMISSIONS.items():
        for model, actions in models.items():
            codenames = [f"{action}_{model}" for action in actions]
            perms = Permission.objects.filter(
                content_type__app_label=app_label, codename__in=codenames
            )
            if perms.count() != len(codenames):
                raise RuntimeError(f"missing permissions for {app_label}.{model}")
            group.permissions.add(*perms)


def remove_group(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name=GROUP).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("leagues", "0001_initial"),
        ("games", "0001_initial"),
        ("accounts", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_group, remove_group)]
