"""Figures for the profile's time zone list, printed (never asserted by timed tests):

    python -m tools.bench_zones [--runs N]

In one process, for each language: the first draw of the select (what a fresh process
reads and works out once), then the median and best of N draws after it (each a new form,
as each page view makes one). It reads no database and writes nothing."""

import argparse
import statistics
import time

from tools.project import setup_django

setup_django()

from django.contrib.auth import get_user_model  # noqa: E402
from django.utils import translation  # noqa: E402

from accounts.forms import ProfileForm  # noqa: E402

User = get_user_model()


def draw(language: str) -> tuple[float, int]:
    """Seconds to make a profile form and draw its time zone select, and the HTML's
    length."""
    with translation.override(language):
        start = time.perf_counter()
        html = str(ProfileForm(instance=User(username="bench"))["time_zone"])
        return time.perf_counter() - start, len(html)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    for language in ("en", "nl", "de", "fr"):
        first, size = draw(language)
        runs = [draw(language)[0] for _ in range(args.runs)]
        print(f"{language}: first {first * 1000:.1f} ms, then median "
              f"{statistics.median(runs) * 1000:.2f} ms, best {min(runs) * 1000:.2f} ms "
              f"({args.runs} draws, {size / 1024:.0f} KiB of HTML)")


if __name__ == "__main__":
    main()
