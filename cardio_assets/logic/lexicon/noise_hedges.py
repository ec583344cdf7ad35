"""What a row says about itself rather than whom it is for (a part of noise.py's patterns,
applied at their place among them): pointers to elsewhere in the guideline ("(see Table
4)", "Supplementary Data Table 10") or back to the row ("in such cases"), an act's standing
("as first choice", "as the standard approach", "as the preferred modality", "as a
diagnostic criterion"), who weighs it ("by the Heart Team") and feasibility hedges ("if
indicated", "when technically feasible"). None of them is a concept.
"""

from __future__ import annotations

import re
from typing import Any

from cardio_assets.logic.lexicon.noise_words import _HEDGE
from cardio_assets.logic.lexicon.vocabulary import _OUTCOME_VERBS, _PURPOSE_VERBS

# a pointer back to what the row already named ("in case of such signs", "in these cases")
_BACK_POINTER = (
    r"(?:in\s+(?:the\s+)?(?:case|presence|event)\s+of|in|with|for)\s+"
    r"(?:such|these|those)\s+(?:signs?|findings?|features?|cases?|circumstances?|situations?)"
)

# what the fallback follows must be the act itself, a plain name: never a cohort, a clause
# or a verb of its own ("in patients with AF, or if …", "if the rate stays high on X, or if
# …", "X should be continued or, if …")
_NOT_A_PLAIN_ACT = re.compile(
    r"\b(?:patients?|those|people|individuals|in|during|if|when|unless|after|before|is|are|"
    r"should|may|must|can|could|be)\b",
    re.I,
)


def _fallback_or(match: re.Match[str]) -> str:
    """ "A, or if not tolerated, B" -> "A or B" when A is a plain name (see above)."""
    before = re.split(r"[,;:—–(]", match.string[: match.start()])[-1]
    return match.group(0) if _NOT_A_PLAIN_ACT.search(before) else " or "


