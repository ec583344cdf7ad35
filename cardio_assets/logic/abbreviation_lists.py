"""The abbreviations a guideline defines for itself (pure logic, no Dagster).

Guideline tables are followed by the list of the abbreviations they use, written as
"AF, atrial fibrillation; BNP, B-type natriuretic peptide; ...". A row's abbreviations are
best expanded the way its own guideline defines them, so the lists are read off the
document and each row carries the definitions of the abbreviations it uses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from cardio_assets.logic.abbreviations import WORD_END
from cardio_assets.logic.row_text import repair_glyphs

# "ABBR, expansion" (or "ABBR = expansion", "ABBR: expansion") items separated by ";"
# (the last one may end with "."). An abbreviation holds a capital letter or a digit and no
# space; an expansion starts with a letter and has no ";" or ",".
_ITEM = re.compile(
    r"(?:^|;\s*)(?P<short>[A-Za-z0-9][A-Za-z0-9αβγ/+&'’().-]{0,15})\s?(?:,|=|:)\s+"
    r"(?P<long>[A-Za-zαβγ](?:[^;,=.]|\.(?!\s))*?)\s*(?=;|\.\s|\.?\s*$)"
)
MIN_ITEMS = 2  # one "X, y" alone is ordinary prose


def abbreviation_definitions(text: str) -> dict[str, str]:
    """{abbreviation: expansion} of a paragraph that is an abbreviation list, else {}."""
    found: dict[str, str] = {}
    text = repair_glyphs(text or "")[0]  # the font artifacts rows lose are lost here too
    for m in _ITEM.finditer(text):
        short, long = m.group("short"), " ".join(m.group("long").split())
        if not re.search(r"[A-Z0-9]", short) or short.lower() == long.lower():
            continue
        found.setdefault(short, long)
    covered = sum(len(k) + len(v) for k, v in found.items())
    if len(found) < MIN_ITEMS or covered < 0.5 * len(text):
        return {}
    return found


def used_in(text: str, definitions: Mapping[str, str]) -> dict[str, str]:
    """The definitions whose abbreviation occurs in ``text`` as a word of its own, read as
    the expander (logic/abbreviations.py) reads it: in the plural too ("VAs" uses "VA"),
    never inside a hyphenated abbreviation ("LDL" in "LDL-C")."""
    used = {}
    for short, long in definitions.items():
        if re.search(rf"(?<![\w-]){re.escape(short)}s?{WORD_END}", text):
            used[short] = long
    return used


def merged(lists: Iterable[Mapping[str, str]]) -> dict[str, str]:
    """One guideline's definitions, the first definition of an abbreviation winning."""
    out: dict[str, str] = {}
    for definitions in lists:
        for short, long in definitions.items():
            out.setdefault(short, long)
    return out


# --------------------------------------------------------------------------- the glossary

# The heading of a guideline's own glossary ("Abbreviations and acronyms"); a contents line
# carries dot leaders and a page number instead.
GLOSSARY_HEADING = re.compile(r"^\s*(?:list\s+of\s+)?abbreviations(?:\s+and\s+acronyms)?\s*$", re.I)
# A glossary abbreviation: no space, two capitals, a capital and a digit, or a lower-case
# prefix before capitals ("aPTT", "mWHO", "3D", "6MWT", "NT-proBNP", "ACE-I"); never a
# capitalised word ("Non-ST", "Anti-Doping": the converter cut a trial's or a term's words)
_GLOSSARY_SHORT = re.compile(
    r"^(?![A-Z][a-z]{2})(?=(?:[^A-Z]*[A-Z]){2}|[^A-Z]*[A-Z][^0-9]*[0-9]|[0-9]+[A-Za-z])"
    r"[A-Za-z0-9αβγ][A-Za-z0-9αβγ/+&'’-]{0,15}$"
)
# the first word of an expansion: a capital ("Atrial fibrillation") or a number ("2 h ...");
# glossaries printed in lower case ("CT computed tomography") start at any plain word
_EXPANSION_START = re.compile(r"^(?:[A-Z][a-z]|[0-9]|[A-Z]-|[A-Z]$)")
_PLAIN_WORD = re.compile(r"^(?:[a-z][a-z-]+|[A-Z]-[a-z]+)$")
# upper-case words that are English or class labels, not abbreviations of a row ("• OR",
# "class II")
_NOT_SHORT = re.compile(r"^(?:OR|AND|NOT|NO|[IVX]+)$")
_MAX_EXPANSION_WORDS = 12
_FUNCTION_WORDS = frozenset("of and or with in for the to on a an by at between from".split())


