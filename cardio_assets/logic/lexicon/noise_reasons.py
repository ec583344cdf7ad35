"""Why a recommendation is made, or what does not matter to it (a part of noise.py's
patterns, applied at their place among them): "regardless of X", a rationale ("given the
risk of X", "considering its cost") and "due to" reasons. None of them says for whom.
"""

from __future__ import annotations

import re
from typing import Any

from cardio_assets.logic.lexicon.noise_words import _LIST_ITEM
from cardio_assets.logic.lexicon.vocabulary import _PATIENT_WORDS, WHILE_OF_TIME

# where a sentence ends: a full stop or semicolon before a capital or the row's end (not the
# stop of "1.8" or "e.g.")
_SENTENCE_END = r"[.;](?:\s+[A-Z]|\s*$)"

# the cases of "whether A or B" (or "A, B or C"), up to the comma or bracket that ends them
_EITHER_WAY = r"[^,;.()]*?(?:,\s*[^,;.()]+?){0,3}?\bor\b[^,;.()]*"

# the "by" that opens each complication after the first ("…, by B, or by C")
_BY_OF_A_LISTED_COMPLICATION = re.compile(r"(,\s*(?:or\s+|and\s+)?|\s+(?:or|and)\s+)by\s+")

_AIM_PARTICIPLE = "reduc|improv|lower|prevent|slow|delay|reliev|decreas|prolong"
_ADVICE_VERB_AFTER = re.compile(
    r"\b(?:is|are)\s+(?:\w+\s+)?(?:recommended|indicated|advised|reasonable)\b|"
    r"\b(?:should|may|must|can|could)\s+(?:\w+\s+)?be\b",
    re.IGNORECASE,
)
_LIST_LEAD = re.compile(r"\b(?:such\s+as|including|e\.g\.|like)\s", re.IGNORECASE)
_ADVICE_SAID = re.compile(
    r"\b(?:recommended|indicated|considered|advised|reasonable|beneficial)\b", re.IGNORECASE
)


def _participle_as_aim(m: re.Match[str]) -> str:
    clause_start = max(m.string.rfind(";", 0, m.start()), 0)
    clause_end = m.string.find(";", m.end())
    after = m.string[m.end() : clause_end if clause_end >= 0 else len(m.string)]
    if (
        not _ADVICE_SAID.search(m.string, clause_start, m.start())
        # "If X is considered, improving adherence is recommended": the gerund is the act
        or _ADVICE_VERB_AFTER.search(after)
        # "such as stopping smoking, reducing salt intake and …": an item of a list of acts
        or _LIST_LEAD.search(m.string, clause_start, m.start())
    ):
        return m[0]
    verb = m["verb"]
    return f", to {verb}{'e' if verb.lower().endswith(('c', 'v', 's')) else ''}"


# a person as the subject of "presents / occurs with" ("when a patient with HCM presents
# with syncope"): the patient came with it, read where the arriving verb is read
_PERSON_SUBJECT = re.compile(
    r"\b(?:patients?|wom[ae]n|m[ae]n|child(?:ren)?|infants?|neonates?|athletes?|individuals?|"
    r"persons?|people|someone|adults?|adolescents?|she|he|they)\b",
    re.IGNORECASE,
)


def _clause_before(found: re.Match[str]) -> str:
    """The words before ``found`` back to the clause's start (a comma, "if" or "when")."""
    before = found.string[: found.start()]
    cut = max(before.rfind(","), before.rfind(";"))
    clause = before[cut + 1 :]
    lead = list(re.finditer(r"\b(?:if|when|where|whenever|once)\b", clause, re.IGNORECASE))
    return clause[lead[-1].end() :] if lead else clause


# "a bleed with no reversible cause", "VT that had no reversible cause", "relatives who
# show no phenotype": what the patients do not have, as "without" says it ("with no or mild
# symptoms", "with no more than mild MR" grade a state and stay); noise.py reads it again
# after the lists, whose "who have neither A nor B" becomes "who have no A or B"
NO_AS_WITHOUT: tuple[re.Pattern[str], Any] = (
    re.compile(
        # (not "compared / combined with no treatment": the comparator is no treatment)
        r"(?<=[\w)])(?<!\bcompared)(?<!\bcombined)(?<!\balong)(?<!\btogether)\s+"
        r"(?:with|(?:that|which|who)\s+(?:had|has|have|show|shows|showed))\s+no\s+"
        r"(?!(?:or|more|less|fewer|greater|higher|lower|further|other|longer|been)\b)",
        re.I,
    ),
    " without ",
)

