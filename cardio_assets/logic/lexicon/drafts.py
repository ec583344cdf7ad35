"""Drafts: the concepts of a row while the extractor works on them, before they become
ExtractedConcept / ExtractedAction records; and what is done to them as a whole (negating a
phrase, OR groups of a logic tree, duplicates merged, the population chosen).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from cardio_assets.logic.lexicon.role_words import GRADE_WORDS
from cardio_assets.logic.lexicon.vocabulary import OF_CHOICE, PERSIST_WORDS
from cardio_assets.logic.logic_split import Expr, Leaf, Node

if TYPE_CHECKING:
    from cardio_assets.logic.lexicon.parameters import Parameter


@dataclass
class Draft:
    role: str
    text: str
    normalized: str
    slot: str  # cohort | action | outcome | background | context | purpose | example
    operator: str | None = None
    threshold: float | list[float] | None = None
    unit: str | None = None
    alt_values: list[dict] = field(default_factory=list)  # the value in a second unit
    negated: bool = False
    or_group: str | None = None
    polarity: str = "recommended"
    # a therapy beside the act that is not the cohort's: "comparator" (what the act is
    # preferred over) or "co-therapy" (given with it); the contract, section 2
    aside: str | None = None
    # the test that showed a finding ("on cardiac MRI"): done whatever the finding was, so
    # it takes neither the phrase's negation nor its OR label
    test_of_finding: bool = False
    # said of one alternative only: what it is had without ("A in the absence of B, or C": B
    # is absent with A only) or what it found ("anticoagulation, or a TOE showing no
    # thrombus"): outside the alternatives' OR label
    said_of_one_alternative: bool = False
    # read from a bracket after the head it is said of ("SVT (AVNRT, AVRT and AT)", "AF
    # (paroxysmal or permanent)"): never the case a later "or if …" clause offers an
    # alternative to (the head before the bracket is)
    in_bracket: bool = False

    @classmethod
    def of_parameter(
        cls, p: Parameter, slot: str, normalized: str | None = None, negated: bool = False
    ) -> Draft:
        """The draft of a parameter the measurement grammar read (name and value one span)."""
        return cls(
            role="ClinicalParameter",
            text=p.text,
            normalized=normalized or p.name_normalized or "",
            slot=slot,
            operator=p.operator,
            threshold=p.threshold,
            unit=p.unit,
            alt_values=list(p.alt_values),
            negated=negated,
        )


def new_group_label(group_counter: list[int]) -> str:
    """The row's next OR label ("g1", "g2", ...); the counter is shared by the row's phrases."""
    group_counter[0] += 1
    return f"g{group_counter[0]}"


def share_or_label(drafts: list[Draft], group_counter: list[int]) -> None:
    """Make ``drafts`` alternatives: one OR label for all of them, the first label any of
    them already has, else a new one."""
    label = next((d.or_group for d in drafts if d.or_group), None) or new_group_label(group_counter)
    for d in drafts:
        d.or_group = label


def _is_population(d: Draft) -> bool:
    """The cohort (the contract, section 9): every condition that selects patients, negated
    or offered as an alternative included, and every therapy or procedure the cohort is
    defined by (background); not what a test is meant to find (purpose clause), not the
    recommended act. Age thresholds join the cohort at the merge, for both backends."""
    if d.role == "Condition":
        # a state read in a phrase about what the patients receive ("receiving antiplatelet
        # therapy, eligible for anticoagulation") selects patients all the same
        return d.slot in {"cohort", "context"} or (d.slot == "background" and d.aside is None)
    if d.role in {"Procedure", "Medication"}:
        return d.slot in {"cohort", "context", "background"} and d.aside is None
    return False


def _negate(drafts: list[Draft]) -> list[Draft]:
    """Negate a whole phrase. "without A or B" is NOT(OR(A, B)): both negated under the one
    OR label they had (the contract, §7); the rule's logic reads an all-negated group by De
    Morgan as NOT A AND NOT B (merged_concepts)."""
    for d in drafts:
        d.negated = d.negated or not d.test_of_finding
    return drafts


def turned_round(drafts: list[Draft]) -> list[Draft]:
    """NOT of a clause whose items carry their own negation ("unless X and no Y": not X, and
    Y): each item's negation turned round, unlike ``_negate``, which only adds one."""
    for d in drafts:
        d.negated = d.negated != (not d.test_of_finding)
    return drafts


