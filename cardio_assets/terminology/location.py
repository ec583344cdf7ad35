"""Which store a run searches, and its identity for code versions.

$CARDIO_SNOMED_STORE when set (a store ``cardio snomed load`` built from a licensed
release), else the bundled sample release (data/snomed_sample/), built on first use into
$CARDIO_HOME/terminology/. Opened stores are cached per process: the index arrays load
once per step process, not once per term.
"""

from __future__ import annotations

import fcntl
import hashlib
import logging
import os
from pathlib import Path

from cardio_assets.files import open_private, private_dir, write_private_text
from cardio_assets.paths import DATA_DIR, var_dir
from cardio_assets.terminology import Progress, say
from cardio_assets.terminology.build import load_rf2
from cardio_assets.terminology.rf2 import find_rf2_files
from cardio_assets.terminology.store import (
    STORE_ENV,
    SnomedStore,
    StoreError,
    _store_fix,
    is_project_store,
    read_store_meta,
)

_log = logging.getLogger(__name__)


def sample_release_dir() -> Path:
    return DATA_DIR / "snomed_sample"


def default_store_path() -> Path:
    return var_dir() / "terminology" / "snomed_sample.duckdb"


def _release_fingerprint(folder: Path) -> str:
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
        say(progress, f"building the bundled SNOMED CT sample store at {db_path}")
        # our own file under $CARDIO_HOME: a damaged copy is rebuilt, never kept
        load_rf2(sample_release_dir(), db_path, progress=progress, force=True)
        write_private_text(stamp, fingerprint)
    return db_path


_OPEN: dict[tuple[str, float], SnomedStore] = {}


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
