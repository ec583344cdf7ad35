"""What a "when / if / unless …" clause says of the row's patients (read for post_markers and
sentences): a condition they have, the therapy they are already on, or, when the clause's
subject is the patients themselves ("when patients with X develop Y", "if a patient is
admitted with X"), the cohort the row is for.
"""

from __future__ import annotations

import re

from cardio_assets.logic.lexicon.role_words import heuristic_role

# what the patient is on, given or going through: read as background therapy instead
_NOT_WHAT_THE_PATIENT_IS = (
    r"(?!\s+(?:not|already|treated|on|receiving|taking|given|being|been|currently)\b)"
)
# "if there is X", "unless there are Y", "when the patient has Z": the clause names X
THERE_IS = re.compile(
    r"^(?:there\s+(?:is|are|was|were|has\s+been|have\s+been)|the\s+patient\s+has"
    # "if the patient is frail", "unless the patient is a candidate for X": what the patient is
    rf"|the\s+patient\s+is{_NOT_WHAT_THE_PATIENT_IS})\s+",
    re.IGNORECASE,
)


# "when the patient is stable", "when X is suspected and the patient is stable": what the
# patient is or has, in a clause read first or as its second case
_PATIENT_IS_TOO = re.compile(
    rf"(?:^\s*|(?<=\band\s)|(?<=\bor\s))the\s+patient\s+(?:is|has){_NOT_WHAT_THE_PATIENT_IS}\s+",
    re.IGNORECASE,
)


_PATIENTS_ON = re.compile(
    r"^(?:the\s+)?(?:patients?|individuals?|they|she|he)\s+(?:are|is)\s+(?:already\s+)?"
    r"(?:treated\s+with|on|receiving|taking|given)\s+(?P<what>.+)$",
    re.IGNORECASE,
)


# what is done to the patients, said with an irregular participle ("are seen in clinic",
# "is found to have X", "are taken off X"): no state they are in
_IRREGULAR_PARTICIPLES = r"seen|known|found|shown|taken|kept|sent|brought|put|made|given|held"
# the patients a clause is about, one or many ("a patient", "women", "an index patient")
_THE_PATIENTS = (
    r"(?:(?:the|a|an)\s+)?(?:[\w\-]+\s+)?(?:patients?|individuals?|people|persons?|"
    r"wom[ae]n|m[ae]n|athletes?|adults?|child(?:ren)?|someone|anyone)(?![\w'’])"
)
# "when patients with X develop Y", "if women undergo Y": the clause's subject is the row's
# patients, and the verb says what else is true of them
_PATIENTS_DO = re.compile(
    rf"^(?P<who>{_THE_PATIENTS}"
    # what they already have ("with X", "on X", "after X"), no verb or second subject in it
    r"(?:\s+(?:with|on|after|scheduled\s+for|undergoing|treated\s+with|in\s+need\s+of)\s+"
    r"(?:(?!\b(?:who|whom|which|are|is|or|and|has|have)\b)[^,;])*?)?)"
    r"\s+(?:also\s+)?"
    r"(?P<verb>(?:develop|experience|remain)s?|undergo(?:es)?|presents?\s+with|has|have|"
    # ("when a patient with AF needs stroke prevention", "if a patient is admitted with HF";
    # not "needs to be transferred", a verb of its own)
    r"(?P<needs>(?:need|require)s?(?!\s+to\b))|"
    r"(?P<admitted>(?:is|are)\s+(?:admitted|diagnosed|hospitali[sz]ed)\s+with)|"
    # ("when an HF patient with X is still symptomatic", "if a woman is at high risk of Y":
    # what they are; not what is done to them, "are referred", nor what they are on, nor
    # their age, "is 85 or older", which the clause reads as it is)
    rf"(?P<state>(?:is|are)(?:\s+(?:still|now|also))?{_NOT_WHAT_THE_PATIENT_IS}"
    rf"(?!\s+(?:[a-z]+ly\s+|then\s+)?(?:[a-z]+ed|{_IRREGULAR_PARTICIPLES})\b)(?!\s+\d)))"
    r"\s+(?P<what>.+)$",
    re.IGNORECASE,
)


# the patients a clause is about, before what they have ("a patient with X": "X")
_THE_PATIENTS_WITH = re.compile(rf"^{_THE_PATIENTS}(?:\s+with\b)?", re.IGNORECASE)


