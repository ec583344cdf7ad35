"""Patterns and small helpers the lexicon extractor's phrase readers share: what leads an
outcome, a value with nothing it measures, a second patient group, an abbreviation pair."""

from __future__ import annotations

import re

from cardio_assets.logic.lexicon.drafts import Draft
from cardio_assets.logic.lexicon.vocabulary import _OUTCOME_VERBS, _PURPOSE_VERBS
from cardio_assets.logic.logic_split import Leaf

# the verb an aim opens with ("(to) reduce", "(to) further lower"), "lower" not the
# adjective of a body part ("lower limb amputation", "lower extremity oedema")
_AIM_VERB = (
    r"(?:to\s+)?(?:further\s+)?"
    r"(?!lower[\s-](?:limbs?|extremit(?:y|ies)|legs?|body|urinary|gastrointestinal)\b)"
    rf"(?:{_OUTCOME_VERBS}|{_PURPOSE_VERBS})\s"
)
# "(Treatment with) neither A nor B is recommended": the acts advised against, read as "A and
# B", the row's class and verb saying "not" (no absent drug)
NEITHER_ACTS = re.compile(
    r"^((?:(?:treatment|therapy)\s+with|(?:the\s+)?use\s+of)\s+)?neither\s+(.+?)\s+nor\s+", re.I
)
# "to correct X and enable Y", "to guide X and assess Y": each verb of the aim leads in to
# its object
_OUTCOME_LEAD = re.compile(
    rf"^(?:{_AIM_VERB}\s*)?(?:the\s+|their\s+|its\s+|his\s+|her\s+)?"
    r"(?:(?:risk|rates?|incidence|number|likelihood)\s+of\s+)?",
    re.IGNORECASE,
)
# "to relieve symptoms and lower morbidity and mortality": a second verb of the aim after
# "and" starts an aim of its own (the "and" inside each aim's object stays that object's)
AIM_AFTER_AND = re.compile(rf",?\s+and\s+(?={_AIM_VERB})", re.IGNORECASE)
_VALUE_ONLY = re.compile(
    r"[<>≤≥=~]?\s*[\d.,]+(?:\s*[-–]\s*[\d.,]+)?\s*(?:h|hours?|min|minutes?|days?|weeks?|"
    r"months?|years?|s|mm|cm|%|mmHg|ms)?(?:\s+(?:after|before|of)\s+.*)?"
    # a dose unit left alone once its amount was taken out ("… <2 mg/day)": "mg/day")
    r"|(?:mg|g|[µμu]g|mcg|mL|IU|U|units?)?(?:\s*/\s*(?:kg|day|d|h|hr|min|week|m2))+",
    re.IGNORECASE,
)
# "history" taken as an act ("including history, physical examination and ECG", "an
# accurate history is advised"): the history taking, not a past the patient has
HISTORY_TAKEN = re.compile(
    r"(?:(?:medical|clinical|family|accurate|detailed|careful|thorough|complete|full)\s+)*history",
    re.IGNORECASE,
)
_THEN_START = re.compile(
    r"\band\s+(?:start|initiate|begin|commence|switch\s+to|add|give|use|resume)\b", re.IGNORECASE
)
_ARRIVAL = re.compile(
    r"^\s*(?:admitted|hospitali[sz]ed|presenting|diagnosed|referred|seen)(?=\s+(?:with|for)\b)",
    re.IGNORECASE,
)
# a connector left alone once the values around it are masked ("over 70 years and/or")
_CONNECTIVE_ONLY = re.compile(r"^(?:and/or|and/?|/?or|but|nor)$", re.IGNORECASE)
_EXAMPLE_LEAD = re.compile(r"^(?:including|e\.\s?g\.?|such\s+as|for\s+example),?\s", re.I)
# ("a volume including the heart", "a field including the mediastinum": what a region
# takes in is part of its name, not an example of it; so are the members of a team, "a
# vascular team including a neurologist")
_INCLUDING_TAIL = re.compile(
    r"(?<!\bvolume)(?<!\bfield)(?<!\bregion)(?<!\barea)(?<!\bteam)(?<!\bteams)(?<!\bMDT)"
    r",?\s+(?P<lead>including|such\s+as|e\.\s?g\.|for\s+example),?\s+(?=\S)",
    re.IGNORECASE,
)
_ANOTHER_GROUP = re.compile(
    r",?\s+(?:and|or|as\s+well\s+as)\s+(?:in\s+|for\s+)?"
    r"(?:(?:those|patients|individuals|people|women|men|adults|children)"
    # ("… and for those recovering from an ACS": recovering from it is having had it)
    r"\s+)(?:(?:living\s+)?with|(?P<at>at)|(?P<after>recovering\s+from))\s+",
    re.IGNORECASE,
)
_ABBREVIATION_PAIR = re.compile(
    r"(?P<state>\b(?:elevated|raised|increased|high|low|reduced|decreased|abnormal|positive|"
    r"negative)\s+)?"
    r"(?<![\w/-])(?P<left>[A-Z][\w\-]*|[a-z][a-z\-]{3,})/(?P<right>[A-Z][\w\-]*|[a-z][a-z\-]{3,})"
    # "contrast volume/GFR ratio <3.7", "LDL-C/HDL-C ratio", "SPECT/CT fusion": one measure
    r"(?![\w/\-])(?!\s*(?:ratio|index|slope|quotient|fusion|hybrid)\b|\s*(?:[<>≤≥=]|\d))"
)
_PAST_PROCEDURE = re.compile(
    r"^(?:a\s+)?(?:(?:history|h/o)\s+of|prior|previous|past|recent)\s+(.+)$", re.IGNORECASE
)


