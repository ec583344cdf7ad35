"""A built store: what a store file must hold, and the opened store grounding searches.

Store layout (one DuckDB file, plus ``<file>.index.npz`` beside it):

- ``concept``: active concepts with FSN, semantic tag, definition status, shortest
  is-a distance to the root and a *primary parent* (the parent closest to the root,
  lowest id on ties) so one readable taxonomy path exists per concept.
- ``description``: active FSNs and synonyms of active concepts.
- ``isa``: active is-a edges between active concepts.
- ``ancestor``: the transitive closure (concept, ancestor, shortest depth).
- ``load_skip``: what was skipped and why, with counts and example ids.
- ``meta``: source, load time, counts, ``build_id`` (shared with the index file).

A file that is not such a store (the warehouse, a document, a truncated copy) is one
StoreError naming it and what to do, never a DuckDB traceback.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterable, Sequence
from contextlib import ExitStack
from pathlib import Path

import duckdb

from cardio_assets.errors import UserError
from cardio_assets.terminology import Progress, say
from cardio_assets.terminology.index import ConceptDetails, DescriptionHit, TermIndex
from cardio_assets.terminology.text import TOKENIZER_VERSION
from cardio_assets.warehouse import connect

STORE_FORMAT = 1

STORE_ENV = "CARDIO_SNOMED_STORE"


class StoreError(UserError):
    """A file given as a SNOMED CT store is missing, damaged or not a store at all."""


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


def read_store_meta(db_path: Path) -> dict[str, str]:
    """The ``meta`` table of a store built by ``load_rf2`` (format, build_id, ...).

    Raises StoreError naming the file when it is missing, not DuckDB, truncated, or a
    DuckDB file without a store's ``meta`` (the warehouse, say).
    """
    db_path = Path(db_path)
    if not db_path.is_file():
        what = "is a folder" if db_path.is_dir() else "does not exist"
        raise StoreError(f"{db_path} {what}: expected a SNOMED CT store file")
    try:
        with connect(db_path, read_only=True) as con:
            has_meta = con.execute(
                "SELECT count(*) FROM information_schema.tables WHERE table_name = 'meta'"
            ).fetchone()[0]
            meta = dict(con.execute("SELECT key, value FROM meta").fetchall()) if has_meta else {}
    except duckdb.Error as exc:
        raise StoreError(
            f"{db_path} cannot be read as a DuckDB store ({_first_line(exc)}): not a store, or "
            "truncated or damaged"
        ) from None
    if not meta.get("build_id") or not meta.get("format"):
        raise StoreError(
            f"{db_path} is a DuckDB file but not a SNOMED CT store (no meta table with format "
            "and build_id)"
        )
    return {str(k): str(v) for k, v in meta.items()}


def is_project_store(db_path: Path) -> bool:
    """True when ``db_path`` is a store some ``cardio snomed load`` built (any format)."""
    try:
        read_store_meta(db_path)
    except StoreError:
        return False
    return True


def _store_fix() -> str:
    """What to do about an unusable store (never "overwrite it": it may be the warehouse)."""
    return (
        f"point {STORE_ENV} (or --db) at a store built by `cardio snomed load RF2_DIR --db "
        f"FILE`, or unset {STORE_ENV} to use the bundled sample"
    )


def index_path_for(db_path: Path) -> Path:
    return Path(str(db_path) + ".index.npz")


# ---------------------------------------------------------------------------
# Opening a store
# ---------------------------------------------------------------------------


class SnomedStore:
    """A built store: DuckDB for SQL questions, the in-memory index for search."""

    def __init__(self, db_path: Path, index: TermIndex) -> None:
        self.db_path = Path(db_path)
        self.index = index
        self._held: duckdb.DuckDBPyConnection | None = None
        self._held_stack = ExitStack()
        self._held_lock = threading.Lock()

    def hold_connection(self) -> SnomedStore:
        """Keep one read-only connection for the SQL reads (is-a closure, descriptions)
        instead of opening the file for each (~20 ms a time): for a process that asks many
        questions, such as `cardio ask` or a service. Until ``close()``, a process that
        wants to write the file (`cardio snomed build`) waits for it."""
        with self._held_lock:
            if self._held is None:
                self._held = self._held_stack.enter_context(connect(self.db_path, read_only=True))
        return self

    def close(self) -> None:
        """Release the connection ``hold_connection`` kept (a no-op without one)."""
        with self._held_lock:
            self._held = None
            self._held_stack.close()

    @classmethod
    def open(cls, db_path: Path, *, progress: Progress | None = None) -> SnomedStore:
        """Open a store; StoreError (file named, fix given) when it is not a usable one."""
        db_path = Path(db_path)
        if not db_path.exists():
            raise StoreError(
                f"no SNOMED CT store at {db_path}; build one with "
                f"`cardio snomed load RF2_DIR --db {db_path}`"
            )
        try:
            meta = read_store_meta(db_path)
        except StoreError as exc:
            raise StoreError(f"{exc}; {_store_fix()}") from None
        if meta["format"] != str(STORE_FORMAT):
            raise StoreError(
                f"{db_path} has store format {meta['format']}, this code reads format "
                f"{STORE_FORMAT}; {_store_fix()}"
            )
        try:
            index = cls._open_index(db_path, meta["build_id"], progress)
        except duckdb.Error as exc:
            raise StoreError(f"{db_path} is damaged ({_first_line(exc)}); {_store_fix()}") from None
        return cls(db_path, index)

    @staticmethod
    def _open_index(db_path: Path, build_id: str, progress: Progress | None) -> TermIndex:
        idx_file = index_path_for(db_path)
        index = None
        if idx_file.exists():
            try:
                index = TermIndex.load(idx_file)
            except (OSError, ValueError, KeyError):
                index = None
        if index is not None and index.build_id == f"{build_id}/{TOKENIZER_VERSION}":
            return index
        say(progress, f"search index missing or stale for {db_path}: rebuilding from DuckDB")
        with connect(db_path, read_only=True) as con:
            index = TermIndex.build_from_db(con, build_id, progress)
        tmp = idx_file.with_name(idx_file.name + f".tmp-{os.getpid()}")
        try:
            index.save(tmp)
            os.replace(tmp, idx_file)
        except OSError:
            tmp.unlink(missing_ok=True)  # read-only location: keep it in memory only
        return index

    # TermSearcher protocol
    def candidate_descriptions(self, tokens: Sequence[str], limit: int) -> list[DescriptionHit]:
        return self.index.candidate_descriptions(tokens, limit)

    def concept_details(self, concept_ids: Iterable[str]) -> dict[str, ConceptDetails]:
        return self.index.concept_details(concept_ids)

    # The is-a closure and descriptions as `cardio ask` reads them (subsumption, names)
    def closure(self, concept_ids: Sequence[str], direction: str) -> dict[str, list[str]]:
        """Each id -> itself + its is-a ancestors (``up``) or descendants (``down``), nearest
        first, from the ``ancestor`` table; an id the store lacks maps to itself only."""
        if direction not in ("up", "down"):
            raise ValueError(f"direction must be 'up' or 'down', not {direction!r}")
        sql = (
            "SELECT concept_id, ancestor_id FROM ancestor WHERE concept_id IN (SELECT unnest(?)) "
            "ORDER BY concept_id, depth, ancestor_id"
            if direction == "up"
            else "SELECT ancestor_id, concept_id FROM ancestor "
            "WHERE ancestor_id IN (SELECT unnest(?)) ORDER BY ancestor_id, depth, concept_id"
        )
        found: dict[str, list[str]] = {str(i): [str(i)] for i in concept_ids}
        for key, other in self._rows(sql, concept_ids):
            found[str(key)].append(str(other))
        return found

    def descriptions(self, concept_id: str) -> list[tuple[str, bool]]:
        """(term, is_fsn) of one active concept, the FSN first."""
        return [
            (str(term), bool(is_fsn))
            for term, is_fsn in self._rows(
                "SELECT term, is_fsn FROM description WHERE concept_id IN (SELECT unnest(?)) "
                "ORDER BY is_fsn DESC, term",
                [concept_id],
            )
        ]

    def _rows(self, sql: str, concept_ids: Sequence[str]) -> list[tuple]:
        ids = [int(i) for i in concept_ids if str(i).isdigit()]
        if not ids:
            return []
        with self._held_lock:
            held = self._held.cursor() if self._held is not None else None
        if held is not None:  # a cursor per read: one connection is not shared by threads
            try:
                return held.execute(sql, [ids]).fetchall()
            finally:
                held.close()
        with connect(self.db_path, read_only=True) as con:
            return con.execute(sql, [ids]).fetchall()

    def source_sha256(self) -> str:
        with connect(self.db_path, read_only=True) as con:
            row = con.execute("SELECT value FROM meta WHERE key = 'source_sha256'").fetchone()
        return row[0] if row else ""

    def load_skips(self) -> list[tuple[str, int, list]]:
        with connect(self.db_path, read_only=True) as con:
            rows = con.execute(
                "SELECT reason, count, examples FROM load_skip ORDER BY reason"
            ).fetchall()
        return [(r, int(c), json.loads(e)) for r, c, e in rows]
