"""How the items a phrase reader found are grouped (a part of phrases.py): kinds of one
disease joined by "and", the two halves of an "A and B head" ellipsis, a bracket of
procedures that says which one is done, a bracket of kinds of a disease or drug class; and,
over a whole row (the extractor calls it), groups no one is in two of at once.
"""

from __future__ import annotations

import re

from cardio_assets.logic.lexicon.drafts import QUALIFIER_ALONE, Draft, share_or_label
from cardio_assets.logic.lexicon.post_markers import _depth_at


def _pair_kinds_of_one_disease(drafts: list[Draft], text: str, group_counter: list[int]) -> None:
    """ "HFmrEF and HFpEF", "type 1 and type 2 diabetes" written out: two conditions joined by
    a bare "and" whose full names begin alike and end alike in two words, differing only in
    between, are kinds of one disease, and a patient has one of them (the contract, §6:
    "and" meaning OR over patient groups). Diseases of two sites ("coronary artery disease
    and peripheral artery disease") differ in their first word and stay both required."""
    for first, second in zip(drafts, drafts[1:], strict=False):
        if not (
            first.role == second.role == "Condition"
            and not (first.negated or second.negated or first.or_group or second.or_group)
        ):
            continue
        a, b = first.normalized.split(), second.normalized.split()
        if len(a) < 3 or len(b) < 3 or a[-2:] != b[-2:] or a[0] != b[0] or a == b:
            continue
        start = text.find(first.text)
        end = text.find(second.text, start + len(first.text)) if start >= 0 else -1
        if end >= 0 and re.fullmatch(r"\s+and\s+", text[start + len(first.text) : end]):
            share_or_label([first, second], group_counter)


# Classes a person is, for a row, in one of at a time: a sex, a body-weight class, a stage
# of pregnancy. Named side by side with "and" ("men <45 years and women <55 years",
# "overweight and obese people", "during pregnancy and post-partum"), they are groups the row
# applies to, either of them (the contract, section 6: "and" meaning OR over patient groups).
_CLASSES_ONE_AT_A_TIME = {
    "sex": {
        "male": "men|man|male|males|boys",
        "female": "women|woman|female|females|girls",
    },
    "body weight": {
        "overweight": "overweight",
        "obese": "obese|obesity|severe obesity",
        "underweight": "underweight",
    },
    "pregnancy": {
        "pregnancy": "pregnancy|pregnant|pregnant women|pregnant woman",
        "after delivery": "post-partum|postpartum|postpartum period|post-partum period|puerperium",
        "breastfeeding": "breastfeeding|lactation|lactating",
    },
}
# a normalized name -> (its class, its member)
_ONE_AT_A_TIME = {
    name: (scale, member)
    for scale, members in _CLASSES_ONE_AT_A_TIME.items()
    for member, names in members.items()
    for name in names.split("|")
}
# the generic people word after a class ("overweight patients", "post-partum women")
_PEOPLE_AFTER = re.compile(r"\s+(?:patients?|people|persons?|individuals?|women|woman)$")
# what may stand between two such groups: a value of the first ("<45 years of age", no
# clause, no sentence end), then the connective
_BETWEEN_GROUPS = re.compile(
    r"(?:\s+(?:[^,;().]|\.(?=\d)){0,30}?)?,?\s+(?:and|or|and/or)\s+(?:the\s+)?"
)


# a comma list running up to the first group ("hypertension, diabetes, overweight and …"):
# an item of two or three words, then the comma (an opening phrase, "After ACS, men …", is no
# item: it holds a preposition)
_LIST_BEFORE = re.compile(
    r"(?:^|[,;(:]|\bwith\b|\bof\b)\s*"
    r"(?:(?!(?:after|before|in|for|during|with|of)\b)[\w\-]+\s*){1,3},\s*$",
    re.IGNORECASE,
)


def _class_of(draft: Draft) -> tuple[str, str] | None:
    name = draft.normalized.lower()
    return _ONE_AT_A_TIME.get(name) or _ONE_AT_A_TIME.get(_PEOPLE_AFTER.sub("", name))


def _word_at(text: str, words: str, start: int = 0) -> int:
    """Where ``words`` are printed as whole words from ``start`` on ("men", not the "men" of
    "recommended"), or -1."""
    found = re.compile(rf"(?<!\w){re.escape(words)}(?!\w)").search(text, start)
    return found.start() if found else -1


