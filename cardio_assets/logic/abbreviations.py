"""The one abbreviation expander: extraction, merge and grounding all expand "LVEF" here.

The list itself is configs/abbreviations.txt, read by ``cardio_assets.config.load_abbreviations``.
Expansion is case-sensitive on the abbreviation ("HF", not "hf") because guideline
abbreviations are written in capitals and lower-case words ("as", "hr") must never be
rewritten. A match is a whole word: never inside a longer word or a hyphenated token
("LDL" does not fire in "LDL-C"), with an optional plural "s" ("ARBs"); a hyphen before a
lower-case word ends the abbreviation ("AF-related" expands AF).

Two behaviours differ between the stages, and tests pin both, so they are options of this
one expander rather than two expanders:

- ``capital_variants`` (grounding): the all-capitals spelling of a mixed-case key is
  accepted too ("EGFR" for "eGFR"): a search query may come in capitals. Extraction keeps
  to the keys as written (``Abbreviations(...)``; grounding uses ``for_search()``).
- ``expand`` drops the "X (ABBR)" echo a guideline writes ("heart failure (HF)" would read
  "heart failure (heart failure)") for the ``normalized`` names of extraction and merge;
  ``substitute`` (grounding) only replaces, and says which keys it replaced.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from functools import cached_property

_SPACES = re.compile(r"\s+")
# Where an abbreviation ends: not inside a word, nor before a hyphen that continues the
# abbreviation itself ("LDL" in "LDL-C", "CRT" in "CRT-P"); a hyphen before a lower-case
# word ends it ("PE-unlikely", "AF-related" expand their abbreviation).
WORD_END = r"(?![\w]|-(?![a-z]{3}))"
_ECHO = re.compile(r"\b(.+?)\s*\(\1\)", re.IGNORECASE)


class Abbreviations(Mapping[str, str]):
    """Immutable abbreviation -> expansion map with one compiled matcher.

    A read-only mapping of the keys as written (``abbreviations["HF"]``, ``"HF" in it``,
    ``dict(it)``), so callers that only need the list can treat it as one.
    """

    def __init__(
        self,
        mapping: Mapping[str, str] | None = None,
        *,
        capital_variants: bool = False,
        yields: Iterable[str] = (),
    ):
        # "NP = natriuretic peptides (including BNP and NT-proBNP)": the name, not its note
        self._mapping: dict[str, str] = {
            short: long if GLUED_LETTER.search(long) else _NOTE.sub("", long).strip() or long
            for short, long in (mapping or {}).items()
        }
        self.capital_variants = capital_variants
        # abbreviations with another common reading ("CHD": coronary or congenital heart
        # disease): a guideline's own definition wins over this list's for them
        self.yields = frozenset(key.lower() for key in yields)

    # -- the list -----------------------------------------------------------------------
    @property
    def mapping(self) -> Mapping[str, str]:
        return self._mapping

    def __getitem__(self, key: str) -> str:
        return self._mapping[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._mapping)

    def __len__(self) -> int:
        return len(self._mapping)

    def __repr__(self) -> str:
        return f"Abbreviations({len(self)} keys, capital_variants={self.capital_variants})"

    def for_search(self) -> Abbreviations:
        """The same list with capital variants on: how grounding expands a search term."""
        return self._search_variant

    @cached_property
    def _search_variant(self) -> Abbreviations:
        if self.capital_variants:
            return self
        return Abbreviations(self._mapping, capital_variants=True)

    # -- matching -------------------------------------------------------------------------
    @cached_property
    def _lookup(self) -> dict[str, str]:
        lookup: dict[str, str] = {}
        for key, expansion in self._mapping.items():
            lookup.setdefault(key, expansion)
            if self.capital_variants:
                lookup.setdefault(key.upper(), expansion)
        return lookup

    @cached_property
    def _pattern(self) -> re.Pattern[str] | None:
        keys = sorted(self._lookup, key=len, reverse=True)  # HFrEF before HF
        if not keys:
            return None
        alternation = "|".join(re.escape(k) for k in keys)
        return re.compile(rf"(?<![\w-])({alternation})s?{WORD_END}")

    def lookup(self, token: str) -> str | None:
        """Expansion of one abbreviation (exact, then without a plural 's')."""
        if token in self._lookup:
            return self._lookup[token]
        if token.endswith("s") and token[:-1] in self._lookup:
            return self._lookup[token[:-1]]
        return None

    def substitute(self, text: str) -> tuple[str, list[str]]:
        """Replace every whole-word abbreviation; returns the new text and the keys used."""
        pattern = self._pattern
        if pattern is None or not text:
            return text, []
        used: list[str] = []

        def repl(match: re.Match[str]) -> str:
            used.append(match.group(1))
            return self._lookup[match.group(1)]

        return pattern.sub(repl, text), used

    def expand(self, text: str) -> str:
        """Replace every known abbreviation by its expansion; drop "X (ABBR)" echoes."""
        if self._pattern is None or not text:
            return text
        expanded, _used = self.substitute(text)
        # "heart failure (HF)" became "heart failure (heart failure)": keep one copy.
        expanded = _ECHO.sub(r"\1", expanded)
        # "WPW syndrome" became "Wolff-Parkinson-White syndrome syndrome": the word the
        # expansion ends with is not written twice
        return _REPEATED_WORD.sub(r"\1", expanded)

    def normalize(self, text: str) -> str:
        """The ``normalized`` form: abbreviations expanded, lower-case, single spaces,
        head noun in the singular ("Loop diuretics" -> "loop diuretic")."""
        expanded = self.expand(text)
        expanded = _SPACES.sub(" ", expanded).strip(" .,;:")
        return _DIABETES_ALONE.sub("diabetes mellitus", singular_head(expanded.lower()))


# "diabetes" written alone is diabetes mellitus, the name "DM" expands to and the
# terminology's preferred term, so one disease has one name ("type 2 diabetes" too);
# "diabetes insipidus" and compounds such as "SCORE2-Diabetes" stay as written
_DIABETES_ALONE = re.compile(r"(?<![\w-])diabetes(?![\w-])(?!\s+(?:mellitus|insipidus)\b)")
_REPEATED_WORD = re.compile(r"\b(\w{4,})\s+\1\b", re.IGNORECASE)
_NOTE = re.compile(r"\s*\([^()]*\)\s*$")  # a note closing an expansion ("… (stage 3)")
# a letter in brackets glued to the word before it, part of its name ("Lp(a)",
# "lipoprotein(a)"; not the plural "(s)"): no note, no aside, no dose bracket
GLUED_LETTER = re.compile(r"(?<=[A-Za-z])\((?!s\))[a-z]\)")


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


_SEARCH_VARIANTS: dict[int, tuple[Mapping[str, str], Abbreviations]] = {}


def search_abbreviations(abbreviations: Mapping[str, str]) -> Abbreviations:
    """The grounding expander for any abbreviation mapping (an ``Abbreviations`` or a plain
    dict), compiled once per mapping object: grounding calls this for every term."""
    if isinstance(abbreviations, Abbreviations):
        return abbreviations.for_search()
    cached = _SEARCH_VARIANTS.get(id(abbreviations))
    if cached is None or cached[0] is not abbreviations:
        cached = (abbreviations, Abbreviations(abbreviations, capital_variants=True))
        _SEARCH_VARIANTS[id(abbreviations)] = cached
    return cached[1]