# post-act phrases naming a therapy beside the act, and the function each gives it
_THERAPY_BESIDE: dict[str, str | None] = {
    "background": None,
    "alternative": "comparator",
    "co-therapy": "co-therapy",
}
# acts of keeping something from happening: their object may be a state, not a therapy
_AVOIDING = frozenset({"avoidance", "postponement", "deferral"})


def _head_before(drafts: list[Draft], before: str) -> Draft | None:
    """The concept an aside follows: "an ACE inhibitor (or an ARNI) and a beta-blocker"
    offers the ARNI instead of the ACE inhibitor, the concept written right before the
    bracket, not the last of the phrase. Falls back to the last concept when none of
    them ends the text before the bracket."""
    candidates = [d for d in drafts if d.role != "ClinicalParameter"]
    tail = before.rstrip(" ,;").lower()
    ending = [d for d in candidates if d.text and tail.endswith(d.text.lower())]
    if ending:
        return max(ending, key=lambda d: len(d.text))
    return candidates[-1] if candidates else None


def _clean_grade(value: str | None) -> str | None:
    if value is None:
        return None
    value = value.strip()
    return value or None


# "a suspicion of X" is named as the contract's golds name it: "suspected X"
_SUSPICION = re.compile(r"^(?:an?\s+)?suspicion\s+of\s+", re.IGNORECASE)

# a finding and the test that showed it: "scarring on cardiac MRI", "pre-excitation on a
# resting ECG", "ventricular fibrillation induced at programmed stimulation"
_FINDING_ON_TEST = re.compile(
    r"^(?P<finding>[A-Za-z].*?)\s+(?:(?:(?:detected|seen|found|shown|documented|identified|"
    r"demonstrated|induced)\s+)?(?:on|at)|(?:detected|seen|found|shown|documented|identified|"
    r"demonstrated|induced)\s+by)\s+(?:an?\s+|the\s+)?(?P<test>[^,;]+)$",
    re.IGNORECASE,
)
# the last word of the normalized name of a test (abbreviations expanded)
_TEST_HEAD = re.compile(
    r"\b(?:monitoring|electrocardiogram|electrocardiography|holter|imaging|resonance|"
    r"tomography|angiography|echocardiography|echocardiogram|ultrasound|scan|scintigraphy|"
    r"testing|test|stimulation|study|catheteri[sz]ation|biopsy)$",
    re.IGNORECASE,
)
# a finding that says what was done, not what was found ("follow-up imaging by CT"), or a
# clause ("the aorta cannot be assessed by TTE"): no finding of a test
_NO_FINDING = re.compile(
    r"\b(?:is|are|was|were|be|been|cannot|can|could|should|may|per|year|years)\b", re.IGNORECASE
)


