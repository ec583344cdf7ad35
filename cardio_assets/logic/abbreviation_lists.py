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
    for m in _ITEM.finditer(text or ""):
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
