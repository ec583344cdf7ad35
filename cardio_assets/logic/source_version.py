"""Versions made from source code: a rule edit changes the version by itself.

Stages whose output depends on hand-written rules (the lexicon, the merge) put a hash of
those rules' source files into their asset's code_version, so editing a rule marks the
asset stale without anyone remembering to bump a number.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path


def source_fingerprint(files: Iterable[Path]) -> str:
    """Short sha256 over the files' names and bytes, in the order given."""
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def package_files(folder: Path) -> list[Path]:
    """Every module of a package folder, by name: a module added later is hashed too."""
    return sorted(folder.glob("*.py"), key=lambda p: p.name)
