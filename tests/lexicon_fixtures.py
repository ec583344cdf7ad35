"""The lexicon extractor the rule tests run, and the helpers they share: one Class I row of
the team's own sentence, its MAIN extraction, its concepts by name. Real abbreviation list,
real bundled SNOMED CT sample store. conftest.py makes ``lexicon`` a fixture of every test
module (built once per module).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cardio_assets.config import load_abbreviations
from cardio_assets.logic.lexicon import LexiconExtractor, term_lookup_from_searcher
from cardio_assets.records import ExtractedConcept, RowExtraction, RowRecord

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def lexicon() -> LexiconExtractor:
    from cardio_assets.terminology.location import open_store

    abbreviations = load_abbreviations(ROOT / "configs" / "abbreviations.txt")
    return LexiconExtractor(
        abbreviations, term_lookup_from_searcher(open_store(), abbreviations.mapping)
    )


def row_of(text: str, **fields: object) -> RowRecord:
    """A Class I recommendation row of this text (``fields``: more RowRecord fields)."""
    return RowRecord(  # type: ignore[arg-type]
        id="lang:table_000:r0",
        guideline="lang",
        guideline_title="Guideline language",
        table_id="table_000",
        row_index=0,
        header=["Recommendations", "Class", "Level"],
        row_text=text,
        class_="I",
        level="A",
        **fields,
    )


def extract(lexicon: LexiconExtractor, text: str, **fields: object) -> RowExtraction:
    """One MAIN pass over a row of this text (``fields``: more RowRecord fields)."""
    result = lexicon.extract(row_of(text, **fields), "MAIN")
    assert result.error is None, result.error
    return result


def named(result: RowExtraction) -> dict[str, ExtractedConcept]:
    return {c.normalized: c for c in result.concepts}


def roles(result: RowExtraction) -> set[tuple[str, str]]:
    return {(c.role, c.normalized) for c in result.concepts}


def assert_one_or_group(first: ExtractedConcept, second: ExtractedConcept) -> None:
    """Both concepts carry an OR label, and the same one."""
    assert first.or_group is not None and first.or_group == second.or_group


def assert_one_act_and_no_word(lexicon: LexiconExtractor, text: str, act: str, word: str) -> None:
    """``text`` recommends ``act`` alone, and no concept's span holds ``word`` (the words a
    rule reads as framing, a result or a question)."""
    result = extract(lexicon, text)
    assert [a.normalized for a in result.actions] == [act], result.actions
    assert not [c for c in result.concepts if word in c.text], result.concepts
