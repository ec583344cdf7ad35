"""Thresholds given per sex: "a diameter of ≥53 mm in men or ≥48 mm in women".

One quantity, two values, each for one sex: the values are the alternatives (a patient meets
the one for their sex), so they share an OR label; the sexes are who each value is for,
conditions of the row with no label of their own (the golds of the development rows read it
so, four of five). The second value is often printed bare ("or ≥3 in women"): it is a
parameter of the quantity named before the first.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cardio_assets.logic.lexicon.drafts import Draft, share_or_label
from cardio_assets.logic.measurement_units import UNIT_RE
from cardio_assets.logic.measurements import parse_value

_SEX = r"(?:an?\s+)?(?:men|man|males?|women|woman|females?)(?:\s+patients)?"
_LEAD_WORD = re.compile(r"^(?:is|of|at(?!\s+least))\s+", re.IGNORECASE)
_BARE_VALUE = (
    r"(?:(?:is|of|at(?!\s+least))\s+)?"
    r"(?:(?:[<>≤≥]=?|=)\s*|(?:above|below|over|under|exceeding|at\s+least|"
    r"(?:greater|more|higher|lower|less)\s+than)\s+)?"
    rf"\d+(?:[.,]\d+)?(?:\s*[–-]\s*\d+(?:[.,]\d+)?)?(?:\s*(?:{UNIT_RE}))?"
    r"(?:\s+or\s+(?:more|greater|higher|above|less|lower|below))?"
)
# what follows the first value: its sex, "or" (or "and": no one is of both sexes), the
# second value and its sex
_PER_SEX_TAIL = re.compile(
    rf"\s*(?:in|for)\s+(?P<first>{_SEX})\s*,?\s+(?:or|and)\s+(?P<value>{_BARE_VALUE})"
    rf"\s+(?:in|for)\s+(?P<second>{_SEX})\b",
    re.IGNORECASE,
)
_SEX_WORD = re.compile(r"\b(?:men|man|males?|women|woman|females?)\b", re.IGNORECASE)
_OR_NEXT = re.compile(r"\s*,?\s*or\s+(?:an?\s+|the\s+)?", re.IGNORECASE)


def _own_operator(value: str) -> bool:
    """The value bounds itself (an operator in symbols or words, or a range), as the
    measurement grammar reads it; a bare value takes the first value's operator."""
    parsed = parse_value(value)
    return parsed is not None and _bounds_itself(parsed[0], value)


def _bounds_itself(operator: str, value: str) -> bool:
    """``operator``, as the grammar read it from ``value``, is the value's own: any but the
    default "=", or "=" written out ("=46 mm", "equal to 46 mm")."""
    return operator != "=" or re.search(r"=|\bequal", value) is not None


def per_sex_values(
    text: str, drafts: list[Draft], group_counter: list[int], normalize: Callable[[str], str]
) -> list[Draft]:
    """A new list of drafts with each per-sex pair of values read as alternatives of one
    quantity (the values' OR labels are set on the drafts themselves)."""
    for first in [d for d in drafts if d.role == "ClinicalParameter" and d.text]:
        # (after the first place it is printed: a value printed twice is one draft, whose
        # label cannot say which of its places the pair follows)
        at = text.find(first.text)
        tail = _PER_SEX_TAIL.match(text, at + len(first.text)) if at >= 0 else None
        if tail is None:
            continue
        span = (tail.start(), tail.end())
        value = tail["value"].strip()
        second = next(
            (
                d
                for d in drafts
                if d is not first
                and d.role == "ClinicalParameter"
                and d.text
                and d.text.strip() in value
            ),
            None,
        )
        if second is None:
            second = _bare_value(value, first)
            if second is None:
                continue
            drafts.append(second)
        else:
            second.normalized = first.normalized
            if not _own_operator(value) and first.operator not in (None, "between"):
                second.operator = first.operator  # "exceeding 34 ng/L in men or 16 ng/L …"
        # the sexes as read before (grouped, or glued to the second value) give way to
        # the sexes alone
        # (and the bare value read as a state of its own: "at least 3")
        # (only what is printed there alone: "men and women" named earlier keep their reading)
        inside, outside = text[span[0] : span[1]], text[: span[0]] + " " + text[span[1] :]
        gone = [
            d
            for d in drafts
            if d.role != "ClinicalParameter"
            and d.text.strip()
            and d.text.strip() in inside
            and not re.search(rf"\b{re.escape(d.text.strip())}\b", outside)
            and (_SEX_WORD.search(d.text) or d.text.strip() in value)
        ]
        drafts = [d for d in drafts if all(d is not g for g in gone)]
        for sex in (tail["first"], tail["second"]):
            word = _SEX_WORD.search(sex)[0]  # type: ignore[index]
            drafts.append(Draft("Condition", word, normalize(word), first.slot))
        # "≥50 mm in men or ≥45 mm in women, or rapid growth": one more alternative
        more = _OR_NEXT.match(text, tail.end())
        after = [
            d
            for d in drafts
            if more and d.text and d not in (first, second) and text.startswith(d.text, more.end())
        ]
        share_or_label([first, second, *after[:1]], group_counter)
    return drafts


def _bare_value(value: str, first: Draft) -> Draft | None:
    """The second value, printed without its name, as a parameter of the first's quantity
    (a bare number takes the first's operator: "is 1 in a man or 2 in a woman")."""
    bare = _LEAD_WORD.sub("", value)
    parsed = parse_value(bare)
    if parsed is None:
        number = re.fullmatch(r"\d+(?:[.,]\d+)?", bare)
        if number is None:
            return None
        parsed = ("=", float(number[0].replace(",", ".")), None)
    operator, threshold, unit = parsed
    if not _bounds_itself(operator, bare):  # "exceeding 34 … or 16 …": the first's bound
        if first.operator is None or first.operator == "between":
            return None
        operator = first.operator
    return Draft(
        "ClinicalParameter",
        value,
        first.normalized,
        first.slot,
        operator=operator,
        threshold=threshold,
        unit=unit or first.unit,
    )
