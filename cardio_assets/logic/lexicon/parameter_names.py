"""Where a measured value's name starts when the measurement grammar's name reader stops
short of it or takes too little (pure logic, no Dagster): a head two alternatives share
("renal or iliac artery diameter <4 mm"), a second quantity before "or" that takes the same
value ("eGFR or creatinine clearance <30 mL/min"), the score a value is "scored on"
("scoring ≥2 on CHA2DS2-VASc"), and the state before "has lasted" ("AF has lasted >24 h").
Read by parameters.py.
"""

from __future__ import annotations

import re

from cardio_assets.logic.abbreviations import Abbreviations
from cardio_assets.logic.lexicon.role_words import heuristic_role
from cardio_assets.logic.measurements import QUANTITY_HEADS

# the quantities a shared head measures ("femoral or tibial artery width")
_MEASURE_HEADS = (
    r"diameters?|size|area|thickness|width|length|dimensions?|prolongation|gradient|velocity|"
    r"volume|index"
)
# "renal or iliac artery diameter <4 mm": the first part names a structure or is
# an adjective, so the head after the second is its measure too
_PART_BEFORE_OR = re.compile(
    r"(?P<part>\b(?!(?:an?|the)\s)[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?)\s+or\s+$",
    re.IGNORECASE,
)
_STRUCTURE = re.compile(
    r"(?:root|aorta|arch|artery|arteries|valve|annulus|atrium|ventricle|wall|septum|vein|"
    r"duct|QRS|PR|QT|QTc|\w+(?:ic|al|ar|ary))$",
    re.IGNORECASE,
)
# "the width of the duct is above 3 mm": the measure written before what it measures
_HEAD_OF_LEAD = rf"\b(?P<head>{_MEASURE_HEADS})\s+of\s+(?:the\s+)?"
HEAD_OF = re.compile(rf"{_HEAD_OF_LEAD}$", re.IGNORECASE)
# "a width of the left or the right duct >3 mm": the head written first, two parts
_HEAD_OF_PART_OR = re.compile(
    rf"{_HEAD_OF_LEAD}(?P<part>[A-Za-z][\w-]*(?:\s+[A-Za-z][\w-]*)?)\s+or\s+(?:the\s+)?$",
    re.IGNORECASE,
)


def shared_head_partner(before: str, name: str) -> tuple[int, int, str, str] | None:
    """A measurement whose name shares its head with an alternative written before it: the
    alternative's span in ``before`` (start, end), its name and the measurement's own name,
    each with the head ("aortic root diameter", "ascending aortic diameter"). The contract
    distributes a shared head: two parameters, one OR label."""
    words = name.split()
    if len(words) >= 2 and re.fullmatch(_MEASURE_HEADS, words[-1], re.IGNORECASE):
        part = _PART_BEFORE_OR.search(before)
        if part and _STRUCTURE.search(part["part"]):
            # a lone adjective shares all but the first word ("tibial or femoral artery
            # diameter": the tibial artery's), a structure the head alone
            lent = words[1:] if " " not in part["part"] and len(words) >= 3 else words[-1:]
            return part.start("part"), part.end("part"), " ".join([part["part"], *lent]), name
    head_first = _HEAD_OF_PART_OR.search(before)
    if head_first and len(words) <= 3:
        head = head_first["head"]
        own = re.sub(r"^the\s+", "", name, flags=re.IGNORECASE)
        return (
            head_first.start(),
            head_first.end("part"),
            f"{head_first['part']} {head}",
            f"{own} {head}",
        )
    return None


