"""``RULES_VERSION``: a hash of every rule the lexicon extractor runs.

It is the lexicon backend's model name and part of its prompt hash, and the extraction
assets put it in their code_version (cardio_assets/assets/_code_versions.py), so any edit
of the rules marks those assets stale. What is hashed: every module of this folder (found
by listing it, so a module added later counts too) and the modules outside it whose code
decides the output: the AND/OR splitter (with its coordination rules), the abbreviation
expander and the measurement grammar.
"""

from __future__ import annotations

from pathlib import Path

from cardio_assets.logic.measurements import GRAMMAR_FILES
from cardio_assets.logic.source_version import package_files, source_fingerprint

LEXICON_DIR = Path(__file__).resolve().parent
_LOGIC_DIR = LEXICON_DIR.parent
SHARED_RULE_FILES: tuple[str, ...] = (
    "logic_split.py",
    "coordination.py",
    "ellipsis.py",
    "abbreviations.py",
    *(path.name for path in GRAMMAR_FILES),
)


def rules_version(lexicon_dir: Path = LEXICON_DIR) -> str:
    """'lexicon-<hash>' of the lexicon folder's modules plus the shared rule modules."""
    files = [*package_files(lexicon_dir), *(_LOGIC_DIR / name for name in SHARED_RULE_FILES)]
    return "lexicon-" + source_fingerprint(files)


RULES_VERSION = rules_version()
