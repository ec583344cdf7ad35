"""The phrase pieces the noise patterns (noise.py) are built from: hedges, activity amounts,
plain list items, where a weighed or "according to" phrase ends, dose words."""

from __future__ import annotations

import re

from cardio_assets.logic.measurement_operators import BOUND_BEFORE_VALUE

# words that say whether an act can be done, not whom it is for
_HEDGE = (
    r"(?:indicated|desired|needed|necessary|available|feasible|appropriate|possible|required|"
    r"tolerated|applicable|safe|practical|practicable)"
)

# a daily dose or volume with a bound before it ("doses above 40 mg/day"): a parameter
_COMPARED_AMOUNT = re.compile(
    rf"(?s).*(?:{BOUND_BEFORE_VALUE}|\b(?:(?:maximum|minimum)\s+of|beyond))\s?"
    r"\d+(?:[.,]\d+)?\s*(?:mL|(?:mg|g|[µμ]g|mcg)(?:/kg)?/day)\.?$"
)
# how often a dose is taken ("once daily", "twice a day", "b.i.d.", "weekly")
_DOSE_FREQUENCY = (
    # ("once or twice daily": either schedule)
    r"(?:(?:once|twice|three\s+times)\s+(?:or\s+(?:once|twice|three\s+times)\s+)?)?"
    r"(?:daily|a\s+day|per\s+day|"
    r"b\.?i\.?d\.?|t\.?i\.?d\.?|q\.?i\.?d\.?|q\.?d\.?|o\.?d\.?|weekly)"
)
# how much of an activity: a count of sessions, exercises or repetitions, or a time per day
# or week ("up to 150 min/week", "8–12 exercises", "2 days per week")
_AMOUNT = r"\d+(?:[.,]\d+)?(?:\s*[–-]\s*\d+(?:[.,]\d+)?)?"
_PER = r"\s*(?:/\s*|per\s+|a\s+|each\s+)(?:day|week|month|session)"
_ACTIVITY_AMOUNT = (
    rf"(?:(?:(?:up\s+to|at\s+least|about)\s+)?{_AMOUNT}\s*"
    rf"(?:(?:exercises?|repetitions?|reps|sets?|sessions?|times)(?:{_PER})?"
    rf"|(?:min(?:utes?)?|h(?:ours?)?|days?){_PER})"
    # a bounded length of one session ("at least 30 min") in a bracket after an activity
    rf"|(?:up\s+to|at\s+least|about)\s+{_AMOUNT}\s*min(?:utes?)?\b(?!\s*/))"
)
# an item of a plain list: no clause opens inside it
_LIST_ITEM = (
    r"(?:(?!\b(?:unless|if|when|who|which|whom|as|because|in|with|without|during|after|"
    r"before)\b)[^,;.()])+"
)
# the last thing a decision weighs: up to the next clause (a verb, a relative word, a new
# cohort), a bracket inside it read with it
_CLAUSE_GOES_ON = (
    r"(?!\b(?:is|are|should|may|must|can|will|who|which|whom|unless|if|when)\b)"
    r"(?!\b(?:in|for|among)\s+(?:(?:all|the|those)\s+)?(?:[\w\-]+\s+)?(?:patients|people|"
    r"individuals|women|men|adults|children|those)\b)"
)
_WEIGHED_ITEM = rf"(?:{_CLAUSE_GOES_ON}(?:[^,;.()]|\.(?=\d))|\([^()]*\))+"
# ... and a phrase that ends at a bracket too ("according to heart rate (target 60 bpm)")
_PLAIN_ITEM = rf"(?:{_CLAUSE_GOES_ON}(?:[^,;.()]|\.(?=\d)))+"
# what a decision weighs: its lead ("based on", not "is / was / mainly based on", which
# names the act) and the list after it
_WEIGHED_LEAD = (
    r"\b(?<!\bbe\s)(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)(?<!ly\s)"
    r"(?:based\s+(?:up)?on(?!\s+(?:the\s+)?presence\s+of\b)|"
    r"(?:with|after)\s+(?:due\s+|careful\s+)?consideration\s+of|"
    r"after\s+discussing|taking\s+into\s+(?:account|consideration))"
)
# (",\s*+" possessive: the spaces after a comma are never handed back to the next item, so a
# list that does not match fails at once instead of trying every split of its spaces)
_WEIGHED = rf"{_WEIGHED_LEAD}\s+(?:(?:{_LIST_ITEM},\s*+)+(?:and|or)\s+)?{_WEIGHED_ITEM}"
# a thing weighed: an item of a plain list, not how it is found ("clinical probability,
# assessed either by A or by B" is one thing and the ways to assess it)
_WEIGHED_FACTOR = (
    r"(?:(?!\b(?:unless|if|when|who|which|whom|as|because|in|with|without|during|after|"
    r"before|by|either)\b)[^,;.()])+"
)
# "the choice of X (should) be based on A, B and C": after the verb, a list of three or more
# is what a choice weighs. Only a choice-like subject: "the diagnosis is based on A, B and C"
# names the tests of the diagnosis, and one thing ("is based on shared decision-making") may
# be the act itself
_WEIGHED_AFTER_VERB = (
    r"(?P<subject>\b(?:the\s+)?(?:(?:choice|selection|decision|kind|type|timing|duration|"
    r"strategy|intensity|frequency|modality|approach)\s+(?:of|to|between|for)\b[^.;,]{0,80}?"
    r"|decision[\s-]making))"
    r"\s+(?:(?:should|must|may|can|will)\s+)?(?:is|are|be)\s+based\s+(?:up)?on\s+"
    rf"(?:{_WEIGHED_FACTOR},\s*+)+{_WEIGHED_FACTOR},?\s+(?:and|or)\s+{_WEIGHED_ITEM}"
)
# ... and in brackets, where a plain comma list needs no "and" ("(based on symptoms, age)")
_WEIGHED_IN_BRACKETS = (
    rf"{_WEIGHED_LEAD}\s+(?:(?:{_LIST_ITEM},\s*+)+(?:(?:and|or)\s+)?)?{_WEIGHED_ITEM}"
)
# what names the list after "one of the following": up to four words ("risk factors",
# "markers of lasting block"), never a cohort, then "is / are present" and the colon
_FOLLOWING_NAME = r"(?:\s+(?!(?:is|are|in|for|with)\b)[\w\-]+)"
_FOLLOWING_COLON = r"(?:\s+(?:is|are)\s+(?:present|the\s+case|met|fulfilled|reached))?\s*:"
# the words that say which dose or how much of it ("the last", "an adequate", "a high",
# "a weight-related prophylactic"): never a noun or verb of the sentence around it
_DOSE_WORDS = (
    r"last|first|next|single|initial|high|higher|low|lower|full|reduced|standard|usual|"
    r"adequate|optimal|maximum|maximal|maximally|highest|tolerated|loading|maintenance|"
    r"prophylactic|therapeutic|weight-related|weight-adjusted|fixed|evidence-based|"
    r"recommended|effective|daily|oral|i\.v\.|intravenous|target"
)

# "statin-treated patients", "ACE-inhibitor-treated women": patients on the drug, a background
# therapy named by itself; the word must be the whole modifier after a preposition or an
# article, and no manner ("surgically-", "under-", "long-term-", "non-warfarin-treated": not a
# drug given, or a drug not given, and they stay)
TREATED_PATIENTS = re.compile(
    r"(?:^|"
    + "|".join(
        rf"(?<=\b{word}\s)"
        for word in ("in", "for", "of", "to", "among", "with", "and", "or", "the", "all", "on")
    )
    + r")"
    r"(?!(?:non|un|sub|under|over|well|long|short|self|pre|drug|medication|"
    r"treatment|therapy)\b|(?:non|un|sub|under|over|well|long|short|self|pre)-)"
    r"(?P<drug>[A-Za-z][\w\-]{2,}?)(?<!ly)-treated\s+(?P<who>patients|individuals|"
    r"people|women|men|adults|children)\b",
    re.I,
)
