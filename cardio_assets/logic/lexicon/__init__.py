"""Offline, deterministic extraction of concepts and actions from one recommendation row.

Why rules and not only dictionary matching: guideline rows follow a small set of sentence
shapes ("In <cohort>, <action> is recommended to <outcome>."), and the boolean and numeric
structure (OR groups, "LVEF of 35% or less") lives in those shapes, not in the
terminology. So the extractor first cuts the sentence into cohort / action / outcome /
background slots, pulls out parameters with their operator, threshold and unit, splits
the remaining phrases into AND/OR leaves, and only then asks the terminology (when one is
given) which role each leaf plays. It produces the same RowExtraction records as the
LLM backend, for both passes (MAIN and POPULATION).

Where the terminology is used: (1) a leaf whose whole text (or, failing that, the longest
sub-phrase ending at its head word, up to ``max_ngram`` words) matches a SNOMED CT
description at ``min_term_score`` takes the role of that description's semantic tag;
(2) a phrase containing "and"/"or" that is itself a description is not split. Spans are
cut by the sentence rules, not by dictionary matches: the sample terminology lacks many
guideline terms ("chronic coronary syndrome"), and annotation spans keep qualifiers a
dictionary match would drop ("suspected CCS"). Spans follow data/gold/ANNOTATION_GUIDELINES.md:
minimal verbatim text, dose/duration/frequency qualifiers dropped, negation cues outside.

The rules live in one module per section: ``vocabulary`` (word lists for roles and spans),
``noise`` (what a row's text loses first), ``sentences`` (sentence shapes), ``parameters`` (thresholds),
``drafts`` (concepts being built), ``terms`` (the terminology lookup and footnote
definitions), ``roles`` (which role a phrase gets), ``phrases`` (a phrase read into drafts),
``extractor`` (the extractor itself); ``version`` hashes the whole folder into
``RULES_VERSION``. No Dagster imports here: resources/lexicon_extractor.py wraps it.
"""

from cardio_assets.logic.lexicon.extractor import LexiconExtractor
from cardio_assets.logic.lexicon.noise import clean_row_text
from cardio_assets.logic.lexicon.parameters import Parameter, extract_parameters
from cardio_assets.logic.lexicon.roles import LexiconSettings
from cardio_assets.logic.lexicon.sentences import parse_sentence
from cardio_assets.logic.lexicon.terms import (
    TermHit,
    TermLookup,
    footnote_abbreviations,
    term_lookup_from_searcher,
)
from cardio_assets.logic.lexicon.version import RULES_VERSION, rules_version
from cardio_assets.logic.lexicon.vocabulary import SEMANTIC_TAG_ROLES
from cardio_assets.logic.logic_split import Expr

__all__ = [
    "Expr",
    "LexiconExtractor",
    "LexiconSettings",
    "Parameter",
    "RULES_VERSION",
    "SEMANTIC_TAG_ROLES",
    "TermHit",
    "TermLookup",
    "clean_row_text",
    "extract_parameters",
    "footnote_abbreviations",
    "parse_sentence",
    "rules_version",
    "term_lookup_from_searcher",
]
