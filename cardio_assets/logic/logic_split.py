"""Splitting a phrase into its AND/OR structure ("A or B and C", "neither A nor B").

Shared by the lexicon extractor (which splits cohort and action phrases) and the merge
stage (which splits OR phrases an LLM returned as one concept), so both backends split
the same way. Precedence follows reading convention in guideline text: AND binds tighter
than OR, so "A or B and C" is A OR (B AND C). "neither A nor B" is (NOT A) AND (NOT B).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Literal

from cardio_assets.logic.coordination import (
    CLAUSE_WORDS,
    GRADES,
    REFUSAL_VERB,
    adjective_shaped,
    coordinate_adjective,
    expand_shared_heads,
    kinds_after_head,
    lists_joined_by_comma_and,
)
from cardio_assets.logic.ellipsis import ARTICLE, complete_ellipsis, joins

NEGATION_PREFIX = re.compile(
    # ("who are fit and have no X": the verb stays on the second conjunct, but "has no role /
    # proven benefit" says what the act does not bring; "a negative family history of X": no
    # family history of it)
    r"^(?:in\s+the\s+absence\s+of|absence\s+of|without(?:\s+any)?|"
    r"(?:has|have|had|having)\s+no(?!\s+(?:established\s+|proven\s+|clear\s+)?"
    r"(?:role|place|benefit|effect)s?\b)(?:\s+evidence\s+of)?|no(?:\s+evidence\s+of)?|"
    r"(?:an?\s+)?negative(?=\s+family\s+history\b)|"
    r"free\s+(?:of|from)|lack(?:s|ing)?(?:\s+of)?|not\s+having|"
    # "(if) not on anticoagulation", "not previously on diuretics": no such therapy
    r"not\s+(?:(?:yet|previously|currently|already)\s+)?(?:on|receiving|taking|using)|"
    # "after exclusion of reversible causes": the causes ruled out are absent
    r"(?:the\s+)?exclusion\s+of(?:\s+all)?(?=\s+(?:(?:other|reversible|secondary|possible)\s+)?"
    r"(?:causes?|contraindications?)\b))\s+",
    re.IGNORECASE,
)
_EXCLUDED = re.compile(r"^(?:the\s+)?exclusion\s+of\b", re.IGNORECASE)
_POSITIVE_PREFIX = re.compile(r"^(?:with|who|having|and\s+with)\b", re.IGNORECASE)

# Words after "or"/"and" that make it part of a value, not a logical connector; hyphened
# to the next word the same word starts a compound adjective ("and lower-extremity",
# "and above-target") and the connector joins two names, unless what comes before is a
# grade or a number ("moderate or higher-grade", "two or more-vessel"): one range still
_PROTECTED_AFTER = re.compile(
    r"(?P<before>\S*)(?P<joint>\s+(?:or|and)\s+(?:less|lower|below|under|fewer|more|greater|higher|"
    r"above|over|older|younger|equal(?:\s+to)?|longer|shorter)\b)(?P<hyphen>-)?",
    re.IGNORECASE,
)


def _protected_joint(m: re.Match[str]) -> str:
    """The masked form of one value-joining "or/and <comparison word>" (see above)."""
    before = m["before"].lower().strip(",;")
    ranged = before in GRADES or bool(re.fullmatch(r"\d+(?:[.,]\d+)?%?|one|two|three|four", before))
    if m["hyphen"] and not ranged:
        return m[0]
    return m["before"] + "_" * len(m["joint"]) + (m["hyphen"] or "")


_PROTECTED_BETWEEN = re.compile(r"\bbetween\s+\S+(?:\s+\S+)?\s+and\s+\S+", re.IGNORECASE)
_CONNECTOR = r"and/or|and|or|nor|plus|\+|but|together\s+with|as\s+well\s+as"
_SEPARATOR = re.compile(
    rf"\s*[,;]\s*(?:(?P<c1>{_CONNECTOR})\s+)?|\s+(?P<c2>{_CONNECTOR})\s+",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Leaf:
    text: str
    negated: bool = False
    # Elliptical coordination: "paroxysmal" in "paroxysmal or persistent AF" stands for
    # "paroxysmal AF"; the verbatim text stays minimal, ``full`` names the concept.
    full: str | None = None


@dataclass(frozen=True)
class Expr:
    op: Literal["AND", "OR"]
    children: tuple[Leaf | Expr, ...]


Node = Leaf | Expr


def leaves(node: Node) -> list[Leaf]:
    """Leaves in reading order."""
    if isinstance(node, Leaf):
        return [node]
    out: list[Leaf] = []
    for child in node.children:
        out.extend(leaves(child))
    return out


def _mask(text: str) -> str:
    """Same-length copy with parenthesised text and value phrases blanked out,
    so separators are only found at the top level of the phrase."""
    chars = list(text)
    depth = 0
    quoted = False  # a coined name in curly quotes ("“ablate and pace”") is one item
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        quoted = quoted or ch == "“"
        if depth > 0 or quoted:
            chars[i] = "_"
        if ch in ")]" and depth > 0:
            depth -= 1
        quoted = quoted and ch != "”"
    masked = _PROTECTED_AFTER.sub(_protected_joint, "".join(chars))
    return _PROTECTED_BETWEEN.sub(lambda m: "_" * len(m.group(0)), masked)


def _strip_item(text: str) -> str:
    text = text.strip(" ,;.")
    return re.sub(r"^(?:either|both)\s+", "", text, flags=re.IGNORECASE)


def split_logic(
    text: str,
    keep_together: Callable[[str], bool] | None = None,
    tight: Collection[str] = (),
) -> Node:
    """Parse ``text`` into an AND/OR tree of verbatim leaf phrases.

    ``keep_together`` may veto a split when the whole phrase (or two joined items) is a
    known term, e.g. a terminology description containing "and". The "or" inside a phrase
    of ``tight`` binds tightest: the lexicon lists there the pairs it wrote for a slash
    ("raised NT-proBNP/BNP" in "dyspnoea and raised NT-proBNP/BNP" is one alternative).
    """
    text = _strip_item(text)
    if not text:
        return Leaf("")
    if keep_together is not None and keep_together(text):
        return Leaf(text)

    neither = re.match(r"^neither\s+", text, flags=re.IGNORECASE)
    if neither:
        body = text[neither.end() :]
        parts = [
            _strip_item(p)
            for p in re.split(r"\s*,\s*(?:nor\s+)?|\s+nor\s+", body, flags=re.IGNORECASE)
        ]
        return Expr("AND", tuple(Leaf(p, negated=True) for p in parts if p))

    masked = _mask(text)
    clauses = _negated_clauses(text, masked) or _listed_clauses(text, masked)
    if clauses:
        return _join_clauses(clauses, keep_together, tight)
    joint = lists_joined_by_comma_and(masked)
    if joint is not None:  # "A or B, and C or D": one of each list
        halves = (text[:joint], re.sub(r"^,\s+and\s+", "", text[joint:], flags=re.I))
        return Expr("AND", tuple(split_logic(half, keep_together, tight) for half in halves))
    tight_spans = [
        (found.start(), found.end())
        for pair in tight
        for found in re.finditer(re.escape(pair), text)
    ]
    items: list[str] = []
    connectors: list[str] = []
    start = 0
    after_but: set[str] = set()  # items a "but" opens: no negation carries into them
    for match in _SEPARATOR.finditer(masked):
        items.append(text[start : match.start()])
        conn = re.sub(r"\s+", " ", (match.group("c1") or match.group("c2") or ",").lower())
        if conn == "but":
            following = _SEPARATOR.search(masked, match.end())
            after_but.add(_strip_item(text[match.end() : following.start() if following else None]))
        paired = conn == "or" and any(
            a <= match.start() and match.end() <= b for a, b in tight_spans
        )
        connectors.append("or*" if paired else _CONNECTOR_MEANING.get(conn, conn))
        start = match.end()
    items.append(text[start:])
    items = [_strip_item(i) for i in items]
    items, connectors, shared_heads = expand_shared_heads(items, connectors, keep_together)
    items, connectors = _split_causes(items, connectors)

    # Drop empty items (e.g. "A, and B" produced an empty piece) with their connector.
    cleaned_items: list[str] = []
    cleaned_conns: list[str] = []
    for i, item in enumerate(items):
        if not item:
            continue
        if cleaned_items:
            cleaned_conns.append(connectors[i - 1] if i - 1 < len(connectors) else "and")
        cleaned_items.append(item)
    items, connectors = cleaned_items, cleaned_conns
    if len(items) == 1:
        return _leaf(items[0])
    if kinds := kinds_after_head(items, connectors):  # "pericarditis, acute or recurrent"
        return Expr("OR", tuple(_leaf(kind, full) for kind, full in kinds))

    # Re-join shared modifiers, roman-numeral lists and known multi-word terms before
    # commas are resolved, so "NYHA class II or III" never reads as two conditions.
    merged_items = [items[0]]
    merged_conns: list[str] = []
    completions: dict[int, str] = {}  # item index -> completed name
    of_head = _of_head(items[0])  # "history of" in "history of MI or stroke", lent onward
    # only the list's first item lends to a comma list; items a semicolon ends are whole
    lends_across_commas = of_head is not None and ";" not in text
    verb_head = _verb_head(items[0])  # "cannot tolerate" in "cannot tolerate A, B or C"
    for position, (conn, item) in enumerate(zip(connectors, items[1:], strict=True)):
        previous = merged_items[-1]
        following = connectors[position + 1] if position + 1 < len(connectors) else None
        if conn == "," and coordinate_adjective(previous, item, following):
            # "symptomatic, recurrent AVNRT": adjectives in a row before one noun
            merged_items[-1] = f"{previous}, {item}"
            completions[len(merged_items) - 1] = f"{previous} {item}".replace(",", "")
            continue
        if conn == "or*":  # a shared head or a list of causes expanded above: kept apart
            if merged_items[-1] in shared_heads:
                completions[len(merged_items) - 1] = shared_heads[merged_items[-1]]
            if item in shared_heads:  # the second word of "pre A/B post" borrows "pre"
                completions[len(merged_items)] = shared_heads[item]
            merged_items.append(item)
            merged_conns.append(conn)
            continue
        complement = _WITH_COMPLEMENT.match(item) if conn != "," else None
        head_words = ARTICLE.sub("", previous).lower().split()
        if (
            complement
            and head_words
            and head_words[-1] in _FINDING_NOUNS
            and not CLAUSE_WORDS.intersection(head_words)  # "diabetes with signs" is no head
        ):
            # "signs or symptoms of congestion": the first borrows the complement
            completions[len(merged_items) - 1] = f"{previous} of {complement['what']}"
            merged_items.append(item)
            merged_conns.append(conn + "*")
            continue
        graded = _GRADED_RISK.match(item) if conn == "and" else None
        if graded and _RISK_GRADE.fullmatch(ARTICLE.sub("", previous)):
            # "at high and very high risk": no one is at both grades, so the "and" joins two
            # groups of patients (the contract's distributive "and"), each with the head
            completions[len(merged_items) - 1] = f"{previous} {graded['head']}"
            merged_items.append(item)
            merged_conns.append("or*")
            continue
        joined = f"{previous} {conn} {item}"
        if conn != "," and joins(previous, item, joined, keep_together):
            merged_items[-1] = joined
            continue
        if conn != ",":
            completed = complete_ellipsis(previous, item)
            for index, full in completed.items():
                completions[len(merged_items) - 1 + index] = full
            if completed:
                conn = conn + "*"  # local: binds its two items only
        merged_items.append(item)
        merged_conns.append(conn)
        alternative = conn.rstrip("*") in ("or", "and/or") or (
            conn == ","
            and next((c for c in connectors[position + 1 :] if c != ","), None) in ("or", "and/or")
        )
        if verb_head and alternative and _bare_alternative(item):
            # a verb's object list: every drug of "cannot tolerate A, B or C" is not tolerated
            completions.setdefault(len(merged_items) - 1, f"{verb_head} {item}")
            continue
        verb_head = None
        if (
            of_head
            and alternative
            # across a comma only from the list's first item, and never to a capitalised
            # entry of a printed list ("… • Resistant hypertension"); over an "or" always
            # ("history of rheumatic fever or Kawasaki disease")
            and (conn != "," or (lends_across_commas and not re.match(r"[A-Z][a-z]", item)))
            and _bare_alternative(item)
            and len(merged_items) - 1 not in completions
        ):
            completions[len(merged_items) - 1] = f"{of_head} {item}"
            of_head = None  # the next alternative only: a longer list may change its head
        else:
            # "smoking, family history of X, hypertension, or Y": a head met inside a comma
            # list lends only across its own "or"
            of_head = _of_head(item)
            lends_across_commas = False
    _lend_head_to_listed_adjectives(merged_items, merged_conns, completions)
    items, connectors = merged_items, merged_conns
    if len(items) == 1:
        return _leaf(items[0], completions.get(0))

    connectors = _resolve_commas(connectors)

    leaf_nodes = [_leaf(item, completions.get(i)) for i, item in enumerate(items)]
    plain = [c.rstrip("*") for c in connectors]
    leaf_nodes, plain = _distribute_negation(items, leaf_nodes, plain, after_but)

    # Elliptical pairs bind tightest: "A, NYHA class II or III and B" is
    # A AND (II OR III) AND B.
    nodes: list[Node] = [leaf_nodes[0]]
    conns: list[str] = []
    for i, node in enumerate(leaf_nodes[1:]):
        if connectors[i].endswith("*"):
            previous = nodes[-1]
            op = "OR" if plain[i] == "or" else "AND"
            if isinstance(previous, Expr) and previous.op == op:
                nodes[-1] = Expr(op, (*previous.children, node))
            else:
                nodes[-1] = Expr(op, (previous, node))
            continue
        nodes.append(node)
        conns.append(plain[i])

    return _and_before_or(nodes, conns)


def _lend_head_to_listed_adjectives(
    items: list[str], conns: list[str], completions: dict[int, str]
) -> None:
    """ "dental, respiratory or genitourinary procedures": the pair before the head borrowed
    it ("respiratory procedures"); each lone relational adjective listed before the pair,
    comma by comma, borrows it too and joins the pair's alternatives."""
    for pair in range(len(conns)):
        full = completions.get(pair, "")
        if not (conns[pair].endswith("*") and full.startswith(f"{items[pair]} ")):
            continue
        head = full[len(items[pair]) :]
        partner = items[pair + 1].split() if pair + 1 < len(items) else []
        if (
            len(items[pair].split()) != 1
            # the pair's other item is "<adjective> <head>" ("or genitourinary procedures"),
            # so the head is plain ("major abdominal surgery" lends no "abdominal surgery")
            or not partner
            or not adjective_shaped(partner[0])
            or partner[1:] != head.split()
        ):
            continue
        listed = pair - 1
        while (
            listed >= 0
            and conns[listed] == ","
            and len(items[listed].split()) == 1
            and adjective_shaped(items[listed])
            and listed not in completions
        ):
            completions[listed] = items[listed] + head
            conns[listed] = conns[pair]
            listed -= 1


