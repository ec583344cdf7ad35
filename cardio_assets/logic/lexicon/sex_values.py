"""Thresholds given per sex: "a diameter of ≥55 mm in men or ≥50 mm in women".

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

_SEX = r"(?:an?\s+)?(?:men|man|males?|women|woman|females?)"
_BARE_VALUE = (
    r"(?:(?:is|of|at)\s+)?"
    r"(?:(?:[<>≤≥]=?|=)\s*|(?:above|below|over|under|exceeding|at\s+least|"
    r"(?:greater|more|higher|lower|less)\s+than)\s+)?"
    rf"\d+(?:[.,]\d+)?(?:\s*(?:{UNIT_RE}))?"
    r"(?:\s+or\s+(?:more|greater|higher|above|less|lower|below))?"
)
# what follows the first value: its sex, "or", the second value and its sex
_PER_SEX_TAIL = re.compile(
    rf"\s*(?:in|for)\s+(?P<first>{_SEX})\s*,?\s+or\s+(?P<value>{_BARE_VALUE})"
    rf"\s+(?:in|for)\s+(?P<second>{_SEX})\b",
    re.IGNORECASE,
)
_SEX_WORD = re.compile(r"\b(?:men|man|males?|women|woman|females?)\b", re.IGNORECASE)


def per_sex_values(
    text: str, drafts: list[Draft], group_counter: list[int], normalize: Callable[[str], str]
) -> list[Draft]:
    """``drafts`` with each per-sex pair of values read as alternatives of one quantity."""
    for first in [d for d in drafts if d.role == "ClinicalParameter" and d.text]:
        at = text.find(first.text)
        tail = _PER_SEX_TAIL.match(text, at + len(first.text)) if at >= 0 else None
        if tail is None:
            continue
        span = (at + len(first.text), tail.end())
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
        # the sexes as read before (grouped, or glued to the second value) give way to
        # the sexes alone
        inside = text[span[0] : span[1]]
        drafts = [
            d
            for d in drafts
            if d.role == "ClinicalParameter"
            or not (_SEX_WORD.search(d.text) and d.text.strip() in inside)
        ]
        for sex in (tail["first"], tail["second"]):
            word = re.sub(r"^an?\s+", "", sex, flags=re.IGNORECASE)
            drafts.append(Draft("Condition", word, normalize(word), first.slot))
        share_or_label([first, second], group_counter)
    return drafts


def _bare_value(value: str, first: Draft) -> Draft | None:
    """The second value, printed without its name, as a parameter of the first's quantity
    (a bare number takes the first's operator: "is 1 in a man or 2 in a woman")."""
    parsed = parse_value(re.sub(r"^(?:is|of|at)\s+", "", value, flags=re.IGNORECASE))
    if parsed is None:
        number = re.fullmatch(r"(?:(?:is|of|at)\s+)?(\d+(?:[.,]\d+)?)", value, re.IGNORECASE)
        if number is None or first.operator is None or first.operator == "between":
            return None
        parsed = (first.operator, float(number[1].replace(",", ".")), None)
    operator, threshold, unit = parsed
    return Draft(
        "ClinicalParameter",
        value,
        first.normalized,
        first.slot,
        operator=operator,
        threshold=threshold,
        unit=unit or first.unit,
    )
