"""The layout rules the code is kept to (docs/ARCHITECTURE.md, "Rooms").

- Nothing under cardio_assets/logic/ or cardio_assets/terminology/ imports Dagster or the
  resources/ package: pure logic that the CLI, the benchmarks and the tests run directly.
  Each module is imported alone in a fresh interpreter, so a dependency that only another
  module happens to import first cannot hide, and every import statement is read from the
  source, so one deferred into a function cannot hide either.
- No module outside tests/ and the data generators is over 700 lines.
"""

from __future__ import annotations

import ast
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


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_module_imports_neither_dagster_nor_resources(module: str) -> None:
    script = (
        "import importlib, sys\n"
        f"importlib.import_module({module!r})\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('dagster', 'resources'))\n"
        "print(','.join(bad))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", f"{module} imports {done.stdout.strip()}"


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
