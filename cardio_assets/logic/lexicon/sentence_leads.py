"""Where the lead clause of a sentence ends ("In patients with A, B or C, X is
recommended"): its top-level commas, a comma that only opens an aside of the act, a list
that belongs to the act, a bracket that closes the lead, a noun that names the act; and the
list a pointer stands for ("the following are recommended: A; B"). Read by sentences.py.
"""

from __future__ import annotations

import re

from cardio_assets.logic.lexicon.role_words import heuristic_role
from cardio_assets.logic.lexicon.vocabulary import _OUTCOME_VERBS, _PATIENT_WORDS, _PURPOSE_VERBS

# the words that open a relative clause of a lead ("In patients in whom X is …")
RELATIVE_WORD = re.compile(r"\b(?:in|for)\s+whom\b|\bwho(?:se)?\b", re.IGNORECASE)


def _top_level_commas(text: str) -> list[int]:
    depth, found = 0, []
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            found.append(i)
    return found


_ASIDE_AFTER_COMMA = re.compile(
    r"\s*(?:preferably|especially|particularly|notably|namely|including|such\s+as|e\.g\.|i\.e\."
    # "…, CEA, in addition to OMT, should be considered": what the act is given with or
    # instead of, and for how long, are asides of the act too
    r"|in\s+addition\s+to|on\s+top\s+of|in\s+combination\s+with|as\s+an?\s+alternative\s+to"
    r"|for\s+(?:up\s+to\s+|at\s+least\s+)?\d+\s*(?:days?|weeks?|months?|years?))\b",
    re.IGNORECASE,
)
_LIST_TAIL = re.compile(
    r"^\s*(?:(?:and|or|and/or)\s+|[^,]+?\s+(?:and|or|and/or)\s+)\S", re.IGNORECASE
)
_COORDINATED_ITEM = re.compile(r"^\s*(?:and|or|and/or)\s", re.IGNORECASE)
# a head and the first item of what it is given with: "triple therapy with aspirin"
# ... or an act and the first thing it looks for: "an assessment to exclude (latent) A"
_HEAD_WITH_LIST = re.compile(
    r"\s(?:with|by|using|including|plus|such\s+as|e\.g\.|to\s+(?:exclude|detect|rule\s+out|identify))\s+"
    r"(?:an?\s+|the\s+)?(?:\([^()]*\)\s*)?[\w\-]+(?:\s[\w\-]+)?\s*$",
    re.IGNORECASE,
)


# words that go on with the lead clause after a bracket ("(LVEF ≤40%) who remain …")
_LEAD_GOES_ON = re.compile(
    r"\s*(?:and|or|who|whose|whom|with|without|in|on|at|of|for|after|before|despite|"
    r"undergoing|treated|receiving|taking|if|when|that|than|not|but|due|because|to|from|"
    r"by|as|is|are|were|was|has|have|had)\b",
    re.IGNORECASE,
)


# "In adults with X participation in Y is recommended": with no comma, a noun that names
# the act ("participation in", "referral to", "use of") starts the action
# "To evaluate X, measurement of A, B, and C is recommended": where the subject's list of
# what is measured starts, when the last comma before the verb is the list's own
LISTED_ACT_START = re.compile(
    r",\s*(?=(?:the\s+)?(?:measurement|assessment|evaluation|determination|monitoring|use|"
    r"administration|testing)\s+of\s)",
    re.IGNORECASE,
)
_ACT_NOUN_AFTER_LEAD = re.compile(
    r"(?<=\s)(?:participation|engagement|involvement)\s+in\b|(?<=\s)referral\s+to\b"
    r"|(?<=\s)(?:use|administration|initiation|prescription)\s+of\b"
    # "In all cases of suspected X a first diagnostic evaluation is …" (not inside the lead's
    # own "with an abnormal examination")
    r"|(?<=\s)(?<!\bwith\s)(?<!\bof\s)(?<!\bon\s)(?<!\bafter\s)an?\s+(?:[\w\-]+\s+){0,2}?"
    r"(?:evaluation|assessment|work-?up|examination)\b",
    re.IGNORECASE,
)


def _lead_ends_at_aside(text: str) -> int | None:
    """Where a lead clause with no comma ends at its bracketed aside ("In adults with
    uncontrolled asthma (FEV1 <60%) vigorous running is …"): right after the last top-level
    ")" when a new phrase, not a connector, follows it."""
    depth, end = 0, None
    for i, ch in enumerate(text):
        if ch == "(":
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                end = i + 1
    if end is None or not text[end:].strip() or _LEAD_GOES_ON.match(text, end):
        return None
    return end


# a clause an item of a list carries ("an ARB if ACE inhibitors are not tolerated")
_OWN_CLAUSE = re.compile(r"\s+(?:if|when|where|unless|in\s+case)\b", re.IGNORECASE)


def _last_top_level_comma(text: str) -> int | None:
    """Where a lead clause ends ("In patients with A, B or C, X is recommended"): its last
    comma, unless that comma is inside the action's own list ("In patients with A, triple
    therapy with aspirin, clopidogrel and an OAC ..."): then the comma before the action's
    head, the one whose segment names a head and what it is given with."""
    # a comma before "preferably X" / "especially X" opens an aside of the action, never
    # the end of the lead clause
    commas = [c for c in _top_level_commas(text) if not _ASIDE_AFTER_COMMA.match(text, c + 1)]
    if not commas:
        return None
    segments = [text[a + 1 : b] for a, b in zip(commas, [*commas[1:], len(text)], strict=True)]
    if not _LIST_TAIL.match(segments[-1]):
        return commas[-1]
    for comma, segment in zip(reversed(commas[:-1]), reversed(segments[:-1]), strict=True):
        # (a head whose own words hold an "and", "surveillance of A and B by X", still
        # opens the action's list; an item led by "and/or" is one of a list)
        if _HEAD_WITH_LIST.search(segment) and not _COORDINATED_ITEM.match(segment):
            return comma
        if _LIST_TAIL.match(segment):
            break  # the cohort's own list ("with A, B and C, X and Y are ...")
    # "For X, a beta-blocker, sotalol, or pacing should be considered": the action is a list
    # of drugs or acts; the lead ends before its first item (an item before the last may
    # be a short name ending in an abbreviation: "a GLP-1 RA, or a statin")
    # (the last item, led by its "or", may carry its own clause: "or an ARB where ACE
    # inhibitors are not tolerated")
    last = segments[-1]
    if _COORDINATED_ITEM.match(last):
        last = _OWN_CLAUSE.split(last, maxsplit=1)[0]
    first_item = None
    if _act_item(last):
        for index in range(len(segments) - 2, -1, -1):
            # (an abbreviation led by "or" before the last ends a list of its own: "In
            # patients with PAD, AAA, or CAD, a statin or ezetimibe …", the cohort's)
            item = segments[index]
            if not (
                _act_item(item)
                or (not _COORDINATED_ITEM.match(item) and _ABBREVIATED_ACT.search(item))
            ):
                break
            first_item = index
    return commas[first_item] if first_item is not None else commas[-1]


# a finite verb of a clause ("X is not tolerated", "Y has failed", "Z cannot be given")
_FINITE_VERB = re.compile(
    r"\b(?:is|are|was|were|has|have|had|cannot|can|does|do|did|remains?|persists?|exists?|"
    r"fails?|failed|occurs?|occurred)\b",
    re.IGNORECASE,
)


# the first word of a phrase that is not an item of a list
_PHRASE_START = re.compile(
    r"\s*(?:with|without|in|on|at|for|despite|after|before|during|unless|except|especially|"
    r"preferably|including|depending|provided|if|when|where|who|which|as|to|by)\b",
    re.IGNORECASE,
)


def clause_lead_end(text: str) -> int | None:
    """Where an opening clause ("If / When / Where / After / Once X is …") ends: at its first
    top-level comma when the clause has its verb before that comma, nothing after it has
    one, every item after it is an act, an abbreviated test or a single word, and the last
    is an act ("When X is not tolerated, A, B, C or D is recommended": the rest is the act's
    list, however many of its items the vocabulary knows); None otherwise."""
    commas = _top_level_commas(text)
    if not commas or not _FINITE_VERB.search(text, 0, commas[0]):
        return None
    items = [text[a + 1 : b] for a, b in zip(commas, [*commas[1:], len(text)], strict=True)]
    if _FINITE_VERB.search(text, commas[0]) or not all(_list_item(item) for item in items):
        return None
    last = re.split(r"\s(?:or|and|and/or)\s", items[-1])[-1]
    return commas[0] if _act_item(last) or _ABBREVIATED_ACT.search(last) else None


# a short item ending in an abbreviation, as tests and devices are printed ("stress CMR",
# "SPECT", "a dual-chamber ICD")
_ABBREVIATED_ACT = re.compile(r"^\s*(?:an?\s+)?(?:[\w\-]+\s+){0,2}[A-Z]{2,6}s?\s*$")


