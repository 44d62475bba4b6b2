"""The engine reads no environment: whoever calls it passes what it needs, and the site
reads its configuration in one place (dalmuti_site/settings.py)."""

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"
READERS = {"environ", "getenv", "getenvb", "environb"}


def _reads(source: str) -> set[str]:
    """The ways this source could read the environment: importing ``os``, or naming one
    of its readers."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "os"}
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "os":
            found.add(node.module)
        elif isinstance(node, ast.Attribute) and node.attr in READERS:
            found.add(node.attr)
        elif isinstance(node, ast.Name) and node.id in READERS:
            found.add(node.id)
    return found


def test_no_engine_module_reads_the_environment():
    modules = sorted(ENGINE.rglob("*.py"))
    assert len(modules) > 10
    readers = {str(p.relative_to(ENGINE)): found for p in modules
               if (found := _reads(p.read_text()))}
    assert readers == {}


def test_the_check_sees_a_read():
    assert _reads("import os\nos.environ.get('X')") == {"os", "environ"}
    assert _reads("from os import getenv\ngetenv('X')") == {"os", "getenv"}
    assert _reads("import random\nrandom.random()") == set()