HEDGE_REWRITES: list[tuple[re.Pattern[str], Any]] = [
    # "A, or if not tolerated, B", "A — or, if it is contraindicated, B —": B is the other
    # choice when A cannot be given; the two are alternatives, and the words that say when B
    # is chosen name no concept of the row (the golds keep A or B only)
    (
        re.compile(
            # (nor B a dose: "or if not tolerated, the highest tolerated dose")
            r"\s*[,—–]?\s*\bor,?\s+(?:if|when)\s+(?:it\s+is\s+|they\s+are\s+|this\s+is\s+)?"
            r"(?:not\s+tolerated|contra-?indicated)"
            r"(?:\s+or\s+(?:not\s+tolerated|contra-?indicated))?\s*,\s*"
            r"(?![^,;.]*\bdoses?\b)",
            re.I,
        ),
        _fallback_or,
    ),
    # "an ICD solely / exclusively for primary prevention": how narrow the purpose is, no
    # part of the act's name
    (re.compile(r"\s+(?:solely|exclusively|purely)\b(?=\s+(?:for|to|on|as|because)\b)", re.I), ""),
    # "nadolol or propranolol by preference": says which is chosen first, no part of the
    # drug's name; before the drug ("…, by preference nadolol") it says what "preferably"
    # says; "by preference over / to X" is "in preference to X", a comparator
    (re.compile(r"\b(?:by|for)\s+preference\s+(?:to|over)\b", re.I), "in preference to"),
    (re.compile(r"(?:(?<=,\s)|(?<=\()|^)(?:by|for)\s+preference\s+(?=\w)", re.I), "preferably "),
    (re.compile(r",?\s+(?:by|for)\s+preference\b", re.I), ""),
    # "with X as an alternative (when Y)": the words say X is the other choice; they are no
    # part of X's name ("as an alternative to X" names what it replaces, and stays)
    (
        re.compile(
            r"\s+as\s+(?:an\s+)?alternatives?\b(?=\s*(?:[,;.)]|$|\s+(?:when|if|where|in|for)\b))",
            re.I,
        ),
        "",
    ),
    # "colchicine is preferable to NSAIDs", "stenting preferred to surgery": what the act is
    # preferred over (a comparator), read as "over X" is ("preferred to reduce X", "preferable
    # to defer X" name an aim or an act: a verb follows; "superior to" only after "is / are",
    # never of a place)
    (
        re.compile(
            rf"\b(?P<verb>preferred|preferable|(?:is|are)\s+superior)\s+to\s+"
            rf"(?!(?:be|{_OUTCOME_VERBS}|{_PURPOSE_VERBS}|"
            r"defer|delay|prolong|start|stop|use|give|continue|avoid|treat|manage|perform|add|"
            r"switch|wait)\b)",
            re.I,
        ),
        lambda m: f"{m['verb']} over ",
    ),
    # ", following national schedules (for booster doses)", "in line with local protocols":
    # a pointer to rules kept elsewhere, which names no one
    (
        re.compile(
            r",?\s*\b(?:following|according\s+to|in\s+line\s+with|as\s+per|per)\s+(?:the\s+)?"
            r"(?:national|local|current|international|regional|institutional)\s+(?:[\w\-]+\s+){0,2}?"
            r"(?:schedules?|guidelines?|recommendations?|protocols?|polic(?:y|ies)|programmes?|"
            r"programs?)\b(?:\s+for\s+(?:booster|repeat|revaccination|follow-up)\b[^,;.()]*)?",
            re.I,
        ),
        "",
    ),
    # "patients not at high ischaemic risk": those without that risk (contract §7: "not at
    # X" is X negated); not where "and / or" opens another predicate ("not at high risk and
    # have diabetes"), which "without" would negate too ("of bleeding or stroke" is the risk's)
    (
        re.compile(
            r"\bnot\s+at\s+(?=(?:[\w\-]+\s+){0,3}risk\b"
            r"(?![^,;.()]*\b(?:and|or)\s+(?:have|has|had|are|is|were|was|who|do|does)\b))",
            re.I,
        ),
        "without ",
    ),
    # "X has no role in the prevention of Y": what X is not for, read as "for" is
    (
        re.compile(
            r"\b(?P<has>has|have)\s+no\s+(?P<kind>established\s+)?role\s+in\s+"
            r"(?=(?:the\s+)?(?:prevention|treatment|management|reduction)\s+of\b)",
            re.I,
        ),
        lambda m: f"{m['has']} no {m['kind'] or ''}role for ",
    ),
    # "once the decision has been made to proceed with X": the decision to proceed with X,
    # named so (the state the row is for)
    (
        re.compile(
            r"\b(?:a|the)\s+decision\s+(?:has\s+been|have\s+been|is|was)\s+made\s+to\s+", re.I
        ),
        "a decision to ",
    ),
    # "… is recommended instead": the word points back to what the row replaces, named
    # before; no concept ("instead of X" names it, and stays)
    (re.compile(r",?\s+instead\b(?=\s*(?:[.;)]|$))", re.I), ""),
    # pointers to elsewhere: "(Table 4)", "(see section 5.2)", "(see separate ...)", URLs
    (
        re.compile(
            r"\s*\(\s*(?:see\s+[^)]*|(?:sections?|tables?|figures?|fig\.|box|chapter)\s+"
            r"[\w.]+[^)]*)\)"
            r"|\s*\b(?:see\s+)?(?:section|chapter)\s+\d+(?:\.\d+)*"
            r"|\s*\(?\b(?:(?:the\s+)?(?:criteria|features|findings|conditions)\s+)?"
            r"(?:listed|shown|described|given|defined|summarized)\s+in\s+"
            r"(?:tables?|figures?|fig\.|box|sections?|chapter)\s+[\w.]*\w\)?"
            # "is recommended as in Figure 3": the pointer says where the steps are drawn
            r"|\s*\b(?:as\s+(?:shown\s+)?in|according\s+to|following)\s+(?:the\s+)?"
            r"(?:tables?|figures?|fig\.|box)\s+\d+[\w.]*"
            r"|\s*\(?\s*(?:https?://|www\.)[^\s)]+\s*\)?"
            # "Supplementary Data Table 10", "(Web Figure 4)" printed into the row
            r"|\s*\(?\b(?:see\s+)?(?:the\s+)?(?:supplementary|web|online)\s+(?:data\s+)?"
            r"(?:tables?|figures?|box|sections?)\s+[\w.]*\w\)?"
            # "(Web box)", "(see online appendix)": a bracket that only points to material
            # published beside the guideline, numbered or not
            r"|\s*\(\s*(?:see\s+)?(?:the\s+)?(?:supplementary|web|online)\s+(?:data\s+)?"
            r"(?:tables?|figures?|box(?:es)?|sections?|appendix|addend(?:a|um)|material|text)"
            r"(?:\s+online)?(?:\s*,\s*(?:tables?|figures?|box|sections?)\s+[\w.]+)?\s*\)",
            re.I,
        ),
        "",
    ),
    # "angina*", "(2–3 g/day)†": a footnote symbol glued to what it annotates points to a
    # note under the table (the note travels with the row); "2*3" is no footnote
    (re.compile(r"(?<=[\w)\]%.,])(?:\*{1,3}|[†‡§¶])(?=[\s,.;:)\]/\[]|$)"), ""),
    # "X are the mainstay of treatment and are recommended …": what the act is to the
    # guideline, its standing; X stays the act (what follows "of" is still read: "the
    # cornerstone of therapy for angina" keeps angina)
    (
        re.compile(
            r"\s+(?:is|are)\s+(?:the\s+)?(?:mainstays?|cornerstones?)\s+of\s+(?:the\s+)?"
            r"(?:medical\s+)?(?:treatment|therapy|management|care)"
            # then "of/for/in Y", "and is …" or the clause's end; not "the cornerstone of
            # treatment efficacy / decisions", where a noun goes on
            r"(?:(?P<of>\s+(?:of|for|in)\b)|(?P<and>\s+and(?=\s+(?:is|are)\b))|(?=\s*(?:[,.;:)]|$)))",
            re.I,
        ),
        lambda m: " for" if m["of"] else (" and" if m["and"] else ""),
    ),
    # a pointer back to what the row already named: "(… in case of such signs)", "in such
    # cases", "in these circumstances" add no concept of their own; opening a sentence it
    # takes its comma ("…myocarditis. In such cases, biopsy …" keeps two sentences)
    (
        re.compile(rf"(?:^|(?<=[.;]))\s*{_BACK_POINTER}\s*,\s*(?P<next>\w)", re.I),
        lambda m: " " + m["next"].upper(),
    ),
    (
        re.compile(rf",?\s*\b{_BACK_POINTER}\b", re.I),
        "",
    ),
    # the order of preference, not a concept: "as first choice", "as the first drug of choice"
    (
        re.compile(
            r",?\s*\bas\s+(?:the\s+|a\s+)?(?:first|preferred|initial)(?:\s+drug|\s+line)?"
            r"\s+(?:of\s+)?(?:choice|option)\b"
            # "as the standard approach", "as a preventive measure": the act's standing, no
            # concept (what is prevented, when named, follows "to prevent" or "for")
            r"|,?\s*\bas\s+(?:the\s+|an?\s+)?(?:standard|default|usual|preventive|preventative|"
            r"precautionary)\s+(?:approach|measure|strategy|method|option)\b"
            # "as the standard anticoagulant", "as the usual agent": what the act already is,
            # its standing among its kind
            r"|,?\s*(?<!\bwell\s)\bas\s+(?:the\s+|an?\s+)?(?:standard|default|usual)\s+(?!of\b|care\b)"
            r"(?:anticoagulants?|antiplatelets?|agents?|drugs?|therapy|treatment|regimen|"
            r"technique|modality|test)\b(?!\s+(?:for|of)\b)"
            # "as the preferred (imaging) modality", "as the preferred therapy": its rank
            # (with "for / of X" after it, X is read: post_markers' _RANK)
            r"|,?\s*\bas\s+(?:the\s+|a\s+)?preferred\s+(?>(?:[\w\-]+\s+)?(?:modality|method|"
            r"technique|approach|strategy|therapy|treatment|option|test)\b)(?!\s+(?:for|of)\b)"
            # "using X as a diagnostic criterion": what X serves as, no concept of its own
            r"|\s+as\s+(?:a|the)\s+(?:diagnostic\s+)?(?:criterion|cut-?off|threshold)\b",
            re.I,
        ),
        "",
    ),
    # "X should be considered by the Heart Team", ", as decided by the Heart Team": who
    # weighs the act, no concept (an act the team does, "evaluation by the Heart Team", stays)
    (
        re.compile(
            r"(?:(?<=considered)|(?<=decided)|,\s*as\s+decided)\s+by\s+"
            r"(?:the|a|an)\s+(?:multidisciplinary\s+|interdisciplinary\s+)?(?:heart\s+)?team\b",
            re.I,
        ),
        "",
    ),
    # "when technically feasible", "if immediately available": how, not whom
    (
        re.compile(
            r",?\s*(?P<open>\()?\b(?:when|if|where)\s+(?:technically|clinically|readily|"
            r"immediately|locally)\s+(?:feasible|possible|available|indicated|appropriate)\b"
            r"(?(open)\))",
            re.I,
        ),
        "",
    ),
    # conditions of feasibility: "if indicated", "when available", "if safe and possible",
    # "whenever possible", and as someone judges it: "if considered safe", "when deemed
    # appropriate" (the judgement is the clinician's, no state of the patient)
    (
        re.compile(
            rf",?\s*(?P<open>\()?\b(?:if|when|where|whenever|wherever)\s+"
            rf"(?:(?:considered|deemed|judged|thought|felt)\s+)?{_HEDGE}"
            # a closing bracket goes only with its own opening one: "(and X if indicated)"
            rf"(?:\s+(?:and|or)\s+{_HEDGE})*\b(?(open)\))",
            re.I,
        ),
        "",
    ),
    # "under careful clinical and echo surveillance": how closely the watch is kept, no
    # part of what is watched with (the words after it share "surveillance")
    (
        re.compile(
            r"\bunder\s+(?:careful|close|strict|regular)\s+"
            r"(?=(?:[\w\-]+\s+){1,3}?(?:surveillance|monitoring)\b)",
            re.I,
        ),
        "under ",
    ),
    # "(percutaneously) when the anatomy allows": whether the technique can be used, not
    # whom the row is for
    # ("… is suitable for edge-to-edge repair" takes its object along; "if the anatomy
    # permits and the defect is small": the clause goes on with its second condition)
    (
        re.compile(
            r",?\s*\b(?P<lead>when|if|where)\s+(?:the\s+)?anatomy\s+(?:allows|permits|is\s+suitable"
            r"(?:\s+for\s+(?:(?!\b(?:in|with|among|who|and|or)\b)[^,;.()])+)?)\b"
            r"(?P<more>\s+and\b)?",
            re.I,
        ),
        lambda m: f" {m['lead']}" if m["more"] else " ",
    ),
]
