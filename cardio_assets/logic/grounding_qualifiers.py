"""The words that decide whether a SNOMED CT concept means a grounded term or another thing
of its kind: qualifiers that narrow a meaning ("severe", "paroxysmal", a valve's name), word
beginnings of opposite meaning ("hyper-" / "hypo-"), counts ("tri-" / "bi-") and negations
("non-"). Pure word logic, shared by grounding.py's filters; no terminology access.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

from rapidfuzz import fuzz

from cardio_assets.terminology.text import STOPWORDS, fold

# Words that make a narrower concept of what they qualify ("severe aortic stenosis",
# "paroxysmal AF", "suspected CAD"): a term carrying one maps only to a concept whose own
# description carries it too; otherwise it stays unmapped (contract section 10: a
# severity- or context-qualified name without its own concept is never mapped to the
# broader one)
MEANING_QUALIFIERS = frozenset(
    """
    severe moderate mild significant symptomatic asymptomatic known suspected new recurrent
    persistent permanent paroxysmal idiopathic sustained advanced stable
    unstable documented isolated complex refractory resistant uncontrolled
    acute chronic complete partial incomplete congenital familial family history
    left right bilateral unilateral thoracic abdominal intraoperative perioperative
    postoperative prophylactic therapeutic degree mobitz bifascicular trifascicular
    alternating rupture ruptured ambulatory root
    improvement worsening deterioration recovery reduction decrease increase fall drop rise
    decline normalization normalisation type upper lower benign malignant stenosis
    regurgitation insufficiency
    """.split()
)
# A concept whose own name adds one of these to the term is narrower than the term
# ("atrioventricular block" is no "Complete atrioventricular block", "aortic aneurysm" no
# "Abdominal aortic aneurysm"): the same list read from the concept's side, less the words
# a concept may add and still mean the term ("previous MI" is "History of myocardial
# infarction", an ejection fraction is the left ventricle's, an ST-elevation infarction is
# "Acute ST segment elevation myocardial infarction", "QRS complex duration" no complex one)
NARROWING_QUALIFIERS = MEANING_QUALIFIERS - frozenset(
    "family history left right known new acute chronic complex significant documented isolated".split()
) | {
    "risk",  # "At risk of coronary heart disease" is no coronary heart disease
    # an abnormality the term does not name: "Renal impairment" is no "renal function"
    "impaired",
    "impairment",
    "dysfunction",
    "insufficiency",
    "failure",
    # a valve the term does not name: "valve area" is no "Aortic valve area", and
    # "hypertension" no "Pulmonary hypertension"
    "aortic",
    "mitral",
    "tricuspid",
    "pulmonary",
    # a second valve lesion: "aortic valve insufficiency" is no "stenosis with insufficiency"
    "stenosis",
    "regurgitation",
}
# Word beginnings of opposite meaning that a one-letter typo allowance or a close
# character ratio would otherwise pair ("hypotension" is no "hypertensive disorder",
# "bradycardia" no "tachycardia-bradycardia"): a concept naming the other one, where the
# term does not, is never the term's.
OPPOSITE_PREFIXES = (("hyper", "hypo"), ("tachy", "brady"), ("micro", "macro"))
# Word beginnings that count: one word with one of these before the stem another word has
# with a different one is another thing ("tricuspid" / "bicuspid", "unilateral" /
# "bilateral", "monophasic" / "biphasic")
COUNT_PREFIXES = ("uni", "mono", "bi", "di", "tri", "quadri", "tetra", "poly", "multi")
# Names of which a concept names one thing only: a concept naming another member of the
# group than the term is never the term's ("pulmonary valve implantation" is no aortic one)
EXCLUSIVE_NAMES = (frozenset({"aortic", "mitral", "tricuspid", "pulmonary"}),)
# a word and its negation: "nonsustained" is no "sustained", "decompensated" no "compensated"
NEGATING_PREFIXES = ("non", "de", "un", "in")
# abnormality words of one kind: a term naming one of them is not narrowed by another
ABNORMALITY_WORDS = frozenset(
    "impaired impairment dysfunction reduced decreased depressed abnormal".split()
)


# Words a concept may leave out of the term and still mean it: a generic head ("bicuspid
# aortic valve disease" is "Bicuspid aortic valve", "mitral valve replacement surgery" the
# replacement), the length of a recording that always lasts it ("24-hour"), what an
# electrical cardioversion always is ("synchronized"), the artery of a
# disease SNOMED CT names by the organ ("coronary heart disease"), and the past-event words
# it writes as "History of"
GENERIC_WORDS = frozenset(
    """
    disease disorder condition syndrome surgery operation procedure therapy treatment drug
    drugs agent agents medication medicine function hour hours artery previous prior past
    history synchronized synchronised
    """.split()
)
# an adjective and the noun SNOMED CT often writes for it ("Magnetic resonance imaging of
# heart" for cardiac MRI)
WORD_SYNONYMS = {
    "cardiac": "heart",
    "renal": "kidney",
    "pulmonary": "lung",
    "hepatic": "liver",
    "cerebral": "brain",
    "nodal": "node",
}


# the rapidfuzz ratio at which two words are one word misspelt (the candidate search's
# typo allowance too: grounding.py's JACCARD_FUZZY_MIN)
TYPO_MIN_RATIO = 85


def words(text: str) -> list[str]:
    """Folded words, "non" joined to the word it negates ("non-sustained" -> "nonsustained",
    as SNOMED CT writes it)."""
    return re.sub(r"\bnon (?=[a-z])", "non", fold(text)).split()


def _same_stem(word: str, other: str) -> bool:
    """ "aorta" / "aortic", "prophylactic" / "prophylaxis", "impaired" / "impairment":
    a shared beginning of four letters or more that is most of the shorter word."""
    shared = len(os.path.commonprefix([word, other]))
    return word == other or (shared >= 4 and shared >= 0.6 * min(len(word), len(other)))


def _carried(word: str, words: Iterable[str]) -> bool:
    return any(_same_stem(word, other) for other in words)


def qualifiers_lost(asked: list[str], named: list[str]) -> list[str]:
    """The meaning qualifiers of the term's words ``asked`` (and its "non-" words) that none
    of the concept's ``named`` words (matched description and FSN) carries, by stem."""
    return [
        w
        for w in asked
        if (w in MEANING_QUALIFIERS or w.startswith("non")) and not _carried(w, named)
    ]


