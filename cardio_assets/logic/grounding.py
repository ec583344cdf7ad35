"""SNOMED CT grounding: term normalization, composite scoring, per-role filters.

Pure logic (no Dagster, no DuckDB): the terminology is reached through the small
``TermSearcher`` protocol, so the same code runs in the ``grounding_candidates`` /
``grounding_index`` assets, in ``cardio ground`` and in tests against a real store.

Two steps, matching the two assets:

1. ``ground_candidates(term, role, searcher, abbreviations)``: threshold-free top-k
   concepts with composite scores and everything the filters need (tag, is-a
   ancestors, taxonomy path). Stored once, so tuning a threshold never re-searches.
2. ``select_grounding(term, role, candidates, rule)``: applies the role's filters
   (configs/guideline_graph_schema.yaml) to stored candidates and returns the winning
   grounding_index entry plus one explained decision per candidate.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

import numpy as np
from rapidfuzz import fuzz, process

from cardio_assets.config import RoleFilter
from cardio_assets.logic.abbreviations import search_abbreviations
from cardio_assets.logic.grounding_qualifiers import (
    TYPO_MIN_RATIO,
    qualifiers_added,
    qualifiers_lost,
    words,
    words_left_out,
    wrong_kind,
)
from cardio_assets.logic.measurements import attach_measurement, find_measurements
from cardio_assets.records import (
    FilterCheck,
    GroundingCandidate,
    GroundingDecision,
    GroundingIndexEntry,
    GroundingOutcome,
    Role,
    TaxonomyStep,
)
from cardio_assets.terminology.index import ConceptDetails, DescriptionHit
from cardio_assets.terminology.text import STOPWORDS, fold, search_tokens, split_semantic_tag

# Terms longer than this are text blocks, not concept names: searching them only
# produces confident-looking noise, so they get no candidates.
MAX_TERM_CHARS = 300
MAX_QUERY_TOKENS = 16
DEFAULT_TOP_K = 20
# Descriptions the index hands to rapidfuzz rescoring. 150 keeps p95 under 10 ms at
# 1.6M descriptions; the index ranking already puts full-coverage names first.
DEFAULT_POOL = 150

# ---------------------------------------------------------------------------
# Thresholds, operators and units
# ---------------------------------------------------------------------------

# A term's measurement ("LVEF ≤ 35%") is read by the shared grammar
# (cardio_assets/logic/measurements.py) and taken out before the name is searched.
# a condition that happened before: "previous MI", "prior stroke", "history of CABG"
_PAST_EVENT = re.compile(r"^(?:(?:a|known)\s+)?(?:previous|prior|past|(?:a\s+)?history\s+of)\s+")
_TRAILING_ONLY_OPS = re.compile(r"\s*(?:<=|>=|<|>|=|≤|≥)\s*")


@dataclass(frozen=True)
class NormalizedTerm:
    """A term split into what to search for and the measurement around it."""

    original: str
    search_text: str  # lower-case, thresholds/units stripped, abbreviations expanded
    unexpanded: str  # same without abbreviation expansion (abbreviations may be synonyms)
    abbreviations_used: tuple[str, ...] = ()
    operator: str | None = None
    threshold: float | tuple[float, float] | str | None = None  # "140/90": a paired value
    unit: str | None = None
    standardized: str = ""  # search_text with the measurement re-attached, for the index entry
    rejected: str | None = None  # why the term cannot be searched (empty, too long, ...)


def normalize_term(term: str, abbreviations: Mapping[str, str]) -> NormalizedTerm:
    """Lower-case, unify operators, pull out threshold/unit, expand abbreviations.

    "LVEF ≤ 35%" -> search "left ventricular ejection fraction", operator "<=",
    threshold 35, unit "%", standardized "left ventricular ejection fraction <= 35%".
    """
    if term is None or not term.strip():
        return NormalizedTerm(term or "", "", "", rejected="empty term")
    if len(term) > MAX_TERM_CHARS:
        return NormalizedTerm(
            term[:80] + "…",
            "",
            "",
            rejected=f"term is {len(term)} characters (> {MAX_TERM_CHARS}): a text block, not a concept name",
        )
    text = unicodedata.normalize("NFKC", term)
    operator: str | None = None
    threshold: float | tuple[float, float] | str | None = None
    unit: str | None = None
    found = find_measurements(text)
    if found:
        first = found[0]
        operator, unit = first.operator, first.unit
        value = first.threshold
        threshold = (value[0], value[1]) if isinstance(value, list) else value
        text = text[: first.value_start] + " " + text[first.end :]
    text = _TRAILING_ONLY_OPS.sub(" ", text)
    text = re.sub(r"\s+", " ", text).strip(" ,;:-")
    unit = unit.lower() if unit else None

    unexpanded = " ".join(fold(text).split())
    expanded_text, used = search_abbreviations(abbreviations).substitute(text)
    search_text = " ".join(fold(expanded_text).split())
    if not search_tokens(search_text):
        return NormalizedTerm(
            term, "", "", operator=operator, threshold=threshold, unit=unit,
            rejected="no searchable words (punctuation, numbers or stopwords only)",
        )  # fmt: skip

    standardized = attach_measurement(search_text, operator, threshold, unit)
    return NormalizedTerm(
        original=term,
        search_text=search_text,
        unexpanded=unexpanded,
        abbreviations_used=tuple(used),
        operator=operator,
        threshold=threshold,
        unit=unit,
        standardized=standardized,
    )


# ---------------------------------------------------------------------------
# Composite score
# ---------------------------------------------------------------------------

# Weights of the composite score. Why each part:
# - token_sort_ratio (0.35): whole-string similarity independent of word order
#   ("fraction ejection left ventricular" still matches); the main signal.
# - ratio (0.15): plain character similarity; rewards near-identical strings and
#   tolerates small spelling variants (oedema/edema, -ise/-ize).
# - token_set_ratio (0.15): high when one side's words are a subset of the other's,
#   so "heart failure" still scores on "chronic heart failure"; it over-rewards
#   subsets ("score" in any "... score"), hence the small weight.
# - jaccard (0.35): content-token overlap |Q∩D|/|Q∪D| (a one-typo word counts as
#   shared, so misspellings are not punished twice); punishes both missing and
#   extra words, which is what separates "SYNTAX score" from "Leukocyte alkaline
#   phosphatase score" (one shared generic word out of four).
# Bonuses: an exact match of the normalized strings scores 1.0 (nothing can beat an
# identical name); a description that contains the abbreviation the author used
# ("LVEF - Left ventricular ejection fraction") gets +0.05, because release
# synonyms that carry the abbreviation are the intended concept. The result is
# clipped to [0, 1] and rounded to 4 decimals so stored scores compare stably.
W_TOKEN_SORT = 0.35
W_RATIO = 0.15
W_TOKEN_SET = 0.15
W_JACCARD = 0.35
ABBREVIATION_BONUS = 0.05
JACCARD_FUZZY_MIN = TYPO_MIN_RATIO  # rapidfuzz ratio at which two words count as one word


# The templates SNOMED CT writes drug-class descriptions in ("Product containing X",
# "X-containing product", "Substance with X mechanism of action"): the words around X are
# the template's, not the name's, so "ACE inhibitor" scores the same against both
_DRUG_TEMPLATE = re.compile(
    r"^(?:product\s+containing\s+(?:only\s+)?|substance\s+with\s+)(?P<x>.+?)"
    r"(?:\s+mechanism\s+of\s+action)?$|^(?P<y>.+?)[\s-]containing\s+product$"
)


@lru_cache(maxsize=1 << 16)
@lru_cache(maxsize=8)
def _folded_interface_terms(items: tuple[tuple[str, str], ...]) -> dict[str, str]:
    """Interface terms keyed the way ``normalize_term`` spells a search ("haemodynamic"
    and "hemodynamic" alike), each standing for its description, folded the same way."""
    return {" ".join(fold(name).split()): " ".join(fold(desc).split()) for name, desc in items}


def _description_text(description: str) -> str:
    body, _tag = split_semantic_tag(description)
    folded = fold(body)
    template = _DRUG_TEMPLATE.match(folded)
    return (template["x"] or template["y"]) if template else folded


def _combine(token_sort, ratio, token_set, jaccard, exact, bonus):  # type: ignore[no-untyped-def]
    """The formula (floats or numpy arrays): weighted sum, exact -> 1.0, + bonus, clip."""
    score = W_TOKEN_SORT * token_sort + W_RATIO * ratio + W_TOKEN_SET * token_set
    score = score + W_JACCARD * jaccard
    score = np.where(exact > 0, 1.0, score) + bonus
    # Python's round (exact decimal) rather than np.round, so batch == single scores
    return np.array([round(min(1.0, max(0.0, x)), 4) for x in np.atleast_1d(score).tolist()])


@lru_cache(maxsize=1 << 16)
def _content_tokens(body: str) -> frozenset[str]:
    return frozenset(t for t in body.split() if t not in STOPWORDS)


def _combine_one(
    token_sort: float, ratio: float, token_set: float, jaccard: float, exact: float, bonus: float
) -> float:
    """``_combine`` for one description in plain Python (numpy scalars are slow);
    tests assert both give identical scores."""
    score = W_TOKEN_SORT * token_sort + W_RATIO * ratio + W_TOKEN_SET * token_set
    score = score + W_JACCARD * jaccard
    score = (1.0 if exact > 0 else score) + bonus
    return round(min(1.0, max(0.0, score)), 4)


def _jaccard(q_tokens: frozenset[str], body: str) -> float:
    """Token overlap |Q∩D| / |Q∪D|, where a one-typo token ("fibrilation") still counts
    as shared (rapidfuzz ratio >= 85 on words of 5+ letters)."""
    d_tokens = _content_tokens(body)
    shared = len(q_tokens & d_tokens)
    for tok in q_tokens - d_tokens:
        if len(tok) >= 5 and process.extractOne(
            tok, d_tokens - q_tokens, scorer=fuzz.ratio, score_cutoff=JACCARD_FUZZY_MIN
        ):
            shared += 1
    union = len(q_tokens) + len(d_tokens) - shared
    return shared / union if union else 0.0


def _bonus(abbrevs: set[str], description: str) -> float:
    return ABBREVIATION_BONUS if abbrevs and abbrevs & set(fold(description).split()) else 0.0


def composite_scores(
    query: str, descriptions: Sequence[str], *, abbreviations_used: Sequence[str] = ()
) -> np.ndarray:
    """Composite scores of many descriptions at once (rapidfuzz ``cdist`` runs in C)."""
    q = fold(query)
    bodies = [_description_text(d) for d in descriptions]
    if not q or not bodies:
        return np.zeros(len(bodies), dtype=np.float64)
    q_tokens = _content_tokens(q)
    abbrevs = {fold(a) for a in abbreviations_used}

    def cd(scorer: object) -> np.ndarray:
        return process.cdist([q], bodies, scorer=scorer, dtype=np.float64)[0] / 100.0  # type: ignore[arg-type]

    score = _combine(
        cd(fuzz.token_sort_ratio),
        cd(fuzz.ratio),
        cd(fuzz.token_set_ratio),
        np.array([_jaccard(q_tokens, d) for d in bodies]),
        np.array([1.0 if d == q else 0.0 for d in bodies]),
        np.array([_bonus(abbrevs, d) for d in descriptions]),
    )
    return np.where(np.array([bool(b) for b in bodies]), score, 0.0)


def composite_score(
    query: str, description: str, *, abbreviations_used: Sequence[str] = ()
) -> tuple[float, dict[str, float]]:
    """Similarity in [0, 1] between a normalized query and one SNOMED description.

    ``description`` may be an FSN: its semantic tag is ignored for scoring (the tag is
    checked by the semantic-tag filter instead). Returns (score, components), the
    components being what a reviewer needs to see why the score is what it is.
    """
    q, d = fold(query), _description_text(description)
    if not q or not d:
        return 0.0, {}
    parts = {
        "token_sort": fuzz.token_sort_ratio(q, d) / 100.0,
        "ratio": fuzz.ratio(q, d) / 100.0,
        "token_set": fuzz.token_set_ratio(q, d) / 100.0,
        "jaccard": _jaccard(_content_tokens(q), d),
    }
    exact = 1.0 if q == d else 0.0
    bonus = _bonus({fold(a) for a in abbreviations_used}, description)
    score = _combine_one(*parts.values(), exact, bonus)
    if exact:
        parts["exact"] = 1.0
    if bonus:
        parts["abbreviation_bonus"] = bonus
    return score, {k: round(v, 4) for k, v in parts.items()}


# ---------------------------------------------------------------------------
# Terminology access (implemented by cardio_assets.terminology.store.SnomedStore)
# ---------------------------------------------------------------------------


class TermSearcher(Protocol):
    def candidate_descriptions(self, tokens: Sequence[str], limit: int) -> list[DescriptionHit]:
        """Descriptions sharing words with the query, best index score first."""
        ...

    def concept_details(self, concept_ids: Iterable[str]) -> dict[str, ConceptDetails]: ...


def ground_candidates(
    term: str,
    role: Role,
    searcher: TermSearcher,
    abbreviations: Mapping[str, str],
    *,
    top_k: int = DEFAULT_TOP_K,
    pool: int = DEFAULT_POOL,
    interface_terms: Mapping[str, str] | None = None,
) -> list[GroundingCandidate]:
    """Top-k concepts for a term, scored, threshold-free and filter-free.

    Both the expanded and the unexpanded text are searched (a release may list the
    abbreviation itself as a synonym); each concept keeps its best-scoring description.
    A name listed in ``interface_terms`` (configs/pipeline.yaml) is also searched as the
    SNOMED CT description it stands for.
    """
    norm = normalize_term(term, abbreviations)
    if norm.rejected:
        return []
    variants = [norm.search_text]
    if norm.unexpanded and norm.unexpanded != norm.search_text:
        variants.append(norm.unexpanded)
    stands_for = _folded_interface_terms(tuple(sorted((interface_terms or {}).items())))
    if norm.search_text in stands_for:
        variants.append(stands_for[norm.search_text])
    past = _PAST_EVENT.match(norm.search_text)
    if past and role == "Condition":
        # "previous MI" is the situation "History of myocardial infarction" where the
        # terminology has one; the disorder itself still competes (and wins without it)
        variants.append(f"history of {norm.search_text[past.end() :]}")

    hits: dict[tuple[str, str], DescriptionHit] = {}
    for i, variant in enumerate(variants):
        tokens = search_tokens(variant)[:MAX_QUERY_TOKENS]
        # the unexpanded form only looks for the abbreviation itself as a synonym
        for hit in searcher.candidate_descriptions(tokens, pool if i == 0 else max(pool // 3, 10)):
            hits.setdefault((hit.concept_id, hit.term), hit)

    # Score every hit against each variant in one batch; a concept keeps its best
    # description. Ties prefer the FSN, then the shorter description (deterministic).
    hit_list = list(hits.values())
    terms = [h.term for h in hit_list]
    scores = np.zeros(len(hit_list))
    for variant in variants:
        used = norm.abbreviations_used if variant == norm.search_text else ()
        scores = np.maximum(scores, composite_scores(variant, terms, abbreviations_used=used))
    best: dict[str, tuple[float, DescriptionHit]] = {}
    for hit, score in zip(hit_list, scores.tolist(), strict=True):
        current = best.get(hit.concept_id)
        key = (score, hit.is_fsn, -len(hit.term))
        if current is None or key > (current[0], current[1].is_fsn, -len(current[1].term)):
            best[hit.concept_id] = (score, hit)

    ranked = sorted(best.items(), key=lambda kv: (-kv[1][0], kv[0]))[:top_k]
    details = searcher.concept_details([cid for cid, _ in ranked])
    out: list[GroundingCandidate] = []
    for rank, (cid, (score, hit)) in enumerate(ranked, 1):
        info = details.get(cid)
        if info is None:
            continue
        # components of the winning description, for the explanation
        parts = composite_score(variants[0], hit.term, abbreviations_used=norm.abbreviations_used)
        for variant in variants[1:]:
            if parts[0] >= score:
                break
            parts = composite_score(variant, hit.term)
        parts = parts[1]
        out.append(
            GroundingCandidate(
                term=term,
                role=role,
                query=norm.search_text,
                rank=rank,
                concept_id=cid,
                fsn=info.fsn,
                semantic_tag=info.semantic_tag,
                matched_term=hit.term,
                matched_is_fsn=hit.is_fsn,
                score=score,
                score_components=parts,
                taxonomy_path=[TaxonomyStep(concept_id=c, term=t) for c, t in info.taxonomy_path],
                ancestor_ids=sorted(info.ancestor_ids),
            )
        )
    return out


# ---------------------------------------------------------------------------
# Per-role filters (configs/guideline_graph_schema.yaml, loaded by cardio_assets.config)
# ---------------------------------------------------------------------------


def decide(candidate: GroundingCandidate, rule: RoleFilter) -> GroundingDecision:
    """Run every filter on one candidate and say which kept or dropped it and why.

    Order of reasoning: a candidate must reach ``min_match_score``. It is in domain
    when its taxonomy path (itself + is-a ancestors) contains an allowed root AND its
    FSN tag is allowed (each check is skipped when its list is empty). An off-domain
    candidate survives only if ``off_domain_min_score`` is set and reached: a near
    exact name match outweighs an imperfect subset hierarchy, a fuzzy one never does.
    """
    checks: list[FilterCheck] = []
    score = candidate.score
    score_ok = score >= rule.min_match_score
    checks.append(
        FilterCheck(
            filter="min_match_score",
            passed=score_ok,
            detail=f"score {score:.2f} {'>=' if score_ok else '<'} min_match_score {rule.min_match_score:.2f}",
        )
    )
    # the words of the term and of the concept's names, folded once for the four checks
    asked, matched = words(candidate.query), words(candidate.matched_term)
    named = matched + words(candidate.fsn)
    lost = qualifiers_lost(asked, named)
    added = qualifiers_added(candidate.query, candidate.matched_term, asked, matched)
    opposite = wrong_kind(asked, named)
    # (a score of 1.0 is an exact or curated name: "CMR" is "Magnetic resonance imaging of
    # heart" whatever words each side writes)
    left_out = [w for w in words_left_out(asked, named) if w not in lost] if score < 1.0 else []
    problems = (
        ([f"the concept drops the qualifier(s) {', '.join(lost)} of the term"] if lost else [])
        + (
            [f"the concept leaves out {', '.join(left_out)} of the term (a broader concept)"]
            if left_out
            else []
        )
        + ([f"the concept adds the qualifier(s) {', '.join(added)}"] if added else [])
        + ([f"the concept says {o} of the term" for o in opposite])
    )
    checks.append(
        FilterCheck(
            filter="qualifiers",
            passed=not problems,
            detail="; ".join(problems) or "the concept keeps every qualifier of the term",
        )
    )
    score_ok = score_ok and not problems
    lineage = {candidate.concept_id, *candidate.ancestor_ids}
    in_roots = True
    if rule.allowed_roots:
        hit_roots = [r for r in rule.allowed_roots if r in lineage]
        in_roots = bool(hit_roots)
        names = _root_names(candidate, rule.allowed_roots)
        checks.append(
            FilterCheck(
                filter="domain",
                passed=in_roots,
                detail=(
                    f"taxonomy path contains allowed root {_root_names(candidate, hit_roots)}"
                    if in_roots
                    else f"taxonomy path has none of the allowed roots {names}"
                ),
            )
        )
    tag_ok = True
    if rule.semantic_tags:
        tag_ok = candidate.semantic_tag.lower() in rule.semantic_tags
        checks.append(
            FilterCheck(
                filter="semantic_tag",
                passed=tag_ok,
                detail=f"semantic tag ({candidate.semantic_tag}) "
                + ("is in" if tag_ok else "is not in")
                + f" the allowlist {rule.semantic_tags}",
            )
        )
    in_domain = in_roots and tag_ok
    kept = score_ok and in_domain
    if score_ok and not in_domain:
        limit = rule.off_domain_min_score
        off_ok = limit is not None and score >= limit
        checks.append(
            FilterCheck(
                filter="off_domain_min_score",
                passed=off_ok,
                detail=(
                    "off-domain candidates are never kept for this role (off_domain_min_score not set)"
                    if limit is None
                    else f"off-domain candidate: score {score:.2f} {'>=' if off_ok else '<'} "
                    f"off_domain_min_score {limit:.2f}"
                ),
            )
        )
        kept = off_ok
    failed = [c for c in checks if not c.passed]
    if kept:
        reason = "kept: " + "; ".join(c.detail for c in checks)
    else:
        reason = "dropped by " + "+".join(c.filter for c in failed) + ": "
        reason += "; ".join(c.detail for c in failed)
    return GroundingDecision(
        concept_id=candidate.concept_id,
        fsn=candidate.fsn,
        score=score,
        kept=kept,
        checks=checks,
        reason=reason,
        taxonomy_path=candidate.taxonomy_path,
    )


def _root_names(candidate: GroundingCandidate, roots: Sequence[str]) -> str:
    names = {s.concept_id: s.term for s in candidate.taxonomy_path}
    return ", ".join(f"{r} |{names[r]}|" if r in names else r for r in roots)


def select_grounding(
    term: str,
    role: Role,
    candidates: Sequence[GroundingCandidate],
    rule: RoleFilter,
    *,
    standardized: str | None = None,
) -> GroundingOutcome:
    """Best kept candidate -> grounding_index entry; otherwise the reason it stays unmapped.

    ``standardized`` is the text stored as ``entity_standardized_candidate``; by default
    it is the normalized term with its threshold re-attached.
    """
    # equal scores: a drug class is the substance, not a product containing it (the role
    # schema lists the substance first)
    ordered = sorted(
        candidates,
        key=lambda c: (-c.score, c.semantic_tag.lower() != "substance", c.rank, c.concept_id),
    )
    decisions = [decide(c, rule) for c in ordered]
    winner_idx = next((i for i, d in enumerate(decisions) if d.kept), None)
    if winner_idx is None:
        if not decisions:
            reason = "no candidates (term empty, too long, or no description shares a word with it)"
        else:
            top = decisions[0]
            reason = f"no candidate passed the {role} filters; best was {top.concept_id} |{top.fsn}| ({top.reason})"
        return GroundingOutcome(term=term, role=role, unmapped_reason=reason, decisions=decisions)
    decisions[winner_idx] = decisions[winner_idx].model_copy(update={"selected": True})
    win = ordered[winner_idx]
    if standardized is None:
        measured = normalize_term(term, {})
        standardized = attach_measurement(
            win.query, measured.operator, measured.threshold, measured.unit
        )
    entry = GroundingIndexEntry(
        entity_standardized_candidate=standardized,
        snomed_id=int(win.concept_id),
        preferred_term=win.fsn,
        score=win.score,
        taxonomy_path=win.taxonomy_path,
        target_label=rule.target_label,
        term=term,
        role=role,
        matched_term=win.matched_term,
        semantic_tag=win.semantic_tag,
    )
    return GroundingOutcome(term=term, role=role, entry=entry, decisions=decisions)
