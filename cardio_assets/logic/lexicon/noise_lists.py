"""How a list printed in a row is rewritten before its sentences are parsed (a part of
noise.py's patterns, applied at their place among them): bullets after "any of the
following", the enumerators of a list in one cell, and a list of cases after "in the case
of", each into the commas and "or" the sentence rules read as alternatives; and the lead of
a list of criteria ("one or more of the following:"), which names nothing.
"""

from __future__ import annotations

import re
from typing import Any

from cardio_assets.logic.lexicon.noise_words import _FOLLOWING_COLON, _FOLLOWING_NAME, _LIST_ITEM

# words that name a test a finding is seen on ("ambulatory Holter monitoring", "exercise
# testing", "resting ECG")
_TEST_WORDS = (
    r"ambulatory|resting|baseline|12-lead|24-h|Holter|monitoring|ECGs?|EKGs?|"
    r"electrocardiogra\w*|echocardiogra\w*|exercise|stress|testing|tests?|imaging|CMR|CT|MRI"
)

# the words that say any one of a list is enough ("any of", "at least one of", "one or more
# of"); after "the following" also "one of", "either of" and "two or more of" (a bare "one of
# the causes of A and B" names no list)
_ANY_ONE = r"(?:any(?:\s+one)?|one\s+or\s+more|at\s+least\s+one)"
# the lead of a list any one of whose items is enough ("any of the following risk factors
# is present:"), as the bullet and semicolon rewrites read it
# ("any one of: A; B; C": the colon may follow "of" itself)
_ANY_OF_THE_FOLLOWING = (
    rf"(?:(?:{_ANY_ONE}|one|either|two\s+or\s+more)\s+of\s+"
    rf"(?:the\s+following|these){_FOLLOWING_NAME}{{0,4}}?{_FOLLOWING_COLON}"
    rf"|{_ANY_ONE}\s+of\s*:)"
)
# one item of a list written after such a lead with no "the following": no comma, bracket or
# "and"/"or" inside it, so the list ends where the sentence's own "and" or comma goes on
_BARE_ITEM = r"(?:(?!\b(?:and|or)\b)[^.;:,()])+"

# "at least one high-risk feature:", the same lead naming what its items are
_AT_LEAST_ONE_NAMED = (
    r"(?:at\s+least\s+one|one\s+or\s+more)\s+(?!of\b)(?:[\w\-]+\s+){0,2}[\w\-]+\s*:"
)

