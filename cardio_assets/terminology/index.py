"""The search index: an inverted token index over every description, in numpy arrays.

Why numpy: DuckDB's fts extension cannot be downloaded here, and brute-force rapidfuzz
over 1.6M descriptions costs ~1.7 s per query. Posting lists per token (CSR arrays) + idf
weighting pick ~150 candidate descriptions in a few milliseconds; grounding's rapidfuzz
rescoring then looks at only those. The arrays are written at load time as one
uncompressed .npz (about 1 s to load at International scale); a missing one, or one whose
id differs from the store's build_id + tokenizer version, is rebuilt from DuckDB on open.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from rapidfuzz import fuzz, process

from cardio_assets.files import open_private
from cardio_assets.terminology import Progress, say
from cardio_assets.terminology.text import TOKENIZER_VERSION, search_tokens, split_semantic_tag


@dataclass(frozen=True)
class DescriptionHit:
    concept_id: str
    term: str
    is_fsn: bool


@dataclass(frozen=True)
class ConceptDetails:
    concept_id: str
    fsn: str
    semantic_tag: str
    taxonomy_path: list[tuple[str, str]] = field(default_factory=list)  # concept -> root
    ancestor_ids: frozenset[str] = frozenset()


def _blob(strings: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    encoded = [s.encode("utf-8") for s in strings]
    offsets = np.zeros(len(encoded) + 1, dtype=np.int64)
    np.cumsum([len(e) for e in encoded], out=offsets[1:])
    return np.frombuffer(b"".join(encoded), dtype=np.uint8), offsets


@dataclass
class TermIndex:
    """Inverted token index over all descriptions plus the concept data filters need."""

    build_id: str  # "<store build_id>/<tokenizer version>"
    vocab: list[str]  # sorted tokens
    post_offsets: np.ndarray  # int64 [V+1]
    post_docs: np.ndarray  # int32 description rows
    idf: np.ndarray  # float32 [V]
    doc_norm: np.ndarray  # float32 [D]: sum of idf of the description's tokens
    doc_concept: np.ndarray  # int32 [D] -> concept row
    doc_is_fsn: np.ndarray  # bool [D]
    doc_text: np.ndarray  # uint8 blob
    doc_text_off: np.ndarray  # int64 [D+1]
    concept_ids: np.ndarray  # int64 [C], sorted
    concept_fsn: np.ndarray  # uint8 blob
    concept_fsn_off: np.ndarray  # int64 [C+1]
    primary_parent: np.ndarray  # int32 [C], -1 = none
    anc_offsets: np.ndarray  # int64 [C+1]
    anc_rows: np.ndarray  # int32 ancestor concept rows
    _token_row: dict[str, int] = field(default_factory=dict, repr=False)
    _acc: np.ndarray | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        self._token_row = {t: i for i, t in enumerate(self.vocab)}
        self._vocab_arr = np.array(self.vocab, dtype=object)

    # ---- building
    @classmethod
    def build_from_db(cls, con, build_id: str, progress: Progress | None = None) -> TermIndex:  # type: ignore[no-untyped-def]
        concepts = con.execute(
            "SELECT concept_id, fsn, primary_parent FROM concept ORDER BY concept_id"
        ).fetchnumpy()
        concept_ids = concepts["concept_id"].astype(np.int64)
        parents = concepts["primary_parent"]
        parent_ids = np.where(np.ma.getmaskarray(parents), -1, np.ma.getdata(parents)).astype(
            np.int64
        )
        prow = np.searchsorted(concept_ids, parent_ids)
        prow = np.where(parent_ids < 0, -1, prow).astype(np.int32)

        desc = con.execute(
            "SELECT concept_id, term, is_fsn FROM description ORDER BY concept_id, NOT is_fsn, description_id"
        ).fetchnumpy()
        terms = list(desc["term"])
        doc_concept = np.searchsorted(concept_ids, desc["concept_id"].astype(np.int64)).astype(
            np.int32
        )
        say(progress, f"  tokenizing {len(terms):,} descriptions")
        token_id: dict[str, int] = {}
        doc_col = array("i")
        tok_col = array("i")
        for i, term in enumerate(terms):
            body, _tag = split_semantic_tag(term) if desc["is_fsn"][i] else (term, "")
            for tok in search_tokens(body, cached=False):
                tid = token_id.get(tok)
                if tid is None:
                    tid = token_id[tok] = len(token_id)
                doc_col.append(i)
                tok_col.append(tid)
        docs = np.frombuffer(doc_col, dtype=np.int32)
        toks = np.frombuffer(tok_col, dtype=np.int32)
        # renumber tokens in sorted order so prefix lookups can bisect the vocabulary
        vocab = sorted(token_id)
        remap = np.empty(len(token_id), dtype=np.int32)
        for new, tok in enumerate(vocab):
            remap[token_id[tok]] = new
        toks = remap[toks] if len(toks) else toks
        order = np.argsort(toks, kind="stable")
        post_docs = docs[order].astype(np.int32)
        df = np.bincount(toks, minlength=len(vocab)).astype(np.int64)
        post_offsets = np.zeros(len(vocab) + 1, dtype=np.int64)
        np.cumsum(df, out=post_offsets[1:])
        n_docs = max(len(terms), 1)
        idf = np.log1p(n_docs / np.maximum(df, 1)).astype(np.float32)
        doc_norm = np.bincount(docs, weights=idf[toks], minlength=len(terms)).astype(np.float32)

        say(progress, "  packing ancestors and names")
        anc = con.execute(
            "SELECT concept_id, ancestor_id FROM ancestor ORDER BY concept_id, depth, ancestor_id"
        ).fetchnumpy()
        anc_c = np.searchsorted(concept_ids, anc["concept_id"].astype(np.int64))
        anc_rows = np.searchsorted(concept_ids, anc["ancestor_id"].astype(np.int64)).astype(
            np.int32
        )
        anc_offsets = np.zeros(len(concept_ids) + 1, dtype=np.int64)
        np.cumsum(np.bincount(anc_c, minlength=len(concept_ids)), out=anc_offsets[1:])
        doc_text, doc_text_off = _blob(terms)
        fsn_blob, fsn_off = _blob(list(concepts["fsn"]))
        return cls(
            build_id=f"{build_id}/{TOKENIZER_VERSION}",
            vocab=vocab,
            post_offsets=post_offsets,
            post_docs=post_docs,
            idf=idf,
            doc_norm=doc_norm,
            doc_concept=doc_concept,
            doc_is_fsn=np.asarray(desc["is_fsn"], dtype=bool),
            doc_text=doc_text,
            doc_text_off=doc_text_off,
            concept_ids=concept_ids,
            concept_fsn=fsn_blob,
            concept_fsn_off=fsn_off,
            primary_parent=prow,
            anc_offsets=anc_offsets,
            anc_rows=anc_rows,
        )

    _ARRAYS = (
        "post_offsets",
        "post_docs",
        "idf",
        "doc_norm",
        "doc_concept",
        "doc_is_fsn",
        "doc_text",
        "doc_text_off",
        "concept_ids",
        "concept_fsn",
        "concept_fsn_off",
        "primary_parent",
        "anc_offsets",
        "anc_rows",
    )

    def save(self, path: Path) -> None:
        vocab_blob = np.frombuffer("\n".join(self.vocab).encode("utf-8"), dtype=np.uint8)
        with open_private(path, "wb") as fh:
            np.savez(
                fh,
                build_id=np.array(self.build_id),
                vocab=vocab_blob,
                **{name: getattr(self, name) for name in self._ARRAYS},
            )

    @classmethod
    def load(cls, path: Path) -> TermIndex:
        with np.load(path, allow_pickle=False) as data:
            vocab_text = data["vocab"].tobytes().decode("utf-8")
            return cls(
                build_id=str(data["build_id"]),
                vocab=vocab_text.split("\n") if vocab_text else [],
                **{name: data[name] for name in cls._ARRAYS},
            )

    # ---- querying
    def _text(self, row: int) -> str:
        a, b = self.doc_text_off[row], self.doc_text_off[row + 1]
        return self.doc_text[a:b].tobytes().decode("utf-8")

    def fsn(self, crow: int) -> str:
        a, b = self.concept_fsn_off[crow], self.concept_fsn_off[crow + 1]
        return self.concept_fsn[a:b].tobytes().decode("utf-8")

    def _fuzzy_tokens(self, tok: str) -> list[tuple[int, float]]:
        """Vocabulary words within one typo of an unknown word (same 3-letter prefix,
        rapidfuzz ratio >= 85), so "fibrilation" still reaches "fibrillation"."""
        if len(tok) < 4:
            return []
        lo = _bisect(self.vocab, tok[:3])
        hi = _bisect(self.vocab, tok[:3] + "\uffff")
        if hi - lo > 20000:
            return []
        found = process.extract(tok, self.vocab[lo:hi], scorer=fuzz.ratio, score_cutoff=85, limit=3)
        return [(lo + idx, score / 100.0) for _word, score, idx in found]

    def search_rows(self, tokens: Sequence[str], limit: int) -> np.ndarray:
        """Description rows ranked by idf-weighted two-sided token coverage."""
        weights: list[tuple[int, float]] = []
        q_total = 0.0
        max_idf = float(self.idf.max()) if len(self.idf) else 1.0
        for tok in tokens:
            row = self._token_row.get(tok)
            if row is not None:
                w = float(self.idf[row])
                weights.append((row, w))
                q_total += w
            else:
                q_total += max_idf  # unknown words lower every coverage equally
                for frow, sim in self._fuzzy_tokens(tok):
                    weights.append((frow, float(self.idf[frow]) * sim))
        if not weights or q_total <= 0:
            return np.empty(0, dtype=np.int64)
        with self._lock:
            if self._acc is None or len(self._acc) != len(self.doc_norm):
                self._acc = np.zeros(len(self.doc_norm), dtype=np.float32)
            acc = self._acc
            pieces = []
            for row, w in weights:
                docs = self.post_docs[self.post_offsets[row] : self.post_offsets[row + 1]]
                acc[docs] += np.float32(w)
                pieces.append(docs)
            pool = np.concatenate(pieces) if len(pieces) > 1 else pieces[0]
            if len(pool) > len(acc) // 8:
                pool = np.flatnonzero(acc)
            matched = acc[pool]
            acc[pool] = 0.0
        # 60 % query coverage (all the user's words present) + 40 % description coverage
        # (few extra words): exact names rank first, long descriptions sharing one word last.
        score = 0.6 * (matched / q_total) + 0.4 * (matched / np.maximum(self.doc_norm[pool], 1e-6))
        if len(pool) > limit * 2:
            top = np.argpartition(-score, limit * 2)[: limit * 2]
        else:
            top = np.arange(len(pool))
        top = top[np.argsort(-score[top], kind="stable")]
        rows = pool[top]
        _, first = np.unique(rows, return_index=True)
        return rows[np.sort(first)][:limit]

    def candidate_descriptions(self, tokens: Sequence[str], limit: int) -> list[DescriptionHit]:
        rows = self.search_rows(tokens, limit)
        return [
            DescriptionHit(
                concept_id=str(int(self.concept_ids[self.doc_concept[r]])),
                term=self._text(int(r)),
                is_fsn=bool(self.doc_is_fsn[r]),
            )
            for r in rows
        ]

    def concept_row(self, concept_id: str | int) -> int | None:
        cid = int(concept_id)
        row = int(np.searchsorted(self.concept_ids, cid))
        if row < len(self.concept_ids) and self.concept_ids[row] == cid:
            return row
        return None

    def concept_details(self, concept_ids: Iterable[str]) -> dict[str, ConceptDetails]:
        out: dict[str, ConceptDetails] = {}
        for cid in concept_ids:
            row = self.concept_row(cid)
            if row is None:
                continue
            fsn = self.fsn(row)
            path = []
            seen = set()
            r = row
            while r >= 0 and r not in seen:
                seen.add(r)
                path.append((str(int(self.concept_ids[r])), self.fsn(r)))
                r = int(self.primary_parent[r])
            anc = self.anc_rows[self.anc_offsets[row] : self.anc_offsets[row + 1]]
            out[str(cid)] = ConceptDetails(
                concept_id=str(cid),
                fsn=fsn,
                semantic_tag=split_semantic_tag(fsn)[1],
                taxonomy_path=path,
                ancestor_ids=frozenset(map(str, self.concept_ids[anc].tolist())),
            )
        return out


def _bisect(sorted_list: list[str], key: str) -> int:
    lo, hi = 0, len(sorted_list)
    while lo < hi:
        mid = (lo + hi) // 2
        if sorted_list[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo
