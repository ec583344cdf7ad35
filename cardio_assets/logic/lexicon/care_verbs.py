"""The care verbs of "It is recommended that patients with X are screened for Y" and "It is
recommended to screen / refer / treat patients with X for Y": the act done to the patients,
named by its noun ("screened" -> "screening"), and where the patients' phrase ends; and the
verbs of "that <patients> undergo / receive / aim for <act>" (read by sentences.py).
"""

from __future__ import annotations

import re

# where the patients are sent or kept: the place stays with its preposition
_MOVED = {
    "discharged": "discharge",
    "observed": "observation",
    "transferred": "transfer",
    "admitted": "admission",
    "hospitalized": "hospitalization",
    "hospitalised": "hospitalization",
}
# a verb done to the patients, and the act it names ("screened for X" -> "screening for X");
# verbs whose object is itself the act ("enrolled in a programme") name nothing more
_ACT_NOUNS = {
    "screened": "screening",
    "screen": "screening",
    "counselled": "counselling",
    "counseled": "counselling",
    "counsel": "counselling",
    "referred": "referral",
    "refer": "referral",
    "evaluated": "evaluation",
    "assessed": "assessment",
    "measured": "measurement",
    "monitored": "monitoring",
    "followed": "follow-up",
    "vaccinated": "vaccination",
    "anticoagulated": "anticoagulation",
    "educated": "education",
    "informed": "informing",
    "investigated": "investigation",
    "examined": "examination",
    "treat": "treatment",
    "monitor": "monitoring",
    "evaluate": "evaluation",
    "assess": "assessment",
    "examine": "examination",
    "investigate": "investigation",
    "educate": "education",
    "vaccinate": "vaccination",
    "follow": "follow-up",  # "to follow (up) women with X"
    "managed": "management",
    "cared": "care",  # "cared for in a centre"
    **_MOVED,
}
_TO_SCREEN = frozenset({"screen", "counsel", "refer"})
_THAT_PASSIVE = re.compile(
    r"^that\s+(?P<cohort>.+?)\s+(?:should\s+)?(?:are|is|be)\s+(?:routinely\s+|regularly\s+)?"
    r"(?P<verb>screened|counsell?ed|referred|(?:re-?)?evaluated|(?:re-?)?assessed|monitored|"
    r"followed\s+up|"
    r"investigated|examined|discharged|observed|transferred|admitted|hospitali[sz]ed|"
    r"vaccinated|educated|informed|enrolled|included|measured)\b\s*(?:(?:in|into|to)\s+)?"
    r"(?P<rest>.*)$",
    re.IGNORECASE,
)
# the patients a care verb acts on (also the patients an act is given to, in sentences.py)
_CARED_FOR_NOUN = r"(?:patients|individuals|women|men|adults|people)"
# ... up to where what is done to them starts
# (a few words may qualify them first: "high-risk patients"; no preposition among them)
_CARED_FOR = (
    r"(?P<cohort>(?:all\s+)?(?:(?!(?:for|in|with|to|of|on|at|by|and|or|about)\b)[\w\-]+\s+)"
    rf"{{0,3}}?{_CARED_FOR_NOUN}\b.*?)"
)
_TO_ACT_ON = re.compile(
    rf"^to\s+(?P<verb>screen|counsel|refer)\s+{_CARED_FOR}\s+(?P<rest>(?:for|to|about|on)\s+.+)$",
    re.IGNORECASE,
)
# where patients are cared for, kept in the act: "in specialized centres", "in an expert unit"
_PLACE_OF_CARE = (
    r"in\s+(?:an?\s+|the\s+)?(?:[\w\-]+\s+){0,2}(?:centres?|centers?|hospitals?|units?|"
    r"clinics?|settings?)"
)
CARE_PLACE = re.compile(_PLACE_OF_CARE + r"\b", re.IGNORECASE)
# ... and what the place or its staff have ("in centres with expertise in X", "by
# cardiologists with experience in X"): which place, no criterion
PLACE_SKILLS = re.compile(
    r"\s+(?:with|by)\s+(?:[\w\-]+\s+){0,3}?(?:expertise|experience)\b(?:\s+in\s+[^,;.()]+)?",
    re.IGNORECASE,
)
# the other care verbs: the cohort ends only at "for / to / about" or a period of life
# ("to treat women with HF during pregnancy"), not at any "on" or "during" inside it
_TO_CARE_FOR = re.compile(
    r"^to\s+(?P<verb>"
    + "|".join(verb for verb in _ACT_NOUNS if not verb.endswith("ed") and verb not in _TO_SCREEN)
    + rf")(?:\s+up)?\s+{_CARED_FOR}\s+"
    r"(?P<rest>(?:for|to|about|(?:during|before)\s+(?:pregnancy|conception|surgery|delivery)"
    # ... or where they are cared for
    rf"|{_PLACE_OF_CARE})\b.*)$",
    re.IGNORECASE,
)
# "to (systematically) treat patients with X with Y": Y is what they are given (the last
# "with" leads it; the ones before belong to the patients)
_TO_TREAT_WITH = re.compile(
    r"^to\s+(?:[a-z]+ly\s+)?(?P<verb>treat)\s+"
    rf"(?P<cohort>(?:all\s+)?{_CARED_FOR_NOUN}\s+with\b.*?)"
    r"\s+with\s+(?P<rest>(?:(?!\bwith\b).)+)$",
    re.IGNORECASE,
)