# "STS-PROM or EuroSCORE II >8%", "eGFR or creatinine clearance <30 mL/min": a second
# measured quantity named before "or" is measured against the same value; its name starts
# where a phrase does (not "high blood pressure or heart rate >80 bpm": "blood" is no name)
# ("creatinine clearance or eGFR": a lower-case second word when it is a quantity's head;
# never a determiner as the first, "with an STS-PROM or …" names "STS-PROM")
_ALTERNATIVE_BEFORE_OR = re.compile(
    r"(?:^|[(,;:]\s*|\b(?:with|and|or|of|in|an?|the|whose|if|when|where|at|on|for)\s+)"
    r"(?P<part>(?!(?:an?|the)\s)[A-Za-z][\w()-]*"
    rf"(?:\s+(?:(?-i:[A-Z0-9])[\w()-]*|(?:{'|'.join(sorted(QUANTITY_HEADS))})\b))?)\s+or\s+$",
    re.IGNORECASE,
)
# a state graded in words ("low potassium", "high blood pressure"): no quantity's name
_GRADED_STATE = frozenset(
    "high low raised elevated reduced abnormal uncontrolled impaired increased decreased".split()
)
# a score's own name ("EuroSCORE II", "STS-PROM", "HAS-BLED score")
_SCORE_NAME = re.compile(r"score|index|PROM\b", re.IGNORECASE)
_HEART_FAILURE_BY_EF = re.compile(r"\bHF(?:r|mr|m|p)EF$")


def measured_alternative(
    before: str, name: str, abbreviations: Abbreviations
) -> tuple[int, int, str, str] | None:
    """A quantity coordinated with the measured ``name`` in ``before``: its span (start,
    end), its name and the measurement's own name, as ``shared_head_partner`` gives them.
    A quantity is what the abbreviation list or the name's head says is measured ("eGFR",
    "LDL-C"; "HFrEF" is a patient group), or a score beside a score ("STS-PROM or
    EuroSCORE II"); a state graded in words ("low potassium") is no quantity."""
    alternative = _ALTERNATIVE_BEFORE_OR.search(before)
    if alternative is None or _HEART_FAILURE_BY_EF.search(alternative["part"]):
        return None
    part = alternative["part"]
    if part.split()[0].lower() in _GRADED_STATE:
        return None
    role = heuristic_role(abbreviations.normalize(part))
    two_scores = role is None and bool(_SCORE_NAME.search(part)) and bool(_SCORE_NAME.search(name))
    if role == "ClinicalParameter" or two_scores:
        return alternative.start("part"), alternative.end("part"), part, name
    return None


# the score a value is scored on, named after it: "scoring ≥2 on (the) CHA2DS2-VASc (score)"
# ("the Duke Treadmill Score": a name of several capitalised words, to its head)
_SCORED_ON = re.compile(
    r"\s+(?:on|in|with)\s+(?:the\s+|a\s+)?"
    r"(?P<score>[A-Za-z][\w\-]*(?:\s+[A-Z][\w\-]*){0,3}?(?:\s+(?i:score|scale|index))?)\b"
    r"(?!\s+[A-Z])"
)
_SCORE_HEADS = ("score", "scale", "index")


def scored_on(text: str, end: int, abbreviations: Abbreviations) -> tuple[str, int] | None:
    """The normalized name of the score a value after "scoring" is on, and where it ends."""
    on = _SCORED_ON.match(text, end)
    if on is None or not re.search(r"[A-Z0-9]", on["score"]):
        return None
    named = abbreviations.normalize(on["score"]).lower()
    return (named if named.endswith(_SCORE_HEADS) else f"{named} score"), on.end()


# "AF has lasted", "block that persisted": the state before a perfect or a relative clause
STATE_THAT_LASTED = re.compile(
    r"(?:^|[,;(]\s*|\b(?:if|when|whose|with|of|in|where|once|and|or|the|an?|had|have|has|who)\s+)"
    # (the state's own words: no determiner, auxiliary or relative word among them)
    r"(?P<state>(?:(?!(?:the|an?|had|have|has|who|that|which|whose)\b)[\w\-]+\s+){0,3}?"
    r"(?!(?:the|an?|had|have|has|who|that|which|whose)\b)[\w\-]+)"
    r"\s+(?:(?:that|which)\s+)?(?:(?:has|have|had)\s+)?$",
    re.IGNORECASE,
)
ONLY_LASTED = re.compile(r"lasted|persisted", re.IGNORECASE)
