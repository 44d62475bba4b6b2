"""The outbox of account emails; display names lose the bidirectional controls that made
them read otherwise."""

import unicodedata

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


# dalmuti_site.text.plain_line as it was when this migration was written.
BIDI = frozenset(chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E,
                                  0x200F, 0x061C))


def plain_line(text):
    text = "".join(c for c in text if c not in BIDI)
    text = "".join(" " if unicodedata.category(c) == "Cc" else c for c in text)
    return " ".join(text.split(" ")).strip()


def plain_display_names(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    for user in User.objects.exclude(display_name="").only("pk", "display_name").iterator():
        name = plain_line(user.display_name)
        if name != user.display_name:
            User.objects.filter(pk=user.pk).update(display_name=name)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0004_notify_by'),
    ]

    operations = [
        migrations.CreateModel(
            name='OutgoingEmail',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('confirm', 'Confirm an address'), ('address_taken', 'A sign-up with an address that has an account'), ('password_reset', 'Password reset')], max_length=16, verbose_name='kind')),
                ('to', models.EmailField(max_length=254, verbose_name='to')),
                ('subject', models.CharField(max_length=200, verbose_name='subject')),
                ('text', models.TextField(blank=True)),
                ('html', models.TextField(blank=True)),
                ('status', models.CharField(choices=[('pending', 'pending'), ('sending', 'sending'), ('sent', 'sent'), ('failed', 'given up')], db_index=True, default='pending', max_length=8, verbose_name='status')),
                ('due', models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name='next try')),
                ('created', models.DateTimeField(auto_now_add=True, verbose_name='written')),
                ('claimed', models.DateTimeField(blank=True, null=True)),
                ('sent', models.DateTimeField(blank=True, null=True, verbose_name='sent')),
                ('attempts', models.PositiveSmallIntegerField(default=0, verbose_name='tries')),
                ('note', models.CharField(blank=True, max_length=120, verbose_name='last failure')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='account_emails', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
            options={
                'verbose_name': 'account email',
                'verbose_name_plural': 'account emails',
                'ordering': ['due'],
            },
        ),
        migrations.RunPython(plain_display_names, migrations.RunPython.noop),
    ]