# what each connector means between two items
_CONNECTOR_MEANING = {
    "and/or": "or",
    "nor": "or",
    "plus": "and",
    "+": "and",
    "but": "and",
    "together with": "and",
    "as well as": "and",
}


def _resolve_commas(connectors: list[str]) -> list[str]:
    """A bare comma takes the kind of the next explicit connector ("A, B, or C"), else the
    previous one; a list of commas only reads as AND. Local connectors of an elliptical pair
    ("NYHA class II or III", marked "or*") do not count."""
    resolved: list[str] = []
    for i, conn in enumerate(connectors):
        if conn != ",":
            resolved.append(conn)
            continue
        after = next((c for c in connectors[i + 1 :] if c in ("and", "or")), None)
        before = next((c for c in reversed(connectors[:i]) if c in ("and", "or")), None)
        resolved.append(after or before or "and")
    return resolved


def _and_before_or(nodes: list[Node], conns: list[str]) -> Node:
    """Nodes joined by "and" / "or" connectors, AND binding tighter than OR."""
    groups: list[list[Node]] = [[nodes[0]]]
    for conn, node in zip(conns, nodes[1:], strict=True):
        if conn == "or":
            groups.append([node])
        else:
            groups[-1].append(node)
    parts: list[Node] = [g[0] if len(g) == 1 else Expr("AND", tuple(g)) for g in groups]
    return parts[0] if len(parts) == 1 else Expr("OR", tuple(parts))