def finding_and_test(text: str, normalize) -> tuple[str, str] | None:  # type: ignore[no-untyped-def]
    """The finding and the test of "X on/at/by <test>" when the tail names a test, else None."""
    m = _FINDING_ON_TEST.match(text)
    if not m or _NO_FINDING.search(m["finding"]):
        return None
    if re.fullmatch(r"(?:the\s+)?(?:findings?|results?)", m["finding"], re.IGNORECASE):
        return None  # "findings at angiography" name no finding
    if not _TEST_HEAD.search(normalize(m["test"]).strip()):
        return None
    return m["finding"], m["test"]


# the same pairing said the other way round: "if CMR shows scar", "when the ECG shows: A; B",
# "if neurological examination reveals X": what the test shows is the finding, the test is
# done whatever it shows (no verb of the row's own may come between them)
_TEST_SHOWS = re.compile(
    r"^(?:the\s+|an?\s+)?(?P<test>[A-Za-z][^,;:()]*?)\s+(?:(?P<verb>shows?|showed|reveals?|"
    # (not "indicated" / "suggested": "an ECG indicated for screening" is passive)
    r"revealed|demonstrates?|demonstrated|indicates|suggests)|"
    r"(?P<participle>showing|revealing|demonstrating|indicating|suggesting))\b\s*:?\s*"
    r"(?P<finding>.*)$",
    re.IGNORECASE,
)


def test_showing(text: str, normalize) -> tuple[str, str, bool] | None:  # type: ignore[no-untyped-def]
    """The finding and the test of "<test> shows X" ("" when the finding is listed after a
    colon), and whether the test is named by a participle ("a TOE showing X": the test is
    the noun phrase's head, done as the row says); None when the subject names no test."""
    m = _TEST_SHOWS.match(text)
    if not m or _NO_FINDING.search(m["test"]) or re.search(r"\b(?:and|or)\b", m["test"], re.I):
        return None  # (a list before the verb is more than the test: "severe AS and a test")
    test = m["test"].strip()
    if not (_TEST_HEAD.search(normalize(test).strip()) or test.lower().endswith("examination")):
        return None
    if re.search(r"\b(?:studies|trials|data|evidence|analyses|registries)$", test, re.I):
        return None  # "studies demonstrating benefit": the literature, no test of the patient
    return m["finding"].strip(" ,;"), test, bool(m["participle"])


# "an increase of >3 mm per year measured by echocardiography": the test a measurement or
# finding is taken with, named at the phrase's end; done whatever it shows, so it is no
# alternative of the values before it (and "measured by" names nothing)
_MEASURED_WITH = re.compile(
    r",?\s+(?:as\s+)?(?:measured|assessed|determined|estimated|quantified)\s+"
    r"(?:by|with|using|on)\s+(?:an?\s+|the\s+)?(?P<test>[^,;()]+)$",
    re.IGNORECASE,
)


def measuring_test(text: str, normalize) -> tuple[str, str | None]:  # type: ignore[no-untyped-def]
    """``text`` without a trailing "measured by <test>", and the test (None when the tail
    names no test: "determined by aortic diameter")."""
    m = _MEASURED_WITH.search(text)
    if m is None or not _TEST_HEAD.search(normalize(m["test"]).strip()):
        return text, None
    return text[: m.start()].rstrip(" ,;"), m["test"].strip()


