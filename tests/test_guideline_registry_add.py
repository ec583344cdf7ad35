"""`cardio guideline add`'s registry edit: a validated entry appended, comments kept,
duplicates and broken registries refused with the key named (real-ingestion issue)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardio_assets.registry import RegistryEditError, add_guideline
from cardio_assets.config import ConfigError, GuidelineEntry, load_registry

REGISTRY = """# Guideline registry (comment kept)
guidelines:
  # a sample
  - id: first
    title: First guideline
    sources: [a.html]
"""


def test_entry_appended_validated_and_comments_kept(tmp_path: Path) -> None:
    path = tmp_path / "guidelines.yaml"
    path.write_text(REGISTRY, encoding="utf-8")
    add_guideline(
        GuidelineEntry(
            id="second",
            title="Second: with a colon",
            society="ESC",
            year=2021,
            sources=["docs/second.md"],
        ),
        path,
    )
    text = path.read_text(encoding="utf-8")
    assert text.startswith(REGISTRY)  # the user's file and comments untouched
    registry = load_registry(path)
    assert registry.ids == ["first", "second"]
    second = registry.get("second")
    assert (second.title, second.society, second.year, second.sources) == (
        "Second: with a colon",
        "ESC",
        2021,
        ["docs/second.md"],
    )


def test_duplicate_id_and_broken_registry_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "guidelines.yaml"
    path.write_text(REGISTRY, encoding="utf-8")
    with pytest.raises(RegistryEditError, match="id 'first' is already registered"):
        add_guideline(GuidelineEntry(id="first", title="Again", sources=["b.md"]), path)
    assert path.read_text(encoding="utf-8") == REGISTRY
    path.write_text(REGISTRY + "  - id: broken\n    colour: blue\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"guidelines\[broken\]"):
        add_guideline(GuidelineEntry(id="third", title="Third", sources=["c.md"]), path)


def test_empty_registry_gets_its_first_entry(tmp_path: Path) -> None:
    path = tmp_path / "guidelines.yaml"
    path.write_text("guidelines: []\n", encoding="utf-8")
    add_guideline(GuidelineEntry(id="only", title="Only", sources=["x.md"]), path)
    assert load_registry(path).ids == ["only"]