# "syncope due to SVT or VT": a finding and its possible causes
_CAUSE = re.compile(r"^(?P<head>.+?)\s+(?:due|secondary)\s+to\s+(?P<cause>\S.*)$", re.IGNORECASE)


def _split_causes(items: list[str], connectors: list[str]) -> tuple[list[str], list[str]]:
    """ "X due to A or B" is X and (A or B): one name cannot hold alternative causes, so the
    finding and each cause become concepts, the causes one local OR. A single cause stays in
    the finding's name ("syncope due to orthostatic hypotension")."""
    for index, item in enumerate(items[:-1]):
        match = _CAUSE.match(item)
        if not match or connectors[index] not in ("or", ","):
            continue
        run_end = index
        while run_end < len(connectors) and connectors[run_end] in ("or", ","):
            run_end += 1
        if "or" not in connectors[index:run_end]:
            continue
        causes = ["or*"] * (run_end - index)
        return (
            [*items[:index], match["head"], match["cause"], *items[index + 1 :]],
            [*connectors[:index], "and", *causes, *connectors[run_end:]],
        )
    return items, connectors


# "signs or symptoms of congestion" are signs of congestion or symptoms of congestion (the
# contract, section 6: shared heads distributed); "symptoms or history of cardiac arrest" are
# symptoms, or a history of it: only the two findings share the complement
_FINDING_NOUNS = frozenset("signs sign symptoms symptom".split())
# A head that lends itself to the alternatives after it: "(family) history of MI or stroke",
# "high risk of arrhythmia and/or device dysfunction", "suspicion of effusion or X" (the
# contract, section 6: shared heads distributed; real-row golds name each so)
_OF_HEAD = re.compile(
    r"^(?:(?:no|without|not|any)\s+)*"  # the negation is the item's, not the head's
    r"(?P<head>(?:(?!no\b|without\b)[a-z]+\s+){0,2}?(?:history|risk|suspicion|evidence)\s+of)\s+\S",
    re.I,
)