def _drop_lonely_groups(drafts: list[Draft]) -> None:
    """An OR group that lost members (dropped empty leaves) is no group."""
    counts: dict[str, int] = {}
    for d in drafts:
        if d.or_group:
            counts[d.or_group] = counts.get(d.or_group, 0) + 1
    for d in drafts:
        if d.or_group and counts[d.or_group] < 2:
            d.or_group = None


def _or_groups(tree: Node, group_counter: list[int]) -> dict[int, str]:
    """Row-level OR group ids ("g1", "g2", ...) for the leaves of each OR node.

    split_logic gives AND precedence ("A and B or C" = (A AND B) OR C), but guideline
    cohorts read the outer conjuncts as separate conditions: "CCS and prior MI or prior
    revascularization" is CCS AND (MI OR revascularization). So an AND branch of an OR
    contributes only its item next to the "or"; its outer items stay ungrouped.
    """
    assigned: dict[int, str] = {}

    def visit(node: Node) -> None:
        if isinstance(node, Leaf):
            return
        if node.op == "AND":
            for child in node.children:
                visit(child)
            return
        group = new_group_label(group_counter)
        last = len(node.children) - 1
        for i, child in enumerate(node.children):
            if isinstance(child, Leaf):
                assigned[id(child)] = group
                continue
            if child.op == "OR":  # "A or B/C": an OR inside an OR is one flat group
                for nested in child.children:
                    if isinstance(nested, Leaf):
                        assigned[id(nested)] = group
                    else:
                        visit(nested)
                continue
            for nested in child.children:  # "A or B and (C or D)": C or D is a group too
                if isinstance(nested, Expr):
                    visit(nested)
            inner = [c for c in child.children if isinstance(c, Leaf)]
            if not inner:
                continue
            # first branch: its last item joins; last branch: its first item joins.
            joiner = inner[-1] if i == 0 else inner[0] if i == last else None
            if joiner is None:
                for leaf in inner:
                    assigned[id(leaf)] = group
            else:
                assigned[id(joiner)] = group

    visit(tree)
    return assigned


def _dedupe(drafts: list[Draft]) -> list[Draft]:
    """One draft per (role, normalized, negated, parameter values); an OR label sticks."""
    seen: dict[tuple, Draft] = {}
    out: list[Draft] = []
    for d in drafts:
        key = (
            d.role,
            d.normalized,
            d.negated,
            d.operator,
            json.dumps(d.threshold),
            d.unit,
            d.slot == "action",
        )
        if key in seen:
            kept = seen[key]
            kept.or_group = kept.or_group or d.or_group
            continue
        seen[key] = d
        out.append(d)
    return out