def _entry_starts(words: list[str]) -> list[int]:
    """Where entries start: an abbreviation before a capital or a number, or, in a
    paragraph printed in lower case, an abbreviation before a plain word."""
    capital = [
        i
        for i in range(len(words) - 1)
        if _GLOSSARY_SHORT.match(words[i]) and _EXPANSION_START.match(words[i + 1])
    ]
    plain = [
        i
        for i in range(len(words) - 1)
        if _GLOSSARY_SHORT.match(words[i])
        and words[i].isupper()
        and _PLAIN_WORD.match(words[i + 1])
    ]
    starts = plain if len(plain) > len(capital) else capital
    # two starts in a row: the second is the first word of the expansion ("ECG ECG")
    return [i for n, i in enumerate(starts) if n == 0 or i - starts[n - 1] > 1]


def _as_name(long: str) -> str:
    """The expansion as a concept name: a capital that only opens the entry is dropped
    ("Atrial fibrillation"), a proper name keeps its capitals ("World Health Organization")."""
    rest = long.split()[1:]
    if long[1:2].islower() and not any(re.search(r"[A-Z]", w) for w in rest):
        return long[0].lower() + long[1:]
    return long


def _spelt_by(short: str, long: str) -> str | None:
    """The expansion trimmed to the words that spell the abbreviation, or None when it does
    not: the abbreviation's letters and digits occur in order in it, the first one opening
    it (the test of Schwartz and Hearst's abbreviation finder). Words after the last
    spelling letter go from the next abbreviation on: the next entry ran in ("computed
    tomography EBV Epstein-Barr virus")."""
    letters = [c.lower() for c in short if c.isalnum()]
    text = long.lower()
    if not letters or not text.startswith(letters[0]):
        return None
    at = 0
    for letter in letters:
        at = text.find(letter, at)
        if at < 0:
            return None
        at += 1
    word_end = len(long) if long.find(" ", at) < 0 else long.find(" ", at)
    kept, rest = long[:word_end].split(), long[word_end:].split()
    for n, word in enumerate(rest):
        # "CT", "b.p.m.", "c" before "Chemotherapy cycle": the next entry ran in; "(time
        # from ...)": an explanation; a capitalised word alone may be a proper name of this
        # one ("Tetralogy of Fallot")
        following = rest[n + 1] if n + 1 < len(rest) else ""
        if (
            _GLOSSARY_SHORT.match(word)
            or re.fullmatch(r"(?:[a-z]\.){2,}", word)
            or word.startswith("(")
            or (
                (word.islower() and word not in _FUNCTION_WORDS or re.fullmatch("[A-Z]", word))
                and following[:1].isupper()
            )
        ):
            return " ".join(kept + rest[:n])
    return long


def _title_case(long: str) -> bool:
    """A name of a trial, score or body ("Synergy between Percutaneous Coronary
    Intervention with TAXUS", "World Health Organization"): its words after the first are
    capitalised, apart from the little ones. Its abbreviation is the name used."""
    words = [w for w in long.split()[1:] if w.lower() not in _FUNCTION_WORDS]
    return len(words) >= 2 and all(w[:1].isupper() for w in words)


def glossary_definitions(paragraphs: Iterable[str]) -> dict[str, str]:
    """{abbreviation: expansion} of the paragraphs of a guideline's glossary, where the
    converter printed "ABBR Expansion" entries one after another ("MI Myocardial infarction
    MR Mitral regurgitation ..."): an entry starts at an abbreviation followed by a word
    with a capital or a number; an abbreviation inside an expansion ("Non-ST-elevation
    acute ...") is followed by a lower-case word and so starts none. An entry whose
    expansion does not spell its abbreviation is a misreading and is left out."""
    found: dict[str, str] = {}
    for paragraph in paragraphs:
        words = repair_glyphs(paragraph or "")[0].split()
        starts = _entry_starts(words)
        for n, i in enumerate(starts):
            end = starts[n + 1] if n + 1 < len(starts) else len(words)
            last = words[end - 1]
            if (
                end < len(words)
                and end - 1 > i + 1
                and _GLOSSARY_SHORT.match(last)
                and last.isupper()
            ):
                end -= 1  # "... GLP-1 RA Glucagon-like ...": "GLP-1" opens the next entry
            short, long = words[i], " ".join(words[i + 1 : end]).strip(" ,;")
            before = starts[n - 1] + 1 if n else -1
            if i - 1 > before and _GLOSSARY_SHORT.match(words[i - 1]) and words[i - 1].isupper():
                short = f"{words[i - 1]} {short}"  # "GLP-1 RA": an abbreviation of two words
            if _NOT_SHORT.match(short) or not long or len(long.split()) > _MAX_EXPANSION_WORDS:
                continue
            spelt = _spelt_by(short, long)
            if spelt and short.lower() != spelt.lower() and not _title_case(spelt):
                found.setdefault(short, _as_name(spelt))
    return found
