"""Small helpers the benchmarks share to print what they measured."""

import os


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


class Lines:
    """Printed lines, as the reports write them (`out.write(line)`)."""

    def write(self, text: str) -> None:
        print(text, flush=True)