# A piece of a clause the sentence rules cut in the wrong place: it opens with a relative
# or demonstrative word ("which reproduces …", "this includes …") or ends on a word that
# needs more after it ("diameter of the", "… based on an")
# a piece that opens like a clause, or with a modal or passive verb ("should be treated",
# "may be lower in case of X", "to be assessed", "being hospitalized"), or is a framing verb
# alone: the sentence was cut in the wrong place, and the piece names nothing
_CLAUSE_OPENING = re.compile(
    r"^(?:which|that|those|these|this|whose|so\s+that|should|could|can|may|must|might|would|"
    # ("… and are not recommended": a second framing verb, left alone by the cut)
    r"will|shall|to\s+be|being)\b|^(?:not\s+)?(?:recommended|considered|indicated)$",
    re.IGNORECASE,
)
# a preposition left at a span's start once the phrase it opened was read apart ("on
# exercise test", "in the supine position", "after echocardiography"): not part of the name
_DANGLING_START = re.compile(
    r"^(?:in\s+the|on(?:\s+(?:an?|the))?|of(?:\s+the)?|after)\s+(?=\w)", re.I
)
_DANGLING_END = re.compile(
    r"(?:\s+(?:of|in|to|that|with|for|either|is|are|be|has|have|the|a|an|on|by|at|as|and|or|"
    r"beyond|until|than|based\s+on|due|attributable|secondary|caused|owing))+$",
    re.IGNORECASE,
)
# a recommending or framing verb inside a span ("open repair should be considered", "X is
# used in combination with Y"): the sentence was cut in the wrong place; the concept is
# what comes before the verb
_FRAMING_INSIDE = re.compile(
    r"\s+(?:is|are|should|may|must|can|could|might|will)\s+(?:not\s+|also\s+|then\s+)?"
    r"(?:be\s+)?(?:recommended|indicated|considered|used|performed|given|repeated|treated|"
    r"deferred|based|transferred|associated|preferred|undertaken)\b.*$"
    # ("; VKAs are the anticoagulant of choice", "in whom X remains the drug of choice": a
    # second clause naming what is chosen; the concept is what is chosen)
    rf"|\s+{OF_CHOICE}.*$",
    re.IGNORECASE | re.DOTALL,
)
# a modal verb with its verb inside a span ("X should stay active", "X will trigger Y"): a
# clause of its own the sentence rules did not see; the concept is its subject
# (written in lower case: "diabetic CAN" is an abbreviation, "a living will" a noun; and the
# next word must be a verb's, never a connective)
_MODAL_INSIDE = re.compile(
    r"\s+(?:should|may|must|can|cannot|could|might|will|would)\s+(?:not\s+|also\s+|only\s+)?"
    r"(?!(?:and|or|with|of|in|for|to|the|a|an)\b)[a-z]+\b.*$",
    re.DOTALL,
)
# an act on a lesion whose value went to a parameter ("stenting of symptomatic ⟦P0⟧"): the
# state is the patient's
_ACT_ON_A_STATE = re.compile(r"^(?P<act>.*\w)\s+(?:of|in)\s+(?P<state>a?symptomatic)$", re.I)
# an act named with the lesions it treats ("PCI of bifurcation lesions")
_ACT_ON_LESIONS = re.compile(
    r"^(?P<act>(?:[\w-]+\s+){0,3}[\w-]+)\s+of\s+(?:(?:the|a|an)\s+)?"
    r"(?P<lesions>(?:[\w-]+\s+){0,3}lesions?)$",
    re.IGNORECASE,
)
_CLAUSE_WORD = re.compile(r"\b(?:that|which|who|whom|whose|whether|where|when|if)\b", re.I)
# a relative clause with its own verb ("pacemakers that are switched off before surgery", "a
# variant which explains the phenotype") ends the concept it describes
_RELATIVE_TAIL = re.compile(
    r"\s+(?:that|which)\s+(?:(?:are|is|was|were|have|has|had|may|might|can|cannot|could|will|"
    r"would|do|does|did|should|must)\b|[a-z]+s\b).*$",
    re.IGNORECASE | re.DOTALL,
)
# kinds named only by their clause ("drugs that may aggravate X", "therapies that may cause
# HF"): the clause is the name
_DEFINED_BY_CLAUSE = frozenset(
    "drug drugs agent agents medication medications therapy therapies treatment treatments "
    "substance substances factor factors condition conditions activity activities sport "
    "sports practice practices".split()
)
_ONLY_PATIENTS = re.compile(
    r"\s*(?:(?:the|all|most|these|those)\s+)?(?:patients?|individuals?|people|persons?)\s*",
    re.IGNORECASE,
)
# the patients as a generic head after what names them ("high-risk patients", "STEMI
# patients") or after an act done to them ("monitoring of patients"): the contract drops it
_PATIENTS_TAIL = re.compile(r"\s+(?:of\s+(?:the\s+)?)?patients?$", re.IGNORECASE)
_LEADING_ALL = re.compile(r"^(?:all|the|these|those)\s+", re.IGNORECASE)
# a coordinator left alone once its dangling end goes ("either a" -> "either")
_COORDINATORS = frozenset({"either", "both", "neither"})


def _cut_inner_clause(d: Draft, clause: re.Pattern[str]) -> bool:
    """End the draft where ``clause`` (a verb the sentence rules missed) starts; the concept
    is the words before it. False when those words name only the patients, unless the draft
    is the recommended act, which is only trimmed, never dropped."""
    found = clause.search(d.text)
    if found is None or not re.search(r"[A-Za-z]{3}", d.text[: found.start()]):
        return True
    if _ONLY_PATIENTS.fullmatch(d.text[: found.start()]) and d.slot != "action":
        return False
    d.text = d.text[: found.start()]
    d.normalized = clause.sub("", d.normalized)
    return True