def qualifiers_added(
    query: str, matched_term: str, asked: list[str], matched: list[str]
) -> list[str]:
    """The qualifiers the matched description (words ``matched``) carries that the term
    (words ``asked``) does not, by stem; a description written "ABBR - long form" for the
    term's own abbreviation adds nothing, and an abnormality word adds nothing where the
    term names another of its kind ("LV systolic impairment" is "LV systolic
    dysfunction")."""
    short = matched_term.split(" - ", 1)[0] if " - " in matched_term else ""
    if short and fold(short) == fold(query):
        return []
    abnormal = any(w in ABNORMALITY_WORDS for w in asked)
    return [
        w
        for w in matched
        if w in NARROWING_QUALIFIERS
        and not _carried(w, asked)
        and not (abnormal and w in ABNORMALITY_WORDS)
    ]


def wrong_kind(asked: list[str], named: list[str]) -> list[str]:
    """ "hyper- for hypo-" for each opposite word beginning the concept's ``named`` words use
    where the term's ``asked`` words use the other (and not both); a word negated on one side
    only ("sustained" / "nonsustained", "compensated" / "decompensated"); a count prefix or
    a valve of its own."""
    found = []
    for first, second in OPPOSITE_PREFIXES:
        for mine, theirs in ((first, second), (second, first)):
            if (
                any(w.startswith(mine) for w in asked)
                and any(w.startswith(theirs) for w in named)
                and not any(w.startswith(theirs) for w in asked)
            ):
                found.append(f"{theirs}- for {mine}-")
    for word in asked:
        for other in named:
            if other == word or other in asked or word in named:
                continue
            negated = any(
                other == lead + word or word == lead + other for lead in NEGATING_PREFIXES
            )
            if negated or _counted_alike(word, other):
                found.append(f"{other!r} for {word!r}")
    for group in EXCLUSIVE_NAMES:
        mine_names = group.intersection(asked)
        theirs_names = group.intersection(named) - mine_names
        if mine_names and theirs_names:
            found.append(f"{', '.join(sorted(theirs_names))} for {', '.join(sorted(mine_names))}")
    return found


def _counted_alike(word: str, other: str) -> bool:
    """Two words that differ only in a count prefix ("tricuspid", "bicuspid")."""
    for mine in COUNT_PREFIXES:
        for theirs in COUNT_PREFIXES:
            if mine != theirs and word.startswith(mine) and other.startswith(theirs):
                stem = word[len(mine) :]
                if len(stem) >= 4 and stem == other[len(theirs) :]:
                    return True
    return False


def words_left_out(asked: list[str], named: list[str]) -> list[str]:
    """The content words of the term (``asked``) that none of the concept's names
    (``named``) carries, by stem or by WORD_SYNONYMS, other than GENERIC_WORDS: a concept
    without them is broader than the term ("polymorphic ventricular tachycardia" is no
    plain "Ventricular tachycardia", "CT coronary angiography" no invasive angiography)."""
    synonyms = {WORD_SYNONYMS.get(w, w) for w in named} | {
        adjective for adjective, noun in WORD_SYNONYMS.items() if noun in named
    }
    return [
        w
        for w in asked
        if len(w) > 2
        and not w.isdigit()
        and w not in STOPWORDS
        and w not in GENERIC_WORDS
        and w not in synonyms
        and not _carried(w, named)
        and not _misspelt(w, named)
    ]


def _misspelt(word: str, named: Iterable[str]) -> bool:
    """A long word one slip away from a name's word ("fibrilation"): the same word, as the
    candidate search's own typo allowance reads it."""
    return len(word) >= 6 and any(fuzz.ratio(word, other) >= TYPO_MIN_RATIO for other in named)
