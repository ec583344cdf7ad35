"""Bracketed asides taken out of a phrase ("X (e.g. A or B)", "Y (LVEF <40%)"): the phrase
without them, and each aside with the words it follows, so the phrase readers read the
head and its examples or measurements apart.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from cardio_assets.logic.abbreviations import GLUED_LETTER
from cardio_assets.logic.coordination import GRADES
from cardio_assets.logic.lexicon.drafts import Draft
from cardio_assets.logic.measurements import TIME_UNITS, Measurement, find_measurements


class Aside(NamedTuple):
    text: str  # inside the brackets
    before: str  # the phrase up to the opening bracket: what the aside is about
    bracketed: bool = True  # False: examples running to the phrase's end ("X, including Y")


def pull_parentheticals(text: str, keep: Sequence[tuple[int, int]] = ()) -> tuple[str, list[Aside]]:
    """Take top-level "( … )" asides out of a phrase; return the phrase and the asides.

    Brackets opening inside a ``keep`` span (start, end) stay in the phrase: the value of a
    measurement printed again in a second unit, "<1.4 mmol/L (55 mg/dL)", is part of it; so
    does a letter in brackets glued to a word, part of its name ("lipoprotein(a)").
    """
    asides: list[Aside] = []
    out: list[str] = []
    depth = kept = 0
    current: list[str] = []
    for at, ch in enumerate(text):
        if (
            depth == 0
            and ch == "("
            and (any(start <= at < end for start, end in keep) or GLUED_LETTER.match(text, at))
        ):
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


def bound_of_state(aside: str) -> Measurement | None:
    """The one bound a bracket holds right after the state it defines ("obesity (≥30
    kg/m2)", "very high Lp(a) levels (>180 mg/dL, or 430 nmol/L)"): a value with a unit and
    a bound, no name, filling the bracket; None for anything else (a time, an equality, a
    name of its own, more words)."""
    found = find_measurements(aside)
    if len(found) != 1:
        return None
    bound = found[0]
    if (
        bound.name
        or bound.unit is None
        or bound.unit in TIME_UNITS
        or bound.operator == "="
        or isinstance(bound.threshold, str)  # a paired blood pressure names its own quantity
    ):
        return None
    if aside[: bound.start].strip() or aside[bound.end :].strip(" ,;."):
        return None
    return bound


# the grade before, and "levels" after, the name of what a bound measures ("very high LDL-C
# levels")
_GRADE_BEFORE = re.compile(
    r"^(?:(?:very|extremely|markedly)\s+)?(?:high|low|elevated|raised|increased|reduced|"
    r"decreased|abnormal)\s+",
    re.IGNORECASE,
)
_LEVELS_AFTER = re.compile(r"\s+(?:levels?|concentrations?|values?)$", re.IGNORECASE)


# the quantity a unit alone names, whatever state its bound defines ("obesity (≥30 kg/m2)",
# "hypertension (≥140 mmHg)", "tachycardia (>100 bpm)")
_QUANTITY_OF_UNIT = {"kg/m²": "body mass index", "mmHg": "blood pressure", "bpm": "heart rate"}


def quantity_of_state(state: str, unit: str | None) -> str:
    """What a bound after a state measures: the quantity its unit names, else the state's
    name without its grade ("very high LDL-C levels" -> "LDL-C")."""
    if unit in _QUANTITY_OF_UNIT:
        return _QUANTITY_OF_UNIT[unit]
    return _LEVELS_AFTER.sub("", _GRADE_BEFORE.sub("", state)).strip() or state


# a bracket holding only a grade, or two ("(grade 3)", "(grades 1 or 2)")
_GRADE_ASIDE = re.compile(
    r"grades?\s+(?P<low>[1-5]|I{1,3}|IV|V)"
    r"(?:\s*(?:or|to|and|–|-)\s*(?P<high>[1-5]|I{1,3}|IV|V))?",
    re.IGNORECASE,
)
_GRADE_NUMBER = {"i": 1, "ii": 2, "iii": 3, "iv": 4, "v": 5}
# what names how far a state has come, not the state ("moderate aortic injury", "moderate to
# severe …", "progression of the intramural haematoma"): left out of the name of its grade
_DEGREE_WORDS = sorted(GRADES | {"minimal", "significant", "extensive"}, key=len, reverse=True)
_STATE_DEGREE = re.compile(
    rf"^(?:(?:{'|'.join(_DEGREE_WORDS)}|to|or|and|progression\s+of)\s+)+(?:the\s+)?",
    re.IGNORECASE,
)


def grade_of_state(aside: str, state: Draft) -> Draft | None:
    """ "moderate aortic injury (grade 3)", "(grades 1 or 2)": a grade printed in a bracket
    after the state it grades is the state's place on its scale, a criterion (the golds name
    "aortic injury grade = 3"); None when the bracket holds anything else."""
    found = _GRADE_ASIDE.fullmatch(aside.strip(" ,;."))
    if found is None:
        return None
    low, high = (
        int(_GRADE_NUMBER.get(n.lower(), n)) if n else None for n in (found["low"], found["high"])
    )
    if high is not None and high - low != 1 and re.search(r"\b(?:or|and)\b", found[0], re.I):
        return None  # "(grades 1 or 3)": two grades, not the range between them
    name = f"{_STATE_DEGREE.sub('', state.normalized)} grade"
    return Draft(
        "ClinicalParameter",
        aside.strip(" ,;."),
        name,
        state.slot,
        operator="between" if high else "=",
        threshold=[low, high] if high else low,
    )