# A verb whose object list is one list of alternatives: "cannot tolerate beta-blockers,
# ivabradine or digoxin", "contraindications to aspirin or clopidogrel" (each drug its own state)
_VERB_HEAD = re.compile(
    r"^(?:who\s+)?(?P<head>(?:(?:(?:cannot|can\s+not|could\s+not|unable\s+to|(?:do|does|did)\s+not)"
    r"\s+tolerate|"
    r"intolerant\s+(?:of|to)|(?:have\s+|has\s+)?contraindications?\s+(?:to|for))\s"
    # ("who decline A or B": each therapy declined)
    rf"|{REFUSAL_VERB}))\S",
    re.I,
)


def _verb_head(item: str) -> str | None:
    match = _VERB_HEAD.match(item)
    return match["head"].strip() if match else None


def _of_head(item: str) -> str | None:
    """The head an item lends, if any; a recent event is named without its history ("recent
    history of stroke/TIA" are a stroke and a TIA)."""
    match = _OF_HEAD.match(ARTICLE.sub("", item))
    return match["head"] if match and "recent" not in match["head"].lower() else None


def _bare_alternative(item: str) -> bool:
    """A short noun phrase that can take a lent head: no clause word, no "of" of its own,
    no value."""
    words = item.split()
    return (
        0 < len(words) <= 4
        and not CLAUSE_WORDS.intersection(w.lower() for w in words)
        and not re.match(r"^[<>≤≥\d]", item)
    )


