"""The phrases after a recommendation's act (a mixin of LexiconExtractor): each trailing
phrase post_markers.py marked ("in patients with …", "to reduce …", "for the detection of …",
"in experienced centres", "unless …") read into drafts by its kind: what the act is for,
whom it is for and what goes with it, after the act itself is read.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from cardio_assets.logic.lexicon.acts import group_listed_indications
from cardio_assets.logic.lexicon.drafts import Draft, share_or_label, turned_round
from cardio_assets.logic.lexicon.parameters import measured_parameter
from cardio_assets.logic.lexicon.phrase_patterns import _THERAPY_BESIDE
from cardio_assets.logic.lexicon.post_markers import VALUE_OF
from cardio_assets.logic.lexicon.segments import group_abbreviation
from cardio_assets.logic.lexicon.sentences import _COHORT_LEAD, _top_level_search
from cardio_assets.logic.lexicon.vocabulary import _PATIENT_NOUN
from cardio_assets.logic.measurements import find_measurements

if TYPE_CHECKING:
    from cardio_assets.logic.abbreviations import Abbreviations

# "stroke in AF": an aim named with the patients it is pursued in (not a change "in" what
# is measured: "a reduction in LDL-C", "an increase in exercise")
_OUTCOME_AMONG = re.compile(
    r"(?<![\w-])(?P<what>\w+)\s+in\s+(?!(?:the|a|an|their|its|patients|people|individuals|those)\b)"
    r"(?P<who>[^,;()]+)$",
    re.IGNORECASE,
)
_CHANGE_NOUN = re.compile(
    r"(?:increase|decrease|reduction|improvement|change|rise|fall|decline|drop|gain|loss)e?s?$",
    re.IGNORECASE,
)


# what an aim looks for, and where a work-up goes on to what the patients lack
_SOUGHT = ("ClinicalParameter", "Condition")
_ABSENT_AFTER = re.compile(r"\s(?=(?:without|in\s+the\s+absence\s+of)\s)", re.I)


class PostPhraseRules:
    """The trailing-phrase reader of the lexicon extractor (it reads its sibling mixins'
    phrase, cohort, act and clause readers and its terminology evidence)."""

    abbreviations: Abbreviations

    if TYPE_CHECKING:  # borrowed from PhraseRules, RoleRules, ClauseRules and ActRules

        def _phrase(self, text: str, slot: str, group_counter: list[int]) -> list[Draft]: ...

        def _cohort(self, text: str, group_counter: list[int]) -> list[Draft]: ...

        def _action(self, text: str, group_counter: list[int], slot: str = ...) -> list[Draft]: ...

        def role_evidence(self, phrase: str, slot: str) -> str | None: ...

        def _clause_drafts(
            self, kind: str, phrase: str, group_counter: list[int]
        ) -> list[Draft] | None: ...

        def _conditions_with(self, what: str, group_counter: list[int]) -> list[Draft] | None: ...

    def _post_phrase(
        self, kind: str, phrase: str, group_counter: list[int], *, after_test: bool = False
    ) -> list[Draft]:
        """The drafts of one trailing phrase; ``after_test``: the recommended act is a test,
        so a "for A, B and C" after it lists what it looks at, not alternatives."""
        if kind == "drop":
            return []
        if kind.startswith(VALUE_OF):  # the second group's value, printed without its name
            name = self.abbreviations.normalize(kind[len(VALUE_OF) :])
            return [
                Draft.of_parameter(measured_parameter(phrase[m.start : m.end], name, m), "context")
                for m in find_measurements(phrase)[:1]
            ]
        in_group = re.match(r"in\s+", phrase, re.I) if kind == "context" else None
        if kind == "cohort" or (
            in_group and group_abbreviation(phrase, self.abbreviations.lookup) is not None
        ):
            # ("in adult CS": a group of people named by an abbreviation, a cohort)
            return self._cohort(phrase[in_group.end() :] if in_group else phrase, group_counter)
        if kind == "outcome":
            among = _OUTCOME_AMONG.search(phrase)
            if (
                among
                and not _CHANGE_NOUN.match(among["what"])
                and self.role_evidence(among["who"], "context") == "Condition"
            ):
                # "to prevent stroke in AF": the aim is the stroke, and AF names the patients
                # it is prevented in, a condition of the row (the golds never keep both)
                return self._phrase(phrase[: among.end("what")], "outcome", group_counter) + (
                    self._phrase(among["who"], "context", group_counter)
                )
            return self._phrase(phrase, "outcome", group_counter)
        if kind == "guided":
            # an act the recommendation guides is done anyway: background, like the act a
            # cohort undergoes; anything else guided is a goal
            if " and " not in phrase and self.role_evidence(phrase, "background") in (
                "Procedure",
                "Medication",
            ):
                return self._phrase(phrase, "background", group_counter)
            return self._phrase(phrase, "outcome", group_counter)
        if kind == "topic":
            # "regarding the decision to stop X": a therapy the choice is about is one the
            # patients are on (background); a topic naming none is no concept
            drafts = self._phrase(phrase, "background", group_counter) if phrase else []
            return [
                d
                for d in drafts
                if d.role in ("Medication", "Procedure")
                and self.role_evidence(d.text, "background") == d.role
            ]
        if kind == "graded":
            # "to assess the severity of X": read as the test's purpose is, but a named
            # finding it grades is a condition of the row ("disease" alone names none)
            drafts = self._phrase(phrase, "purpose", group_counter)
            for d in drafts:
                if d.role == "Condition":
                    d.slot = "context"
            return [
                d
                for d in drafts
                if d.role == "ClinicalParameter"
                or (d.role == "Condition" and d.normalized.lower() not in _BARE_FINDINGS)
            ]
        if kind == "setting":
            # "in experienced centres": where the act is done is no state of the patient
            # (the contract's conditions); most development golds leave it out. A volume
            # the place or the operators must reach ("with ≥200 cases per year") is a
            # criterion all the same
            more_at = _AND_MORE.search(phrase)
            if more_at and not _FINITE_VERB.search(phrase, more_at.end()):
                more_at = None  # "an expert centre and subsequent testing": still the setting's
            setting = phrase[: more_at.start()] if more_at else phrase
            more = phrase[more_at.end() :] if more_at else ""
            found = [
                d
                for d in self._phrase(setting, "context", group_counter)
                if d.role == "ClinicalParameter" and d.threshold is not None
            ]
            # "… by trained operators and antibiotic cover is advised": what follows an "and"
            # is the row's again
            return found + (self._post_phrase("context", more, group_counter) if more else [])
        if kind in ("aim", "assessed"):
            # "to exclude PE": the disease looked for is a concept of the row with function
            # purpose (never a criterion: not in the logic or the population); "in the work-up
            # of syncope without high-risk criteria": what the patients lack is theirs again
            # ("to detect AF without symptoms": silent AF, the aim's own words)
            absence = _ABSENT_AFTER.search(phrase) if kind == "assessed" else None
            aim = phrase[: absence.start()] if absence else phrase
            kept = [d for d in self._phrase(aim, "purpose", group_counter) if d.role in _SOUGHT]
            return kept + (self._cohort(phrase[absence.end() :], group_counter) if absence else [])
        if kind == "purpose":
            # "to assess the risk of X", "to confirm PE": what a test is for is its
            # rationale, not a concept (contract §2); a target value stays a parameter
            drafts = self._phrase(phrase, "purpose", group_counter)
            return [d for d in drafts if d.role == "ClinicalParameter"]
        if kind == "used":  # "when X is used in combination with A or B": all three taken
            taken, _, beside = phrase.partition(" in combination with ")
            found = self._post_phrase("background", taken, group_counter)
            return found + (
                self._post_phrase("background", beside, group_counter) if beside else []
            )
        if kind in _THERAPY_BESIDE:
            drafts = self._action(phrase, group_counter, slot="background")
            for d in drafts:
                d.aside = _THERAPY_BESIDE[kind]
            return drafts
        if kind in ("components", "means"):  # "…, with A and B", "…, using A or B"
            drafts = self._phrase(phrase, "component", group_counter)
            for d in drafts:
                if d.role == "ClinicalParameter" and d.threshold is None:
                    # "screening … using fasting glucose": a quantity named as the means is
                    # the test that measures it
                    d.role = "Procedure"
                    d.normalized = re.sub(r"(?<! measurement)$", " measurement", d.normalized)
                if d.role in ("Procedure", "Medication"):
                    d.slot = "action"  # the tests or drugs the recommended whole consists of
            return drafts
        if kind == "negated":
            # (an item the clause itself negates is turned round: "unless X and has no Y")
            if _COHORT_LEAD.match(phrase) or _PATIENT_NOUN.match(phrase):
                # "except (in) those with vasospastic angina": a patient group left out
                return turned_round(self._cohort(phrase, group_counter))
            found = turned_round(self._phrase(phrase, "context", group_counter))
            if (
                re.search(r"\bsuch\s+as\b", phrase, re.I)
                and len(found) > 1
                and all(d.role == "Condition" for d in found)
            ):
                # "unless there are contraindications such as a high bleeding risk": none of
                # the kind and none of its examples, NOT(OR(...)) (most golds read it so)
                share_or_label(found, group_counter)
            return found
        clause = self._clause_drafts(kind, phrase, group_counter)
        if clause is not None:
            return clause
        treated = re.match(r"^for\s+(?P<what>.+)$", phrase, re.I)
        again = (
            _top_level_search(r",?\s+(?:and|or|and/or)\s+for\s+", treated["what"])
            if treated
            else None
        )
        if again is not None:
            # "for A with B and for C": each "for" names a case of its own, either enough
            what = treated["what"]  # type: ignore[index]
            first = self._post_phrase(kind, "for " + what[: again.start()], group_counter)
            second = self._post_phrase(kind, "for " + what[again.end() :], group_counter)
            link_repeated_groups(first, second, group_counter)
            return first + second
        conditions = self._conditions_with(treated["what"], group_counter) if treated else None
        in_state = None if treated else re.match(r"^in\s+(?P<what>.+)$", phrase, re.I)
        what = in_state["what"] if in_state else ""
        joined = _top_level_search(r"\s+with\s+", what) if what else None
        if joined and self.role_evidence(what[: joined.start()], "context") == "Condition":
            # "in post-operative AF with haemodynamic instability" reads like "for …": a
            # state and what it comes with, each a condition (the golds name each)
            conditions = self._conditions_with(what, group_counter)
        if conditions is not None:  # "recommended for any tachycardia with instability"
            return conditions
        # "for high-degree or complete AVB": what follows "for", so a grade range stays whole
        found = self._phrase(treated["what"] if treated else phrase, "context", group_counter)
        if treated and not after_test:
            group_listed_indications(treated["what"], found, group_counter)
        return found


# where a setting phrase goes on with the row's own words: "… and antibiotic cover is advised"
_AND_MORE = re.compile(r"(?:,\s*|\s+)(?:and|or)\s+(?!(?:in|at|by|with)\b)", re.IGNORECASE)
_FINITE_VERB = re.compile(r"\b(?:is|are|should|may|must|can)\b", re.IGNORECASE)


# words that name no finding of their own when a test grades them
_BARE_FINDINGS = frozenset({"disease", "finding", "abnormality", "condition", "lesion", "problem"})


def link_repeated_groups(
    first: list[Draft], second: list[Draft], group_counter: list[int], *, after_acts: bool = False
) -> None:
    """The first condition (or age) of each group shares one OR label (the rest of a group
    is said of that group only, and keeps what its own phrase gave it). A second group whose
    head has alternatives of its own is left as it is: on the development rows, merging them
    joined groups that were not alternatives. ``after_acts``: the first group may be named by
    what the patients had done ("after TAVI or mitral repair, and in patients with HF"), the
    second by a bound ("…, and in patients with an LVEF ≤40%")."""
    first_head = _group_head(first, "Procedure" if after_acts else None)
    second_head = _group_head(second, "ClinicalParameter" if after_acts else None)
    if first_head is None or second_head is None or second_head.or_group is not None:
        return
    share_or_label([first_head, second_head], group_counter)


def link_alternative_case(
    before: list[Draft], clause: list[Draft], group_counter: list[int], *, listed: bool
) -> None:
    """ "…, or if B", "when A or when B": the clause names another case the row applies in,
    an alternative to the case named just before it (the contract's clause-level OR). A
    plain list before it with no alternatives of its own (``listed``: "with A, B, C, or if
    D") is the list the "or" closes; otherwise the last case before it is the alternative
    ("with A and B, or if C": the nearest reading flat labels can hold)."""
    old, new = _cases(before), _cases(clause)
    if not old or not new:
        return
    own = new[0].or_group  # "or if B or C": B's own alternatives come along
    if listed and all(d.or_group is None for d in old):
        share_or_label([*old, new[0]], group_counter)
    else:
        share_or_label([old[-1], new[0]], group_counter)
    for d in clause:
        if own is not None and d.or_group == own:
            d.or_group = new[0].or_group


def _cases(drafts: list[Draft]) -> list[Draft]:
    """The states and bounds a phrase names as who the row is for (its own, not an aside's,
    nor what one case is had without: "when A without B, or when C" offers A or C, nor what
    a bracket says of the head before it)."""
    return [
        d
        for d in drafts
        if d.role in ("Condition", "ClinicalParameter")
        and d.slot in ("cohort", "context")
        and d.aside is None
        and not d.said_of_one_alternative
        and not d.in_bracket
    ]


def _group_head(group: list[Draft], also_role: str | None) -> Draft | None:
    """The first draft not negated that heads the group (or has ``also_role``)."""
    return next(
        (d for d in group if (_heads_group(d) or d.role == also_role) and not d.negated), None
    )


def _heads_group(d: Draft) -> bool:
    """What heads a group of patients: a state, or the age it is named by ("in those aged
    ≥75 years"); other bounds only narrow a group."""
    return d.role == "Condition" or (d.role == "ClinicalParameter" and d.normalized == "age")
