"""How guideline text says which side of a value counts: operators in symbols ("≥", "<") and
in words before the value ("at least", "not below", "exceeding") or after it ("or more", "or
less"). Split from measurements.py, which reads the values these operators bound.
"""

from __future__ import annotations

import re

OPERATOR_WORDS: tuple[tuple[str, str], ...] = (
    (r"less\s+than\s+or\s+equal\s+to|equal\s+to\s+or\s+less\s+than", "<="),
    (r"greater\s+than\s+or\s+equal\s+to|equal\s+to\s+or\s+(?:greater|more)\s+than", ">="),
    (
        r"at\s+most|not\s+exceeding|up\s+to|a\s+maximum\s+of|at\s+or\s+(?:below|under)|"
        r"no[t]?\s+(?:more|higher|greater)\s+than|not\s+(?:above|over)",
        "<=",
    ),
    (
        r"at\s+least|a\s+minimum\s+of|at\s+or\s+above|no[t]?\s+(?:less|lower|fewer)\s+than|"
        # ("the risk reaches 10%", "the diameter has reached 55 mm": that value or more)
        # (never "has not (yet) reached", nor a state "is reached")
        r"not\s+(?:below|under)|(?<!\bnot\s)(?<!\byet\s)(?<!\bis\s)(?<!\bare\s)(?<!\bbeen\s)"
        r"reach(?:es|ed)|ha(?:s|ve)\s+reached",
        ">=",
    ),
    (r"below|beneath|under|(?:lower|less|fewer|younger|shorter)\s+than", "<"),
    (
        r"above|over|greater\s+than|higher\s+than|more\s+than|exceeding|exceeds?|in\s+excess\s+of|"
        r"older\s+than|longer\s+than|larger\s+than",
        ">",
    ),
    (r"equal\s+to|of\s+exactly", "="),
)
SYMBOLS = {"<": "<", ">": ">", "≤": "<=", "≥": ">=", "⩽": "<=", "⩾": ">=", "=": "=",
            "<=": "<=", ">=": ">=", "=<": "<=", "=>": ">=", "＜": "<", "＞": ">"}  # fmt: skip
SYMBOL_RE = r"(?:<=|>=|=<|=>|[<>≤≥⩽⩾=＜＞])"
WORD_RE = "|".join(f"(?:{p})" for p, _ in OPERATOR_WORDS)
# an operator before a value that bounds it (no "=" or "equal to"): what tells "doses above
# 40 mg/day", a bound, from a dose
BOUND_BEFORE_VALUE = (
    r"(?:[<>≤≥⩽⩾＜＞]|\b(?:" + "|".join(f"(?:{p})" for p, op in OPERATOR_WORDS if op != "=") + r"))"
)
POST_WORDS = {
    "less": "<=", "lower": "<=", "below": "<=", "under": "<=", "fewer": "<=", "younger": "<=",
    "more": ">=", "greater": ">=", "higher": ">=", "above": ">=", "over": ">=", "older": ">=",
    "longer": ">=", "larger": ">=", "upward": ">=", "upwards": ">=",
}  # fmt: skip
# ("a BMI from 40 kg/m² upward": "upward" alone bounds the value too)
# the bound words joined to the value before them ("or more", "and above"), one pattern for
# every reader of them (a value's own bound, one said again after an operator, a footnote
# letter glued to one)
BOUND_AFTER = r"(?:or|and)\s+(?:" + "|".join(POST_WORDS) + r")"
POST_RE = rf"(?:{BOUND_AFTER}|upwards?)\b"


def post_op(words: str) -> str:
    """The bound of a value written after it: "or more" -> ">=", "or less" -> "<="."""
    return POST_WORDS[words.split()[-1].lower()]


def operator_from_words(words: str) -> str | None:
    words = " ".join(words.lower().split())
    if words in SYMBOLS:
        return SYMBOLS[words]
    for pattern, op in OPERATOR_WORDS:
        if re.fullmatch(pattern, words):
            return op
    return None