def _list_item(segment: str) -> bool:
    """An item of a list of acts: one the vocabulary knows as a drug or an act, or a single
    word ("amiloride"), not a phrase of its own ("without evidence of X") or a predicate
    ("poorly tolerated or insufficient")."""
    if _PHRASE_START.match(segment):
        return False
    return len(segment.split()) == 1 or all(
        _act_item(part) or _ABBREVIATED_ACT.search(part)
        for part in re.split(r"\s(?:or|and|and/or)\s", segment)
    )


def _act_item(segment: str) -> bool:
    """A short list item naming a drug or an act by its own words ("sotalol", "or pacing")."""
    item = re.sub(r"^\s*(?:(?:and|or|and/or)\s+)?(?:an?\s+|the\s+)?", "", segment).strip()
    return len(item.split()) <= 5 and heuristic_role(item.lower()) in ("Medication", "Procedure")


# "[In X,] the following [tests] should be done [in Y]: A; B; C": the items after the colon
# are what the verb recommends; "the following" and its kind word name nothing. Read as if
# the list stood where its pointer does (only when the verb is still the sentence's verb:
# items with verbs of their own keep the sentence as written)
_FOLLOWING_SUBJECT = re.compile(
    r"^(?P<lead>(?:[^:]*?,\s+)?)(?:(?:all\s+)?the\s+following(?:\s+[a-z][\w\-]*){0,2}?"
    # "Four drug classes are indicated …: A; B; C; D": a count of kinds points at the list too
    r"|(?:two|three|four|five|six|several|[2-9])\s+(?:[a-z][\w\-]*\s+)?(?:classes|drugs|agents|"
    r"tests|measures|therapies|treatments|steps|components|investigations|interventions))\s+"
    r"(?P<verb>(?:is|are|should|must|may|can|could|might|ought)\b[^:()]*?)\s*:\s*(?P<items>.+)$",
    re.IGNORECASE,
)
# a verb phrase whose colon opens a list of its own ("… in patients with any of these
# findings: A; B"): the list is the patients', not the acts the pointer stands for
_OWN_LIST_BEFORE_COLON = re.compile(
    r"\b(?:(?:any|one|two|either|all|each|both)\s+of(?:\s+(?:the|these|those))?(?:\s+[\w\-]+)?"
    r"|with|including|following)$",
    re.IGNORECASE,
)
# a clause after the list ("…: A and B, unless contraindicated") said of the whole row
_CLAUSE_AFTER_LIST = re.compile(
    r",\s*(?=(?:unless|if|when|where|provided|except|whenever)\b)", re.IGNORECASE
)


def list_as_subject(sentence: str) -> tuple[str, str] | None:
    """The sentence with the list after its colon standing where "the following" (or a
    count of kinds) points from, and the verb phrase it keeps; None when it has no such
    pointer. A clause after the list ("…, unless contraindicated") follows the verb. The
    caller keeps the rewrite only if the verb is still the sentence's."""
    listed = _FOLLOWING_SUBJECT.match(sentence.strip().rstrip("."))
    if listed is None or _OWN_LIST_BEFORE_COLON.search(listed["verb"]):
        return None
    items, verb = listed["items"], listed["verb"]
    clause = _CLAUSE_AFTER_LIST.search(items)
    if clause:
        items, verb = items[: clause.start()], f"{verb}, {items[clause.end() :]}"
    return f"{listed['lead']}{items} {verb}", listed["verb"]


# The imperative rows' verbs. Those the imperative reading takes off the row, the act being
# what follows ("Consider aspirin in …", "Avoid NSAIDs in …", "Do not give X"):
GIVING_VERBS = r"give|offer|prescribe|administer|provide"
# (the choosing verbs too: "Choose a DOAC for …", "Select TAVI in …", "Prefer X in …"
# recommend what they pick)
_TAKEN_OFF = (
    rf"consider|use|start|initiate|perform|opt\s+for|choose|select|prefer|favou?r|{GIVING_VERBS}"
)
IMPERATIVE_LEAD = re.compile(
    rf"^(?:(?P<neg>avoid|do\s+not\s+(?:insert|{_TAKEN_OFF}))|{_TAKEN_OFF})\s+",
    re.IGNORECASE,
)
# and those that name the act themselves ("Implant a pacemaker in …", "Refer patients after ACS
# to …", "Do not close a shunt in …"): read as the same row framed "It is (not) recommended
# to implant …", which the infinitive rules name
_ACT_NAMING = (
    r"implant|refer|delay|postpone|defer|stop|"
    r"discontinue|withhold|interrupt|restart|resume|switch|replace|continue|maintain|repeat|"
    r"obtain|close|screen|measure|check|monitor|assess|evaluate|teach|counsel|"
    r"vaccinate|encourage|advise|restrict|limit|titrate|up-titrate|upgrade|ablate|educate|"
    r"reassess|re-evaluate|individuali[sz]e"
)
_PLAIN_IMPERATIVE = re.compile(
    rf"^(?P<neg>do\s+not\s+|never\s+)?(?P<verb>{_ACT_NAMING})\s+"
    # ("Refer to Table 3", "Continue to monitor": no object; "Close monitoring / follow-up":
    # the adjective, no verb)
    r"(?!to\b)(?!(?:monitoring|follow-up|follow\s+up|surveillance|"
    r"observation|attention|contact|supervision|collaboration|cooperation)\b)",
    re.IGNORECASE,
)