LIST_REWRITES: list[tuple[re.Pattern[str], Any]] = [
    # "A or similar B", "A or an equivalent": a placeholder for anything like A, no
    # alternative of its own ("a Mediterranean or similar diet" is one diet, "statins or
    # similar drugs" names statins)
    (
        re.compile(
            r"\s+or\s+(?:an?\s+)?(?:similar|equivalent|comparable)\b"
            r"(?:\s+(?:drugs?|agents?|medications?|therap(?:y|ies)|treatments?|methods?|tests?|"
            r"tools?|scores?|ones?))?"
            r"(?=\s*[,;.)]|\s+(?:is|are|should|may)\b|\s*$)"
            r"|(?<![sS])\s+or\s+(?:similar|equivalent|comparable)"
            r"(?=\s+[a-z]+(?:\s*[,;.)]|\s+(?:is|are|should|may|in|for|to)\b|\s*$))",
            re.I,
        ),
        "",
    ),
    # "an SGLT2 inhibitor, a GLP-1 RA, or both": either one is given (both being one more
    # way to meet it), so the list reads as "A or B" ("A, B or both" already reads so)
    (
        re.compile(
            # (a generic class word after it goes too, "or both drugs"; another noun stays, the
            # head both items share, "carotid, femoral, or both arteries"; never "or both of")
            r",\s*(?P<last>[^,;:()]+?),\s+or\s+both\b(?:\s+(?:drugs|agents|medications|"
            r"therapies|treatments|classes)\b)?(?!\s+of\b)",
            re.I,
        ),
        r" or \g<last>",
    ),
    # "any of the following: • A • B • C" (reference numbers may sit before the bullets): the
    # bullets are the alternatives, one of which is enough
    (
        re.compile(
            rf"(?P<lead>\b{_ANY_OF_THE_FOLLOWING})[\d\s,\u2013\u2014-]*"
            r"(?P<items>(?:•[^•]+)+•[^•.]+)(?=\s*(?:\.|$))",
            re.I,
        ),
        lambda m: (
            f"{m['lead']} "
            + ", ".join(item.strip(" ,;.") for item in m["items"].split("•")[1:-1])
            + f", or {m['items'].split('•')[-1].strip(' ,;')}"
        ),
    ),
    # "if any of the following is present: A; B; C or D": in a clause condition, items a
    # semicolon ends, any one of which is enough, read as the comma list below is (after
    # "patients with", the cohort rules read a semicolon list as alternatives already)
    (
        re.compile(
            r"(?:(?<=\bif\s)|(?<=\bwhen\s)|(?<=\bwhere\s)|(?<=\bonce\s))"
            rf"(?P<lead>{_ANY_OF_THE_FOLLOWING})"
            r"(?P<items>[^;.:•]+(?:;[^;.:•]+)+)(?=\s*(?:\.|$))",
            re.I,
        ),
        lambda m: f"{m['lead']} " + _any_one_of(m["items"]),
    ),
    # "patients with any of the following: A; B; C": items a semicolon ends, the last with no
    # "or" before it; the lead already says one is enough, so the "or" the cohort rules read
    # the list's alternatives by is supplied (the semicolons, which bound items such as "pain
    # refractory to treatment", stay)
    (
        re.compile(
            rf"(?P<lead>\b{_ANY_OF_THE_FOLLOWING}|\b{_AT_LEAST_ONE_NAMED})"
            r"(?P<items>[^;.:•]+(?:;[^;.:•]+)*;)\s*(?!(?:or|and|and/or)\b)(?P<last>[^;.:•]+)"
            r"(?=\s*(?:\.|$))",
            re.I,
        ),
        lambda m: f"{m['lead']}{m['items']} or {m['last']}",
    ),
    # "any of the following: A, B, and C", "in the following circumstances: A, B and C": any
    # one of the listed, whatever word ends the list ("all of the following" stays AND)
    (
        re.compile(
            rf"(?P<lead>\b(?:(?:{_ANY_ONE}|either)\s+of\s+the\s+following(?:\s+\w+)?"
            r"|in\s+the\s+following\s+(?:circumstances|situations|cases))\s*:)"
            r"(?P<items>[^.;:]*?,[^.;:]*?),?\s+and\s+(?P<last>[^,.;:]+)(?=[.;]|$)",
            re.I,
        ),
        lambda m: f"{m['lead']}{m['items']}, or {m['last']}",
    ),
    # "one or more of the following: A, B, C": commas alone, no word ends the list; the lead
    # says one is enough, so the "or" the list rules read alternatives by is supplied
    (
        re.compile(
            rf"(?P<lead>\b{_ANY_OF_THE_FOLLOWING})(?![^.;:•]*\b(?:and|or)\b)"
            r"(?P<items>[^.;:•]*,[^.;:•]*?)(?=\s*(?:\.|$))",
            re.I,
        ),
        lambda m: f"{m['lead']} " + _any_one_of(m["items"]),
    ),
    # "in the following setting: A, B, and C", "when all of the following are present: A,
    # B and C": one setting, every item of it holds (AND); the lead names nothing
    (
        re.compile(
            r"\b(?:the\s+following\s+(?:clinical\s+)?(?:setting|situation|scenario|"
            r"circumstance|context)|(?:all|each)\s+of\s+the\s+following\s+(?:are|is)\s+"
            r"(?:present|met|fulfil+ed))\s*:\s*",
            re.I,
        ),
        "",
    ),
    # "not advised for the following procedures: A; B; C", "in the following settings: A,
    # B, C": the cases the act is (not) for, any one of them; the lead names nothing
    (
        re.compile(
            r"\b(?P<prep>for|in|during|before|after)\s+the\s+following(?:\s+[\w\-]+){1,2}?\s*:\s*"
            r"(?P<items>[^.:•]+?)(?=\s*(?:\.|$))",
            re.I,
        ),
        lambda m: f"{m['prep']} " + _any_one_of(m["items"]),
    ),
    # the enumerators of a list printed in one cell: "(i) …; (ii) …", "who fulfil all of the
    # following:"
    (re.compile(r"\s*\((?:i{1,3}|iv|vi{0,3}|ix|x)\)\s*", re.I), " "),
    (
        re.compile(
            r"\b(?:who\s+)?(?:fulfil|fulfill|meet)s?\s+(?:all|any|one|two|each)\s+of\s+the\s+"
            r"following(?:\s+criteria)?\s*:?",
            re.I,
        ),
        "",
    ),
    # "with / has / show neither A nor B" says what "no A or B" says, NOT(OR(A, B)) with one
    # OR label (the contract reads "without A or B" so): read as that ("Neither A nor B is
    # recommended" names the acts advised against, and stays)
    (
        re.compile(
            r"\b(?P<lead>with|has|have|had|shows?|showed|displays?|exhibits?)\s+neither\s+(?:an?\s+)?"
            # (not when the clause goes on to its verb: "Treatment with neither A nor B is
            # recommended" names the acts)
            r"(?P<first>[^,;.()]+?)\s+nor\s+(?:an?\s+)?(?![^,;.()]*\b(?:is|are|should|may|must)\b)",
            re.I,
        ),
        r"\g<lead> no \g<first> or ",
    ),
    # "recommended in both HFmrEF and HFpEF": the patients have one or the other, as "in A
    # and B" over patient groups reads (the "both" only stresses it)
    # (not "stenosis in both the LAD and the LCx", two places of one finding, nor "in both
    # arms", both sides)
    (
        re.compile(
            r"\b(?P<lead>in|for|among)\s+both\s+(?!the\b|(?:arms|legs|sides|kidneys|eyes)\b)"
            r"(?=[^,;.()]+?\s+and\s)",
            re.I,
        ),
        r"\g<lead> ",
    ),
    # "if neither A nor B is found": the clause holds when no A or B is (one OR label,
    # negated), as "no A or B" reads
    (
        re.compile(
            r"\b(?P<lead>if|when|where|unless|provided(?:\s+that)?)\s+neither\s+(?:an?\s+)?"
            r"(?P<first>[^,;.()]+?)\s+nor\s+(?:an?\s+)?",
            re.I,
        ),
        r"\g<lead> no \g<first> or ",
    ),
    # "… no A or B nor C" (from "neither A nor B nor C"): every further "nor" is one more "or"
    # (said as a list, "no A, B or C", one OR label over all)
    (
        re.compile(r"(\bno\s+[^,;.()]+?)\s+or\s+([^,;.()]+?)\s+nor\s+", re.I),
        r"\1, \2 or ",
    ),
    (
        re.compile(r"(\bno\s+[^;.()]+?)\s+or\s+([^,;.()]+?)\s+nor\s+", re.I),
        r"\1, \2 or ",
    ),
    # "if no A, B or C is seen": every item is absent, one OR label over them all (the "no"
    # before a list read as each item's, as "if A, B or C is absent" says)
    (
        re.compile(
            r"\b(?P<lead>if|when|where|provided(?:\s+that)?)\s+(?:there\s+(?:is|are)\s+)?no\s+"
            r"(?P<items>[^,;.()]+?(?:,\s*[^,;.()]+?)+,?\s+or\s+[^,;.()]+?)\s+(?P<verb>is|are|was|were|has\s+been|"
            r"have\s+been)\s+(?:seen|found|present|documented|detected|identified|shown)\b"
            # (where it was looked for goes with it: "seen on TOE")
            r"(?:\s+(?:on|at|by|during)(?:\s+(?!(?:and|or|but|in|among|for)\b)[\w\-/]+){1,5}?)?"
            r"(?=\s*[,;.)]|\s*$|\s+(?:in|among|for)\s+"
            r"(?:all\s+)?(?:patients|women|men|those|individuals|people)\b)",
            re.I,
        ),
        r"\g<lead> \g<items> \g<verb> absent",
    ),
    # "at least one of A, B or C is present", "any of A, B and C": the list itself, with no
    # "the following" before it, is the alternatives, whatever word ends it; the lead names
    # nothing. The list ends at its last item: a comma or an "and" after it goes on with the
    # sentence ("… or C, an ICD is advised", "any of A or B and an LDL-C above Y": Y is asked
    # for beside the list, not one more of its items)
    (
        re.compile(
            # (not "any of the markers in Table 4 and …", "at least one of these and …": a whole
            # named with a determiner is no list, and its "and" is the sentence's)
            rf"\b{_ANY_ONE}\s+of\s+(?!(?:the|these|those|them|its?|their|this)\b)"
            rf"(?P<items>{_BARE_ITEM}(?:,\s*{_BARE_ITEM})*),?\s+"
            rf"(?:and/or|and|or)\s+(?P<last>{_BARE_ITEM}?)"
            r"(?=\s+(?:is|are)\s+(?:present|met|found|documented|seen)\b|\s*[,.;:)]|"
            r"\s+(?:and|or)\b|\s*$)",
            re.I,
        ),
        lambda m: _any_one_of(f"{m['items']}, {m['last']}"),
    ),
    # "... in the case of A, B, C, and D" after the act lists cases any one of which is
    # enough, as "in cases of A, B, and C" does (read so by the cohort rules)
    (
        re.compile(
            r"(?<=\w\s)in\s+(?:the\s+)?case\s+of\s+"
            rf"(?={_LIST_ITEM},\s*{_LIST_ITEM},\s*(?:{_LIST_ITEM},\s*)*(?:and|or)\s+"
            rf"{_LIST_ITEM}\.?\s*$)",
            re.I,
        ),
        "in cases of ",
    ),
    # "frequent or complex ectopy on 24-h Holter monitoring or stress testing": the tests a
    # finding is seen on, listed, are how it is found, never alternatives of the finding
    (
        re.compile(
            rf"\s+on\s+(?:(?:{_TEST_WORDS})\s+){{1,3}}(?:(?:or|and|and/or|,)\s+(?:(?:{_TEST_WORDS})\s+){{0,2}}"
            rf"(?:{_TEST_WORDS})\b)+",
            re.I,
        ),
        "",
    ),
    # "at risk of or with HF": the suspended "of" shares the disease with "with"; two
    # alternatives, each naming it
    (
        re.compile(r"\s+at\s+risk\s+(of|for)\s+or\s+with\s+([^,;.()]+)", re.I),
        r" who are at risk \1 \2 or with \2",
    ),
]


