"""The lexicon's two outside sources of words: the terminology (a phrase's best SNOMED CT
matches, scored as grounding scores them) and the definitions a table's footnotes give
("ACE-I = angiotensin-converting enzyme inhibitor")."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple


class TermHit(NamedTuple):
    """One terminology match for a phrase: what the extractor needs to pick a role."""

    concept_id: str
    term: str
    semantic_tag: str  # FSN tag without brackets, e.g. "disorder", "observable entity"
    score: float  # 0..1, 1 = exact


# Returns the best matches for a phrase, best first (may be empty).
TermLookup = Callable[[str], Sequence[TermHit]]


def term_lookup_from_searcher(
    searcher: object, abbreviations: dict[str, str] | None = None, top_k: int = 3
) -> TermLookup:
    """Adapt the terminology store (grounding.TermSearcher) to the lexicon's lookup.

    Uses the grounding stage's own candidate search and composite score, so "how well
    does this phrase match SNOMED" means the same in extraction and grounding.
    """
    from cardio_assets.logic.grounding import ground_candidates

    mapping = dict(abbreviations or {})

    def lookup(phrase: str) -> list[TermHit]:
        candidates = ground_candidates(phrase, "Condition", searcher, mapping, top_k=top_k)  # type: ignore[arg-type]
        return [TermHit(c.concept_id, c.matched_term, c.semantic_tag, c.score) for c in candidates]

    return lookup


_FOOTNOTE_DEFINITION = re.compile(
    r"(?<![\w\-])(?P<abbr>[A-Za-z][A-Za-z0-9\-/]{0,14})\s+=\s+(?P<exp>[^;=]+?)\s*(?=;|\.\s|\.$|$)"
)


def footnote_abbreviations(footnotes: Sequence[str]) -> dict[str, str]:
    """ "ACE-I = angiotensin-converting enzyme inhibitor; ARB = ..." -> {abbr: expansion}.

    Only abbreviation-like tokens whose expansion starts with the same letter are taken,
    so a descriptive note ("CHA2DS2-VASc = stroke risk score") never renames a term.
    """
    found: dict[str, str] = {}
    for note in footnotes:
        for match in _FOOTNOTE_DEFINITION.finditer(note):
            abbr, expansion = match.group("abbr"), match.group("exp").strip()
            if not re.search(r"[A-Z]", abbr) or len(expansion) < 3:
                continue
            if expansion[0].lower() != abbr[0].lower():
                continue
            found.setdefault(abbr, expansion)
    return found
