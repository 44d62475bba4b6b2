"""The Celery app. Tasks are declared in each app's tasks.py and found automatically."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dalmuti_site.settings")

app = Celery("dalmuti_site", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="dalmuti_site.ping")
def ping() -> str:
    """Answer "pong": lets a test prove that a task round-trips through a real worker."""
    return "pong"