# the lead of a list of criteria ("in the presence of one or more of the following:", "in
# the following circumstances:"): the list that follows is the condition, the lead names
# nothing
CRITERIA_LIST_REWRITES: list[tuple[re.Pattern[str], Any]] = [
    # "in the presence of one or more of the following: A, B": the list is the condition
    (
        re.compile(
            r"\b(?:(?:one|two)\s+or\s+more|any|either|at\s+least\s+one)\s+of\s+the\s+"
            r"following(?:\s+(?:criteria|features|findings|conditions))?\s*:\s*",
            re.I,
        ),
        "",
    ),
    # "in the following circumstances: A, B and C": the list is the condition
    (
        re.compile(
            r"\b(?:in\s+)?the\s+following\s+(?:circumstances|situations|conditions|cases|"
            r"settings)\s*:\s*",
            re.I,
        ),
        "in ",
    ),
    # "(in the presence of) one or more of the following:", "if one of the following markers
    # is present:": the list that follows is the criterion, the lead names nothing
    (
        re.compile(
            r"\b(?:(?:in\s+the\s+)?presence\s+of\s+)?(?:one|two|any|at\s+least\s+(?:one|two))"
            r"\s+(?:or\s+more\s+)?of\s+(?:the\s+following|(?=these\b[^.;:]{0,40}:)these)"
            rf"(?:{_FOLLOWING_NAME}{{0,4}}?{_FOLLOWING_COLON}"
            r"|(?:\s+(?:criteria|features|conditions))?\s*[:.]?)",
            re.I,
        ),
        "",
    ),
    # "any one of: A; B", "at least one of: A; B": the lead with its colon right after "of"
    (re.compile(rf"\b{_ANY_ONE}\s+of\s*:\s*", re.I), ""),
    # "who have at least one high-risk feature: A, B, or C": the list names the criteria,
    # the lead names nothing
    (
        re.compile(
            rf"\b{_AT_LEAST_ONE_NAMED}\s*",
            re.I,
        ),
        "",
    ),
]


def _any_one_of(items: str) -> str:
    """ "A; B; and C" or "A, B, C": the items as the comma list "A, B, or C" the rules read
    as alternatives (semicolons, where there are any, are what ends an item)."""
    parts = [p.strip(" ,") for p in items.split(";" if ";" in items else ",")]
    parts = [re.sub(r"^(?:or|and|and/or)\s+", "", p, flags=re.I) for p in parts if p]
    if len(parts) < 2:
        return items
    joint = "; " if ";" in items else ", "  # (a semicolon keeps its items whole)
    return joint.join(parts[:-1]) + f"{joint}or " + parts[-1]
