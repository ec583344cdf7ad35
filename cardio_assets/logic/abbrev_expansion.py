"""Abbreviation expansion for ``normalized`` concept names.

The abbreviation list itself (configs/abbreviations.txt) belongs to the terminology stage;
this module only reads it, so extraction and grounding expand "LVEF" the same way.
Expansion is case-sensitive on the abbreviation ("HF", not "hf") because guideline
abbreviations are written in capitals and lower-case words must never be rewritten.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Abbreviations:
    """Immutable abbreviation -> expansion map with one compiled matcher."""

    mapping: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        keys = sorted(self.mapping, key=len, reverse=True)
        if keys:
            alternation = "|".join(re.escape(k) for k in keys)
            # Not inside a longer word or hyphenated token ("LDL" must not fire in "LDL-C").
            pattern = re.compile(rf"(?<![\w\-])(?:{alternation})(?:s)?(?![\w\-])")
        else:
            pattern = None
        object.__setattr__(self, "_pattern", pattern)

    @classmethod
    def from_file(cls, path: str | Path) -> Abbreviations:
        """Load the shared list with the grounding stage's own reader (one file format,
        one parser); a malformed line is reported with file and line number."""
        from cardio_assets.logic.grounding import load_abbreviations

        return cls(load_abbreviations(Path(path)))

    def lookup(self, token: str) -> str | None:
        """Expansion of one abbreviation (exact, then without a plural 's')."""
        if token in self.mapping:
            return self.mapping[token]
        if token.endswith("s") and token[:-1] in self.mapping:
            return self.mapping[token[:-1]]
        return None

    def expand(self, text: str) -> str:
        """Replace every known abbreviation by its expansion; drop "X (ABBR)" echoes."""
        pattern = self._pattern  # type: ignore[attr-defined]
        if pattern is None or not text:
            return text

        def _sub(match: re.Match[str]) -> str:
            return self.lookup(match.group(0)) or match.group(0)

        expanded = pattern.sub(_sub, text)
        # "heart failure (HF)" became "heart failure (heart failure)": keep one copy.
        expanded = re.sub(r"\b(.+?)\s*\(\1\)", r"\1", expanded, flags=re.IGNORECASE)
        return expanded

    def normalize(self, text: str) -> str:
        """The ``normalized`` form: abbreviations expanded, lower-case, single spaces,
        head noun in the singular ("Loop diuretics" -> "loop diuretic")."""
        expanded = self.expand(text)
        expanded = _SPACES.sub(" ", expanded).strip(" .,;:")
        return singular_head(expanded.lower())


# Words ending in "s" that are not plurals.
_NOT_PLURAL = frozenset(
    """
    diabetes mellitus series species status sepsis stenosis thrombosis fibrosis sclerosis
    necrosis ischaemia pectoris always plus less unless various previous analysis
    diagnosis prognosis arteriosclerosis atherosclerosis haemostasis hemostasis
    haemodynamics hemodynamics genetics statistics pharmacokinetics
    """.split()
)


def singular_head(text: str) -> str:
    """Singular of the last word, by regular English rules only (no dictionary)."""
    words = text.split(" ")
    if not words or not words[-1]:
        return text
    prefix, _, last = words[-1].rpartition("-")  # "beta-blockers": singular of "blockers"
    prefix = prefix + "-" if prefix else ""
    if (
        len(last) <= 3
        or last in _NOT_PLURAL
        or not last.isalpha()
        or last.endswith(("ss", "us", "is", "ous", "ys"))
    ):
        return text
    if last.endswith("ies"):
        last = last[:-3] + "y"
    elif last.endswith(("ches", "shes", "xes", "sses")):
        last = last[:-2]
    elif last.endswith("s"):
        last = last[:-1]
    words[-1] = prefix + last
    return " ".join(words)
