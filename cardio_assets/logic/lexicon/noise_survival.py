"""How a row words the survival an act presupposes (a part of noise.py's patterns, applied at
their place among them): "expected to live more than 1 year", "survival beyond 1 year is
anticipated", "limited life expectancy (<2 years)" are rewritten as "life expectancy >1 year",
the quantity and value the measurement grammar reads; left alone, the time was read as a
duration and dropped, and "expected" / "anticipated" stayed as concepts.
"""

from __future__ import annotations

import re
from typing import Any

from cardio_assets.logic.measurement_operators import operator_from_words

# the comparison words a survival time is given with (read by the measurement grammar's
# operator_from_words; "beyond" is this wording's own)
_MORE_THAN = r"(?:more|longer)\s+than|beyond|exceeding|over|>=?|≥"
_AT_LEAST = r"at\s+least"
_TIME = r"(?:\d+(?:[.,]\d+)?|an?|one)\s*(?:years?|months?)"
_GOOD_STATUS = r"(?:with|in)\s+(?:a\s+)?good\s+(?:functional\s+(?:status|capacity)|condition)"
# the bound said the other way round when the survival is not expected ("not expected to
# live more than 1 year": life expectancy ≤ 1 year)
_NOT_EXPECTED = {">": "≤", ">=": "<"}
_SIGN = {">": ">", ">=": "≥"}


def _as_life_expectancy(m: re.Match[str]) -> str:
    """ "life expectancy <sign><time>": the quantity and value the grammar reads, the bound
    turned round after "not" and "a year" written as "1 year"."""
    words = re.sub(r"\s+", " ", m["op"].lower())
    operator = operator_from_words(words) or ">"  # "beyond": more than
    sign = _NOT_EXPECTED[operator] if m["not"] else _SIGN[operator]
    time = re.sub(r"^(?:an?|one)\s*", "1 ", m["time"], flags=re.I)
    status = f" {m['status']}" if m["status"] else ""
    return f"life expectancy {sign}{time}{status}"


SURVIVAL_REWRITES: list[tuple[re.Pattern[str], Any]] = [
    # "limited life expectancy (<2 years)": the bracket gives that quantity's value, read as
    # "life expectancy <2 years" (a bare time in years would be read as an age)
    (
        re.compile(
            r"\b(?:(?:limited|short|reduced|reasonable|good|long|adequate|acceptable)\s+)?"
            r"(life\s+expectancy|expected\s+survival)\s*"
            r"\(\s*((?:[<>≤≥]|less\s+than|more\s+than)\s*\d+(?:[.,]\d+)?\s*years?)\s*\)",
            re.I,
        ),
        r"\1 \2",
    ),
    # "(provided they are) expected to live more than 1 year (with good functional status)"
    (
        re.compile(
            r"\b(?:(?:they|he|she|the\s+patient|patients)\s+(?:is|are)\s+)?(?P<not>not\s+)?"
            r"(?:expected|likely)\s+"
            rf"to\s+(?:live|survive)\s+(?:for\s+)?(?P<op>{_MORE_THAN}|{_AT_LEAST})\s*"
            rf"(?P<time>{_TIME})(?:\s+(?P<status>{_GOOD_STATUS}))?",
            re.I,
        ),
        _as_life_expectancy,
    ),
    # "(provided) survival (with good functional status) beyond 1 year is expected"
    (
        re.compile(
            rf"\b(?:an?\s+)?(?P<not>)survival\s+(?:(?P<status>{_GOOD_STATUS})\s+)?"
            rf"(?:of\s+)?(?P<op>{_MORE_THAN}|{_AT_LEAST})\s*(?P<time>{_TIME})\s+"
            r"(?:is|can\s+be)\s+(?:expected|anticipated|likely)",
            re.I,
        ),
        _as_life_expectancy,
    ),
]