# "Prefer X to Y in …", "Favour X over Y …": X is recommended with Y its comparator, said as
# "X is preferred over Y" is. "over" / "rather than" mark the comparator wherever they come
# ("Prefer switching to X over Y"); else "to", unless a verb follows it (a purpose: "Prefer
# X to treat Y"). X ends before the patients or a clause ("Prefer X in patients referred to
# Y" has no comparator; the taken-off verb reads it)
_PREFERRED_ACT = r"(?:(?!\b(?:in|for|among|with|who|when|if|after|whose)\b)[^,;:])+?"
_PREFER_IMPERATIVE = re.compile(
    rf"^(?:prefer|favou?r)\s+(?P<act>(?!to\b){_PREFERRED_ACT})\s+(?:over|rather\s+than)\s+"
    r"(?P<rest>.+)$"
    rf"|^(?:prefer|favou?r)\s+(?P<act_to>(?!to\b){_PREFERRED_ACT})\s+to\s+"
    rf"(?!(?:{_OUTCOME_VERBS}|{_PURPOSE_VERBS}|treat|manage|help|be)\b)(?P<rest_to>.+)$",
    re.IGNORECASE,
)


def framed_imperative(sentence: str) -> str | None:
    """The imperative row framed as "It is (not) recommended to <verb> …" ("X is preferred
    over Y …" for a preferring verb), or None."""
    preferred = _PREFER_IMPERATIVE.match(sentence)
    if preferred is not None:
        act, rest = (
            preferred["act"] or preferred["act_to"],
            preferred["rest"] or preferred["rest_to"],
        )
        return f"{act} is preferred over {rest}"
    found = _PLAIN_IMPERATIVE.match(sentence)
    if found is None:
        return None
    lead = "It is not recommended to " if found["neg"] else "It is recommended to "
    return f"{lead}{sentence[found.start('verb') : found.end()]}{sentence[found.end() :]}"


# the people an imperative gives something to ("Offer X to all men aged 65", "Do not prescribe
# X to apparently healthy people"): who the act is for, like "in patients …"
# (a few words before the people, none a verb of a purpose: "to improve patients' capacity"
# is a goal, and "to patients' families" gives to the families, not the patients)
_RECIPIENT = re.compile(
    r"\bto\s+(?=(?:all\s+|every\s+|each\s+|the\s+|any\s+)?"
    rf"(?:(?!(?:in|for|with|to|of|help|{_OUTCOME_VERBS}|{_PURPOSE_VERBS})\b)[\w\-]+\s+){{0,3}}?"
    rf"(?:{_PATIENT_WORDS})(?![\w'’]))",
    re.IGNORECASE,
)
_GIVING_VERB = re.compile(rf"(?:do\s+not\s+)?(?:{GIVING_VERBS})\b", re.IGNORECASE)


def recipient_as_cohort(verb: str, rest: str) -> str:
    """``rest`` of an imperative row with a giving ``verb``, its recipients read as a cohort
    ("X to all men" -> "X in all men"); any other row as it is."""
    if not _GIVING_VERB.fullmatch(verb.strip()):
        return rest
    return _RECIPIENT.sub("in ", rest, count=1)


# a purpose before an imperative ("To cut readmissions, consider giving iron …"): the
# imperative readings need the verb first, so the purpose goes after the act, where it reads
# as "… to cut readmissions"
_PURPOSE_FIRST = re.compile(
    r"^(?P<purpose>to\s+[a-z][^,;]*?),\s+"
    rf"(?P<rest>(?:do\s+not|never|avoid|{_TAKEN_OFF}|{_ACT_NAMING})\b.+?)(?P<end>[.;]?)$",
    re.IGNORECASE,
)


def purpose_after_imperative(sentence: str) -> str | None:
    """The imperative row with its leading purpose moved after the act, or None."""
    found = _PURPOSE_FIRST.match(sentence.strip())
    if found is None:
        return None
    rest = found["rest"]
    return f"{rest[0].upper()}{rest[1:]}, {found['purpose']}{found['end']}"
