"""A watcher's words were stored under their name already marked "(watching)" in the
writer's language; the mark is now added as each reader reads them, in theirs. Take the
stored marks off."""

from django.conf import settings
from django.db import migrations
from django.utils import translation


def marks() -> list[tuple[str, str]]:
    """What stood before and after the name, in every language of the site."""
    found = []
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            before, after = translation.gettext("%(name)s (watching)").split("%(name)s")
        found.append((before, after))
    return found


def take_marks_off(apps, schema_editor):
    Message = apps.get_model("chat", "Message")
    languages = marks()
    for message in Message.objects.filter(by_watcher=True).exclude(name="").only("pk", "name"):
        for before, after in languages:
            name = message.name
            if (name.startswith(before) and name.endswith(after)
                    and len(name) > len(before) + len(after)):
                message.name = name[len(before):len(name) - len(after)]
                message.save(update_fields=["name"])
                break


class Migration(migrations.Migration):
    dependencies = [("chat", "0003_message_erased")]

    operations = [migrations.RunPython(take_marks_off, migrations.RunPython.noop)]
