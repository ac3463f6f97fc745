"""The imports of ``src/thousand`` form no loop, and no package imports one above it."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

#: each package's layer: a module may import only from its own package or a lower layer
LAYERS: dict[str, int] = {
    "cards": 0,
    "i18n": 0,
    "build": 0,
    "rules": 1,
    "engine": 2,
    "prose": 2,
    "records": 3,
    "bots": 3,
    "openspiel": 4,
    "server": 5,
    "web": 6,
    "client": 6,
    "cli": 7,
    "__main__": 8,
}


def module_name(path: Path) -> str:
    """``thousand.engine.deal`` for ``src/thousand/engine/deal.py``."""
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:`` (imports for the type
    checker alone, never run)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in [child, *runtime_nodes(child)])
            continue
        yield node
        yield from runtime_nodes(node)


def imports(path: Path) -> Iterator[str]:
    """Every ``thousand`` module ``path`` imports when it runs, anywhere in it (at the top or in
    a function's body)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.startswith("thousand"):
                for alias in node.names:  # a module by name, else a name in ``target``
                    sub = f"{target}.{alias.name}"
                    yield sub if sub in MODULES else target
        elif isinstance(node, ast.Import):
            yield from (a.name for a in node.names if a.name.startswith("thousand"))


MODULES = {module_name(p): p for p in (SRC / "thousand").rglob("*.py")}


def graph() -> dict[str, set[str]]:
    return {
        name: {t for t in imports(path) if t in MODULES and t != name}
        for name, path in MODULES.items()
    }


#: imports across the layers that are allowed, each with its reason
ACROSS = {
    # the yardstick bot runs OpenSpiel's ISMCTS on our OpenSpiel game; imported only when it
    # moves, so that the arena can seat it by name (thousand.bots.levels)
    ("thousand.bots.ismcts_bot", "thousand.openspiel"),
}


def package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_no_package_imports_one_above_it() -> None:
    wrong = sorted(
        f"{a} imports {b}"
        for a, targets in graph().items()
        for b in targets
        if package(a)
        and package(b)
        and package(a) != package(b)
        and LAYERS[package(b)] >= LAYERS[package(a)]
        and (a, b) not in ACROSS
    )
    assert not wrong, wrong


def test_the_imports_form_no_loop() -> None:
    edges = graph()
    loops: list[list[str]] = []
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(edges[m]):
            if state.get(t) == 1:
                loops.append([*stack[stack.index(t) :], t])
            elif t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(edges):
        if m not in state:
            visit(m)
    assert not loops, loops[:5]
