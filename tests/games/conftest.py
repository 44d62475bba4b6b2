import pytest


@pytest.fixture
def eager_tasks():
    """Run Celery tasks in-process, as without a broker, even where one is configured."""
    from dalmuti_site.celery import app

    was = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = was
