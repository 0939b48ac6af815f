"""The layout is enforced, not described: the import contracts hold, and no app hides an import
of another (or of itself) inside a function, where a cycle would go unseen until run time."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PLATFORM = ROOT / "platform"
CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
#: The top-level packages of platform/ (its source folder): the apps, the project and core.
APPS = {p.name for p in PLATFORM.iterdir() if (p / "__init__.py").is_file()}

#: Function-local imports of app modules that are there for a reason other than a cycle.
ALLOWED_LOCAL_IMPORTS = {
    # AppConfig.ready(): roles imports auth models, which can load only once the registry is ready.
    ("annotations/apps.py", "annotations.roles"),
    # django_dramatiq builds the broker's middleware while Django populates its apps, before any
    # model can be imported; the heartbeat (and its model) is imported when a worker boots.
    ("workers/middleware.py", "workers.heartbeat"),
}


def test_import_contracts_are_kept():
    """lint-imports (as scripts/test runs it) passes, checking all three kinds of contract."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(["platform", "."])}
    lint_imports = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run([str(lint_imports), "--no-cache", "--no-logo"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    contracts = {c["id"]: c for c in CONFIG["contracts"]}
    assert {"engines", "api-on-top", "layers"} <= contracts.keys()
    assert contracts["layers"]["type"] == "layers"
    assert {contracts["engines"]["type"], contracts["api-on-top"]["type"]} == {"forbidden"}
    for contract in contracts.values():
        assert f"{contract['name']} KEPT" in proc.stdout, proc.stdout
    assert f"Contracts: {len(contracts)} kept, 0 broken." in proc.stdout


def test_every_platform_package_is_in_the_layers():
    """A new app must take its place in the layers, or the contract would not look at it."""
    layers = next(c for c in CONFIG["contracts"] if c["type"] == "layers")["layers"]
    layered = {name.strip() for layer in layers for name in layer.split("|")}
    assert layered == APPS
    assert set(CONFIG["root_packages"]) >= APPS


def _local_app_imports(path: Path) -> list[tuple[int, str]]:
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if in_function and isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                modules = [child.module]
            elif in_function and isinstance(child, ast.Import):
                modules = [alias.name for alias in child.names]
            else:
                modules = []
            found.extend((child.lineno, m) for m in modules if m.split(".")[0] in APPS)
            visit(child, inside)

    visit(ast.parse(path.read_text(encoding="utf-8"), str(path)), False)
    return found


def test_no_function_local_imports_of_app_modules():
    """Imports of app modules sit at the top of the module, where the contracts and a reader see
    them; the few exceptions are listed above with their reason."""
    hidden, used = [], set()
    for path in sorted(PLATFORM.rglob("*.py")):
        rel = path.relative_to(PLATFORM).as_posix()
        if "/migrations/" in rel:
            continue
        for line, module in _local_app_imports(path):
            if (rel, module) in ALLOWED_LOCAL_IMPORTS:
                used.add((rel, module))
            else:
                hidden.append(f"platform/{rel}:{line} imports {module} inside a function")
    assert not hidden, "move these imports to the top of their module:\n" + "\n".join(hidden)
    assert used == ALLOWED_LOCAL_IMPORTS, f"stale allow-list entries: {ALLOWED_LOCAL_IMPORTS - used}"
