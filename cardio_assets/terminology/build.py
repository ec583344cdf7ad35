"""Build a store from an RF2 release: ``load_rf2`` (``cardio snomed load``).

Only active content is kept: active concepts, their active FSNs and synonyms, active is-a
edges between active concepts; everything skipped is counted with examples in
``load_skip``. The is-a closure (``ancestor``) is computed level by level in DuckDB and
gives each concept its shortest depth, which picks a primary parent for the taxonomy path.

Loads are atomic: everything is built in a private work folder beside the target,
validated, then renamed over it (index first; a crash between the two renames leaves a
build_id mismatch, which triggers an index rebuild, never a wrong answer). An existing
target is replaced only when it is a store some load built, or with ``force``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
import time
import uuid
import zipfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from cardio_assets.files import (
    OverwriteError,
    open_private,
    private_dir,
    refuse_input_as_output,
)
from cardio_assets.terminology import Progress, say
from cardio_assets.terminology.index import TermIndex
from cardio_assets.terminology.rf2 import (
    _NUMERIC,
    FSN_TYPE,
    ISA_TYPE,
    RF2_FILES,
    ROOT_ID,
    SYNONYM_TYPE,
    RF2Error,
    _find_line,
    _validate_file,
    find_rf2_files,
)
from cardio_assets.terminology.store import (
    STORE_FORMAT,
    StoreError,
    index_path_for,
    read_store_meta,
)
from cardio_assets.terminology.text import TOKENIZER_VERSION
from cardio_assets.warehouse import connect


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
                    say(progress, f"removing {stale.name}, left by a load that did not finish")
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
                say(progress, f"extracting Snapshot files from {source.name}")
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
                    say(progress, f"checking {path.name}")
                    _validate_file(path, RF2_FILES[kind][1], digest)
            tmp_db = tmp_dir / "store.duckdb"
            report = _build(files, tmp_db, progress, digest.hexdigest())
            report.source = str(source)
            say(progress, "building search index")
            tmp_index = tmp_dir / "store.duckdb.index.npz"
            with connect(tmp_db) as con:
                build_id_value = con.execute(
                    "SELECT value FROM meta WHERE key = 'build_id'"
                ).fetchone()[0]
                index = TermIndex.build_from_db(con, build_id_value, progress)
            index.save(tmp_index)
            say(progress, "validating")
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
            say(progress, f"done in {report.seconds:.1f} s")
            return report
        finally:
            shutil.rmtree(tmp_dir, ignore_errors=True)


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
            say(progress, f"reading {kind} file(s): " + ", ".join(p.name for p in files[kind]))
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

        say(progress, "selecting active concepts")
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

        say(progress, "selecting descriptions")
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

        say(progress, "reading is-a relationships")
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

        say(progress, "computing the is-a closure")
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

        say(progress, "writing concepts")
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
        say(progress, f"  is-a closure depth {depth}: +{n:,} ancestor pairs")
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
