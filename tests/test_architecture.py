"""Structure checks over garp/'s source: the import graph."""

from __future__ import annotations

import ast
from pathlib import Path

import garp

ROOT = Path(garp.__file__).parent
# Each package sits in one layer and imports only from its own layer or lower ones. The root
# modules (paths, errors, datafile, eventlog) are the foundation; scenario definitions sit below
# sim because a simulation is built from one; `garp check` runs simulations, so it lives in sim.
LAYERS = {"garp": 0, "garp.engine": 1, "garp.world": 1, "garp.mind": 2, "garp.scenario": 3, "garp.sim": 4,
          "garp.game": 5, "garp.cli": 6}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, ast.Module]:
    return {_module_name(p): ast.parse(p.read_text(), str(p)) for p in sorted(ROOT.rglob("*.py"))}


def _imports(name: str, tree: ast.Module, known: set[str]) -> set[str]:
    """Every garp module `name` imports, at any depth (function-level and TYPE_CHECKING included)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("garp")}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and node.module.startswith("garp"):
            subs = {f"{node.module}.{a.name}" for a in node.names} & known
            out |= subs or {node.module}
    return {m for m in out if m in known and m != name and not name.startswith(m + ".")}


def import_graph() -> dict[str, set[str]]:
    trees = _modules()
    return {name: _imports(name, tree, set(trees)) for name, tree in trees.items()}


def layer(module: str) -> int:
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS[best]


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path of module names, or None."""
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    stack: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        stack.append(m)
        for d in sorted(graph[m]):
            if state.get(d) == 1:
                return stack[stack.index(d):] + [d]
            if d not in state and (found := visit(d)):
                return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_import_checks_catch_a_cycle_and_an_upward_arrow():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None
    assert layer("garp.sim.wiring") > layer("garp.mind.agent") > layer("garp.world.world")


def test_garp_has_no_import_cycles():
    assert find_cycle(import_graph()) is None


def test_no_module_imports_from_a_higher_layer():
    upward = [f"{m} -> {d}" for m, deps in import_graph().items() for d in deps if layer(d) > layer(m)]
    assert upward == []