# words that, as a whole concept, stand for something the row names elsewhere: pronouns,
# and bare class words (which may still be offered as one alternative)
_PRONOUNS = frozenset("they them it everyone anyone everybody anybody each both either".split())
# a function word or a bare qualifier left alone when the rest of its phrase went elsewhere
# ("from", "not", "daily", "severe", "recurring"): alone it names no state of the patient
QUALIFIER_ALONE = GRADE_WORDS | frozenset(
    """from not already daily single specific oral safe acute resting recurring repetitive
    growing changing tapering customized eligible trained initial early late selected
    appropriate suitable estimated calculated predicted""".split()
)
_NAMES_NOTHING = _PRONOUNS | frozenset(
    "agent agents drug drugs medication medications medicine medicines".split()
)


# an amount of time alone, with its bound or its place in a sequence ("at least 5 days", "30
# days to 3 months", "the first month"): what is left of a duration or a window whose event
# the rules read apart; no disease, act or outcome
_ONLY_AN_AMOUNT_OF_TIME = re.compile(
    r"(?:(?:at\s+(?:least|most)|up\s+to|about|(?:more|less)\s+than|over|under|(?:the\s+)?"
    r"(?:first|preceding|previous|past|last))\s+)?(?:\d+(?:\s*(?:[-–]|to)\s*\d+)?\s*)?"
    r"(?:days?|weeks?|months?|years?|h|hours?|min(?:utes)?)"
    r"(?:\s*(?:to|[-–])\s*\d+\s*(?:days?|weeks?|months?|years?|h|hours?))?",
    re.IGNORECASE,
)


# a grade said of a measure or a state after its copula ("bleeding risk is high",
# "natriuresis remains insufficient"): named with the grade before it, as the golds do
_GRADE_WORD = (
    r"(?:very\s+)?(?:high|low|moderate|mild|intermediate|elevated|raised|increased|reduced|"
    r"decreased|impaired|normal|abnormal|preserved|adequate|inadequate|insufficient|severe|"
    # ("if compression ultrasound is negative": a negative test, as the golds name it)
    r"positive|negative|unclear|uncertain|unknown)"
)
# (one grade or a range of two: "risk is high or very high")
# ("bleeding risk is not high": the graded state, absent)
_GRADED_PREDICATE = re.compile(
    r"(?P<what>(?:[\w-]+\s+){0,3}[\w-]+)\s+(?:is|are|was|were|remains?|stays?|"
    r"(?:has|have)\s+been)\s+(?P<not>not\s+)?"
    rf"(?P<grade>{_GRADE_WORD}(?:\s+or\s+{_GRADE_WORD})?)"
    # ... or a change it has come through ("once troponin has normalised", "symptoms have
    # resolved"): named with the change before it, "normalised troponin"
    r"|(?P<changed_what>(?:[\w-]+\s+){0,3}[\w-]+)\s+(?:has|have)\s+(?P<unchanged>not\s+)?"
    r"(?P<change>"
    r"normali[sz]ed|resolved|recovered|stabili[sz]ed|regressed)",
    re.IGNORECASE,
)
# a participle left alone once the rules took its subject away ("ideally performed within
# 14 days"); a lone grade word stays: it can be the span of the first of two grades sharing
# one noun ("very high/high CV risk")
_NO_CONCEPT_ALONE = re.compile(
    r"performed|done|undertaken|started|initiated|assessed|predicted|measured|repeated|"
    r"re-?evaluated|considered|used|given|preferred|planned|"
    # (the verb of a state a measure took the words of: "NYHA class III symptoms persist")
    rf"{PERSIST_WORDS}",
    re.IGNORECASE,
)


