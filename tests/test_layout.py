"""The layout rules the code is kept to (docs/ARCHITECTURE.md, "Rooms").

- Nothing under cardio_assets/logic/ or cardio_assets/terminology/ imports Dagster or the
  resources/ package: pure logic that the CLI, the benchmarks and the tests run directly.
  Each module is imported alone (in a fork of a fresh interpreter), so a dependency that
  only another module happens to import first cannot hide, and every import statement is read from the
  source, so one deferred into a function cannot hide either.
- No module outside tests/ and the data generators is over 700 lines.
- Loading the code location does not import the Neo4j driver: every run's process (and its
  fork server) loads the definitions, and the driver pulls in pandas through its optional
  support, seconds per process; only the neo4j_graph step and the CLI's graph commands need it.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PURE_PACKAGES = ("cardio_assets/logic", "cardio_assets/terminology")
MAX_LINES = 700


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


PURE_MODULES = sorted(
    _module_name(path) for package in PURE_PACKAGES for path in (ROOT / package).rglob("*.py")
)


def test_the_pure_packages_have_modules() -> None:
    assert "cardio_assets.logic.grounding" in PURE_MODULES
    assert "cardio_assets.terminology.store" in PURE_MODULES
    assert len(PURE_MODULES) > 20


# One fresh interpreter imports the third-party packages the pure modules name (none of them
# imports Dagster: checked), then forks a child per module that imports that module alone and
# reports what it pulled in. A fork of that clean parent is as fresh as a new interpreter for
# this question, without paying the libraries' import once per module.
_FORKED_IMPORTS = """
import importlib, json, os, sys
modules, libraries = json.loads(sys.stdin.read())
for library in libraries:
    try:
        importlib.import_module(library)
    except ImportError:
        pass  # a name imported from a module, not a module; or an optional dependency
preloaded = sorted(m for m in sys.modules if m.split('.')[0] in ('dagster', 'resources'))
if preloaded:
    sys.exit('the preloaded libraries import ' + ','.join(preloaded))
results = {}
for module in modules:
    read, write = os.pipe()
    if os.fork() == 0:
        os.close(read)
        try:
            importlib.import_module(module)
            bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dagster', 'resources'))
            report = {'imports': bad}
        except BaseException as exc:
            report = {'error': f'{type(exc).__name__}: {exc}'}
        os.write(write, json.dumps(report).encode())
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as pipe:
        results[module] = json.loads(pipe.read() or '{"error": "the child died"}')
    os.wait()
print(json.dumps(results))
"""


def _third_party_libraries() -> list[str]:
    """The third-party modules the pure modules import (dotted: packages such as docling
    import little until a submodule is asked for), other than the project's own."""
    names: set[str] = set()
    for package in PURE_PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names.update(alias.name for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names.add(node.module)
                    names.update(f"{node.module}.{alias.name}" for alias in node.names)
    own = {"cardio_assets", "dagster", "resources", "tests", "baml_client"}
    return sorted(
        n
        for n in names
        if n.split(".")[0] not in own and n.split(".")[0] not in sys.stdlib_module_names
    )


@pytest.fixture(scope="module")
def imported_alone() -> dict[str, dict]:
    done = subprocess.run(
        [sys.executable, "-c", _FORKED_IMPORTS],
        input=json.dumps([PURE_MODULES, _third_party_libraries()]),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_module_imports_neither_dagster_nor_resources(module: str, imported_alone) -> None:
    report = imported_alone[module]
    assert "error" not in report, f"{module} does not import alone: {report['error']}"
    assert report["imports"] == [], f"{module} imports {','.join(report['imports'])}"


def test_no_pure_module_imports_dagster_or_resources_even_inside_a_function() -> None:
    bad: list[str] = []
    for package in PURE_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names = [alias.name for alias in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                bad += [
                    f"{path.relative_to(ROOT)}:{node.lineno} imports {name}"
                    for name in names
                    if name.split(".")[0] in ("dagster", "resources")
                ]
    assert not bad, bad


def _source_files() -> list[Path]:
    files = [*(ROOT / "cardio_assets").rglob("*.py"), *(ROOT / "resources").rglob("*.py")]
    return [*files, *(ROOT / "benchmarks").rglob("*.py")]


def test_no_module_is_over_700_lines() -> None:
    long = {
        str(path.relative_to(ROOT)): lines
        for path in _source_files()
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, f"split these along their seams: {long}"


def test_loading_the_definitions_does_not_import_the_neo4j_driver() -> None:
    probe = (
        "import sys, cardio_assets.definitions as d; d.defs.get_repository_def(); "
        "print(sorted(m for m in ('neo4j', 'pandas', 'docling') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_the_driver_is_imported_without_its_optional_pandas_support() -> None:
    """Opening a driver through cardio_assets.neo4j_driver does not load pandas or pyarrow
    (seconds per process, never used here); pandas imported later is the real one."""
    probe = (
        "import sys; from cardio_assets.neo4j_driver import neo4j_module; n = neo4j_module(); "
        "print(sorted(m for m in ('pandas', 'pyarrow') if m in sys.modules), "
        "n.GraphDatabase.__name__); import pandas; print(pandas.DataFrame.__name__)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split("\n")[:2] == ["[] GraphDatabase", "DataFrame"], (
        done.stdout + done.stderr
    )
