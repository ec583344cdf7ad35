"""SNOMED CT terminology store: RF2 Snapshot -> DuckDB + a numpy inverted token index.

Kept free of Dagster imports so ``cardio snomed load`` / ``cardio ground`` and the
benchmark start fast; ``resources.terminology.SnomedTerminology`` wraps it for Dagster.

Store layout (one DuckDB file, plus ``<file>.index.npz`` beside it):

- ``concept``: active concepts with FSN, semantic tag, definition status, shortest
  is-a distance to the root and a *primary parent* (the parent closest to the root,
  lowest id on ties) so one readable taxonomy path exists per concept.
- ``description``: active FSNs and synonyms of active concepts.
- ``isa``: active is-a edges between active concepts.
- ``ancestor``: the transitive closure (concept, ancestor, shortest depth).
- ``load_skip``: what was skipped and why, with counts and example ids.
- ``meta``: source, load time, counts, ``build_id`` (shared with the index file).

Search index (why numpy): DuckDB's fts extension cannot be downloaded here, and
brute-force rapidfuzz over 1.6M descriptions costs ~1.7 s per query. Posting lists
per token (CSR arrays) + idf weighting pick ~150 candidate descriptions in a few
milliseconds; rapidfuzz then rescores only those. The arrays are written at load time
as one uncompressed .npz (about 1 s to load at International scale); if the file is
missing, or its id differs from the store's build_id + tokenizer version, it is
rebuilt from DuckDB on first use (and saved when the folder is writable).

Loads are atomic: everything is built in temporary files beside the target,
validated, then renamed over it (index first; a crash between the two renames leaves
a build_id mismatch, which triggers an index rebuild, never a wrong answer).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import threading
import time
import uuid
import zipfile
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import numpy as np
from rapidfuzz import fuzz, process

from cardio_assets.errors import UserError
from cardio_assets.files import (
    OverwriteError,
    open_private,
    private_dir,
    refuse_input_as_output,
    write_private_text,
)
from cardio_assets.logic.grounding import (
    TOKENIZER_VERSION,
    ConceptDetails,
    DescriptionHit,
    search_tokens,
    split_semantic_tag,
)
from cardio_assets.warehouse import connect

_log = logging.getLogger(__name__)

ROOT_ID = 138875005
ISA_TYPE = 116680003
FSN_TYPE = 900000000000003001
SYNONYM_TYPE = 900000000000013009
STORE_FORMAT = 1

Progress = Callable[[str], None]

RF2_FILES: dict[str, tuple[str, list[str]]] = {
    # kind -> (file name prefix as in real releases, exact RF2 header)
    "concept": (
        "sct2_Concept_Snapshot",
        ["id", "effectiveTime", "active", "moduleId", "definitionStatusId"],
    ),
    "description": (
        "sct2_Description_Snapshot",
        [
            "id",
            "effectiveTime",
            "active",
            "moduleId",
            "conceptId",
            "languageCode",
            "typeId",
            "term",
            "caseSignificanceId",
        ],
    ),
    "relationship": (
        "sct2_Relationship_Snapshot",
        [
            "id",
            "effectiveTime",
            "active",
            "moduleId",
            "sourceId",
            "destinationId",
            "relationshipGroup",
            "typeId",
            "characteristicTypeId",
            "modifierId",
        ],
    ),
}
_NUMERIC = {
    "concept": ["id", "effectiveTime", "active", "definitionStatusId"],
    "description": ["id", "effectiveTime", "active", "conceptId", "typeId"],
    "relationship": ["id", "effectiveTime", "active", "sourceId", "destinationId", "typeId"],
}


class RF2Error(ValueError):
    """The release cannot be loaded; the message names the file (and line) and the fix."""


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


def check_load_target(db_path: Path, source: Path, *, force: bool = False) -> None:
    """Refuse a load that would destroy a file the user did not mean to replace.

    The target may be missing or a store the project built; anything else (the warehouse,
    a document, a damaged store) needs ``force``. The release itself is never a target.
    """
    refuse_input_as_output(db_path, [source])
    if db_path.is_dir():
        raise OverwriteError(f"{db_path} is a folder: give --db a file path for the store")
    if not os.path.lexists(db_path) or force:
        return
    try:
        read_store_meta(db_path)
    except StoreError as exc:
        raise OverwriteError(
            f"refusing to replace {db_path}: {exc}. Choose another --db path, or pass --force "
            "to replace it"
        ) from None


@dataclass
class LoadReport:
    db_path: Path
    source: str
    files: dict[str, list[str]]
    counts: dict[str, int]
    skips: dict[str, dict[str, object]]  # reason -> {"count": n, "examples": [...]}
    seconds: float = 0.0
    size_bytes: int = 0
    index_bytes: int = 0

    def lines(self) -> list[str]:
        out = [
            f"store: {self.db_path} ({self.size_bytes / 1e6:.1f} MB + index {self.index_bytes / 1e6:.1f} MB)"
        ]
        out.append("loaded: " + ", ".join(f"{k} {v:,}" for k, v in self.counts.items()))
        for reason, info in self.skips.items():
            ex = ", ".join(str(e) for e in info.get("examples", []))  # type: ignore[union-attr]
            out.append(f"skipped {info['count']:,}: {reason}" + (f" (e.g. {ex})" if ex else ""))
        out.append(f"took {self.seconds:.1f} s")
        return out


# ---------------------------------------------------------------------------
# Finding and validating the RF2 files
# ---------------------------------------------------------------------------


def find_rf2_files(folder: Path) -> dict[str, list[Path]]:
    """Locate the Snapshot files anywhere under ``folder`` (release zips nest them)."""
    found: dict[str, list[Path]] = {k: [] for k in RF2_FILES}
    for path in sorted(Path(folder).rglob("*.txt")):
        name = path.name
        for kind, (prefix, _header) in RF2_FILES.items():
            # "sct2_Relationship_Snapshot_" excludes StatedRelationship and
            # RelationshipConcreteValues; "-" or "_" follows the prefix in real names.
            if name.startswith(prefix + "_") or name.startswith(prefix + "-"):
                found[kind].append(path)
    missing = [k for k, v in found.items() if not v]
    if missing:
        wanted = ", ".join(f"{RF2_FILES[k][0]}_*.txt" for k in missing)
        raise RF2Error(
            f"RF2 release at {folder} is missing {wanted}. Point the loader at the release's "
            "Snapshot folder (or the release .zip), e.g. SnomedCT_InternationalRF2_PRODUCTION_*/Snapshot/"
        )
    return found


def _validate_file(path: Path, header: list[str], digest: hashlib._Hash | None = None) -> int:
    """Check header, UTF-8 and column counts, streaming; returns the data row count."""
    ncols = len(header)
    with open(path, "rb") as fh:
        first = fh.readline()
        if digest is not None:
            digest.update(first)
        try:
            got = first.decode("utf-8").rstrip("\r\n").split("\t")
        except UnicodeDecodeError:
            raise RF2Error(f"{path}:1: header is not UTF-8 text") from None
        if got != header:
            raise RF2Error(
                f"{path}:1: wrong RF2 header {got!r}; expected {header!r}. "
                "Is this the right file (Snapshot, not a refset or Full file)?"
            )
        lineno = 1
        rows = 0
        tail = b""
        while True:
            chunk = fh.read(1 << 24)
            if not chunk:
                break
            if digest is not None:
                digest.update(chunk)
            chunk = tail + chunk
            cut = chunk.rfind(b"\n") + 1
            block, tail = chunk[:cut], chunk[cut:]
            _check_block(path, block, lineno, ncols)
            n = block.count(b"\n")
            lineno += n
            rows += n
        if tail:
            _check_block(path, tail + b"\n", lineno, ncols)
            rows += 1
    return rows


def _check_block(path: Path, block: bytes, lines_before: int, ncols: int) -> None:
    try:
        block.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = lines_before + block[: exc.start].count(b"\n") + 1
        bad = block[exc.start : exc.start + 4]
        raise RF2Error(
            f"{path}:{line}: not valid UTF-8 (bytes {bad!r}); RF2 files are UTF-8: "
            "re-export or re-download the release"
        ) from None
    n = block.count(b"\n")
    if block.count(b"\t") == n * (ncols - 1):
        return  # fast path: the tab total fits; the per-line scan below finds the culprit
    for i, raw in enumerate(block.split(b"\n")[:-1], 1):
        tabs = raw.count(b"\t")
        if tabs != ncols - 1:
            raise RF2Error(
                f"{path}:{lines_before + i}: {tabs + 1} tab-separated fields, expected {ncols}"
            )


def _find_line(path: Path, column: int, value: str) -> int | None:
    """Line number of the first row whose ``column`` equals ``value`` (error path only)."""
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            parts = line.rstrip("\r\n").split("\t")
            if len(parts) > column and parts[column] == value:
                return lineno
    return None


# ---------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------


def _say(progress: Progress | None, msg: str) -> None:
    if progress:
        progress(msg)


LOAD_DIR_PREFIX = ".snomed-load-"


@contextmanager
def _load_lock(folder: Path, progress: Progress | None) -> Iterator[None]:
    """Shared lock on ``folder`` itself (flock on the directory, so no lock file is left)
    for the whole load, after removing the work folders of loads that died (killed, out of
    memory): when nobody holds the lock, no ``.snomed-load-*`` folder belongs to a running
    load."""
    import fcntl

    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | os.O_CLOEXEC)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pass  # another load is running here: its folder is not ours to judge
        else:
            for stale in sorted(folder.glob(LOAD_DIR_PREFIX + "*")):
                if stale.is_dir() and not stale.is_symlink():
                    _say(progress, f"removing {stale.name}, left by a load that did not finish")
                    shutil.rmtree(stale, ignore_errors=True)
        fcntl.flock(fd, fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)


def load_rf2(
    source: Path, db_path: Path, *, progress: Progress | None = None, force: bool = False
) -> LoadReport:
    """Build (or replace) the store at ``db_path`` from an RF2 Snapshot folder or .zip.

    An existing ``db_path`` is replaced only when it is a store (``check_load_target``) or
    ``force`` is set. Everything is built in a private work folder beside the target.
    """
    source = Path(source)
    db_path = Path(db_path)
    if not source.exists():
        raise RF2Error(f"RF2 source {source} does not exist")
    check_load_target(db_path, source, force=force)
    t0 = time.monotonic()
    private_dir(db_path.parent)
    with _load_lock(db_path.parent, progress):
        tmp_dir = Path(tempfile.mkdtemp(prefix=LOAD_DIR_PREFIX, dir=db_path.parent))
        try:
            folder = source
            if source.is_file():
                if not zipfile.is_zipfile(source):
                    raise RF2Error(f"{source} is neither a folder nor a .zip RF2 release")
                folder = tmp_dir / "release"
                _say(progress, f"extracting Snapshot files from {source.name}")
                with zipfile.ZipFile(source) as zf:
                    for member in zf.namelist():
                        base = member.rsplit("/", 1)[-1]
                        if any(
                            base.startswith(p + "_") or base.startswith(p + "-")
                            for p, _ in RF2_FILES.values()
                        ) and base.endswith(".txt"):
                            target = folder / base
                            with zf.open(member) as src, open_private(target, "wb") as dst:
                                shutil.copyfileobj(src, dst, 1 << 20)
            files = find_rf2_files(folder)
            digest = hashlib.sha256()
            for kind, paths in files.items():
                for path in paths:
                    _say(progress, f"checking {path.name}")
                    _validate_file(path, RF2_FILES[kind][1], digest)
            tmp_db = tmp_dir / "store.duckdb"
            report = _build(files, tmp_db, progress, digest.hexdigest())
            report.source = str(source)
            _say(progress, "building search index")
            tmp_index = tmp_dir / "store.duckdb.index.npz"
            with connect(tmp_db) as con:
                build_id_value = con.execute(
                    "SELECT value FROM meta WHERE key = 'build_id'"
                ).fetchone()[0]
                index = TermIndex.build_from_db(con, build_id_value, progress)
            index.save(tmp_index)
            _say(progress, "validating")
            _validate_store(tmp_db, tmp_index)
            final_index = index_path_for(db_path)
            os.replace(tmp_index, final_index)
            os.replace(tmp_db, db_path)
            wal = Path(str(tmp_db) + ".wal")
            if wal.exists():
                wal.unlink()
            report.db_path = db_path
            report.seconds = time.monotonic() - t0
            report.size_bytes = db_path.stat().st_size
            report.index_bytes = final_index.stat().st_size
            _say(progress, f"done in {report.seconds:.1f} s")
            return report
        finally:
            shutil.rmtree(tmp_dir, ignore_errors=True)


def index_path_for(db_path: Path) -> Path:
    return Path(str(db_path) + ".index.npz")


def _read_sql(kind: str) -> str:
    header = RF2_FILES[kind][1]
    cols = "{" + ", ".join(f"'{c}': 'VARCHAR'" for c in header) + "}"
    # quote='' and escape='': RF2 has no quoting and terms may contain '"'.
    return (
        "SELECT *, filename AS _file FROM read_csv(?, delim='\\t', header=true, quote='', "  # noqa: S608
        f"escape='', columns={cols}, filename=true, null_padding=false)"
    )


def _build(
    files: dict[str, list[Path]], db: Path, progress: Progress | None, source_sha256: str
) -> LoadReport:
    skips: dict[str, dict[str, object]] = {}

    def skip(con, reason: str, count_sql: str, example_sql: str, params: Sequence = ()) -> None:  # type: ignore[no-untyped-def]
        n = con.execute(count_sql, list(params)).fetchone()[0]
        if n:
            examples = [r[0] for r in con.execute(example_sql, list(params)).fetchall()]
            skips[reason] = {"count": int(n), "examples": examples}

    with connect(db) as con:
        con.execute("SET preserve_insertion_order = false")
        # Bound DuckDB's buffer pool (default: 80 % of RAM) so a full release loads
        # within the 4 GB budget on a shared machine; it spills to disk beyond this.
        con.execute("SET memory_limit = '1536MB'")
        for kind in RF2_FILES:
            _say(progress, f"reading {kind} file(s): " + ", ".join(p.name for p in files[kind]))
            con.execute(
                f"CREATE TABLE raw_{kind} AS {_read_sql(kind)}", [[str(p) for p in files[kind]]]
            )
            # every id/flag column must be numeric: name file and line of the first bad one
            for col in _NUMERIC[kind]:
                bad = con.execute(
                    f'SELECT "{col}", _file FROM raw_{kind} WHERE TRY_CAST(trim("{col}") AS BIGINT) IS NULL LIMIT 1'  # noqa: S608
                ).fetchone()
                if bad:
                    idx = RF2_FILES[kind][1].index(col)
                    line = _find_line(Path(bad[1]), idx, bad[0])
                    raise RF2Error(
                        f"{bad[1]}:{line or '?'}: column {col} must be a number, got {bad[0]!r}"
                    )

        # Snapshot = one row per id; duplicates are tolerated (the latest row is kept) and
        # counted, so a release with repeated ids says so in load_skip.
        for kind, noun in (
            ("concept", "concept"),
            ("description", "description"),
            ("relationship", "relationship"),
        ):
            skip(
                con,
                f"duplicate {noun} ids (extra rows dropped; the latest effectiveTime kept)",
                f"SELECT count(*) - count(DISTINCT id) FROM raw_{kind}",  # noqa: S608 - fixed names
                f"SELECT CAST(id AS BIGINT) AS i FROM raw_{kind} GROUP BY id "  # noqa: S608
                "HAVING count(*) > 1 ORDER BY i LIMIT 3",
            )

        _say(progress, "selecting active concepts")
        con.execute(
            """
            CREATE TABLE c_all AS
            SELECT CAST(id AS BIGINT) AS id, CAST(effectiveTime AS INTEGER) AS effective_time,
                   CAST(active AS INTEGER) AS active, CAST(trim(definitionStatusId) AS BIGINT) AS def_status
            FROM raw_concept
            QUALIFY row_number() OVER (PARTITION BY id ORDER BY effectiveTime DESC) = 1
            """
        )
        skip(
            con,
            "inactive concepts",
            "SELECT count(*) FROM c_all WHERE active <> 1",
            "SELECT id FROM c_all WHERE active <> 1 ORDER BY id LIMIT 3",
        )
        n_active = con.execute("SELECT count(*) FROM c_all WHERE active = 1").fetchone()[0]
        if n_active == 0:
            total = con.execute("SELECT count(*) FROM c_all").fetchone()[0]
            raise RF2Error(
                f"{', '.join(p.name for p in files['concept'])}: no active concepts "
                f"({total} rows, all inactive): is this a Snapshot of a real release?"
            )
        con.execute("CREATE TABLE c_active AS SELECT * FROM c_all WHERE active = 1")

        _say(progress, "selecting descriptions")
        con.execute(
            """
            CREATE TABLE d_all AS
            SELECT CAST(id AS BIGINT) AS id, CAST(effectiveTime AS INTEGER) AS effective_time,
                   CAST(active AS INTEGER) AS active, CAST(conceptId AS BIGINT) AS concept_id,
                   CAST(typeId AS BIGINT) AS type_id, term, languageCode AS lang
            FROM raw_description
            QUALIFY row_number() OVER (PARTITION BY id ORDER BY effectiveTime DESC) = 1
            """
        )
        skip(
            con,
            "inactive descriptions",
            "SELECT count(*) FROM d_all WHERE active <> 1",
            "SELECT id FROM d_all WHERE active <> 1 ORDER BY id LIMIT 3",
        )
        skip(
            con,
            "descriptions of an inactive or unknown concept",
            "SELECT count(*) FROM d_all d ANTI JOIN c_active c ON c.id = d.concept_id WHERE d.active = 1",
            "SELECT d.id FROM d_all d ANTI JOIN c_active c ON c.id = d.concept_id WHERE d.active = 1 ORDER BY d.id LIMIT 3",
        )
        skip(
            con,
            "descriptions that are neither FSN nor synonym",
            "SELECT count(*) FROM d_all WHERE active = 1 AND type_id NOT IN (?, ?)",
            "SELECT id FROM d_all WHERE active = 1 AND type_id NOT IN (?, ?) ORDER BY id LIMIT 3",
            (FSN_TYPE, SYNONYM_TYPE),
        )
        con.execute(
            """
            CREATE TABLE description AS
            SELECT d.id AS description_id, d.concept_id, d.term,
                   d.type_id = ? AS is_fsn, d.effective_time
            FROM d_all d SEMI JOIN c_active c ON c.id = d.concept_id
            WHERE d.active = 1 AND d.type_id IN (?, ?) AND length(trim(d.term)) > 0
            """,
            [FSN_TYPE, FSN_TYPE, SYNONYM_TYPE],
        )

        _say(progress, "reading is-a relationships")
        con.execute(
            """
            CREATE TABLE r_all AS
            SELECT CAST(id AS BIGINT) AS id, CAST(active AS INTEGER) AS active,
                   CAST(sourceId AS BIGINT) AS src, CAST(destinationId AS BIGINT) AS dst,
                   CAST(typeId AS BIGINT) AS type_id, _file,
                   CAST(effectiveTime AS INTEGER) AS effective_time
            FROM raw_relationship
            QUALIFY row_number() OVER (PARTITION BY id ORDER BY effectiveTime DESC) = 1
            """
        )
        skip(
            con,
            "inactive relationships",
            "SELECT count(*) FROM r_all WHERE active <> 1",
            "SELECT id FROM r_all WHERE active <> 1 ORDER BY id LIMIT 3",
        )
        skip(
            con,
            "attribute relationships (not is-a; not needed for grounding)",
            "SELECT count(*) FROM r_all WHERE active = 1 AND type_id <> ?",
            "SELECT id FROM r_all WHERE active = 1 AND type_id <> ? ORDER BY id LIMIT 3",
            (ISA_TYPE,),
        )
        unknown = """FROM r_all r WHERE r.active = 1 AND r.type_id = ? AND (
                   r.src NOT IN (SELECT id FROM c_active) OR r.dst NOT IN (SELECT id FROM c_active))"""
        skip(
            con,
            "is-a relationships pointing at an inactive or unknown concept",
            f"SELECT count(*) {unknown}",
            f"SELECT r.id {unknown} ORDER BY r.id LIMIT 3",
            (ISA_TYPE,),
        )
        con.execute(
            """
            CREATE TABLE isa AS
            SELECT DISTINCT r.src AS child, r.dst AS parent FROM r_all r
            SEMI JOIN c_active a ON a.id = r.src
            SEMI JOIN c_active b ON b.id = r.dst
            WHERE r.active = 1 AND r.type_id = ?
            """,
            [ISA_TYPE],
        )
        self_loop = con.execute(
            "SELECT r.id, r._file FROM r_all r WHERE r.active = 1 AND r.type_id = ? AND r.src = r.dst LIMIT 1",
            [ISA_TYPE],
        ).fetchone()
        if self_loop:
            line = _find_line(Path(self_loop[1]), 0, str(self_loop[0]))
            raise RF2Error(
                f"{self_loop[1]}:{line or '?'}: is-a cycle: relationship {self_loop[0]} makes a concept its own parent"
            )

        _say(progress, "computing the is-a closure")
        _closure(con, progress)
        cyc = con.execute(
            "SELECT concept_id FROM ancestor WHERE concept_id = ancestor_id ORDER BY 1 LIMIT 10"
        ).fetchall()
        if cyc:
            members = [r[0] for r in cyc]
            rels = con.execute(
                """SELECT r.id, r._file FROM r_all r WHERE r.active = 1 AND r.type_id = ?
                   AND list_contains(?, r.src) AND list_contains(?, r.dst) ORDER BY r.id LIMIT 10""",
                [ISA_TYPE, members, members],
            ).fetchall()
            where = "; ".join(
                f"{Path(f).name}:{_find_line(Path(f), 0, str(rid)) or '?'} (relationship {rid})"
                for rid, f in rels
            )
            raise RF2Error(
                f"is-a cycle among concepts {members}: {where}. A release's is-a graph must be "
                "acyclic; fix or remove the offending relationship rows"
            )

        _say(progress, "writing concepts")
        con.execute(
            """
            CREATE TABLE fsn AS
            SELECT concept_id, term FROM description WHERE is_fsn
            QUALIFY row_number() OVER (PARTITION BY concept_id ORDER BY effective_time DESC, description_id) = 1
            """
        )
        skip(
            con,
            "active concepts without an active FSN (kept; a synonym stands in as name)",
            "SELECT count(*) FROM c_active c ANTI JOIN fsn f ON f.concept_id = c.id",
            "SELECT c.id FROM c_active c ANTI JOIN fsn f ON f.concept_id = c.id ORDER BY c.id LIMIT 3",
        )
        con.execute(
            """
            CREATE TABLE root_depth AS
            SELECT c.id AS concept_id,
                   CASE WHEN c.id = ? THEN 0 ELSE (SELECT min(a.depth) FROM ancestor a
                        WHERE a.concept_id = c.id AND a.ancestor_id = ?) END AS depth
            FROM c_active c
            """,
            [ROOT_ID, ROOT_ID],
        )
        con.execute(
            """
            CREATE TABLE concept AS
            WITH primary_parent AS (
                SELECT i.child, i.parent FROM isa i JOIN root_depth d ON d.concept_id = i.parent
                QUALIFY row_number() OVER (PARTITION BY i.child ORDER BY d.depth NULLS LAST, i.parent) = 1
            ), any_syn AS (
                SELECT concept_id, min(term) AS term FROM description GROUP BY concept_id
            )
            SELECT c.id AS concept_id,
                   coalesce(f.term, s.term, CAST(c.id AS VARCHAR)) AS fsn,
                   coalesce(regexp_extract(f.term, '\\(([^()]+)\\)\\s*$', 1), '') AS semantic_tag,
                   c.def_status AS definition_status_id, c.effective_time,
                   rd.depth AS root_depth, p.parent AS primary_parent
            FROM c_active c
            LEFT JOIN fsn f ON f.concept_id = c.id
            LEFT JOIN any_syn s ON s.concept_id = c.id
            LEFT JOIN root_depth rd ON rd.concept_id = c.id
            LEFT JOIN primary_parent p ON p.child = c.id
            ORDER BY c.id
            """
        )
        unreachable = con.execute(
            "SELECT count(*) FROM concept WHERE root_depth IS NULL AND concept_id <> ?", [ROOT_ID]
        ).fetchone()[0]
        if unreachable:
            ex = [
                r[0]
                for r in con.execute(
                    "SELECT concept_id FROM concept WHERE root_depth IS NULL ORDER BY 1 LIMIT 3"
                ).fetchall()
            ]
            skips[
                "concepts not reaching the root 138875005 (kept; path ends at their top ancestor)"
            ] = {
                "count": int(unreachable),
                "examples": ex,
            }

        for t in (
            "raw_concept",
            "raw_description",
            "raw_relationship",
            "c_all",
            "d_all",
            "r_all",
            "fsn",
            "root_depth",
            "c_active",
        ):
            con.execute(f"DROP TABLE {t}")

        counts = {
            "concepts": con.execute("SELECT count(*) FROM concept").fetchone()[0],
            "descriptions": con.execute("SELECT count(*) FROM description").fetchone()[0],
            "fsn": con.execute("SELECT count(*) FROM description WHERE is_fsn").fetchone()[0],
            "is_a_edges": con.execute("SELECT count(*) FROM isa").fetchone()[0],
            "ancestor_pairs": con.execute("SELECT count(*) FROM ancestor").fetchone()[0],
        }
        con.execute("CREATE TABLE load_skip (reason VARCHAR, count BIGINT, examples VARCHAR)")
        for reason, info in skips.items():
            con.execute(
                "INSERT INTO load_skip VALUES (?, ?, ?)",
                [reason, info["count"], json.dumps(info["examples"])],
            )
        con.execute("CREATE TABLE meta (key VARCHAR PRIMARY KEY, value VARCHAR)")
        meta = {
            "build_id": uuid.uuid4().hex,
            "format": str(STORE_FORMAT),
            "source_sha256": source_sha256,
            "source_files": json.dumps({k: [str(p) for p in v] for k, v in files.items()}),
            "loaded_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "counts": json.dumps(counts),
        }
        con.executemany("INSERT INTO meta VALUES (?, ?)", list(meta.items()))
        con.execute("CHECKPOINT")
    return LoadReport(
        db_path=db,
        source="",
        files={k: [str(p) for p in v] for k, v in files.items()},
        counts={k: int(v) for k, v in counts.items()},
        skips=skips,
    )


def _closure(con, progress: Progress | None) -> None:  # type: ignore[no-untyped-def]
    """Transitive is-a closure with shortest depth, one join per hierarchy level.

    Terminates on cyclic input too (only pairs not seen before are added); a cycle then
    shows up as a concept that is its own ancestor.
    """
    con.execute(
        "CREATE TABLE ancestor AS SELECT child AS concept_id, parent AS ancestor_id, 1 AS depth FROM isa"
    )
    con.execute("CREATE TEMP TABLE frontier AS SELECT * FROM ancestor")
    depth = 1
    while True:
        depth += 1
        con.execute(
            """
            CREATE OR REPLACE TEMP TABLE nxt AS
            SELECT DISTINCT f.concept_id, i.parent AS ancestor_id, ? AS depth
            FROM frontier f JOIN isa i ON i.child = f.ancestor_id
            ANTI JOIN ancestor a ON a.concept_id = f.concept_id AND a.ancestor_id = i.parent
            """,
            [depth],
        )
        n = con.execute("SELECT count(*) FROM nxt").fetchone()[0]
        if n == 0:
            break
        con.execute("INSERT INTO ancestor SELECT * FROM nxt")
        con.execute("CREATE OR REPLACE TEMP TABLE frontier AS SELECT * FROM nxt")
        _say(progress, f"  is-a closure depth {depth}: +{n:,} ancestor pairs")
    con.execute("DROP TABLE IF EXISTS nxt")
    con.execute("DROP TABLE frontier")


def _validate_store(db: Path, index_file: Path) -> None:
    with connect(db, read_only=True) as con:
        n = con.execute("SELECT count(*) FROM concept").fetchone()[0]
        d = con.execute("SELECT count(*) FROM description").fetchone()[0]
        build_id = con.execute("SELECT value FROM meta WHERE key = 'build_id'").fetchone()[0]
    if n == 0 or d == 0:
        raise RF2Error(f"built store has {n} concepts and {d} descriptions; refusing to install it")
    index = TermIndex.load(index_file)
    if index.build_id != f"{build_id}/{TOKENIZER_VERSION}" or len(index.concept_ids) != n:
        raise RF2Error("search index does not match the built store; refusing to install it")


# ---------------------------------------------------------------------------
# Search index
# ---------------------------------------------------------------------------


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
        _say(progress, f"  tokenizing {len(terms):,} descriptions")
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

        _say(progress, "  packing ancestors and names")
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


# ---------------------------------------------------------------------------
# Opening a store
# ---------------------------------------------------------------------------


class SnomedStore:
    """A built store: DuckDB for SQL questions, the in-memory index for search."""

    def __init__(self, db_path: Path, index: TermIndex) -> None:
        self.db_path = Path(db_path)
        self.index = index

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
        _say(progress, f"search index missing or stale for {db_path}: rebuilding from DuckDB")
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


# ---------------------------------------------------------------------------
# The bundled sample as the offline default
# ---------------------------------------------------------------------------


def sample_release_dir() -> Path:
    from cardio_assets.paths import DATA_DIR

    return DATA_DIR / "snomed_sample"


def default_store_path() -> Path:
    from cardio_assets.paths import var_dir

    return var_dir() / "terminology" / "snomed_sample.duckdb"


def _release_fingerprint(folder: Path) -> str:
    import hashlib

    digest = hashlib.sha256()
    for kind, paths in sorted(find_rf2_files(folder).items()):
        for path in paths:
            digest.update(kind.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def ensure_default_store(progress: Progress | None = None) -> Path:
    """Build the sample store under $CARDIO_HOME unless an up-to-date one exists.

    A lock file serialises concurrent builders (several Dagster step processes may
    start at once); the sample's content hash decides whether a rebuild is due.
    """
    import fcntl

    db_path = default_store_path()
    private_dir(db_path.parent)
    stamp = Path(str(db_path) + ".source-sha256")
    fingerprint = _release_fingerprint(sample_release_dir())
    with open_private(Path(str(db_path) + ".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (
            stamp.exists()
            and stamp.read_text().strip() == fingerprint
            and is_project_store(db_path)
        ):
            return db_path
        _say(progress, f"building the bundled SNOMED CT sample store at {db_path}")
        # our own file under $CARDIO_HOME: a damaged copy is rebuilt, never kept
        load_rf2(sample_release_dir(), db_path, progress=progress, force=True)
        write_private_text(stamp, fingerprint)
    return db_path


_OPEN: dict[tuple[str, float], SnomedStore] = {}


STORE_ENV = "CARDIO_SNOMED_STORE"


def configured_store_path(progress: Progress | None = None) -> Path:
    """$CARDIO_SNOMED_STORE if set (a store built by ``cardio snomed load``), else the
    bundled sample store, built on first use."""
    env = os.environ.get(STORE_ENV)
    return Path(env) if env else ensure_default_store(progress)


def configured_release_identity() -> str:
    """Cheap identity of the release grounding will search, for code versions.

    Reads the stored content hash of $CARDIO_SNOMED_STORE (no index load) or hashes the
    bundled sample's RF2 files, so loading another release marks grounding_candidates
    stale while rebuilding the same one does not.
    """
    env = os.environ.get(STORE_ENV)
    if env and Path(env).exists():
        try:
            meta = read_store_meta(Path(env))
        except StoreError as exc:
            # Loading the code location must not fail on this: grounding fails instead,
            # with the same message, when it opens the store.
            _log.warning("%s: %s; %s", STORE_ENV, exc, _store_fix())
            return f"store:unusable:{env}"
        return f"store:{meta.get('source_sha256') or env}"
    return f"sample:{_release_fingerprint(sample_release_dir())}"


def open_store(
    db_path: Path | str | None = None, *, progress: Progress | None = None
) -> SnomedStore:
    """Open (and cache per process) a store; ``None`` = ``configured_store_path()``."""
    path = Path(db_path) if db_path else configured_store_path(progress)
    key = (str(path.resolve()), path.stat().st_mtime if path.exists() else 0.0)
    store = _OPEN.get(key)
    if store is None:
        store = _OPEN[key] = SnomedStore.open(path, progress=progress)
    return store