# a short piece that holds a pronoun ("used them", "if they fail", "it merely"): a clause
# about something the row names elsewhere, no concept of its own
_PRONOUN_PHRASE = re.compile(
    r"(?=(?:\S+\s+){0,2}(?:they|them|it)\b)(?:\S+\s+){0,2}\S+", re.IGNORECASE
)
# ... unless it says the patients cannot take or refuse it ("cannot tolerate them", "refuse
# it"): a criterion, whatever "it" stands for
_REFUSED_OR_UNTOLERATED = re.compile(
    r"\b(?:cannot|can't|unable|not|refus\w*|declin\w*|afford\w*|intoleran\w*|"
    r"contraindicat\w*)\b",
    re.IGNORECASE,
)
# a remark whose subject is a pronoun ("(though) it remains an option", "it offers no
# benefit", "if it can be delivered in time"): said of what the row names elsewhere, no
# concept ("if they carry a variant", "if it leads to instability", "it is expected to be
# tolerated": criteria said of it, kept)
_PRONOUN_CLAUSE = re.compile(
    r"^(?:(?:though|although|as|since|because|but|and)\s+)?(?:it|they)\s+(?:remains?|"
    r"offers?|provides?|(?:can|could|may|might|will|would)\s+be\s+(?:delivered|given|"
    r"performed|done|used|offered|repeated|achieved|started))\b",
    re.IGNORECASE,
)
# a place or a time the act is done at ("at an experienced centre", "at any contact", "at
# 24 h", "at rest", "at day 6"): where or when, no concept ("at risk of", "at least" read
# elsewhere; lower case, so the abbreviation "AT" stays; "at the end of pregnancy", "at the
# evaluation of athletes" name something after "of" and are left to the rules before)
_AT_A_PLACE_OR_TIME = re.compile(
    r"^at\s+(?:(?:an?|the|any|every|each)\s|\d|rest\b|centres?\b|day\b)(?!.*\bof\b)"
)
# ("their relatives", "its size": the thing itself, whoever it belongs to)
_POSSESSIVE = r"^(?:their|its)\s+"
_POSSESSIVE_LEAD = re.compile(rf"{_POSSESSIVE}(?=\S)", re.IGNORECASE)


