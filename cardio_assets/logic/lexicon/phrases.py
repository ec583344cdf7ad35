"""How a phrase becomes drafts (a mixin of LexiconExtractor): a cohort phrase read as its
patient noun, pre-modifiers and typed segments; any other phrase split into AND/OR leaves
(cardio_assets/logic/logic_split.py), its parameters taken out, each leaf given a role by
RoleRules and tidied into a Draft.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from cardio_assets.logic.abbreviations import singular_head
from cardio_assets.logic.lexicon.asides import (
    Aside,
    bound_of_state,
    grade_of_state,
    pull_parentheticals,
    quantity_of_state,
)
from cardio_assets.logic.lexicon.cohorts import CohortRules
from cardio_assets.logic.lexicon.drafts import (
    Draft,
    _drop_lonely_groups,
    _negate,
    _or_groups,
    new_group_label,
    share_or_label,
)
from cardio_assets.logic.lexicon.parameters import (
    _NAME_STOP,
    _PLACEHOLDER_RE,
    Parameter,
    counted_back,
    extract_parameters,
    measured_parameter,
    sized_lesion,
)
from cardio_assets.logic.lexicon.phrase_groups import (
    _ALSO_RECEIVE,
    _BARE_DRUG_WORD,
    _BARE_STATE_WORD,
    _kinds_of,
    _kinds_sharing_a_head,
    _pair_absences,
    _pair_kinds_of_one_disease,
    _procedure_alternatives,
)
from cardio_assets.logic.lexicon.phrase_patterns import (
    _CONNECTIVE_ONLY,
    _DRUG_LIKE_WORD,
    _EXAMPLE_LEAD,
    _INCLUDING_TAIL,
    _LONE_MODIFIER,
    _OUTCOME_LEAD,
    _PARTS_LEAD,
    _PAST_PROCEDURE,
    _STATE_EXAMPLE_LEAD,
    _SUSPICION,
    _SWITCH,
    _VALUE_ONLY,
    AIM_AFTER_AND,
    HISTORY_TAKEN,
    NEITHER_ACTS,
    _head_before,
    _modifies,
    finding_and_test,
    measuring_test,
    talk_about_a_list,
    test_showing,
)
from cardio_assets.logic.lexicon.post_markers import _depth_at
from cardio_assets.logic.lexicon.vocabulary import (
    _EMPTY_CONTEXT,
    _PATIENT_NOUN,
    ASIDE_CLAUSE,
    DECLINING,
    GENERIC_LEAVES,
    GENERIC_VEHICLE,
    INTOLERANCE,
    LIFESTYLE,
    LONE_ADVERB,
    LONE_QUALIFIER,
    MANNERS_ONLY,
    NOT_WANTED,
    PARAM_LEFTOVERS,
    PERSIST_WORDS,
    REQUIREMENT,
    STATE_BEFORE_DISEASE,
    STATE_NAMES,
    SUSPECTED_STATE,
    _tidy_leaf,
)
from cardio_assets.logic.logic_split import Leaf, leaves, split_logic
from cardio_assets.logic.measurements import find_measurements, parse_value

if TYPE_CHECKING:
    from cardio_assets.logic.abbreviations import Abbreviations


# cases the row does not name ("in specific situations", "in selected cases"): no concept
_UNNAMED_CASES = re.compile(
    r"(?:specific|certain|selected|special|particular)\s+(?:situations?|cases?|circumstances?|"
    r"settings?)",
    re.IGNORECASE,
)


# the words of a therapy's state ("X is contraindicated / not tolerated / cannot be done")
_THERAPY_STATE_WORD = re.compile(
    r"\b(?:contraindicated|tolerated|ineffective|not\s+effective|not\s+an\s+option|"
    r"not\s+(?:suitable|appropriate)|cannot\s+be|can\s*not\s+be|failed|declined|refused|unavailable|"
    rf"not\s+available|{PERSIST_WORDS})\b",
    re.IGNORECASE,
)


def _said_of_one_alternative(drafts: list[Draft]) -> list[Draft]:
    """Mark ``drafts`` as said of one alternative only (kept out of its OR label)."""
    for draft in drafts:
        draft.said_of_one_alternative = True
    return drafts


_COMBINATION_WORDS = re.compile(
    r"\b(?:dual|triple|combin\w*|therapy|therapies|regimens?|plus)\b|\bDA?PT\b", re.I
)


def _members_of_a_drug_class(head: Draft | None) -> bool:
    """A drug class named in the plural ("basal insulins (A and B)"): the drugs in its
    bracket are its members, any one of which is meant, even joined by "and"; a combination
    ("dual antiplatelet therapy (A and B)") names drugs all given together."""
    return (
        head is not None
        and head.role == "Medication"
        and singular_head(head.text) != head.text
        and not _COMBINATION_WORDS.search(head.text)
    )


def _finding_shown(finding: str) -> tuple[str, bool]:
    """What a test shows, and whether it shows its absence ("no thrombus")."""
    nothing = re.match(r"^no\s+", finding, re.IGNORECASE)
    return (finding[nothing.end() :], True) if nothing else (finding, False)


# the last of several alternatives followed by its cause, a measured one ("a stroke or TIA
# attributable to a ⟦P0⟧"): the cause is said of the findings, no alternative to them
_MEASURED_CAUSE_LEAF = re.compile(
    r"(?<=[A-Za-z0-9)])\s+(?:(?:due|attributable|secondary|owing)\s+to|caused\s+by)\s+"
    r"(?P<cause>(?:(?:an?|the)\s+)?⟦P\d+⟧.*)$",
    re.IGNORECASE,
)
# an absence said inside one alternative of a list the clause rules kept whole ("A in the
# absence of B, or C"); a leading word opens it, so "with or without B" stays
_ABSENT_WITH_LEAF = re.compile(
    r"(?<=[A-Za-z0-9)⟧])\s+(?:in\s+the\s+absence\s+of|without)\s+(?P<absent>[A-Za-z].*)$",
    re.IGNORECASE,
)


# a bracket after an act holding only how soon it is done: "(<2 h)", "(within 24–72 h)"
_ACT_TIMING = re.compile(
    r"(?:within\s+|[<≤]\s?|<_\s?)?\d+(?:\s?[–-]\s?\d+)?\s?(?:h|hours?|min(?:utes)?|days?)",
    re.IGNORECASE,
)


class PhraseRules(CohortRules):
    """The phrase readers of the lexicon extractor; roles, clauses and acts are its other
    mixins (it reads the extractor's abbreviations, terminology lookup and settings)."""

    abbreviations: Abbreviations
    # the "A or B" pairs the row's slashes were written as (extractor.prepared_text)
    slash_pairs: set[str]

    if TYPE_CHECKING:  # borrowed from the sibling mixins RoleRules and ActRules

        def _action(
            self, text: str, group_counter: list[int], slot: str = "action"
        ) -> list[Draft]: ...

        def role_for(self, text: str, slot: str) -> str | None: ...

        def role_evidence(self, text: str, slot: str) -> str | None: ...

        def _is_known_term(self, phrase: str) -> bool: ...

        def act_and_its_indication(
            self, text: str, slot: str, group_counter: list[int]
        ) -> list[Draft] | None: ...

        def therapy_state(self, phrase: str, group_counter: list[int]) -> list[Draft] | None: ...

    def _test_of_finding(self, test: str) -> Draft:
        """The test a finding is seen on or a value taken with: done whatever it shows, so
        a background procedure outside the finding's negation and OR group."""
        return Draft(
            "Procedure",
            test,
            self.abbreviations.normalize(test),
            "background",
            test_of_finding=True,
        )

    def _leaf_reading(
        self,
        leaf: Leaf,
        params: list[Parameter],
        slot: str,
        grouped: bool,
        group_counter: list[int],
    ) -> list[Draft]:
        """The drafts of one AND/OR leaf (``grouped``: it is one of alternatives): a
        therapy's state ("… when A is contraindicated or C"), a test named as an alternative
        act with what it must show ("or a TOE showing no thrombus"), an alternative had
        without something ("A in the absence of B, or C"), else the leaf as written. What is
        said of one alternative only stays outside the alternatives' OR label."""
        text, whole = leaf.text, bool(leaf.full)
        if (
            slot in ("cohort", "context")
            and not whole
            and _THERAPY_STATE_WORD.search(text)
            and not _PLACEHOLDER_RE.search(text)
        ):
            state = self.therapy_state(text, group_counter)
            if state is not None:
                return _negate(state) if leaf.negated else state
        if slot in _ACT_SLOTS and not whole and grouped:
            shown = test_showing(text, self.abbreviations.normalize)
            if shown and shown[2] and shown[0]:
                finding, absent = _finding_shown(shown[0])
                done = self._leaf_drafts(Leaf(shown[1], leaf.negated, None), params, slot)
                seen = self._leaf_drafts(Leaf(finding, absent, None), params, "context")
                return done + _said_of_one_alternative(seen)
        cause = (
            _MEASURED_CAUSE_LEAF.search(text)
            if slot in {"cohort", "context"} and grouped and not whole and not leaf.negated
            else None
        )
        if cause:
            had = self._leaf_drafts(Leaf(text[: cause.start()], False, None), params, slot)
            why = self._leaf_drafts(Leaf(cause["cause"], False, None), params, slot)
            return had + _said_of_one_alternative(why)
        absent_with = (
            _ABSENT_WITH_LEAF.search(text)
            if slot in {"cohort", "context"} and not leaf.negated and not whole
            else None
        )
        if absent_with:
            had = self._leaf_drafts(Leaf(text[: absent_with.start()], False, None), params, slot)
            without = self._leaf_drafts(Leaf(absent_with["absent"], True, None), params, slot)
            return had + _said_of_one_alternative(without)
        return self._leaf_drafts(leaf, params, slot)

    def _phrase(self, text: str, slot: str, group_counter: list[int]) -> list[Draft]:
        """Parameters, then AND/OR leaves, then a role for each leaf."""
        text = text.strip(" ,;.")
        if slot == "action":  # "(Treatment with) neither A nor B is recommended": both acts
            text = NEITHER_ACTS.sub(r"\1\2 and ", text)
        if not text:
            return []
        if slot in ("cohort", "context") and _THERAPY_STATE_WORD.search(text):
            # "in whom beta-blockers are contraindicated": read as the clause "if …" is
            state = self.therapy_state(text, group_counter)
            if state is not None:
                return state
        shown = (
            test_showing(text, self.abbreviations.normalize)
            if slot not in _ACT_SLOTS and slot != "outcome"
            else None
        )
        if shown and not shown[2]:
            # "if CMR shows scar": the scar, seen on CMR; "if CMR shows no scar": no scar
            finding, absent = _finding_shown(shown[0])
            seen = self._phrase(finding, slot, group_counter)
            return [*(_negate(seen) if absent else seen), self._test_of_finding(shown[1])]
        if slot == "outcome":
            text = _OUTCOME_LEAD.sub("", text)
            second = AIM_AFTER_AND.search(text)
            if second and second.start() > 0:  # two aims, each read alone
                first = self._phrase(text[: second.start()], slot, group_counter)
                return first + self._phrase(text[second.end() :], slot, group_counter)
            target = re.match(r"^(.+?)\s+to\s+(?=(?:<|>|≤|≥|<=|>=)?\s*\d)", text)
            if target:  # "lower systolic blood pressure to 120–129 mmHg": a target parameter
                return self._phrase(
                    f"{target.group(1)} {text[target.end() :]}", "purpose", group_counter
                )
        talk = talk_about_a_list(text) if slot == "action" else None
        if talk:  # "a discussion about A and B (and provision of C)": one talk, then C
            said = re.sub(r"^(?:an?|the)\s+", "", talk[0], flags=re.IGNORECASE)
            whole = Draft("Procedure", said, self.abbreviations.normalize(said), slot)
            return [whole, *self._phrase(talk[1], slot, group_counter)]
        switched = _SWITCH.match(text) if slot == "action" else None
        if switched and switched["loose"]:  # (read on a copy of the labels: a trial)
            named = [*switched.group("new", "old")]
            trial = [d for n in named for d in self._phrase(n, "action", [*group_counter])]
            switched = switched if any(d.role == "Medication" for d in trial) else None
        if switched:  # "to replace LMWH with UFH": UFH is given, LMWH is what they were on
            old, new = switched["old"], switched["new"]
            given = self._phrase(new, "action", group_counter)
            if len(new.split()) > 1 and _LONE_MODIFIER.fullmatch(old):
                return given  # "from i.v. to oral methylprednisolone": a word borrowing the noun
            return given + self._phrase(old, "background", group_counter)
        split = (
            self.act_and_its_indication(text, slot, group_counter)
            if slot in ("context", "background")
            else None
        )
        if split is not None:
            return split
        if slot in {"context", "purpose"}:
            text = re.sub(
                r"^(?:choosing|deciding|selecting)\s+(?:between\s+)?", "", text, flags=re.I
            )
        # A bracket inside a measurement is part of it, not an aside: the same value in a
        # second unit ("<1.4 mmol/L (55 mg/dL)", read into alt_values), or the value of the
        # finding named before it ("heart rate (>100 bpm)")
        measured = [(m.start, m.end) for m in find_measurements(text)]
        # "recent (<6 months) stroke": how recent is a time since the stroke, read with it
        measured += [(m.end() - 1, m.end()) for m in re.finditer(r"\brecent\s*\(", text, re.I)]
        text, asides = pull_parentheticals(text, keep=measured)
        # "blood tests, including CRP and troponin", "neuromuscular disease such as
        # myotonic dystrophy": the examples run to the end of the phrase and are read like
        # a bracketed "(including ...)"
        including = _INCLUDING_TAIL.search(text)
        if including and including.start() > 0 and _depth_at(text, including.start()) == 0:
            examples = f"{including.group('lead')} {text[including.end() :].strip(' ,;')}"
            asides.insert(0, Aside(examples, text[: including.start()], bracketed=False))
            text = text[: including.start()].strip(" ,;")
        text, test = measuring_test(text, self.abbreviations.normalize)
        masked, params = extract_parameters(text, self.abbreviations)
        tree = split_logic(masked, keep_together=self._is_known_term, tight=self.slash_pairs)
        drafts: list[Draft] = []
        group_of = _or_groups(tree, group_counter)
        elided: list[Draft] = []  # the drafts of a leaf that lends its head to the next one
        for leaf in leaves(tree):
            leaf_text, leaf_full = leaf.text, leaf.full
            if slot == "outcome":  # "the risk of HF hospitalization or (the risk of) death"
                leaf_text = _OUTCOME_LEAD.sub("", leaf_text)
                leaf_full = _OUTCOME_LEAD.sub("", leaf_full) if leaf_full else None
            found = self._leaf_reading(
                Leaf(leaf_text, leaf.negated, leaf_full),
                params,
                slot,
                id(leaf) in group_of,
                group_counter,
            )
            for draft in found:
                # the time since an event is said of the event, no alternative to it
                since = draft.role == "ClinicalParameter" and counted_back(draft.text)
                alone = draft.test_of_finding or draft.said_of_one_alternative or since
                draft.or_group = None if alone else group_of.get(id(leaf))
                drafts.append(draft)
            if slot in {"cohort", "context"} and _kinds_sharing_a_head(elided, found):
                # "infectious and autoimmune myocarditis": two kinds of one disease named
                # with one head are alternatives a patient has one of (the golds' reading)
                share_or_label([elided[0], found[0]], group_counter)
            elided = found if leaf.full else []
        if test is not None:
            drafts.append(self._test_of_finding(test))
        if slot in {"cohort", "context"}:
            _pair_kinds_of_one_disease(drafts, text, group_counter)
        _pair_absences(drafts, text, group_counter)
        # Parenthetical asides: examples of the head ("MRA (spironolactone or
        # eplerenone)") or measurements ("(SYNTAX score >32)"); never actions.
        # Members of a recommended drug class are recommended too.
        aside_slot = {"action": "action", "background": "example", "component": "example"}.get(
            slot, slot
        )
        for aside, before, bracketed in asides:
            beside = _ALSO_RECEIVE.match(aside)
            if beside:  # "(patients should also receive an MRA)": therapy given beside it
                given = self._action(beside["what"], group_counter, slot="background")
                for d in given:
                    d.aside = "co-therapy"
                drafts.extend(given)
                continue
            timed = slot == "action" and _ACT_TIMING.fullmatch(aside) is not None
            head = _head_before(drafts, before) if timed else None
            value = parse_value(aside) if head is not None and head.role == "Procedure" else None
            if value is not None and head is not None:
                # "urgent coronary angiography (<2 h)": how soon the act is done, a target
                # the golds name "time to <act>" (the bracket holds no name of its own)
                operator, threshold, unit = value
                drafts.append(
                    Draft(
                        "ClinicalParameter",
                        aside,
                        f"time to {head.normalized}",
                        "outcome",
                        operator=operator,
                        threshold=threshold,
                        unit=unit,
                    )
                )
                continue
            state = _head_before(drafts, before) if slot in ("cohort", "context") else None
            graded = grade_of_state(aside, state) if state and state.role == "Condition" else None
            if graded is not None:  # "aortic injury (grade 3)": the state's grade
                drafts.append(graded)
                continue
            bound = bound_of_state(aside) if state is not None else None
            if bound is not None and state is not None and state.role == "Condition":
                # "obesity (≥30 kg/m2)": a bound right after the state it defines is a
                # criterion all the same, a parameter (the development golds name one)
                measured = measured_parameter(
                    aside.strip(" ,;."), quantity_of_state(state.normalized, bound.unit), bound
                )
                drafts.append(Draft.of_parameter(measured, state.slot))
                continue
            clause = ASIDE_CLAUSE.match(aside)
            if clause:  # "(if not recently performed)", "(when feasible)": a condition
                phrase = aside[clause.end() :]
                # "imaging methods (other than A or B)": what is left out is of the kind
                # named before it (an act's examples), never an act itself
                left_out = bool(clause["neg"]) and clause["neg"].lower().startswith("other")
                kind = "component" if left_out and slot in _ACT_SLOTS else "context"
                found = self._phrase(phrase, kind, group_counter)
                drafts.extend(_negate(found) if clause["neg"] else found)
                continue
            if LONE_QUALIFIER.fullmatch(aside) or MANNERS_ONLY.fullmatch(aside):
                continue  # "stenting (covered)": one word that only qualifies the head
            alternative = re.match(r"^or\s+(?!less\b|more\b|higher\b|lower\b)", aside, re.I)
            examples_slot = aside_slot
            if slot == "action" and self._names_conditions(_EXAMPLE_LEAD.sub("", aside)):
                # "treatment of risk factors (i.e. hypertension and diabetes)": examples of
                # the conditions treated, not of the act
                examples_slot = "context"
            aside_drafts = self._phrase(
                aside[alternative.end() :] if alternative else aside,
                slot if alternative else examples_slot,
                group_counter,
            )
            head = _head_before(drafts, before)
            if head is not None and head.role in ("Medication", "Procedure"):
                for d in aside_drafts:  # "pharmacotherapy (A, B)", "a validated tool (e.g.
                    # A, B)": an item the text gives no role of its own is of the head's kind
                    if (
                        d.role not in (head.role, "ClinicalParameter")
                        and not _PATIENT_NOUN.search(d.text)
                        and self.role_evidence(d.text, examples_slot) is None
                    ):
                        d.role = head.role
            if alternative and head is not None and aside_drafts:
                if head.or_group is None:
                    head.or_group = new_group_label(group_counter)
                for d in aside_drafts:
                    d.or_group = head.or_group
            elif _EXAMPLE_LEAD.match(aside) and aside_drafts:
                # "A, B (including C) or D": C is one more of the alternatives A, B, D; and
                # examples listed after "e.g." / "such as" share a label (the contract); an
                # absent head's examples are absent ("no interacting drugs (e.g. X)")
                drug_head = head is not None and head.role == "Medication"
                for d in aside_drafts:
                    d.negated = d.negated or (head is not None and head.negated)
                if head is not None and (
                    (
                        head.slot == "action"
                        and GENERIC_VEHICLE.fullmatch(head.text)
                        and any(d.role in ("Procedure", "Medication") for d in aside_drafts)
                    )
                    or _BARE_DRUG_WORD.fullmatch(head.text)
                    or (head.role == "Condition" and _BARE_STATE_WORD.fullmatch(head.text))
                ):
                    drafts.remove(head)  # "additional methods such as A or B": A or B
                    head = None  # "drugs such as A and B": A and B, drugs both
                if head is not None and head.or_group:
                    label = head.or_group
                elif (
                    head is not None
                    and head.role == "Condition"
                    and not head.negated
                    and bracketed
                    and _STATE_EXAMPLE_LEAD.match(aside)
                    and all(d.role in ("Condition", "ClinicalParameter") for d in aside_drafts)
                    # "hypertension (e.g. stage 2 hypertension)": a kind of the state, no
                    # other way to have it
                    and not any(
                        d.normalized.split()[-1:] == head.normalized.split()[-1:]
                        for d in aside_drafts
                    )
                ):
                    # "at high risk (e.g. prior bleeding)", "AV block (including 2:1 block)":
                    # each example is one way to have the state, so the state and its
                    # examples are alternatives (the golds group them so)
                    label = head.or_group = new_group_label(group_counter)
                elif slot in _ACT_SLOTS and _PARTS_LEAD.match(aside):
                    # "lifestyle changes including A, B and C", "an assessment including A
                    # and B": what an act includes is all done, no choice among them (an
                    # "or" inside the list still groups its own members)
                    label = None
                elif len(aside_drafts) > 1:
                    label = new_group_label(group_counter)
                else:
                    label = None  # one example alone keeps what its own phrase gave it
                own = {d.or_group for d in aside_drafts if d.or_group}
                if label and len(own) < 2:  # "such as A or B, and C or D": each list its own
                    for d in aside_drafts:
                        d.or_group = label
                if drug_head:
                    for d in aside_drafts:  # an example of a drug therapy is one too,
                        if d.role == "Procedure" and not LIFESTYLE.search(d.text):
                            d.role = "Medication"  # but lifestyle measures stay Procedure
            elif _procedure_alternatives(head, aside_drafts, aside, before):
                # "AVR (SAVR or TAVI)", "repeated imaging (CT or MRI)": the bracket names the
                # ways the act is done, one of which is; the act's own name only carries them
                drafts.remove(head)  # type: ignore[arg-type]
                for d in aside_drafts:
                    d.or_group = head.or_group or d.or_group  # type: ignore[union-attr]
            elif (
                _kinds_of(head, aside_drafts)
                and ("," in aside or _members_of_a_drug_class(head))
                and (head.role == "Medication" or self._names_conditions(aside))
            ):
                # "SVT (AVNRT, AVRT and AT)", "GLP-1 RAs (A, B, C)": a bare list of kinds of
                # the disease or drug class before it names alternatives, whatever its last
                # word; tests and lifestyle measures listed so are done together
                label = new_group_label(group_counter)
                for d in aside_drafts:
                    d.or_group = label
            for d in aside_drafts:
                d.in_bracket = head is not None
            drafts.extend(aside_drafts)
        if slot == "outcome":
            for d in drafts:
                d.or_group = None  # outcomes are aims, never alternatives to choose from
        _drop_lonely_groups(drafts)
        if slot in _ACT_SLOTS:
            self._drugs_beside_drugs(drafts, slot)
        return drafts

    def _names_conditions(self, text: str) -> bool:
        """Every item of ``text`` is a disease or state by its own words or terminology."""
        items = [leaf.text for leaf in leaves(split_logic(text)) if leaf.text]
        return bool(items) and all(
            not item.split()[0].lower().endswith("ing")  # "monitoring X" is an act
            and self.role_evidence(item, "purpose") == "Condition"
            for item in items
        )

    def _drugs_beside_drugs(self, drafts: list[Draft], slot: str) -> None:
        """ "labetalol, methyldopa or nifedipine": a name nothing identifies, offered as an
        alternative to drugs, is one more drug (the terminology lacks many; contract §3); so
        is a single word that looks like no English noun listed with drugs ("nicotine
        patches, varenicline and bupropion")."""
        groups = {d.or_group for d in drafts if d.role == "Medication" and d.or_group}
        beside_drug = any(d.role == "Medication" for d in drafts)
        for d in drafts:
            if d.role != "Procedure":
                continue
            alone = d.text.lower() == d.normalized.lower()  # no head lent by a neighbour
            listed = d.or_group in groups or (
                beside_drug and alone and _DRUG_LIKE_WORD.fullmatch(d.text)
            )
            if listed and self.role_evidence(d.text, slot) is None:
                d.role = "Medication"

    def _leaf_drafts(self, leaf: Leaf, params: list[Parameter], slot: str) -> list[Draft]:
        out: list[Draft] = []
        text = leaf.text
        param_slot = "cohort" if slot in {"action", "component", "example"} else slot
        for match in _PLACEHOLDER_RE.finditer(text):
            p = params[int(match.group(1))]
            normalized = p.name_normalized or self.abbreviations.normalize(p.text)
            lesion = sized_lesion(p)
            if lesion:  # "AAA of 50–55 mm": the aneurysm, and its diameter
                normalized = re.sub(r"(?:\s+diameters?)?$", " diameter", normalized, count=1)
                out.append(
                    Draft(
                        role="Condition",
                        text=lesion,
                        normalized=self.abbreviations.normalize(lesion),
                        slot=param_slot,
                        negated=leaf.negated,
                    )
                )
            out.append(Draft.of_parameter(p, param_slot, normalized, leaf.negated))
        had_param = bool(out)
        rest = _tidy_leaf(_PLACEHOLDER_RE.sub(" ", text), slot)
        if had_param:
            rest = re.sub(r"\s+(?:of|with|to|for|by|in|at|is|are)$", "", rest, flags=re.I)
            # "a cumulative dose of ≥300 mg/m2 of epirubicin": what the value is of
            rest = re.sub(r"^(?:an?\s+|the\s+)?of\s+", "", rest, flags=re.I)
            if set(rest.lower().split()) <= PARAM_LEFTOVERS:
                return out
        if not rest or not re.search(r"[A-Za-z]", rest) or _VALUE_ONLY.fullmatch(rest):
            return out  # "(<24 h)", "3 months": a value with nothing it measures
        if (
            rest.lower() in _EMPTY_CONTEXT
            # "AT" (atrial tachycardia) is no "at": an abbreviation as written is a name
            or (
                rest.lower() in _NAME_STOP
                and not (_modifies(leaf) or self.abbreviations.lookup(rest))
            )
            or _CONNECTIVE_ONLY.match(rest)
        ):
            return out
        bare = rest.strip(" .")
        if _UNNAMED_CASES.fullmatch(bare):
            return out  # "in specific situations (e.g. A, B)": the examples name the cases
        # ("for diagnosis and monitoring": in a stated aim, "diagnosis" is the aim itself)
        aim_word = slot == "outcome" and bare.lower() in {"diagnosis", "diagnoses"}
        if slot in {"action", "component"} and HISTORY_TAKEN.fullmatch(bare):
            name = f"{self.abbreviations.normalize(bare)} taking"
            out.append(Draft("Procedure", rest, name, slot, negated=leaf.negated))
            return out
        if (
            leaf.full is None
            and not aim_word
            and (bare.lower() in GENERIC_LEAVES or LONE_ADVERB.fullmatch(bare))
        ):
            return out  # ("a structured and supervised programme": the first word is a name)
        required = REQUIREMENT.match(text.strip(" ,;")) if slot in {"cohort", "context"} else None
        what = _tidy_leaf(required["what"], slot) if required and not had_param else ""
        # a needed act ("requiring pacing"); a needed drug keeps its reading as the therapy
        # that defines the cohort ("patients requiring cardiotoxic therapy")
        if what and len(what) > 3 and self.role_for(what, slot) == "Procedure":
            name = f"requirement for {self.abbreviations.normalize(what)}"
            out.append(Draft("Condition", text.strip(" ,;"), name, slot, negated=leaf.negated))
            return out
        if what and self.role_for(what, slot) == "Medication":
            rest = what  # "women who need insulin": the drug, without the verb
        unwanted = (
            (NOT_WANTED.match(rest) or DECLINING.match(rest) or DECLINING.match(leaf.full or ""))
            if slot != "action"
            else None
        )
        if unwanted:
            name = f"{self.abbreviations.normalize(unwanted['what'])} not desired"
            out.append(Draft("Condition", rest, name, slot, negated=leaf.negated))
            return out
        suspected = SUSPECTED_STATE.match(rest) if slot != "action" else None
        if suspected:  # "if HF is suspected": the condition is suspected HF, the span as printed
            name = f"suspected {self.abbreviations.normalize(suspected['what'])}"
            out.append(Draft("Condition", rest, name, slot, negated=leaf.negated))
            return out
        intolerant = None
        if slot != "action":  # "B" of "cannot tolerate A or B" is completed as its own
            intolerant = INTOLERANCE.match(rest) or INTOLERANCE.match(leaf.full or "")
        if intolerant:
            # "a statin is not tolerated", "cannot tolerate statins": the state is named
            # as an intolerance (the contract's "statin intolerance")
            what = self.abbreviations.normalize(intolerant["what"] or intolerant["of"])
            what = re.sub(r"^(?:an?|the|any)\s+", "", what)
            name = (  # "intolerant of aspirin" is a name already
                self.abbreviations.normalize(rest)
                if rest.lower().startswith("intolerant")
                else f"{what} intolerance"
            )
            out.append(Draft("Condition", rest, name, slot, negated=leaf.negated))
            return out
        leaf_full = leaf.full
        lead = STATE_BEFORE_DISEASE.match(rest) if slot in {"cohort", "context"} else None
        while lead:  # "untreated pregnant PAH patients": each state, then the disease
            state = lead["word"].lower()
            name = STATE_NAMES.get(state, state)
            out.append(Draft("Condition", lead["word"], name, slot, negated=leaf.negated))
            rest, leaf_full = lead["rest"], None
            lead = STATE_BEFORE_DISEASE.match(rest)
        found = finding_and_test(rest, self.abbreviations.normalize) if slot != "action" else None
        if found and self.role_for(found[0], slot) == "Condition":
            # "scarring on cardiac MRI": the finding is the condition, the test that showed
            # it the patient's background (the contract's golds split them)
            finding, test = found
            out.append(
                Draft(
                    "Condition",
                    finding,
                    self.abbreviations.normalize(finding),
                    slot,
                    negated=leaf.negated,
                )
            )
            out.append(self._test_of_finding(test))
            return out
        full = _tidy_leaf(_PLACEHOLDER_RE.sub(" ", leaf_full), slot) if leaf_full else rest
        # "low-" in "low- or iso-osmolar contrast media": the completed name has the role;
        # "VT induced during EPS": the finding, not the test it showed during, has it
        seen = re.split(r"\s+during\s+", full, maxsplit=1, flags=re.IGNORECASE)[0]
        role = self.role_for(seen, slot) if seen != full else self.role_for(full, slot)
        if role is None:
            return out
        past = _PAST_PROCEDURE.match(full)  # "history of" lent by a shared head too
        if role == "Condition" and past and self.role_for(past.group(1), "context") == "Procedure":
            role = "Procedure"  # "prior PCI", "history of CABG": a procedure in the background
        out.append(
            Draft(
                role=role,
                text=rest,
                normalized=STATE_NAMES.get(full.lower())
                or _SUSPICION.sub("suspected ", self.abbreviations.normalize(full)),
                slot=slot,
                negated=leaf.negated,
            )
        )
        return out


_ACT_SLOTS = frozenset({"action", "component", "example", "background"})
