"""The house's shape (docs/architecture.md, "Layers"): no circle of modules, no import of
ours hidden in a function without a reason, no module over 700 lines.  `lint-imports` (CI)
checks the layers themselves; this file checks what its contracts cannot."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import grimp

SRC = Path(__file__).resolve().parent.parent / "src" / "burraco"
MAX_LINES = 700


def cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(
                        child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_finder_finds_a_circle() -> None:
    graph = grimp.ImportGraph()
    for name in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(name)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.x")
    graph.add_import(importer="a.y", imported="a.z")
    assert cycles(graph) == [["a.x", "a.y"]]


def test_no_circle_of_modules_in_the_package() -> None:
    sys.path.insert(0, str(SRC.parent))
    graph = grimp.build_graph("burraco", include_external_packages=False)
    found = cycles(graph)
    assert not found, "import circles: " + "; ".join(" ↔ ".join(c) for c in found)


def function_imports(path: Path) -> list[tuple[int, str]]:
    """(line, text) of each import of ours inside a function of ``path``."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    out = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.ImportFrom):
                names = [inner.module or ""] if inner.level == 0 else ["burraco"]
            elif isinstance(inner, ast.Import):
                names = [alias.name for alias in inner.names]
            else:
                continue
            if any(name == "burraco" or name.startswith("burraco.") for name in names):
                out.append((inner.lineno, lines[inner.lineno - 1]))
    return out


def says_why(lines: list[str], number: int) -> bool:
    """The import on line ``number`` (1-based) has a comment: on its line, or on the line
    just above the block of imports it belongs to."""
    at = number - 1
    if "#" in lines[at]:
        return True
    while at > 0:
        above = lines[at - 1].strip()
        if above.startswith("#"):
            return True
        if not above.startswith(("from ", "import ")) and not above.endswith((",", "(")) \
                and above != ")":
            return False
        at -= 1
    return False


def test_an_import_inside_a_function_says_why() -> None:
    """Imports of ours inside functions only delay something heavy (a comment says what):
    none dodges a circle."""
    silent = []
    for path in sorted(SRC.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, text in function_imports(path):
            if not says_why(lines, number):
                silent.append(f"{path.relative_to(SRC.parent)}:{number}: {text.strip()}")
    assert not silent, "imports inside functions with no reason given:\n" + "\n".join(silent)


def test_the_import_check_sees_a_silent_one(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    text = ("def f():\n    x = 1\n    from burraco.engine import cards\n    return cards\n\n"
            "def g():\n    # NumPy loads only here\n    from burraco.env import vector\n"
            "    from burraco.env import masks\n    return vector, masks\n")
    module.write_text(text)
    lines = text.splitlines()
    found = function_imports(module)
    assert [n for n, _ in found] == [3, 8, 9]
    assert [says_why(lines, n) for n, _ in found] == [False, True, True]


def test_no_module_is_over_700_lines() -> None:
    long = {str(p.relative_to(SRC.parent)): n for p in SRC.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"