def pair_groups_one_at_a_time(drafts: list[Draft], text: str, group_counter: list[int]) -> None:
    """Two Conditions of one class of _CLASSES_ONE_AT_A_TIME, of two members, printed next
    to each other with an "and" or "or" between them (a value of the first group may stand
    between: "men <45 years of age and women") share an OR label: the row is for either.
    Either already grouped or negated, or the pair closing a longer comma list ("hypertension,
    diabetes, overweight and obesity": one list, read as the rest of it is), leaves them."""
    placed: dict[str, list[tuple[int, Draft, tuple[str, str]]]] = {}
    cursor = 0
    for draft in drafts:  # in the order read, each after the one before where it can be
        if not draft.text:
            continue
        at = _word_at(text, draft.text, cursor)
        if at < 0:
            at = _word_at(text, draft.text)
        if at < 0:
            continue
        cursor = at + len(draft.text)
        kind = _class_of(draft) if draft.role == "Condition" and not draft.negated else None
        if kind is not None:
            placed.setdefault(kind[0], []).append((at, draft, kind))
    for pairs in placed.values():
        pairs.sort(key=lambda placed_draft: placed_draft[0])
        for (start, first, kind), (end, second, other) in zip(pairs, pairs[1:], strict=False):
            if first.or_group or second.or_group or kind == other:
                continue
            if _LIST_BEFORE.search(text[:start]):
                continue  # the last two items of a comma list
            if _BETWEEN_GROUPS.fullmatch(text, start + len(first.text), end):
                share_or_label([first, second], group_counter)


def _pair_absences(drafts: list[Draft], text: str, group_counter: list[int]) -> None:
    """ "sinus bradycardia and no syncope or presyncope": the negation carried over an "or"
    inside a longer list names one absence of either, NOT(OR(A, B)) under one OR label (the
    contract, section 7), as "without A or B" alone already is; before, the two negated
    concepts had no label, and the rule read them as two unrelated absences."""
    for first, second in zip(drafts, drafts[1:], strict=False):
        if not (first.negated and second.negated) or first.or_group or second.or_group:
            continue
        if first.role == "ClinicalParameter" or second.role == "ClinicalParameter":
            continue
        if {first.normalized.lower(), second.normalized.lower()} & QUALIFIER_ALONE:
            continue  # a stranded qualifier ("or customized") is no absence to pair
        joined = rf"{re.escape(first.text)},?\s+or\s+{re.escape(second.text)}"
        if re.search(joined, text, re.IGNORECASE):
            share_or_label([first, second], group_counter)


def _kinds_sharing_a_head(first: list[Draft], second: list[Draft]) -> bool:
    """One condition each, neither negated, the second not grouped yet: the two halves of an
    "A and B head" ellipsis ("or" already made them alternatives)."""
    if not (
        len(first) == len(second) == 1
        and first[0].role == second[0].role == "Condition"
        and not (first[0].negated or second[0].negated)
        and second[0].or_group is None
    ):
        return False
    # the same head, and no longer in the first than in the second ("infectious myocarditis",
    # "autoimmune myocarditis"), unlike a head read across a clause
    lent, own = first[0].normalized.split(), second[0].normalized.split()
    return len(own) > 1 and len(lent) <= len(own) and lent[-1] == own[-1]


# a head that only says "drugs" ("drugs such as A and B"): the class is the examples'
_BARE_DRUG_WORD = re.compile(r"(?i)(?:the\s+)?(?:drugs?|agents?|medications?|medicines?)")
# ... and states named by no more than a generic word: "other conditions (e.g. A, B or C)"
_BARE_STATE_WORD = re.compile(
    r"(?i)(?:(?:the|other|additional|concomitant|associated)\s+)?"
    r"(?:conditions?|diseases?|disorders?|comorbidit(?:y|ies))"
)

# an aside that says what else the patients take: "(patients should also receive X and Y)"
_ALSO_RECEIVE = re.compile(
    r"^(?:all\s+)?(?:patients|they|these\s+patients)\s+should\s+also\s+"
    r"(?:receive|take|be\s+(?:treated\s+with|on))\s+(?P<what>.+)$",
    re.IGNORECASE,
)


def _procedure_alternatives(
    head: Draft | None, listed: list[Draft], aside: str, before: str
) -> bool:
    """A procedure written right before a bracket of other procedures joined by "or": the
    bracket says which of them is done."""
    return (
        head is not None
        and head.role == "Procedure"
        and not head.negated
        and before.rstrip(" ,;").lower().endswith(head.text.lower())
        and len(listed) > 1
        and all(d.role == "Procedure" and not d.negated for d in listed)
        and re.search(r"\bor\b", aside, re.IGNORECASE) is not None
        # "(other than A or B)" excludes; "(150 min/week of A or 75 min/week of B)" doses
        # the act named before it
        and not re.match(r"(?:other\s+than|except|excluding|not)\b", aside, re.IGNORECASE)
        and not re.search(r"\d", aside)
        # "regular exercise (moderate exercise or vigorous exercise)": kinds of the act
        # named with its own head, the act itself recommended
        and not all(d.normalized.split()[-1:] == head.normalized.split()[-1:] for d in listed)
    )


def _kinds_of(head: Draft | None, listed: list[Draft]) -> bool:
    """Several items of the role of the disease or drug class they follow, none a value."""
    return (
        head is not None
        and head.role in ("Condition", "Medication")
        and not head.negated
        and len(listed) > 1
        and all(d.role == head.role and d.or_group is None and not d.negated for d in listed)
    )


def _outside_brackets(surface: str, segment: str) -> bool:
    """Whether ``surface`` is printed in ``segment`` outside any bracketed aside."""
    at = segment.find(surface)
    return at >= 0 and _depth_at(segment, at) == 0