_WITH_COMPLEMENT = re.compile(r"^(?:signs?|symptoms?)\s+of\s+(?P<what>\S.*)$", re.I)
# a grade of risk alone, and one with the risk it grades ("very high CV risk")
_GRADE = r"(?:very\s+)?(?:low|intermediate|moderate|high)"
_RISK_GRADE = re.compile(rf"(?:at\s+)?{_GRADE}", re.IGNORECASE)
_GRADED_RISK = re.compile(rf"^{_GRADE}\s+(?P<head>(?:[\w\-]+\s+){{0,3}}?risk\b.*)$", re.IGNORECASE)


def _leaf(item: str, full: str | None = None) -> Leaf:
    match = NEGATION_PREFIX.match(item)
    if match:
        # ("free of structural and ischaemic heart disease": the completed first name loses
        # the negation's words too)
        whole = NEGATION_PREFIX.match(full) if full else None
        return Leaf(
            item[match.end() :].strip(),
            negated=True,
            full=full[whole.end() :].strip() if full and whole else full,
        )
    return Leaf(item, full=full)


def _distribute_negation(
    items: list[str],
    nodes: list[Leaf],
    connectors: list[str],
    after_but: Collection[str] = frozenset(),
) -> tuple[list[Leaf], list[str]]:
    """ "without A or B" means without A and without B: the negation carries over to
    following bare items, and the OR between negated items becomes AND (De Morgan); "no A
    but B" contrasts B with A, so the negation stops at "but"."""
    out_nodes = list(nodes)
    out_conns = list(connectors)
    for i in range(1, len(nodes)):
        prev, cur = out_nodes[i - 1], out_nodes[i]
        raw = items[i]
        bare = (
            not NEGATION_PREFIX.match(raw)
            and not _POSITIVE_PREFIX.match(raw)
            and raw.strip() not in after_but
            and not _EXCLUDED.match(items[i - 1])  # "exclusion of causes, stable state"
        )
        if prev.negated and not cur.negated and bare and not re.search(r"\d|⟦", raw):
            out_nodes[i] = Leaf(cur.text, negated=True, full=cur.full)
            out_conns[i - 1] = "and"
        elif prev.negated and cur.negated and out_conns[i - 1] == "or":
            out_conns[i - 1] = "and"
    return out_nodes, out_conns


