"""A row's text cut into the sentences the lexicon reads one at a time: at sentence ends
(not after abbreviations or decimals), between two recommendations joined by ", and", and
without the sentences that only announce a list printed in the next rows.
"""

from __future__ import annotations

import re


def split_sentences(text: str) -> list[str]:
    """Split on sentence ends (". " before a capital or "("), not on decimals, and between
    two recommendations joined by ", and" ("X is recommended for A, and Y is recommended
    for B"): each has its own verb."""
    parts: list[str] = []
    for piece in re.split(r"(?<=[A-Za-z0-9)%²])\.\s+(?=[A-Z(])", text):
        if parts and _ENDS_IN_ABBREVIATION.search(parts[-1]):
            parts[-1] = f"{parts[-1]}. {piece}"  # "(i.e. CRP)", "vs. placebo": no sentence end
        else:
            parts.append(piece)
    out: list[str] = []
    for part in parts:
        for piece in _split_second_recommendation(part):
            piece = piece.strip()
            if piece and not _ANNOUNCES_A_LIST.fullmatch(piece):
                out.append(piece)
    return out


# "Options are:", "These include:": a sentence that only announces the list printed after
# the row (in the next rows of the table) names nothing itself
_ANNOUNCES_A_LIST = re.compile(
    r"(?:the\s+)?(?:options?|choices?|alternatives?|these|they|this)\s+(?:are|is|includes?)"
    r"(?:\s+the\s+following)?\s*:?\s*\.?",
    re.IGNORECASE,
)


_ENDS_IN_ABBREVIATION = re.compile(
    r"(?:\b(?:i\.e|e\.g|vs|etc|cf|approx|incl|Fig|Figs|No|ca)|\b[A-Z])$", re.IGNORECASE
)
_RECOMMENDING = re.compile(r"\b(?:recommended|considered|indicated)\b", re.IGNORECASE)
# ("… is recommended in X and a tracing should be taken daily": a second act with its own
# modal verb is a second recommendation too; "and those who should be treated" is no
# clause of its own)
_SECOND_RECOMMENDATION = re.compile(
    r",?\s+and\s+(?=[^,;]{1,80}?\b(?:is|are|should|may)\s+(?:not\s+)?(?:be\s+)?"
    r"(?:recommended|considered|indicated)\b"
    r"|(?:(?!\b(?:who|which|that|whom|whose|if|when|where)\b)[^,;]){1,80}?\b(?:should|must|may)"
    r"\s+(?:not\s+)?(?:also\s+)?be\s+[a-z]+(?:ed|en)\b)",
    re.IGNORECASE,
)


def _split_second_recommendation(text: str) -> list[str]:
    first = _RECOMMENDING.search(text)
    if first is None:
        return [text]
    joint = _SECOND_RECOMMENDATION.search(text, first.end())
    if joint is None:
        return [text]
    return [text[: joint.start()], *_split_second_recommendation(text[joint.end() :])]
