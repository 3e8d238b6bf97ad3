"""The house's floors: every import points down, and no two modules import each other at import time.

metadata <- emulator <- loaders <- connection <- tasks <- front door <- bench, with the progress
bars and the interrupt flag beneath them all; inside the emulator, store <- soql, sosl <- rest. Read from the installed package's own source (``ast``, nothing run),
every ``import`` counts, also the ones inside functions: a lower floor that needs a higher one
sits on the wrong floor. Imports under ``if TYPE_CHECKING:`` name types only and are left out.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

FLOORS = [
    ("crmarena_sf.progress", "crmarena_sf.interrupts"),
    ("crmarena_sf.metadata",),
    ("crmarena_sf.emulator",),
    ("crmarena_sf.loaders",),
    ("crmarena_sf.connection",),
    ("crmarena_sf.tasks",),
    ("crmarena_sf",),  # the front door: the package's public names, the CLI, the env, the pytest plugin
    ("crmarena_sf.bench",),
]


def floor_of(module: str) -> int:
    """The floor of a module: the longest prefix that names one."""
    best, found = -1, None
    for number, prefixes in enumerate(FLOORS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and len(prefix) > best:
                best, found = len(prefix), number
    assert found is not None, module
    return found


def modules() -> dict[str, Path]:
    """Every module of the installed package and its source file.

    Each floor's package is looked up by name: in an editable install the folders mapped under
    crmarena_sf (emulator/, tasks/ ...) are not inside crmarena_sf/ on disk.
    """
    found: dict[str, Path] = {}
    for prefixes in FLOORS:
        for prefix in prefixes:
            module = importlib.import_module(prefix)
            found[prefix] = Path(module.__file__)
            for info in pkgutil.walk_packages(getattr(module, "__path__", []), prefix + "."):
                spec = info.module_finder.find_spec(info.name.rsplit(".", 1)[-1], None)
                found.setdefault(info.name, Path(spec.origin))
    return found


def imports(name: str, path: Path, known: set[str]) -> list[tuple[str, int, bool]]:
    """(imported module of ours, line, at import time) for every import statement in one module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out = []

    def visit(node: ast.AST, at_import_time: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for orelse in child.orelse:
                    visit(orelse, at_import_time)
                continue
            if isinstance(child, ast.Import):
                for alias in child.names:
                    out.append((_ours(alias.name, known), child.lineno, at_import_time))
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    base = ".".join(parts[: len(parts) - child.level + 1] + ([base] if base else []))
                for alias in child.names:
                    target = f"{base}.{alias.name}"
                    out.append(
                        (_ours(target if target in known else base, known), child.lineno, at_import_time)
                    )
            inner = at_import_time and not isinstance(
                child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
            )
            visit(child, inner)

    visit(tree, True)
    return [(target, line, now) for target, line, now in out if target]


def _ours(module: str, known: set[str]) -> str | None:
    while module and module not in known:
        module = module.rpartition(".")[0]
    return module or None


def test_every_import_points_down_a_floor_or_stays_on_its_own():
    found = modules()
    known = set(found)
    upward = []
    for name, path in sorted(found.items()):
        for target, line, _ in imports(name, path, known):
            if floor_of(target) > floor_of(name):
                upward.append(f"{path.name}:{line} {name} -> {target}")
    assert upward == []


INSIDE_THE_EMULATOR = {
    "crmarena_sf.emulator.store": (
        "crmarena_sf.emulator.soql",
        "crmarena_sf.emulator.sosl",
        "crmarena_sf.emulator.rest",
    ),
    "crmarena_sf.emulator.soql": ("crmarena_sf.emulator.rest",),
    "crmarena_sf.emulator.sosl": ("crmarena_sf.emulator.rest",),
}
"""Inside the emulator the store is the ground floor (the engines follow its events) and the
engines know nothing of the REST API built on them."""


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def test_inside_the_emulator_the_store_imports_no_engine_and_the_engines_no_rest_api():
    found = modules()
    known = set(found)
    upward = []
    for name, path in sorted(found.items()):
        for package, above in INSIDE_THE_EMULATOR.items():
            if not _within(name, package):
                continue
            for target, line, _ in imports(name, path, known):
                if any(_within(target, higher) for higher in above):
                    upward.append(f"{path.name}:{line} {name} -> {target}")
    assert upward == []


def test_no_two_modules_import_each_other_at_import_time():
    found = modules()
    known = set(found)
    graph = {
        name: {target for target, _, now in imports(name, path, known) if now and target != name}
        for name, path in found.items()
    }
    assert _cycles(graph) == []


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on_stack, out = {}, {}, [], set(), []
    counter = [0]

    def connect(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                connect(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return out


def test_the_wheel_installs_one_name_only():
    """Every module of the package is found under crmarena_sf; none of the repository's folders is its own name."""
    names = {name.split(".")[0] for name in modules()}
    assert names == {"crmarena_sf"}