_CLAUSE_SEMICOLON = re.compile(rf";\s*(?:(?P<conn>{_CONNECTOR})\s+)?", re.IGNORECASE)
_NEGATION_WORD = re.compile(r"\b(?:without|no|absence|lack|free\s+of|not)\b", re.IGNORECASE)


# a connector inside one semicolon item ("an ACE inhibitor or an ARNI")
_INNER_CONNECTOR = re.compile(rf"\s(?:{_CONNECTOR})\s", re.IGNORECASE)


def _semicolon_clauses(text: str, cuts: list[re.Match[str]]) -> list[tuple[str, str]]:
    """The pieces of ``text`` between its top-level semicolons, each with the connector
    written after the semicolon before it ("," when none)."""
    clauses: list[tuple[str, str]] = []
    start, connector = 0, ""
    for cut in cuts:
        clauses.append((connector, text[start : cut.start()]))
        connector = re.sub(r"\s+", " ", (cut.group("conn") or ",").lower())
        start = cut.end()
    clauses.append((connector, text[start:]))
    return clauses


def _negated_clauses(text: str, masked: str) -> list[tuple[str, str]]:
    """ "no response to drugs; or recurrent syncope": a semicolon ends the clause a
    negation governs, so the clauses are read one by one. Returns (connector before,
    clause) pairs, or nothing when no clause before a semicolon holds a negation."""
    cuts = list(_CLAUSE_SEMICOLON.finditer(masked))
    if not cuts:
        return []
    clauses = _semicolon_clauses(text, cuts)
    if not any(_NEGATION_WORD.search(clause) for _, clause in clauses[:-1]):
        return []
    return [(conn, clause) for conn, clause in clauses if clause.strip(" ,;.")]


def _listed_clauses(text: str, masked: str) -> list[tuple[str, str]]:
    """ "an ACE inhibitor or an ARNI; a beta-blocker; and an SGLT2 inhibitor": items a
    semicolon ends, the last opened by "and", are all required; an "or" inside one binds only
    its own item. Returns (connector before, item) pairs, or nothing when the last semicolon
    has no "and" or no item joins words of its own. (A list after "any of the following:"
    has its "or" supplied before it gets here: noise_lists.py.)"""
    cuts = list(_CLAUSE_SEMICOLON.finditer(masked))
    if not cuts or (cuts[-1].group("conn") or "").lower() != "and":
        return []
    clauses = _semicolon_clauses(text, cuts)
    if not any(_INNER_CONNECTOR.search(_mask(clause)) for _, clause in clauses):
        return []
    return [(conn, clause) for conn, clause in clauses if clause.strip(" ,;.")]


def _join_clauses(
    clauses: list[tuple[str, str]],
    keep_together: Callable[[str], bool] | None,
    tight: Collection[str] = (),
) -> Node:
    """Clauses joined as their connectors say (a bare semicolon reads like a bare comma);
    AND binds tighter than OR."""
    nodes = [split_logic(clause, keep_together, tight) for _, clause in clauses]
    given = [_CONNECTOR_MEANING.get(conn, conn) for conn, _ in clauses[1:]]
    return _and_before_or(nodes, _resolve_commas(given))