def without_fragments(drafts: list[Draft]) -> list[Draft]:
    """Clause pieces are no concepts: one that opens like a clause is dropped, one that ends
    on a dangling word loses it (the span stays verbatim: only its end moves). Parameters
    keep what the rules gave them, and the recommended act is only trimmed, never dropped."""
    kept = []
    acts = sum(d.slot == "action" for d in drafts)
    for d in drafts:
        if d.role == "ClinicalParameter":
            kept.append(d)
            continue
        if _CLAUSE_OPENING.match(d.text) and d.slot != "action":
            continue
        relative = _RELATIVE_TAIL.search(d.text)
        head = d.text[: relative.start()].split()[-1].lower() if relative else ""
        if relative and re.search(r"[A-Za-z]{3}", head) and head not in _DEFINED_BY_CLAUSE:
            # "hypotension that reproduces the symptoms": the clause says more about it
            d.text = d.text[: relative.start()]
            d.normalized = _RELATIVE_TAIL.sub("", d.normalized)
        # "When patients are treated with X": the patients name nothing
        if not _cut_inner_clause(d, _FRAMING_INSIDE):
            continue
        if not _CLAUSE_WORD.search(d.text) and not _cut_inner_clause(d, _MODAL_INSIDE):
            continue  # ("sports that may affect X": the clause is its name)
        head = _PATIENTS_TAIL.search(d.text)
        kept_words = d.text[: head.start()] if head else ""
        # ("bridging of anticoagulated patients": the patients are named by the state)
        if (
            head
            and re.search(r"[A-Za-z]{3}", kept_words)
            and not re.search(r"\bof\s+\S+$", kept_words)
        ):
            d.text = _LEADING_ALL.sub("", kept_words)
            d.normalized = _LEADING_ALL.sub("", _PATIENTS_TAIL.sub("", d.normalized))
        opening = _DANGLING_START.match(d.text)
        if opening and d.slot != "action":
            d.text = d.text[opening.end() :]
            d.normalized = _DANGLING_START.sub("", d.normalized)
        last = d.text.split()[-1] if d.text.split() else ""
        # "valvular AS": a function word written in capitals is an abbreviation, no end
        trimmed = d.text if len(last) > 1 and last.isupper() else _DANGLING_END.sub("", d.text)
        if trimmed != d.text:
            if not re.search(r"[A-Za-z]{3}", trimmed) or trimmed.lower() in _COORDINATORS:
                continue
            d.text = trimmed
            d.normalized = _DANGLING_END.sub("", d.normalized)
        graded = _GRADED_PREDICATE.fullmatch(d.normalized)
        if graded and graded["change"]:  # "troponin has normalised": "normalised troponin"
            d.normalized = f"{graded['change'].lower()} {graded['changed_what']}"
            d.negated = d.negated != bool(graded["unchanged"])  # "… has not resolved"
        elif graded:
            # "(unless) bleeding risk is high": named "high bleeding risk", span as printed
            d.normalized = f"{graded['grade'].lower()} {graded['what']}"
            d.negated = d.negated != bool(graded["not"])  # "… is not high": turned round
        only_time = _ONLY_AN_AMOUNT_OF_TIME.fullmatch
        bare = only_time(d.text) or only_time(d.normalized) or _NO_CONCEPT_ALONE.fullmatch(d.text)
        if bare and (d.slot != "action" or acts > 1):
            acts -= d.slot == "action"
            continue  # "at least 5 days", "performed": how long or that it is done
        if (
            d.role == "Condition"
            and d.slot != "action"
            and not d.or_group  # "recurring or repetitive episodes": an alternative, kept
            and d.normalized.lower() in QUALIFIER_ALONE
        ):
            continue
        if d.normalized.lower() == "management" and d.role == "Procedure":
            # "management according to the ESC guidelines", "advice and management": the
            # word names no act of its own, even alone ("management of X" is named by X)
            acts -= d.slot == "action"
            continue
        if (
            d.normalized.lower() in _NAMES_NOTHING
            and (d.slot != "action" or acts > 1)
            and not (d.or_group and d.normalized.lower() not in _PRONOUNS)
        ):
            # "they should be anticoagulated", "either agent plus X", "the following drugs
            # are not recommended: A; B": a pronoun or a bare class word stands for what the
            # row names elsewhere (a row's only act is kept, as below, and so is a class word
            # offered as one alternative: "drugs or catheter ablation")
            acts -= d.slot == "action"
            continue
        if (
            d.slot != "action"
            and (
                _PRONOUN_PHRASE.fullmatch(d.text)
                or _PRONOUN_CLAUSE.match(d.text)
                or _AT_A_PLACE_OR_TIME.match(d.text)
            )
            and not _REFUSED_OR_UNTOLERATED.search(d.text)
        ):
            # "used them", "if they fail", "calls for it": what they stand for is named; a
            # remark about it or where and when the act is done names nothing
            continue
        owned = _POSSESSIVE_LEAD.match(d.text) if d.slot != "action" else None
        if owned and d.text[owned.end() :].lower() == "own":
            continue  # "(used) on their own": alone, no concept
        if owned:  # "their relatives": the relatives
            d.text = d.text[owned.end() :]
            d.normalized = re.sub(_POSSESSIVE, "", d.normalized, flags=re.IGNORECASE)
        lesion = (
            _ACT_ON_LESIONS.match(d.text)
            if d.slot in ("context", "purpose") and d.role == "Procedure" and not d.or_group
            else None
        )
        if lesion:
            # "(devices are recommended) for PCI of SVG lesions": what it is for is the act,
            # and the lesions are the patients' (the recommended act itself, "revascularization
            # of non-culprit lesions", keeps its name)
            act_name, _, lesions_name = d.normalized.rpartition(" of ")
            d.text, d.normalized = lesion["act"], act_name
            lesions_name = re.sub(r"^(?:the|a|an)\s+", "", lesions_name)
            kept += [d, Draft("Condition", lesion["lesions"], lesions_name, "cohort")]
            continue
        treated_state = _ACT_ON_A_STATE.match(d.text) if d.slot == "action" else None
        if treated_state:
            # "endarterectomy of symptomatic 70-99% stenosis": the stenosis went to its
            # value; whether it gives symptoms is the patient's state, not part of the act
            d.text, state = treated_state["act"], treated_state["state"]
            d.normalized = _ACT_ON_A_STATE.sub(r"\g<act>", d.normalized)
            kept += [d, Draft("Condition", state, state.lower(), "cohort", polarity=d.polarity)]
            continue
        kept.append(d)
    return kept
