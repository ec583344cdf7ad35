"""How a cohort phrase becomes drafts (a mixin of LexiconExtractor, under PhraseRules): the
words before the patient noun (groups of people, states, ages, levels of sport) and the
typed segments after it ("with A who are B, treated with C, undergoing D"), each read as a
phrase by PhraseRules. Split from phrases.py along this seam.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from cardio_assets.logic.abbreviations import singular_head
from cardio_assets.logic.ellipsis import LIFE_STAGE_MODIFIERS
from cardio_assets.logic.lexicon.drafts import Draft, _negate, new_group_label
from cardio_assets.logic.lexicon.phrase_groups import _outside_brackets
from cardio_assets.logic.lexicon.phrase_patterns import _ANOTHER_GROUP, _ARRIVAL, _NEED
from cardio_assets.logic.lexicon.post_markers import _depth_at
from cardio_assets.logic.lexicon.segments import _cohort_segments, group_abbreviation
from cardio_assets.logic.lexicon.sentences import _ABSENCE_LEAD, _COHORT_LEAD
from cardio_assets.logic.lexicon.sex_values import _SEX_WORD
from cardio_assets.logic.lexicon.vocabulary import (
    _COHORT_DETERMINERS,
    _PATIENT_NOUN,
    _PATIENT_WORDS,
    DEMOGRAPHIC_NOUN,
    DEMOGRAPHIC_STATE,
)
from cardio_assets.logic.measurement_units import UNIT_RE

if TYPE_CHECKING:
    from cardio_assets.logic.abbreviations import Abbreviations

# an adverb of a cohort determiner ("carefully selected"), never a word that only ends like
# one ("elderly", "early", "daily", "family")
_DETERMINER_ADVERB = re.compile(
    r"very|(?!(?:elderly|early|daily|weekly|monthly|yearly|family|only|likely)$)[a-z]{3,}ly",
    re.IGNORECASE,
)

# an age word before the generic patient noun names a group of people ("older patients")
_AGE_WORDS = frozenset({"older", "young"})

# a sex written after other words before the patient noun ("high-risk female patients")
_SEX_WORDS = frozenset({"female", "male"})

# how seriously people take part in sport: "competitive and recreational athletes" are two
# groups ("older and frail adults" are adults who are both)
_LEVEL = r"(?:competitive|recreational|professional|amateur|elite|leisure(?:-time)?)"

# stages of life before a noun for people they share ("childhood and adolescent CS")
_LIFE_STAGE = rf"(?:{'|'.join(sorted(LIFE_STAGE_MODIFIERS))})"

# a symptom state that stands alone as a condition when it opens a stack of words before
# the patient noun ("asymptomatic high-risk patients"); a plain stack has no list in it
_STATE_WORD = r"(?:a)?symptomatic|(?:un)?stable"
_STANDALONE_STATE = re.compile(_STATE_WORD, re.IGNORECASE)
_STATE_OR_GRADE = re.compile(
    rf"(?:{_STATE_WORD}|(?:(?:very|early|late)\s+)?(?:high|low|moderate|"
    r"intermediate|increased)[\s\-]+risk)\b",
    re.IGNORECASE,
)
_PLAIN_STACK = re.compile(r"[\w\-]+(?:\s+(?!(?:and|or|and/or)\b)[\w\-]+)*", re.IGNORECASE)

# "first-degree relatives of patients with BAV", "FDRs of all AAA patients": the people the
# row is for are the relatives, and the disease is their relative's, not theirs; so the
# group is one condition named whole (the golds name it so), never the disease alone
# (the patients may have words of their own in lower case, "young patients with X", and
# the disease a list, "with HCM or DCM"; in "BAV patients with Y" the disease is BAV, and Y
# is read after the group as the relatives' own)
_RELATIVES_OF = re.compile(
    r"^(?P<who>(?P<kin>(?:first|second|1st|2nd)-degree\s+(?:relatives?|family\s+members?)|"
    r"FDRs?|siblings|offspring)\s+of\s+(?:all\s+|the\s+|an?\s+)?"
    rf"(?:(?:(?-i:[a-z][a-z\-]*)\s+){{0,2}}?(?:{_PATIENT_WORDS})\s+with\s+(?:an?\s+|the\s+)?"
    r"(?P<disease>[^,;()]+?)"
    r"|(?P<disease_first>[^,;()]+?)\s+patients))"
    r"(?=\s*$|\s*[,;(]|\s+(?:aged|who|whose|with|unless|if|when|in)\b)",
    re.IGNORECASE,
)

# one disease of the relative's list ("HCM or DCM", "TAA, or dissection"); "and" stays in it
_DISEASE_ALTERNATIVE_SPLIT = re.compile(r"(?P<one>.+?)(?:,?\s+(?:or|and/or)\s+|,\s*|$)", re.I)

_OTHER_DEMOGRAPHIC = re.compile(
    rf"\s*,?\s*(?:and|or|and/or)\s+(?P<group>(?:(?:{DEMOGRAPHIC_STATE.pattern})\s+)?"
    rf"(?:{DEMOGRAPHIC_NOUN.pattern}))\b",
    re.IGNORECASE,
)


# a value written just before "in men" / "in women": given for that sex only
# (a bound of a quantity: a sign, or "of" / "score" before the number, and a unit if any;
# not "at age 12 in men", "≥3 stents in women")
_VALUE_BEFORE_SEX = re.compile(
    rf"(?:[<>≤≥]=?|\bof|\bscore)\s*\d+(?:[.,]\d+)?\s*(?:{UNIT_RE})?"
    r"(?:\s+or\s+(?:more|higher|greater|above|less|lower|below))?$",
    re.I,
)


def _said(draft: Draft) -> tuple[str, str | None, tuple[float, ...]]:
    """What a draft says: its name and, for a parameter, its bound ("QRS ≥150 ms" and "QRS
    130–149 ms" are two states of one quantity)."""
    bound = draft.threshold
    values = tuple(bound) if isinstance(bound, list) else (() if bound is None else (bound,))
    return draft.normalized.lower(), draft.operator, values


class CohortRules:
    """The cohort reader of the lexicon extractor (it reads the extractor's abbreviations and
    its sibling mixins' phrase reader and terminology lookup)."""

    abbreviations: Abbreviations

    if TYPE_CHECKING:  # borrowed from PhraseRules and RoleRules

        def _phrase(self, text: str, slot: str, group_counter: list[int]) -> list[Draft]: ...

        def _is_known_term(self, phrase: str) -> bool: ...

    def _relatives_of(
        self, relatives: re.Match[str], negated: bool, group_counter: list[int]
    ) -> list[Draft]:
        """The relatives' group, one per disease of their relative ("relatives of patients
        with HCM or DCM": a relative of an HCM patient or of a DCM patient, alternatives;
        the span of each after the first is its disease alone)."""
        kin = singular_head(self.abbreviations.normalize(relatives["kin"]))
        field = "disease" if relatives["disease"] else "disease_first"
        start = relatives.start(field)
        diseases = list(_DISEASE_ALTERNATIVE_SPLIT.finditer(relatives[field]))
        drafts = []
        for i, found in enumerate(diseases):
            named = f"{kin} of a patient with {self.abbreviations.normalize(found['one'])}"
            span = relatives.string[: start + found.end("one")] if i == 0 else found["one"]
            if i == 0 and field == "disease_first":
                span = relatives["who"]  # "FDRs of AAA patients": the patients named after
            drafts.append(Draft("Condition", span, named, "cohort", negated=negated))
        if len(drafts) > 1:
            label = new_group_label(group_counter)
            for d in drafts:
                d.or_group = label
        return drafts

    def _cohort(self, text: str, group_counter: list[int]) -> list[Draft]:
        """Cohort phrase: pre-modifiers before the patient noun, then typed segments."""
        text = text.strip(" ,;.")
        negate_all = False
        absence = _ABSENCE_LEAD.match(text)
        if absence:
            text, negate_all = text[absence.end() :], True
        lead = _COHORT_LEAD.match(text)
        if lead:
            text = text[lead.end() :]
        # ("every woman with X": the determiner only says the row is for each of them)
        text = re.sub(r"^(?:every|each)\s+(?=\w)", "", text, flags=re.IGNORECASE)
        relatives = _RELATIVES_OF.match(text)
        if relatives:
            rest = text[relatives.end() :].strip(" ,;")
            groups = self._relatives_of(relatives, negate_all, group_counter)
            return [*groups, *(self._cohort(f"those {rest}", group_counter) if rest else [])]
        noun = _PATIENT_NOUN.search(text)
        named_group = None if noun else group_abbreviation(text, self.abbreviations.lookup)
        noun = noun or named_group  # "adult CS": the abbreviation is the group of people
        premod_drafts: list[Draft] = []
        premod_words: list[str] = []
        if noun is not None and _depth_at(text, noun.start()) == 0:
            premod_words = text[: noun.start()].split()
            # ("(very) carefully selected patients": the adverbs of a determiner go with it)
            adverbs = 0
            while adverbs < len(premod_words) - 1 and _DETERMINER_ADVERB.fullmatch(
                premod_words[adverbs]
            ):
                adverbs += 1
            if adverbs and premod_words[adverbs].lower() in _COHORT_DETERMINERS:
                del premod_words[:adverbs]
            while premod_words and premod_words[0].lower() in _COHORT_DETERMINERS:
                premod_words.pop(0)
            if len(premod_words) > 1 and premod_words[-1].lower() == "in":
                before = " ".join(premod_words[:-1])
                if _VALUE_BEFORE_SEX.search(before) and _SEX_WORD.fullmatch(noun.group(0)):
                    # "AF with a score of ≥2 in men": the value is the one for that sex, and
                    # the words before are the patients' own (their disease, the quantity)
                    premod_drafts += self._cohort(before, group_counter)
                else:
                    # "catheter ablation in patients with AF": the procedure the row is
                    # about, done in those patients, not a word describing them
                    premod_drafts += self._phrase(before, "context", group_counter)
                premod_words = []
            # "patients admitted with AHF", "presenting with syncope": how they came, then what
            rest = _ARRIVAL.sub("", text[noun.end() :])
            if noun.group(0).lower() == "cases" and re.match(r"\s+of\s+[^,;]+,", rest):
                # "in cases of A, B, and C": any one of the cases, whatever the last word
                rest = re.sub(r",?\s+and\s+(?=[^,;]*$)", ", or ", rest, count=1)
            if (
                len(premod_words) > 2
                and premod_words[0].lower() in _SEX_WORDS
                and premod_words[2].lower() in ("and", "or")
            ):
                # "female childhood and adolescent CS", "male HCM or DCM patients": a sex
                # before two things coordinated before the noun is a group of its own, said
                # of both (the golds name it apart), not a word of the first
                sex_first = premod_words.pop(0)
                premod_drafts.append(Draft("Condition", sex_first, sex_first.lower(), "cohort"))
            group = DEMOGRAPHIC_NOUN.fullmatch(noun.group(0)) or named_group
            people = group or noun.group(0).lower() in ("people", "persons")
            if (
                named_group
                and premod_words
                and premod_words[-1].lower() == "adult"
                # ("adolescent and adult CS": "adult" is no group of its own there)
                and not (len(premod_words) > 1 and premod_words[-2].lower() in ("and", "or"))
            ):
                premod_words.pop()  # "adult CS": adults, and cancer survivors
                premod_drafts.append(Draft("Condition", "adult", "adults", "cohort"))
            if people and premod_words and DEMOGRAPHIC_STATE.fullmatch(premod_words[-1]):
                # "pregnant women", "older adults", "older people": one group of people ("older
                # patients": "patients" is the generic head the contract drops, and the age
                # word names the group, _AGE_WORDS below)
                premod_words, phrase = premod_words[:-1], f"{premod_words[-1]} {noun.group(0)}"
                group = True
            else:
                phrase = noun.group(0)
            coordinated = group and re.fullmatch(
                rf"[a-z][a-z\-]+(?:\s+or\s+|\s*/\s*)[a-z][a-z\-]+|{_LEVEL}\s+and\s+{_LEVEL}"
                rf"|{_LIFE_STAGE}\s+and\s+{_LIFE_STAGE}",
                " ".join(premod_words),
                flags=re.IGNORECASE,
            )
            if coordinated:
                # "competitive or professional athletes", "childhood and adolescent CS": two
                # groups of people sharing the noun, either of them (the contract distributes
                # a shared head; no one is of two stages of life)
                premod_words, group = [], False
                premod_drafts += self._phrase(
                    f"{coordinated.group(0)} {phrase}", "cohort", group_counter
                )
            # (pops from premod_words itself: what is left is read as one phrase below)
            stack = premod_words if _PLAIN_STACK.fullmatch(" ".join(premod_words)) else []
            while (
                len(stack) > 1
                and _STANDALONE_STATE.fullmatch(stack[0])
                and _STATE_OR_GRADE.match(" ".join(stack[1:]))
            ):
                # "asymptomatic high-risk patients", "stable symptomatic patients": a symptom
                # state written before a risk grade or another state is a state of its own
                # (the golds name each); before a disease it stays in the disease's name
                premod_drafts += self._phrase(stack.pop(0), "cohort", group_counter)
            sex = (
                premod_words.pop()
                if len(premod_words) > 1
                and premod_words[-1].lower() in _SEX_WORDS
                # "premenopausal female patients": one group of people, named whole
                and not DEMOGRAPHIC_STATE.fullmatch(premod_words[-2])
                and not premod_words[-2].lower().endswith("menopausal")
                and premod_words[-2].lower() not in {"transgender", "trans", "cisgender"}
                else None
            )
            aged = (
                premod_words.pop()
                if len(premod_words) > 1 and premod_words[-1].lower() in _AGE_WORDS
                else None
            )  # "sedentary older patients": sedentary, and older people (two groups)
            if premod_words:
                premod_drafts += self._phrase(" ".join(premod_words), "cohort", group_counter)
                age = premod_drafts[-1] if premod_drafts else None
                if age is not None and age.normalized.lower() in _AGE_WORDS:
                    # "older patients": the group of people of that age (the contract's
                    # "older people"); the span stays the word printed
                    age.normalized = f"{age.normalized.lower()} people"
            if aged is not None:
                premod_drafts.append(Draft("Condition", aged, f"{aged.lower()} people", "cohort"))
            if sex is not None:
                # "high-risk female survivors": the sex is a group of its own beside the
                # risk (the contract's demographic groups), not part of the risk's name
                premod_drafts.append(Draft("Condition", sex, sex.lower(), "cohort"))
            if group:  # the contract: a demographic group restricts who the row is for
                named = self.abbreviations.normalize(phrase) if named_group else phrase.lower()
                premod_drafts.append(Draft("Condition", phrase, named, "cohort"))
                other = _OTHER_DEMOGRAPHIC.match(rest)
                if other:
                    # "men and women with diabetes", "older adults or children": a second
                    # group sharing what follows, either of them (the contract, §6)
                    rest = rest[other.end() :]
                    label = new_group_label(group_counter)
                    premod_drafts[-1].or_group = label
                    premod_drafts.append(
                        Draft("Condition", other["group"], other["group"].lower(), "cohort")
                    )
                    premod_drafts[-1].or_group = label
        else:
            rest = " with " + text
        # "patients with A and patients with B", "… with A or those with B": two patient
        # groups the row applies to, either of them (the contract: a distributive "and" over
        # patient groups is an OR)
        rest = _ANOTHER_GROUP.sub(lambda m: " or at " if m["at"] else " or ", rest)
        # each segment's kind, text and drafts
        seg_drafts: list[tuple[str, str, list[Draft]]] = []
        for kind, segment in _cohort_segments(rest):
            alternative = kind.startswith("or ")
            kind = kind.removeprefix("or ")
            slot = {"background": "background", "procedure": "context"}.get(kind, "cohort")
            drafts = self._phrase(segment, slot, group_counter)
            if kind == "procedure" and len(drafts) == 1:
                # "undergoing / requiring X": X is done, even where the terminology lacks it
                # (a need kept whole, "requirement for X", is the patients' state)
                (done,) = drafts
                if (
                    done.role == "Condition"
                    and not _NEED.match(done.normalized)
                    and not self._is_known_term(done.text)
                ):
                    done.role = "Procedure"
            if kind == "without":
                _negate(drafts)
            # "with A despite / refractory to T, or with B": the alternative of B is A, the
            # state; T is only what A persists on. Likewise "with A without C, or with B": C
            # is absent with A only, and the alternatives are A and B
            said_of_a = {"background"} if kind == "without" else {"background", "without"}
            previous = len(seg_drafts) - 1
            if (
                previous > 0
                and seg_drafts[previous][0] in said_of_a
                and seg_drafts[previous - 1][0] not in said_of_a
            ):
                previous -= 1
            if alternative and seg_drafts and seg_drafts[previous][2] and drafts:
                # "with A, or who are B": A or B, one label (A keeps its own, if it has one);
                # A is the segment's own last concept, not an example in its brackets ("with
                # CVD (e.g. CAD or PAD), or with diabetes": CVD or diabetes)
                _, before, before_drafts = seg_drafts[previous]
                candidates = [d for d in before_drafts if not d.test_of_finding]
                outside = [d for d in candidates if _outside_brackets(d.text, before)]
                # (not a state said again after the "or": it holds for both)
                said_after = {_said(d) for d in drafts}
                own = [d for d in (outside or candidates) if _said(d) not in said_after]
                last = (own or outside or candidates)[-1]
                label = (
                    last.or_group
                    or next((d.or_group for d in drafts if d.or_group), None)
                    or new_group_label(group_counter)
                )
                # "with A or B, or with C or D": a list the alternative opens is more of
                # the same alternatives, one label (not a list nested inside it: "or with C
                # and D or E" keeps its own)
                opened = drafts[0].or_group if drafts[0].or_group != label else None
                # ("or who have B plus C": C is said with B only; flat labels name B the
                # alternative, and C keeps its own. A state said again in both alternatives,
                # "with severe AS and X, or with severe AS and Y", is no alternative: the
                # first new one is)
                said_before = {_said(d) for d in before_drafts}
                first = next((d for d in drafts if _said(d) not in said_before), drafts[0])
                joined = [d for d in drafts if d is first or (opened and d.or_group == opened)]
                for d in (last, *joined):
                    d.or_group = label if opened and d.or_group == opened else d.or_group or label
            seg_drafts.append((kind, segment, drafts))
        if negate_all:
            _negate(premod_drafts)
            for *_, drafts in seg_drafts:
                _negate(drafts)
        out = list(premod_drafts)
        for *_, drafts in seg_drafts:
            out.extend(drafts)
        return out
