"""A web process, once the site is loaded, sets what it holds aside from the garbage
collector and looks for reference cycles less often (dalmuti_site.serving); each is
checked in a process of its own, as the server starts one."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from dalmuti_site.serving import YOUNG_OBJECTS

ROOT = Path(__file__).resolve().parents[1]


def probe(code: str) -> dict:
    """What `code`, run in a new Python process with the site's settings, prints last."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "dalmuti_site.settings"}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, text=True,
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("module", ["dalmuti_site.asgi", "dalmuti_site.wsgi"])
def test_the_server_s_entry_points_leave_the_loaded_site_to_itself(module):
    seen = probe(
        "import gc, json, sys\n"
        f"import {module}\n"
        "print(json.dumps({'frozen': gc.get_freeze_count(), 'young': gc.get_threshold()[0],"
        " 'views': 'games.views.page' in sys.modules and 'chat.views' in sys.modules}))"
    )
    # The views were imported before the freeze (they are found through the URLs), and
    # Django and the site make well over a hundred thousand lasting objects.
    assert seen["views"]
    assert seen["frozen"] > 50_000
    assert seen["young"] == YOUNG_OBJECTS


def test_the_garbage_of_the_start_is_collected_not_kept():
    seen = probe(
        "import gc, json, weakref, django\n"
        "django.setup()\n"
        "class Junk: pass\n"
        "junk = Junk(); junk.itself = junk; gone = weakref.ref(junk); del junk\n"
        # Only the collection ready_to_serve makes may find the cycle.
        "gc.disable()\n"
        "from dalmuti_site.serving import ready_to_serve\n"
        "ready_to_serve()\n"
        "print(json.dumps({'collected': gone() is None, 'frozen': gc.get_freeze_count()}))"
    )
    assert seen["collected"]
    assert seen["frozen"] > 0