REASON_REWRITES: list[tuple[re.Pattern[str], Any]] = [
    # "shock complicating ACS": the disease the state arose in is one the patients have, read
    # as "shock, with ACS" (both golds of this wording name the two apart)
    # (not the adjective: "without complicating comorbidities", "complicating factors")
    (
        re.compile(
            r"(?<=\w)(?<!\bwithout)(?<!\bno)(?<!\bany)\s+complicating\s+"
            r"(?!(?:factors?|features?|conditions?|comorbidit(?:y|ies)|circumstances?)\b)(?=\S)",
            re.I,
        ),
        ", with ",
    ),
    # "endocarditis complicated by HF, by abscess or by a large vegetation": the disease and
    # what complicates it are each a state the patients have, the complications alternatives
    # (the golds name them apart); read as "endocarditis, with HF, abscess or ..."
    # ("not complicated by X" says the opposite and is left to the negation rules)
    (
        re.compile(r"(?<=[\w)])(?<!\bnot)(?<!\bnever)\s+complicated\s+by\s+(?P<what>[^;.]*)", re.I),
        lambda m: ", with " + _BY_OF_A_LISTED_COMPLICATION.sub(r"\1", m["what"]),
    ),
    # "While a range of diets are effective, it is recommended …": a concession opening the
    # row grants a point and names no patient; "while on dialysis", "while inflammation is
    # present" say when the row holds and stay (sentences.py reads them)
    (
        re.compile(
            rf"^\s*(?:while|whilst)(?!{WHILE_OF_TIME})\s+"
            # (only a judgement of evidence or of another act: "While patients are on OAC,",
            # "While LVEF remains ≤35%," are criteria and stay)
            r"(?:there\s+(?:is|are)\b|[^,;.]*?\b(?:is|are|remains?|(?:may|can)\s+be)\s+"
            r"(?:(?:also|often|generally|usually|highly|very|equally|more|less|widely)\s+)*"
            r"(?:effective|limited|lacking|scarce|sparse|uncertain|unclear|preferred|preferable|"
            r"recommended|available|acceptable|useful|beneficial|safe|established|the\s+"
            r"(?:[\w\-]+\s+)?(?:therapy|treatment|option|choice|standard)\b))"
            # (to the clause's comma, unless a list goes on after it: "for AF, HF and CKD,")
            r"[^,;.]*,(?!\s*[\w\-]+(?:\s+[\w\-]+)?\s*(?:,|\band\b|\bor\b))\s*",
            re.I,
        ),
        "",
    ),
    # "regardless of symptoms", "irrespective of stent type", "whatever the vascular bed
    # involved": says what does NOT matter; a list of such things goes whole ("regardless of
    # age, sex, or LVEF"), and the clause stops where another opens ("… of NYHA class who
    # have X", "whatever the stent type in patients with X"); a bracket that only spells out
    # what does not matter goes with it ("whatever the AF pattern (paroxysmal or permanent)"),
    # not one that names patients ("regardless of symptoms (in those with a score of 2 or
    # more)": a list item stops at "in")
    (
        re.compile(
            r",?\s*\(?\b(?:(?:regardless|irrespective|independently|independent)\s+of|"
            r"(?:whatever|no\s+matter)\s+(?:the|their|its))\s+"
            rf"(?:(?:{_LIST_ITEM},\s*)+(?:and|or)\s+)?{_LIST_ITEM}"
            rf"(?:\s*\((?:{_LIST_ITEM},\s*)*(?:(?:and|or)\s+)?{_LIST_ITEM}\))?\)?",
            re.I,
        ),
        " ",
    ),
    # "frail patients of any age", "at any age": no bound on the age, nothing of the patients
    # (not "of any age group", "at any age of onset": the words after it go with it)
    (re.compile(r",?\s*\b(?:of|at)\s+any\s+age\b(?!\s+(?:groups?|of|at|when)\b)", re.I), ""),
    # "(either) alone or in combination (with Y)": how the drugs named may be taken, neither
    # a drug nor a condition; Y, if named, is given with them
    (
        re.compile(
            r",?\s*\b(?:either\s+)?alone\s+or\s+(?:in\s+combination|combined)(?:\s+(?=with\b)|\b,?)",
            re.I,
        ),
        " ",
    ),
    # a rationale, not a criterion: ", considering the individual risk", ", given the high
    # risk of X", "taking into account its cost" (the clause says why, not for whom)
    (
        re.compile(
            r",?\s*\b(?:considering|given|in\s+view\s+of|taking\s+into\s+account|bearing\s+in"
            r"\s+mind)\s+(?=(?:the|that|its|their|this|these|individual)\b)[^,;.()]+",
            re.I,
        ),
        "",
    ),
    # "not recommended because of fetal toxicity", "avoided owing to the bleeding risk": a
    # harm or risk given as the reason is why, never for whom ("admitted because of HF",
    # a state, stays); it ends with the harm named ("… of X" included, up to the patients or
    # a clause after it)
    (
        re.compile(
            r",?\s+(?:because\s+of|owing\s+to|on\s+account\s+of)\s+(?:the\s+|an?\s+|its\s+|their\s+)?"
            r"(?:[\w-]+\s+){0,3}?(?:toxicity|harms?|risks?|hazards?|adverse\s+effects?|side\s+effects?|"
            r"concerns?|costs?|dangers?|(?:teratogenic|pro-?arrhythmic|arrhythmogenic|toxic|"
            r"bleeding)\s+potential|potential(?=\s+(?:for|of)\s+(?:[\w-]+\s+)?(?:harm|bleeding|"
            r"haemorrhage|hemorrhage|toxicity|hypotension|interactions?|injury|damage|adverse)\b)|"
            r"lack\s+of\s+(?:evidence|data|benefit)"
            # ("because of increased mortality": a harm seen with the act)
            r"|(?:increased|higher|excess)\s+(?:[\w-]+\s+)?(?:mortality|deaths?|morbidity))\b"
            # ("the danger of profound hypotension", "the potential for bleeding")
            # (never into the patients: "the excess risk for older patients with X")
            r"(?:\s+(?:of|for)(?!\s+(?:[\w-]+\s+)?(?:patients|women|men|those|people|individuals|"
            r"children|adults)\b)(?:\s+(?!(?:in|with|for|among|when|if|and|or)\b)[\w-]+){1,4}"
            # ("interactions with P-gp inhibitors": what the drug interacts with is the harm's)
            r"(?:(?<=interactions)\s+with(?:\s+(?!(?:in|for|among|when|if|and|or|such|including)\b)"
            r"[\w-]+){1,4}"
            r"(?:,?\s+(?:such\s+as|e\.g\.|including)\s+[^,;.()]+)?)?"
            # ... and every harm of its list ("the risk of A, B and C")
            r"(?:(?:,|,?\s+(?:and|or))(?:\s+(?!(?:in|with|for|among|when|if|is|are|should|"
            r"may|must|can|and|or)\b)[\w-]+){1,4})*)?",
            re.I,
        ),
        "",
    ),
    # "Because of fetal toxicity, X is contraindicated", "Due to X, …": a reason put first, up
    # to its comma (brackets and all), is why; the act after it is what the row is about. The
    # patients it names stay ("Because of the risk of SCD in patients with HCM, …")
    (
        re.compile(
            r"(?:^|(?<=[.;:]\s))\s*(?:due\s+to|because\s+of|owing\s+to|on\s+account\s+of)\b"
            r"(?P<why>(?:[^,;()]|\([^()]*\))+?)"
            rf"(?P<who>\s+(?:in|among)\s+(?:{_PATIENT_WORDS})\b(?:[^,;()]|\([^()]*\))*)?,\s*",
            re.I,
        ),
        lambda m: f"{m['who'].strip()}, " if m["who"] else "",
    ),
    # ", given safety concerns" ending the row: a reason with no article, after its comma
    # ("should be given despite concerns" is the verb, and stays)
    (
        re.compile(
            r",\s*given\s+(?:[\w-]+\s+){1,2}(?:concerns?|uncertaint(?:y|ies)|costs?)"
            rf"(?=\s*(?:{_SENTENCE_END}|$))",
            re.I,
        ),
        "",
    ),
    # "… because of its poor sensitivity": a property of the act itself ("its" points back
    # to it) is the reason, never whom it is for; to the clause's end ("because of their
    # frailty" is said of the patients, and stays)
    (
        re.compile(rf",?\s+because\s+of\s+its\s+(?:(?!{_SENTENCE_END})[^,;:()])*", re.I),
        "",
    ),
    # "NSAIDs, which can precipitate X and Y": what the named thing may do, the reason the
    # advice is given, at the end of the sentence or between commas before the verb ("X,
    # which may reduce Y, is recommended"); no concept. It never runs past a comma. A verb of
    # harm or effect says the same without a modal ("which promote fluid retention")
    (
        re.compile(
            r",\s*which\s+(?:(?:can|may|might|could|would|will|are\s+known\s+to|is\s+known\s+to)\s+"
            r"|(?=(?:promote|increase|raise|lower|reduce|cause|precipitate|worsen|aggravate|impair|"
            r"depress)"
            r"s?\s))"
            r"[^,;.()]*(?:(?=\s*(?:[.;]|$))|,(?=\s*(?:is|are|should|must|may|can)\b))",
            re.I,
        ),
        "",
    ),
    # ", since slowing X may favour Y": a clause of its own ending the sentence, with its own
    # verb, gives the reason ("since diagnosis", a time, has none)
    (
        re.compile(
            r",\s*since\s+(?=[^,;.()]*?\b(?:may|might|can|could|will|would|is|are|has|have|does|do)\b)"
            r"[^,;.()]*(?=\s*(?:[.;]|$))",
            re.I,
        ),
        "",
    ),
    # ", as they may provoke A and B", ", as it can worsen X", ", as no benefit has been
    # shown": "as" with a pronoun for the drug or the act, or with missing evidence, gives the
    # reason, never whom it is for; the clause goes to its end
    (
        re.compile(
            r",\s*as\s+(?:(?:they|it|this|these|such\s+(?:drugs|agents))\s+"
            r"(?:(?:may|can|could|might|will|would|do|does)\s+)?(?:\w+ly\s+)?"
            r"(?!be\b|is\b|are\b)[a-z]+\b[^,;.()]*"
            # ", as no benefit has been shown": the missing evidence is the reason
            r"|(?:there\s+is\s+)?no\s+[^,;.()]*?\b(?:has|have)\s+been\s+(?:shown|demonstrated|"
            r"proven|established|reported)\b[^,;.()]*)",
            re.I,
        ),
        "",
    ),
    # ", as standard scores underestimate their risk", ", as weight gain does not lessen the
    # benefit": "as" opening a clause of its own (a subject of a few words, then a verb with
    # a modal, a "do not", or an object after it) to the sentence's end gives the reason; "as
    # in AF", "as indicated by X", "as part of X" open no clause
    (
        re.compile(
            r",\s*as\s+(?!(?:in|for|with|by|to|of|on|at|from|an?|is|are|part|well|soon|long|"
            r"compared|opposed|such|adjunctive|primary|secondary|monotherapy|first-line)\b)"
            r"(?![a-z]+ed\b)(?:(?!(?:to|who|which|that|whose|in|for|with|after|before|beyond|"
            r"during|than|by)\b)[\w\-]+\s+){1,5}?"
            r"(?:(?:may|can|could|might|will|would|does|do|did)\s+(?:not\s+)?[a-z]+"
            r"|(?:is|are|remains|persists|reduces|lowers|increases|improves|outweighs|exceeds|"
            r"lacks|prevents|offsets|underestimates?|overestimates?)\b"
            r"|(?!(?:by|in|for|with|to|of|on|at|from|as|than|during|and|or|after|before|beyond|"
            r"within|over|under|until|between|into|through|without|about|against|per)\b)"
            r"[a-z]+\s+(?:their|its)\b)(?:[^,;.()]|(?<=\d)\.(?=\d))*(?=\s*(?:[.;]|$))",
            re.I,
        ),
        "",
    ),
    # ", unless no alternative exists", "unless no suitable alternative drug is available":
    # only when nothing else is at hand, no state of the patient (the whole clause goes)
    (
        re.compile(
            r",?\s*\bunless\s+(?:there\s+is\s+)?no\s+(?:other\s+|suitable\s+)?alternatives?"
            r"(?:(?:\s+[\w\-]+){0,2}?\s+(?:exists?|is\s+available|are\s+available)"
            r"|(?=\s*[,;.)]|\s*$))",
            re.I,
        ),
        "",
    ),
    # ", due to the associated risk of X": why it is advised against, not for whom
    (
        re.compile(
            r",?\s*\bdue\s+to\s+(?:the\s+|an?\s+)?(?:associated\s+|increased\s+|high(?:er)?\s+)?"
            r"risks?\s+of\s+[^,;.()]+",
            re.I,
        ),
        "",
    ),
    # "due to (the frequency of) their adverse effects", "due to a lack of data": the reason,
    # said of the act (a possessive, or missing evidence), never a state of the patient; it
    # ends where the patients are named again ("... in growing children")
    (
        re.compile(
            r",?\s*\bdue\s+to\s+(?:(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:of\s+)?(?:their|its)\s+"
            r"|(?:the\s+|an?\s+)?(?:lack|paucity|absence)\s+of\s+(?:data|evidence)\b)[^,;.()]*?"
            r"(?=\s+in\s+(?:growing\s+|young\s+|older\s+)?(?:patients|children|women|men|adults|"
            r"individuals|people|those)\b|\s*[,;.()]|\s*$)",
            re.I,
        ),
        "",
    ),
    # "the same risk scores as for non-pregnant women": the group the practice is borrowed
    # from, a comparison, not the patients the row is for
    (
        re.compile(
            r",?\s*(?<!\bsuch\s)(?<!\bwell\s)\bas\s+(?:for|in)\s+(?:non-pregnant|other)\s+"
            r"(?:women|men|patients|individuals|adults|people|persons)\b[^,;.()]*?"
            r"(?=\s+(?:is|are|should|may|can|must)\b|\s*[,;.()]|\s*$)",
            re.I,
        ),
        "",
    ),
    # a later sentence opening "However, …" qualifies the recommendation made before it (a
    # caveat on its use, never whom it is for: every gold of this shape leaves it out); it
    # ends at a full stop before a capital or the row's end (not "1.8" or "e.g."), and a
    # "However" sentence that recommends something of its own stays
    (
        re.compile(
            rf"(?<=[.;])\s+However,\s(?:(?!\b(?:recommended|considered|indicated)\b)(?!{_SENTENCE_END}).)*"
            r"(?:[.;](?=\s+[A-Z]|\s*$)|$)",  # case-sensitive: a sentence starts with a capital
        ),
        "",
    ),
    # "… because X": the reason the advice is given, never whom it is for; it runs to the
    # clause's end: a comma, a colon ("because they may worsen it: • A; • B": the list is
    # the row's), a bracket or the sentence's end ("because of X", naming a cause, stays;
    # "because of its X", a property of the act, goes above)
    (
        re.compile(
            r"\s*\(\s*because\b(?!\s+of\b)[^()]*\)"
            rf"|(?:,\s*|\s+|^)\bbecause\b(?!\s+of\b)(?:(?!{_SENTENCE_END})[^,:()])*",
            re.I,
        ),
        "",
    ),
    # ", so that DAPT goes on until …": what the advice brings about, told as its result,
    # never whom it is for ("so as to reduce X" is an aim, read as "to reduce X")
    # (it ends at its clause's end: a comma or the sentence's; what follows is the row's)
    (re.compile(rf",\s*so\s+that\b(?:(?!{_SENTENCE_END})[^,;()])*", re.I), ""),
    # ", allowing calcineurin-inhibitor minimisation": what the act makes possible, an aim
    # like "to allow X" ("allowing for X", taking it into account, is no aim)
    (re.compile(r",\s*allowing\s+(?!for\b)", re.I), ", to allow "),
    # "X is recommended in Y, reducing symptoms and death": what the recommended act brings,
    # told by a participle after the advice, is its aim, as "to reduce …" is (not a gerund
    # that opens the advice: "In Y, reducing the dose may be considered")
    (re.compile(rf",\s*(?P<verb>{_AIM_PARTICIPLE})ing\b", re.I), _participle_as_aim),
    # ", due to similar outcomes." ending the row, or "Due to X, …" opening it: why, not for
    # whom ("syncope due to X", with no comma, names a cause and stays)
    (re.compile(r",\s*due\s+to\b[^;()]*?(?=\.?\s*$)", re.I), ""),
    # "whether it presents as A or B": the forms the state takes, its examples (what it
    # shows as is named, unlike "whether confined or spread", which holds either way)
    (re.compile(r",?\s*whether\s+(?:it|this|they)\s+presents?\s+as\s+", re.I), ", such as "),
    # ", whether the infection is confined to the pocket or involves the leads": either way,
    # like "regardless of" (the clause, both cases and all, to its comma)
    # (a short list of cases runs over its commas: "whether paroxysmal, persistent or
    # permanent"; "whether to use A or B" is a choice between acts, kept)
    (re.compile(rf",\s*whether\s+(?!to\b){_EITHER_WAY}", re.I), ""),
    # ... and opening the sentence ("Whether symptomatic or not, patients with X …")
    (re.compile(rf"^\s*whether\s+(?!to\b){_EITHER_WAY},\s*", re.I), ""),
    # "… and whether or not diabetes is present": either way, wherever it stands (the clause
    # to its comma or the sentence's end)
    # ("whether or not to proceed" is a choice between acts, kept; the clause stops before
    # the patients it may be followed by)
    (
        re.compile(
            r",?\s*(?:\band\s+)?\bwhether\s+or\s+not\b(?!\s+to\b)[^,;.()]*?"
            r"(?=\s+(?:in|for|among)\s+(?:all\s+)?(?:patients|women|men|those|individuals|"
            r"adults|children|people)\b|\s*[,;.()]|\s*$)",
            re.I,
        ),
        "",
    ),
    # ", smokers or not,": either way again, said without "whether"
    (re.compile(r",\s*(?:[\w-]+\s+){0,4}or\s+not\s*(?=[,;]|\.?\s*$)", re.I), ""),
    # "; it improves symptoms and survival": a sentence after the advice telling what the act
    # does is why it is advised, like "as it improves …", no criterion
    (
        re.compile(
            r";\s*(?:it|they|this|these)\s+(?:(?:both|also|further)\s+)?"
            r"(?:improves?|reduces?|lowers?|prevents?|decreases?|prolongs?|slows?|halves?|"
            r"cuts?|(?:has|have)\s+been\s+shown|(?:is|are)\s+associated)\b"
            # (only a remark with no criterion or advice of its own: "; it lowers stroke risk
            # only in those with a score ≥2", "; it reduces events but should be avoided in
            # X" go on to say whom the advice is for, and stay; "by 30%" is the effect's size)
            r"(?:(?!\b(?:but|only|should|may|must|can|if|when|unless|in\s+(?:patients|those))\b)"
            r"[^;])*?(?=;|\.?\s*$)",
            re.I,
        ),
        "",
    ),
    NO_AS_WITHOUT,
    # "X should be added to aspirin": what X is added to is given beside it, as after "X
    # added to Y" (the verb keeps its "be", the marker becomes "in addition to")
    (
        re.compile(
            r"\b(?P<verb>(?:(?:should|may|must|can|could)\s+(?:not\s+)?(?:also\s+)?be|is|are)\s+)"
            r"added\s+"
            # (not "added to the waiting list / the registry": no drug)
            r"(?=to\s+(?!(?:the\s+|a\s+)?(?:[\w\-]+\s+){0,2}(?:lists?|regist(?:ry|er)|"
            r"database|programmes?|programs?)\b))",
            re.I,
        ),
        r"\g<verb>given in addition ",
    ),
    # "X ought to receive Y": "ought to" says what "should" says; "on condition that X":
    # "provided X" (words for words, read here with the clauses they lead)
    (re.compile(r"\bought\s+(not\s+)?to\b", re.I), lambda m: f"should{' not' if m[1] else ''}"),
    # ", the exceptions being patients with X": "except in patients with X"
    (re.compile(r",?\s*\bthe\s+(?:only\s+)?exceptions?\s+being\b", re.I), ", except"),
    # (not "based / depending on the condition that caused the shock", which names a state)
    (
        re.compile(
            r"(?<!\bbased\s)(?<!\bdepending\s)(?<!\bfocused\s)\bon\s+(?:the\s+)?condition\s+that\b",
            re.I,
        ),
        "provided",
    ),
    # "DAPT consisting of A and B", "an assessment comprising A and B": the items, read as
    # "with" reads them after a generic head ("revascularisation with CABG")
    # (not "a team made up of a cardiologist and a surgeon": people, no items of an act)
    (
        re.compile(
            r"(?<=\w)(?<!\bteam)(?<!\bteams)(?<!\bpanel)(?<!\bgroup)(?<!\bstaff)(?<!\bnetwork)"
            r"\s+(?:comprising|consisting\s+of|made\s+up\s+of)\s+",
            re.I,
        ),
        " with ",
    ),
    # "three times the normal value corrected for age and sex": the reference the value is
    # read against, no criterion of its own
    (
        re.compile(
            r"(\b(?:normal|ULN|reference)(?:\s+(?:values?|ranges?|limits?))?)\s+"
            r"(?:(?:adjusted|corrected|matched)\s+)?for\s+age(?:\s+and\s+(?:sex|gender))?\b",
            re.I,
        ),
        r"\1",
    ),
    # "severe obesity, meaning a BMI ≥40": the state said again by its criterion, as "i.e."
    (
        re.compile(
            r",\s*meaning\s+(?=(?:an?\s+|the\s+)?[A-Za-z][\w\-]*(?:\s+[A-Za-z][\w\-]*)?\s*(?:of\s+)?[<>≤≥]?\s?\d)",
            re.I,
        ),
        ", i.e. ",
    ),
    # "suspected myocarditis presenting with shock": the state and what it comes with, as
    # "with" says (patients "presenting with X" are read where they are: how they came)
    (
        re.compile(
            r"(?<=\w)(?<!\bpatients)(?<!\bpatient)(?<!\bthose)(?<!\bindividuals)(?<!\bpeople)"
            r"(?<!\bwomen)(?<!\bmen)(?<!\badults)(?<!\bchildren)(?<!\bathletes)(?<!\bwho)"
            r"(?<!\bpersons)(?<!\bof)(?<!\bon)(?<!\bupon)(?<!\bafter)(?<!\bbefore)(?<!\bsince)"
            r"(?<!\bwhen)(?<!\bwhile)(?<!\bat)(?<!\bby)(?<!\bis)(?<!\bare)(?<!\bwere)(?<!\bfirst)"
            r"(?<!\binitially)(?<!\bnewly)\s+presenting\s+with\s+(?=[A-Za-z])",
            re.I,
        ),
        " with ",
    ),
    # "when syncope presents / AF occurs with X", "… presents in patients with Y": the state
    # and what it comes with (both hold), or the patients it comes in; the verb names nothing
    # (a patient who "presents" came: read as the arriving verb it is)
    (
        re.compile(
            r"(?<=[A-Za-z])(?<!\bwho)(?<!\bthat)(?<!\bwhich)(?<!\bit)(?<!\bshe)(?<!\bhe)"
            r"\s+(?:(?:presents|occurs|coexists|co-exists)\s+with\s+(?=[A-Za-z])"
            r"|presents\s+(?=in\s+[A-Za-z]))",
            re.I,
        ),
        lambda m: (
            m.group(0)
            if _PERSON_SUBJECT.search(_clause_before(m))
            else (" and " if "with" in m.group(0).lower() else " ")
        ),
    ),
    # "when sinus bradycardia causes no symptoms": the state without symptoms (denied, as
    # "without" reads)
    (
        re.compile(r"\s+(?:causes?|caused|produces?|gives?)\s+no\s+(?=symptoms?\b)", re.I),
        " without ",
    ),
    # "severe AS, defined by an area ≤1.0 cm² or …": the criteria that make it so, as "i.e."
    # names them
    (re.compile(r",\s*(?:as\s+)?defined\s+(?:by|as)\s+(?=[A-Za-z<>≤≥\d])", re.I), ", i.e. "),
    # "inoperable patients managed at a heart valve centre": where they are cared for, no
    # state of theirs (an act done "at a centre" keeps its place: this is after patients)
    (
        re.compile(
            r"(?:(?<=\bpatients)|(?<=\bindividuals)|(?<=\bpeople)|(?<=\bwomen)|(?<=\bmen)|"
            r"(?<=\badults)|(?<=\bchildren))\s+"
            r"(?:managed|treated|followed(?:\s+up)?|cared\s+for|seen)\s+(?:(?:at|in)\s+"
            # ("treated by PCI in high-volume centres": the act they had stays)
            r"(?:an?\s+|the\s+)?(?:(?!(?:at|in|by|with|for|of)\b)[\w\-]+\s+){0,3}?"
            r"(?:centres?|centers?|units?|hospitals?|clinics?|teams?)"
            r"|by\s+(?:an?\s+|the\s+)?(?:(?!(?:at|in|by|with|for|of)\b)[\w\-]+\s+){0,3}?"
            r"teams?)\b",
            re.I,
        ),
        "",
    ),
    # "recommended as the mode of intervention / as primary treatment": the act's standing
    # among the choices, said of the act; no concept ("as treatment of X" keeps it: what
    # follows "for / in" is read as it would be without the standing)
    (
        re.compile(
            # (not "as well as standard therapy", a co-therapy)
            r"(?<!\bwell)(?<!\bsuch)(?<!\blong)(?<!\bsoon)(?<!\bmuch)(?<!\bsame)"
            r"\s+as\s+(?:the\s+|a\s+)?(?:(?:preferred|recommended|default|"
            r"standard|initial|primary|"
            r"first-line|second-line)\s+)*(?:mode\s+of\s+(?:intervention|treatment|"
            r"revasculari[sz]ation)|treatment|therapy|(?:method|modality|strategy|approach|"
            r"option|treatment|therapy)\s+of\s+choice)\b(?!\s+(?:of|with|options?)\b)",
            re.I,
        ),
        "",
    ),
    # ", with the choice guided by symptoms and comorbidity", ", the decision resting on age":
    # what the choice between the acts weighs, no criterion of the row
    (
        re.compile(
            # (never across the row's own verb: "the decision between PCI and CABG should be
            # based on X" is the row's act)
            r",\s*(?:with\s+)?the\s+(?:choice|decision)(?:\s+(?:of|between)\s+"
            r"(?:(?!\b(?:should|must|is|are|may|can|will)\b)[^,;.()])+?)?\s+"
            r"(?:being\s+)?(?:guided|based|depending|dependent|driven|informed|resting|"
            r"individuali[sz]ed)\s+(?:by|on|upon|according\s+to)\s+"
            # (a list of what it weighs runs over its commas; a comma that opens a clause or
            # the patients ends it: ", in patients with X")
            r"(?:[^,;.()]|,(?!\s*(?:in|for|among|when|if|unless|provided|where|to|and\s+(?:in|for)|"
            r"particularly|especially|notably|mainly|except|excluding|but|even|including|"
            r"although|whereas|while|or\s+(?:in|for|when|if)|as(?!\s+well))\b))*",
            re.I,
        ),
        "",
    ),
    # a dose's bracket that says it goes by weight ("(0.5 mg twice daily, by body weight)")
    (re.compile(r",?\s*\b(?:by|according\s+to)\s+(?:body\s+)?weight\s*(?=\))", re.I), ""),
    # "as the initial management of asymptomatic AF": the act's standing, and the state it
    # manages, read as "for" it
    (
        re.compile(
            r"\s+as\s+(?:the\s+)?(?:initial|first-line|first|standard|preferred|default)\s+"
            r"(?:management|treatment|therapy)\s+(?:of|for)\s+(?!choice\b)",
            re.I,
        ),
        " for ",
    ),
    # "assessed with a validated tool": how the assessment is done, a generic instrument that
    # names nothing (its examples, if any, stay: "(e.g. the Clinical Frailty Scale)")
    (
        re.compile(
            r",?\s+(?:with|using|by\s+means\s+of|by)\s+(?:an?\s+)?(?:validated|standardi[sz]ed|"
            r"structured|dedicated|appropriate)\s+(?:tools?|instruments?|questionnaires?)\b"
            # (not one of two means, "a questionnaire or polygraphy", nor a head of examples)
            r"(?!,?\s*(?:or|and|such\s+as|e\.g\.|including|for\s+example)(?!\w)),?",
            re.I,
        ),
        "",
    ),
    # "three drugs, one of which is a diuretic": the one named is among them, as "including"
    (re.compile(r",\s*one\s+of\s+(?:which|them)\s+(?:is|being)\s+", re.I), " including "),
    # "patients meeting / who fulfil diagnostic criteria for X": they have X
    (
        re.compile(
            r"\b(?:who\s+)?(?<!\bnot\s)(?<!\bnever\s)(?:meets?|meeting|fulfil(?:l|s|ls|ling)?)\s+"
            r"(?:the\s+)?(?:clinical\s+)?diagnostic\s+"
            r"criteria\s+(?:for|of)\s+(?:an?\s+)?",
            re.I,
        ),
        "with ",
    ),
    # "patients (who are) free of A and B": without either, as "without A and B" reads (not
    # of a part or a thing: "the left atrium is free of thrombus", "a diet free of trans fats")
    (
        re.compile(
            r"(?:\b(?:who|that)\s+(?:are|is|remain|remains)\s+|(?<!\bis\s)(?<!\bare\s)"
            r"(?<!\bdiet\s)(?<!\bdiets\s)(?<!\bfood\s)(?<!\bfoods\s)(?<!\blifestyle\s)"
            r"(?<!\bprogrammes\s)(?<!\bprogramme\s)(?<!\bprograms\s)(?<!\bprogram\s)"
            r"(?<!\barea\s)(?<!\bzone\s)(?<!\benvironment\s)\b)free\s+(?:of|from)\s+"
            r"(?!(?:charge|cost|fees?)\b)(?=[A-Za-z])",
            re.I,
        ),
        "without ",
    ),
    # "A or, alternatively, B": the adverb only repeats the "or"
    (re.compile(r"\bor,?\s+alternatively,?\s+", re.I), "or "),
    # ", assuming X": "provided X" (not "assuming responsibility for", a duty taken on)
    (
        re.compile(
            r",\s*assuming(?:\s+that)?\b(?!\s+(?:the\s+)?(?:responsibility|care|charge|role|"
            r"control|leadership)\b)",
            re.I,
        ),
        ", provided",
    ),
]