# "low-dose aspirin is used", "a NOAC is given in combination with aspirin and/or clopidogrel":
# a clause about a drug the patients take, and what they take beside it
_DRUG_USED = re.compile(
    r"^(?P<what>(?!(?:it|this|these|they)\b)[^,;]+?)\s+(?:is|are)\s+(?:being\s+)?"
    r"(?:used|given|administered|prescribed)"
    r"(?:\s+(?:in\s+combination|together|combined)\s+with\s+(?P<beside>[^,;]+))?$",
    re.IGNORECASE,
)
# "screening for X", "screening for X in individuals": a clause that names what is looked for
_SCREENING_FOR = re.compile(
    r"^screening\s+for\s+(?P<what>(?:(?!\b(?:is|are|was|were|in|among)\b)[^,;])+?)"
    r"(?:\s+(?:in|among)\s+(?:all\s+)?(?:patients|individuals|people|persons|adults))?$",
    re.IGNORECASE,
)


# "while already on X", "when still taking X": how long or how far the patients have been on
# the therapy says nothing; the words after the adverb are read as "while on X" is
_ALREADY = re.compile(
    r"^\s*(?:already|still|currently)\s+(?=(?:on|taking|receiving|treated\s+with)\b)",
    re.IGNORECASE,
)
# "while receiving a beta-blocker", "when taking NOACs": the therapy the patients are on
# (background), a drug the terminology does not know included; not "taking part in
# sport", nor a state or a history ("when taking the medical history")
_TAKING = re.compile(
    r"^\s*(?:taking|receiving|treated\s+with)\s+(?!part\b)(?P<what>.+)$", re.IGNORECASE
)

# "if bleeding occurs (in patients) on apixaban": the event, had by patients on the drug
_EVENT_ON_THERAPY = re.compile(
    r"^(?P<what>(?:(?!\b(?:is|are|was|were|has|have|if|when)\b)[^,;])+?)\s+"
    r"(?:occurs?|develops?|arises?|happens?|recurs?)\s+"
    r"(?:in\s+(?:an?\s+|the\s+)?patients?\s+)?(?:while\s+)?on\s+"
    r"(?!(?:stopping|withdraw\w*|discontinu\w*|cessation|interrupt\w*|taper\w*|reduc\w*)\b)"
    r"(?P<therapy>.+)$",
    re.IGNORECASE,
)


def context_clause(body: str) -> tuple[str, str]:
    """A "when / if …" clause: a condition of the row, or, for "when patients are treated
    with a VKA", the therapy they are on (background), or, for "when patients with X
    develop Y", the patients the row is for, read as "patients with X who develop Y"."""
    body = _PATIENT_IS_TOO.sub("", body)
    body = _ALREADY.sub("", body)
    clause = body.strip()
    taking = _TAKING.match(clause)
    if taking and heuristic_role(taking["what"]) != "Condition":
        return "background", taking["what"]
    treated = _PATIENTS_ON.match(clause)
    if treated:
        return "background", treated["what"]
    doing = _PATIENTS_DO.match(clause)
    if doing and (doing["admitted"] or doing["needs"]):
        # read as a condition clause, so that "… or when a patient is admitted with Y" stays
        # an alternative: what the patient has, and what brings them in or what they need
        # ("X and Y": the needed act keeps its own role, as after "patients requiring")
        had = _THE_PATIENTS_WITH.sub("", doing["who"]).strip()
        return "context", f"{had} and {doing['what']}" if had else doing["what"]
    if doing:
        return "cohort", f"{doing['who']} who {doing['verb']} {doing['what']}"
    event = _EVENT_ON_THERAPY.match(clause)
    # (only a drug or a therapy's abbreviation, "on OMT", "on CRT": "on the first day", "on
    # exertion", "on stopping X" say when)
    if event and (
        heuristic_role(event["therapy"]) == "Medication"
        or re.fullmatch(r"(?:an?\s+|the\s+)?[A-Z]{2,}[A-Za-z0-9\-]*", event["therapy"].strip())
    ):
        # read as "in patients with bleeding on apixaban": the state, the therapy
        return "cohort", f"patients with {event['what']} on {event['therapy']}"
    used = _DRUG_USED.match(clause)
    if used:  # "when clopidogrel is used (in combination with A or B)": what they are on
        beside = used["beside"]
        return "used", used["what"] + (f" in combination with {beside}" if beside else "")
    screening = _SCREENING_FOR.match(clause)
    if screening:  # "When screening for DM (in individuals), …": DM is what the tests look for
        return "aim", screening["what"]
    return "context", body
