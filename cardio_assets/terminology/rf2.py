"""The RF2 release format: which Snapshot files a store is built from, and their checks.

A release is read only after every file passed: the exact RF2 header, UTF-8 throughout,
the same number of tab-separated fields on every line. Errors name the file and line and
what to do, because a release is large and the user needs to find the bad row.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT_ID = 138875005
ISA_TYPE = 116680003
FSN_TYPE = 900000000000003001
SYNONYM_TYPE = 900000000000013009


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
