"""Where coordination makes one concept, and what an elided item borrows: "low or
intermediate probability" is one range of a scale, "paroxysmal or persistent AF" two kinds
sharing the noun, "NYHA class II or III" two classes sharing the stem.

The AND/OR splitter (logic_split.py) asks ``joins`` whether "A conn B" is one concept and
``complete_ellipsis`` which full names the two items of a pair carry.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cardio_assets.logic.coordination import (
    CLAUSE_WORDS,
    GRADES,
    NOUNS_SHAPED_LIKE_ADJECTIVES,
    SHARED_MODIFIERS,
    adjective_shaped,
)

ARTICLE = re.compile(r"^(?:a|an|the)\s+", re.IGNORECASE)

# the unimpaired end of a scale that a range may start from
_SCALE_START = frozenset({"preserved", "normal"})
_ROMAN = re.compile(r"^(?:I{1,3}|IV|V)(?:[a-d])?$")
# a number on a scale ending a coordinated item, and the next item's number with the head
# both share: a severity scale ("grade 2 or 3 X", "stage 1 or 2 X") is one range, kinds
# ("type I or III X") are alternatives
_SCALE_NUMBER = r"(?:\d{1,2}|I{1,3}|IV|V)[a-d]?"
_SEVERITY_NUMBER = re.compile(rf"\b(?:grades?|stages?)\s+{_SCALE_NUMBER}$", re.I)
_KIND_NUMBER = re.compile(rf"\b(?P<label>types?)\s+{_SCALE_NUMBER}$", re.I)
_NUMBERED_HEAD = re.compile(rf"^{_SCALE_NUMBER}\s+(?P<head>[A-Za-z].*)$")
_GRADE_AFTER_COPULA = re.compile(
    r"\S\s+(?:is|are|remains?|stays?)\s+(?:very\s+)?(?:" + "|".join(sorted(GRADES)) + r")$",
    re.IGNORECASE,
)


def joins(
    previous: str, item: str, joined: str, keep_together: Callable[[str], bool] | None
) -> bool:
    """True when "previous conn item" is one concept, not two."""
    bare = ARTICLE.sub("", previous).lower()
    first = item.split()[0].lower() if item.split() else ""
    # "with mild or ...", "(if) they are at high or ..."
    grade = re.sub(
        r"^(?:with|having|and|(?:(?:they|who|he|she)\s+(?:are|is)\s+)?at)\s+", "", bare
    ).rstrip("-")
    if grade in GRADES and first.split("-")[0] in GRADES:
        return True  # "low or intermediate probability": one range of a scale
    words = grade.split()
    if 1 < len(words) <= 3 and words[-1] in GRADES and first.split("-")[0] in GRADES:
        return True  # "congenital complete or high-degree AVB": a qualified range, still one
    if len(words) > 2 and words[-2] == "of" and words[-1] in GRADES and first in GRADES:
        return True  # "disease of moderate or severe degree": the range after its noun
    if _GRADE_AFTER_COPULA.search(bare) and all(w.lower() in GRADES for w in item.split()):
        return True  # "when the risk is high or very high": the range said of its subject
    if grade in _SCALE_START and first in GRADES and first.endswith("ly"):
        return True  # "preserved or mildly impaired function": from the top of the scale down
    if _SEVERITY_NUMBER.search(previous) and _NUMBERED_HEAD.match(item):
        return True  # "grade 2 or 3 hypertension": a range on a severity scale, one concept
    last = bare.split()[-1] if bare.split() else ""
    if last and first in {f"non-{last}", f"non{last}", f"un{last}", f"in{last}"}:
        return True  # "fatal and non-fatal events": both poles, one concept
    return keep_together is not None and keep_together(joined)


# stages of life printed before a noun they share ("childhood and adolescent cancer survivors");
# the second item opens with one too, so "childhood and heart failure clinics" borrows nothing
LIFE_STAGE_MODIFIERS = frozenset(
    "childhood adolescent adult paediatric pediatric juvenile neonatal infant".split()
)


def complete_ellipsis(previous: str, item: str) -> dict[int, str]:
    """Complete the elided parts of a coordination: {0: previous, 1: item} full names.

    "paroxysmal or persistent AF": previous is a lone modifier, it borrows item's head
    -> "paroxysmal AF". "NYHA class II or III": item is a lone numeral, it borrows
    previous' stem -> "NYHA class III". "severe aortic or mitral regurgitation": two
    relational adjectives share the noun and the modifiers before them -> "severe aortic
    regurgitation", "severe mitral regurgitation".
    """
    bare = ARTICLE.sub("", previous)
    item_words = item.split()
    # a lone adjective of its own ("loculated or thick purulent effusion") borrows the head too
    # ("for loculated or …": the words before it may be prepositions the phrase kept)
    *lead, last = bare.split() or [""]
    lone_adjective = (
        re.fullmatch(r"[a-z]+(?:ed|ic|al|ous|ive)", last) is not None
        and last not in NOUNS_SHAPED_LIKE_ADJECTIVES
        and all(w.lower() in CLAUSE_WORDS for w in lead)
    )
    # "childhood and adolescent cancer survivors": a stage of life said as a modifier names
    # the group of that age, borrowing the head as "paroxysmal" does
    life_stage = (
        last.lower() in LIFE_STAGE_MODIFIERS
        and bool(item_words)
        and item_words[0].lower() in LIFE_STAGE_MODIFIERS
        and all(w.lower() in CLAUSE_WORDS for w in lead)
    )
    # "in the second or third trimester": a shared modifier after the words that lead in
    led_modifier = last.lower() in SHARED_MODIFIERS and all(
        w.lower() in CLAUSE_WORDS or w.lower() in ("the", "a", "an") for w in lead
    )
    # "below-knee or above-knee amputation": two hyphened modifiers share the noun
    compound = (
        not lead
        and re.fullmatch(r"[a-z]+-[a-z]+", last) is not None
        and bool(item_words)
        and re.fullmatch(r"[a-z]+-[a-z\-]+", item_words[0]) is not None
    )
    # "third-degree or Mobitz type II second-degree AV block": the other item's word of the
    # same kind ("second-degree") marks where the shared head starts
    kin = (
        re.fullmatch(r"[a-z]+-(?P<kind>[a-z]+)", last)
        if all(w.lower() in CLAUSE_WORDS | SHARED_MODIFIERS for w in lead)
        else None
    )
    for index, word in enumerate(item_words[1:-1], start=1):
        head_words = item_words[index + 1 :]
        if (
            kin
            and word.lower().endswith(f"-{kin['kind']}")
            and len(head_words) <= 3
            and not any(w.lower() in CLAUSE_WORDS for w in item_words)
        ):
            return {0: f"{bare} {' '.join(head_words)}"}
    if (
        (
            bare.lower() in SHARED_MODIFIERS
            or lone_adjective
            or led_modifier
            or compound
            or life_stage
        )
        and 2 <= len(item_words) <= 4
        and not any(w.lower() in CLAUSE_WORDS for w in item_words)
    ):
        # "paroxysmal or persistent AF"; never across a clause ("asymptomatic, and optimally
        # treated individuals with HFmrEF ...")
        return {0: f"{bare} {' '.join(item_words[1:])}"}
    stem = re.match(r"^(.*\b(?:class|stage|grade|type))\s+\S+$", previous, re.I)
    if _ROMAN.match(item) and stem:
        return {1: f"{stem.group(1)} {item}"}
    kind = _KIND_NUMBER.search(previous)
    numbered = _NUMBERED_HEAD.match(item)
    if kind and numbered:
        # "type I or III endoleak": two kinds sharing the head, each its own concept
        label = kind["label"].lower().rstrip("s")  # "types I or III X": each one type
        return {
            0: f"{previous[: kind.start()]}{label} {previous[kind.end('label') :].strip()} "
            f"{numbered['head']}".strip(),
            1: f"{label} {item}",
        }
    words = bare.split()
    # words before the coordinated adjective and its modifiers ("in", "cases of") belong to
    # neither name: the adjective and its modifiers are the last words
    start = len(words) - 1
    while start > 0 and words[start - 1].lower() in SHARED_MODIFIERS:
        start -= 1
    core = words[start:]
    if (
        1 <= len(core) <= 3
        and start <= 3
        and len(item_words) >= 2
        and all(_plain_word(w) for w in (*core, item_words[0]))
        and adjective_shaped(core[-1])
        and adjective_shaped(item_words[0])
    ):
        head = " ".join(item_words[1:])
        completed = {0: f"{bare} {head}"}
        if len(core) > 1:
            completed[1] = f"{' '.join(core[:-1])} {item}"
        return completed
    return {}


def _plain_word(word: str) -> bool:
    """A word, not an acronym: lower-case, or capitalised only as a sentence's first word
    ("Percutaneous or surgical biopsy")."""
    return word.islower() or (word[:1].isupper() and word[1:].islower())
