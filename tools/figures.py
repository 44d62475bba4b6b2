"""Small helpers the benchmarks share to print what they measured."""

import json
import os
from pathlib import Path

# The directory that `gc_watched` puts first on the path of the processes it starts.
GC_SITE = Path(__file__).resolve().parent / "gc_site"


def percentiles(values: list[float]) -> str:
    """p50/p95/p99 and the mean of durations in seconds, in milliseconds."""
    if not values:
        return "no samples"
    values = sorted(values)
    pick = lambda q: values[min(len(values) - 1, int(q * len(values)))] * 1000  # noqa: E731
    return (f"n={len(values)} p50 {pick(0.5):.0f} ms  p95 {pick(0.95):.0f} ms  "
            f"p99 {pick(0.99):.0f} ms  (mean {sum(values) / len(values) * 1000:.0f} ms)")


def cpu_seconds(pids: list[int]) -> float:
    """CPU time used so far by these processes (Linux), 0 where unknown."""
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def gc_watched(env: dict[str, str], directory: str) -> dict[str, str]:
    """`env` for processes that write what their garbage collector does to `directory`
    (tools/gc_site/sitecustomize.py; read with `gc_totals`)."""
    path = os.pathsep.join(filter(None, [str(GC_SITE), env.get("PYTHONPATH", "")]))
    return {**env, "PYTHONPATH": path, "GC_WATCH_DIR": directory}


def gc_totals(directory: str, pids: list[int]) -> tuple[list[int], float]:
    """The collections per generation and the CPU seconds spent in them so far by these
    processes (those started with `gc_watched`; a process that collected nothing yet
    counts nothing)."""
    collections, seconds = [0, 0, 0], 0.0
    for pid in pids:
        try:
            written = json.loads((Path(directory) / f"{pid}.json").read_text())
        except (OSError, ValueError):
            continue
        collections = [a + b for a, b in zip(collections, written["collections"], strict=True)]
        seconds += written["seconds"]
    return collections, seconds


class Lines:
    """Printed lines, as the reports write them (`out.write(line)`)."""

    def write(self, text: str) -> None:
        print(text, flush=True)
