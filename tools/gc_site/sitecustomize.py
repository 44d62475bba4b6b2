"""Put first on PYTHONPATH of the web processes that `tools.bench_load --gc` starts (Python
imports `sitecustomize` at start-up): each process writes what its garbage collector did
so far (collections per generation, CPU seconds spent in them) to $GC_WATCH_DIR/<pid>.json
after every collection, for the benchmark to read (tools.figures.gc_totals). Not part of
the site; without GC_WATCH_DIR it does nothing."""

import gc
import json
import os
import time

_WATCH_DIR = os.environ.get("GC_WATCH_DIR", "")
_collections = [0, 0, 0]
_seconds = [0.0]
_began = [0.0]


def _watch(phase: str, info: dict) -> None:
    if phase == "start":
        # The collector runs in the thread that made the object that set it off.
        _began[0] = time.thread_time()
        return
    _seconds[0] += time.thread_time() - _began[0]
    _collections[info["generation"]] += 1
    path = os.path.join(_WATCH_DIR, f"{os.getpid()}.json")
    with open(f"{path}.new", "w") as file:
        json.dump({"collections": _collections, "seconds": _seconds[0]}, file)
    os.replace(f"{path}.new", path)


if _WATCH_DIR:
    gc.callbacks.append(_watch)
