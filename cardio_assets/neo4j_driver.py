"""The Neo4j driver module, imported without its optional pandas and pyarrow support.

At import the driver tries ``import pandas`` and ``import pyarrow`` (for ``Result.to_df()``
and vector types). This project never uses either, and in a process that has not loaded
them yet they cost ~2.4 s (``python -X importtime -c "import neo4j"``, 2026-12-02): every
graph load step, ``cardio ask`` and ``cardio audit`` paid it. Every place that opens a
driver imports it through ``neo4j_module()`` first; a later ``import neo4j`` anywhere gets
the module already loaded. Code that imports pandas itself afterwards gets the real pandas.
"""

from __future__ import annotations

import sys
from types import ModuleType

_OPTIONAL = ("pandas", "pyarrow", "pyarrow.compute")


def neo4j_module() -> ModuleType:
    """``neo4j``, imported (once per process) with its optional data-frame support off."""
    loaded = sys.modules.get("neo4j")
    if loaded is not None:
        return loaded
    blocked = [name for name in _OPTIONAL if name not in sys.modules]
    for name in blocked:
        sys.modules[name] = None  # type: ignore[assignment]  # `import name` -> ImportError
    try:
        import neo4j
    finally:
        for name in blocked:
            if sys.modules.get(name) is None:
                del sys.modules[name]
    return neo4j