# "It is recommended that <cohort> (should) <verb> <act>": the verbs whose object is the act
_THAT_DO = re.compile(
    r"\s+(?:should\s+)?(?:undergo|receive|be\s+treated\s+with|be\s+offered|be\s+given|"
    r"be\s+started\s+on|be\s+on|take|have|perform|proceed\s+(?:with|to)|"
    r"continue(?:\s+with|\s+to\s+(?:take|receive|use))?|engage\s+in|participate\s+in|"
    r"undertake|adopt|attend|complete|maintain|"
    r"(?:aim|strive)\s+for|(?:aim|strive)\s+to\s+(?P<reducing>reduce|lower|decrease)|"
    r"(?P<ending>avoid|stop|discontinue))\s+(?P<action>.+)$",
    re.IGNORECASE,
)
_SECOND_AIM = re.compile(
    r"\s+(?:and|or)\s+(?:increase|improve|maintain|achieve|adopt|start)\s+", re.IGNORECASE
)
# a verb right after these belongs to the cohort's own clause ("adults who cannot walk", "who
# regularly perform exercise"), not to the recommendation
_COHORT_CLAUSE_END = re.compile(
    r"\b(?:who|whom|that|not|cannot|to)(?:\s+[a-z]+ly)?$", re.IGNORECASE
)


def that_patients_do(post: str) -> tuple[str, re.Match[str]] | None:
    """The cohort of "that <cohort> <verb> <act>" and the match of its verb (with "ending"
    and "action"): the first recommending verb whose cohort does not end inside a clause
    of its own."""
    lead = re.match(r"^that\s+", post, re.IGNORECASE)
    if lead is None:
        return None
    verb = _THAT_DO.search(post, lead.end())
    while verb is not None:  # each candidate verb in turn (a match runs to the end)
        cohort = post[lead.end() : verb.start()]
        if cohort.strip() and not _COHORT_CLAUSE_END.search(cohort.strip()):
            return cohort, verb
        verb = _THAT_DO.search(post, verb.start() + 1)
    return None


# the patients an act is given to, named with a clause or phrase of their own ("to patients
# in whom the anatomy is not known", "to patients undergoing stenting")
GIVEN_TO_PATIENTS = re.compile(
    rf"\s+to\s+(?P<who>(?:all\s+|the\s+)?{_CARED_FOR_NOUN}\s+"
    r"(?:in\s+whom|who|whose|that|undergoing|receiving|treated|scheduled|with)\b.*)$",
    re.IGNORECASE,
)


# who a care verb can be done to: without one of them, "that <X> be assessed" names what is
# assessed ("that frailty be assessed": a frailty assessment), not a cohort
_PERSON = re.compile(
    r"\b(?:patients?|individuals?|women|woman|men|man|adults?|people|persons?|children|"
    r"athletes?|relatives?|survivors?|candidates?|those|mothers?|pregnan\w*|carriers?|"
    r"subjects?|recipients?|users?|smokers?|families|family)\b",
    re.IGNORECASE,
)


def names_a_person(phrase: str) -> bool:
    return _PERSON.search(phrase) is not None


def care_act(verb: str) -> str | None:
    """The act a care verb names ("screened" -> "screening"); done again ("re-evaluated",
    "reassessed"), the act done again ("re-evaluation")."""
    word = verb.split()[0].lower()
    if word in _ACT_NOUNS:
        return _ACT_NOUNS[word]
    again = re.match(r"re-?(?=[a-z]{4})", word)
    if again and word[again.end() :] in _ACT_NOUNS:
        return "re-" + _ACT_NOUNS[word[again.end() :]]
    return None