# "an informed talk about CV risk and the benefits of treatment", "informing patients about
# benefits and risks": what is talked about is the talk's topic, listed; the list is no set
# of acts (the development golds keep such an act whole). A second act after "and"
# ("… and provision of an exercise prescription") is one of its own.
_TALK_TOPIC = re.compile(
    r"^(?P<act>.*?\b(?:informed|informing|discussion|counsell?ing|education|information|advice)"
    r"\s+(?:\w+\s+){0,2}?(?:about|on|regarding))\s+(?P<topic>.+\b(?:and|or)\b.+)$",
    re.IGNORECASE,
)
_ANOTHER_ACT = re.compile(
    r"\b(?:and|or)\s+(?P<act>(?:the\s+)?\w+(?:ion|ment|ing)\s+of\b)", re.IGNORECASE
)


def talk_about_a_list(text: str) -> tuple[str, str] | None:
    """One talk about a listed topic (see _TALK_TOPIC) and what follows it as an act of
    its own ("" when nothing does), or None when ``text`` is no such talk."""
    talk = _TALK_TOPIC.match(text)
    if talk is None:
        return None
    another = _ANOTHER_ACT.search(talk["topic"])
    if another is None:
        return text, ""
    cut = talk.start("topic") + another.start()
    rest = text[talk.start("topic") + another.start("act") :].strip()
    return (text[:cut].rstrip(" ,"), rest) if _TALK_TOPIC.match(text[:cut]) else None


# a need kept whole as the patients' state ("requirement for pacing", "need for dialysis")
_NEED = re.compile(r"(?:requirement|need|indication)s?\s+for\b", re.IGNORECASE)


def _modifies(leaf: Leaf) -> bool:
    """The leaf is a word its completed name starts with ("persistent" of "persistent AF")."""
    return bool(leaf.full) and leaf.full.lower().startswith(leaf.text.lower() + " ")


# one word, none of the endings of English nouns for acts, states or qualities: the shape
# of a drug's name ("varenicline", "bupropion", "ergometrine")
_DRUG_LIKE_WORD = re.compile(
    r"(?i)[a-z]{5,}(?<!tion)(?<!sion)(?<!ment)(?<!ance)(?<!ence)(?<!ing)(?<!ity)(?<!ness)"
    r"(?<!al)(?<!sis)(?<!ure)(?<!ery)(?<!ogy)(?<!phy)(?<!ics)(?<!ship)(?<!age)(?<!ary)(?<!ism)"
    r"(?<!ar)(?<!ous)(?<!ive)(?<!ed)(?<!ic)(?<!ly)"
)


# a change of drug or device: "(to) switch from A to B", "converting A to B", "replacement of
# A by B", "to replace A with B", "stepping down / de-escalating from A to B": B is the act,
# A the therapy the patients were on ("moving / transitioning from A to B" only where a drug
# is named: "moving from the ICU to the ward" is no change of drug)
_SWITCH = re.compile(
    r"^(?:(?:a|the)\s+)?(?:to\s+)?(?:(?:switch(?:ing)?|conver(?:t|ting|sion)|chang(?:e|ing)|"
    r"replac(?:e|ing|ement))\s+(?:of\s+)?(?:from\s+)?|(?:step(?:ping)?[\s-]+(?:down|up)|"
    r"(?:de-?)?escalat(?:e|ing|ion)|(?P<loose>mov(?:e|ing)|transition(?:ing)?))\s+from\s+)"
    r"(?P<old>\S.*?)\s+(?:to|with|by)\s+(?P<new>\S.*)$",
    re.IGNORECASE,
)
# a route or an adjective alone: it borrows the noun of what it is switched to
_LONE_MODIFIER = re.compile(
    r"(?i)i\.?\s?v\.?|s\.?\s?c\.?|oral|intravenous|subcutaneous|[a-z\-]+(?:ed|ous|ive)"
)
# examples of a state that are ways to have it: "e.g.", "including" (not "such as", which
# names kinds: "tumours such as lymphomas"; not "i.e.", which restates the state)
_STATE_EXAMPLE_LEAD = re.compile(r"^(?:e\.\s?g\.?|including),?\s", re.I)
# the parts an act is made of: "including" after an act (not "e.g." / "such as", examples the
# contract reads as alternatives)
_PARTS_LEAD = re.compile(r"^including\s", re.I)
