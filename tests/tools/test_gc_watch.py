"""`tools.bench_load --gc`: the processes it starts write what their garbage collector
did, and the benchmark reads it back for the processes it names."""

import os
import subprocess
import sys

from tools.figures import gc_totals, gc_watched

# Three collections of the youngest generation and one full one, with a cycle to find.
COLLECT = ("import gc\n"
           "class Junk: pass\n"
           "junk = Junk(); junk.itself = junk; del junk\n"
           "gc.collect(0); gc.collect(0); gc.collect(0); gc.collect(2)\n"
           "import os; print(os.getpid())\n")


def collecting_process(env: dict[str, str]) -> int:
    done = subprocess.run([sys.executable, "-c", COLLECT], env=env, text=True,
                          capture_output=True, timeout=60, check=True)
    return int(done.stdout.split()[-1])


def test_a_watched_process_reports_its_collections(tmp_path):
    pid = collecting_process(gc_watched({**os.environ}, str(tmp_path)))
    collections, seconds = gc_totals(str(tmp_path), [pid])
    # At least the ones it asked for (Python may have collected on its own at start-up).
    assert collections[0] >= 3 and collections[2] >= 1
    assert seconds > 0
    # Another process's figures are not counted.
    assert gc_totals(str(tmp_path), [pid + 1]) == ([0, 0, 0], 0.0)


def test_a_process_started_without_the_watch_writes_nothing(tmp_path):
    env = {**os.environ, "PYTHONPATH": gc_watched({}, str(tmp_path))["PYTHONPATH"]}
    env.pop("GC_WATCH_DIR", None)
    collecting_process(env)
    assert list(tmp_path.iterdir()) == []
