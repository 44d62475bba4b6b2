"""The project's modules import each other one way only.

The layers themselves are import-linter contracts (pyproject.toml, run by `lint-imports`
in CI); this test adds what a layers contract cannot see: no two modules, at any level,
import each other through a loop, counting imports made inside functions.
"""

import grimp

PACKAGES = ("games", "chat", "leagues", "accounts", "players", "dalmuti_site")


def _cycles(graph) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan's algorithm)."""
    modules = sorted(graph.modules)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0

    def visit(module: str) -> None:
        nonlocal counter
        index[module] = low[module] = counter
        counter += 1
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for module in modules:
        if module not in index:
            visit(module)
    return groups


def test_no_module_imports_itself_through_a_loop():
    graph = grimp.build_graph(*PACKAGES, include_external_packages=False)
    assert _cycles(graph) == []


def test_the_cycle_finder_sees_a_loop():
    graph = grimp.ImportGraph()
    for module in ("a", "b", "c"):
        graph.add_module(module)
    graph.add_import(importer="a", imported="b")
    graph.add_import(importer="b", imported="c")
    graph.add_import(importer="c", imported="a")
    assert _cycles(graph) == [["a", "b", "c"]]
