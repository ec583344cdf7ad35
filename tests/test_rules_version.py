"""The lexicon's rules version covers every rule it runs, so a rule edit marks the
extraction assets stale by itself (no version number to remember to bump)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

import cardio_assets.assets._code_versions as code_versions
from cardio_assets.logic.lexicon import RULES_VERSION, rules_version
from cardio_assets.logic.lexicon.version import LEXICON_DIR, SHARED_RULE_FILES


def test_rules_version_hashes_the_whole_lexicon_folder(tmp_path: Path) -> None:
    copy = tmp_path / "lexicon"
    shutil.copytree(LEXICON_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    assert rules_version(copy) == RULES_VERSION  # the copy is hashed like the original
    modules = sorted(copy.glob("*.py"))
    assert {m.name for m in modules} >= {"vocabulary.py", "sentences.py", "parameters.py"}
    for module in modules:
        original = module.read_bytes()
        module.write_bytes(original + b"\n# a rule edit\n")
        assert rules_version(copy) != RULES_VERSION, f"an edit of {module.name} went unseen"
        module.write_bytes(original)
    assert rules_version(copy) == RULES_VERSION
    (copy / "new_rules.py").write_text("EXTRA_WORDS = frozenset()\n")
    assert rules_version(copy) != RULES_VERSION  # a module added later counts too


@pytest.mark.parametrize(
    "edited",
    [LEXICON_DIR / "vocabulary.py", LEXICON_DIR / "extractor.py"]
    + [LEXICON_DIR.parent / name for name in SHARED_RULE_FILES],
    ids=lambda p: p.name,
)
def test_a_rule_edit_changes_the_extraction_code_version(
    edited: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = code_versions.extraction_code_version()
    merged_before = code_versions.merged_concepts_code_version()
    real_read = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        data = real_read(self)
        return data + b"\n# a rule edit\n" if self == edited else data

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert code_versions.extraction_code_version() != before
    if edited.parent == LEXICON_DIR:  # the merge does not run the lexicon's rules
        assert code_versions.merged_concepts_code_version() == merged_before


# logic modules the lexicon imports that carry no extraction rule of their own: grounding
# has its own stage version (the lexicon only asks it for candidate terms), row_text gives
# it a packaged English word list, source_version does the hashing
_NOT_RULES = {"grounding.py", "row_text.py", "source_version.py"}


def test_every_shared_module_the_rules_import_is_hashed() -> None:
    # A rule module split out of a shared one (as the operators were out of measurements.py)
    # must join the hash, or edits to it would leave the extraction assets looking fresh.
    logic = LEXICON_DIR.parent
    pending = [*LEXICON_DIR.glob("*.py"), *(logic / name for name in SHARED_RULE_FILES)]
    seen: set[str] = set()
    while pending:
        source = pending.pop().read_text(encoding="utf-8")
        # ("from cardio_assets.logic.X import …" and "from cardio_assets.logic import X")
        names = re.findall(r"cardio_assets\.logic\.(\w+)\b(?!\.)", source) + [
            name.strip()
            for listed in re.findall(r"from\s+cardio_assets\.logic\s+import\s+([\w, ]+)", source)
            for name in listed.split(",")
        ]
        for name in names:
            module = f"{name}.py"
            if (logic / module).is_file() and module not in seen | _NOT_RULES:
                seen.add(module)
                pending.append(logic / module)
    assert seen <= set(SHARED_RULE_FILES), sorted(seen - set(SHARED_RULE_FILES))
