"""Bracketed asides taken out of a phrase ("X (e.g. A or B)", "Y (LVEF <40%)"): the phrase
without them, and each aside with the words it follows, so the phrase readers read the
head and its examples or measurements apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple


class Aside(NamedTuple):
    text: str  # inside the brackets
    before: str  # the phrase up to the opening bracket: what the aside is about
    bracketed: bool = True  # False: examples running to the phrase's end ("X, including Y")


def pull_parentheticals(text: str, keep: Sequence[tuple[int, int]] = ()) -> tuple[str, list[Aside]]:
    """Take top-level "( … )" asides out of a phrase; return the phrase and the asides.

    Brackets opening inside a ``keep`` span (start, end) stay in the phrase: the value of a
    measurement printed again in a second unit, "<1.4 mmol/L (55 mg/dL)", is part of it.
    """
    asides: list[Aside] = []
    out: list[str] = []
    depth = kept = 0
    current: list[str] = []
    for at, ch in enumerate(text):
        if depth == 0 and ch == "(" and any(start <= at < end for start, end in keep):
            kept += 1
        elif depth == 0 and ch == ")" and kept:
            kept -= 1
        elif ch == "(":
            depth += 1
            if depth == 1:
                current = []
                continue
        elif ch == ")" and depth > 0:
            depth -= 1
            if depth == 0:
                aside = "".join(current).strip()
                if aside:
                    asides.append(Aside(aside, "".join(out)))
                continue
        if depth > 0:
            current.append(ch)
        else:
            out.append(ch)
    if depth > 0 and current:  # unbalanced: keep the text as it was
        return text, []
    return re.sub(r"\s+", " ", "".join(out)).strip(" ,;"), asides
