"""The tools (benchmarks, the arena, the catalogue compiler) are not part of the site: the
package that setuptools builds leaves them out. (That no app imports them is an
import-linter contract in pyproject.toml.)"""

import tomllib
from pathlib import Path

from setuptools import find_packages

ROOT = Path(__file__).resolve().parents[2]


def _included() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    include = config["tool"]["setuptools"]["packages"]["find"]["include"]
    return find_packages(str(ROOT), include=include)


def test_the_installed_packages_leave_the_tools_out():
    packages = _included()
    assert "games" in packages and "dalmuti_site" in packages
    assert not [p for p in packages if p == "tools" or p.startswith("tools.")]
    assert not [p for p in packages if p == "tests" or p.startswith("tests.")]


def test_the_tools_hold_what_moved_out_of_the_site():
    for name in ("bench", "arena", "bench_table", "bench_load", "soak_bots", "i18n",
                 "i18n_checks", "server"):
        assert (ROOT / "tools" / f"{name}.py").exists()
    for gone in ("games/engine/arena.py", "games/engine/bench.py", "dalmuti_site/i18n.py",
                 "games/management/commands/bench_load.py",
                 "games/management/commands/bench_table.py",
                 "games/management/commands/soak_bots.py"):
        assert not (ROOT / gone).exists(), f"{gone} ships with the site"
