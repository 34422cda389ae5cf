"""Structure checks over garp/'s source: the import graph, function length, and ARCHITECTURE.md."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import garp

ROOT = Path(garp.__file__).parent
# Each package sits in one layer and imports only from its own layer or lower ones. The root
# modules (paths, errors, datafile, eventlog, durable, textclean, timeline) are the foundation;
# scenario definitions sit below sim because a simulation is built from one; `garp check` runs
# simulations, so it lives in sim. Three root modules sit higher: crash recovery opens a run's
# store and logs through the deferred log (sim), and `garp doctor` / `garp report` are command
# front-ends like the CLI (doctor probes the engine, report reads scenario goals).
LAYERS = {"garp": 0, "garp.engine": 1, "garp.world": 1, "garp.mind": 2, "garp.scenario": 3, "garp.sim": 4,
          "garp.recovery": 4, "garp.game": 5, "garp.cli": 6, "garp.doctor": 6, "garp.report": 6}
MAX_FUNCTION_LINES = 40


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


def long_functions(limit: int = MAX_FUNCTION_LINES) -> list[str]:
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                length = node.end_lineno - first + 1
                if length > limit:
                    out.append(f"{path.relative_to(ROOT.parent)}:{node.lineno} {node.name} ({length} lines)")
    return out


def test_no_function_in_garp_is_longer_than_40_lines():
    assert long_functions() == []


# --- ARCHITECTURE.md stays true ---------------------------------------------------------------
DOC = ROOT.parent / "ARCHITECTURE.md"


def emitted_kinds() -> set[str]:
    """Event kinds the code emits: the literal first argument of every `.emit(...)` and of the
    world's `._emit(...)`."""
    kinds = set()
    for path in ROOT.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("emit", "_emit") and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                kinds.add(node.args[0].value)
    return kinds


def documented_kinds() -> set[str]:
    text = DOC.read_text()
    block = re.search(r"Event log kinds:(.*?)(?:\n- |\n\n)", text, re.S)
    assert block, "ARCHITECTURE.md: no 'Event log kinds:' list"
    return set(re.findall(r"`([a-z_]+)`", block.group(1)))


def test_architecture_lists_exactly_the_event_kinds_the_code_emits():
    assert documented_kinds() == emitted_kinds()


def test_every_package_has_a_readme_saying_what_it_owns_and_may_import():
    packages = [p.parent for p in ROOT.rglob("__init__.py") if p.parent != ROOT]
    missing = [str(p.relative_to(ROOT.parent)) for p in packages if not (p / "README.md").is_file()]
    vague = [str(p.relative_to(ROOT.parent)) for p in packages
             if (p / "README.md").is_file() and "May import" not in (p / "README.md").read_text()]
    assert missing == [] and vague == []
