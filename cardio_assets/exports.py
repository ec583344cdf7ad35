"""Writing the human-facing export files (rows.jsonl, tagged_rows.jsonl, per-table JSON,
grounding_index.json, extracted_rules.jsonl).

Every export is written to a temporary file beside the target and renamed over it, so a
reader (or a failed run) never sees a half-written file; files and new folders are
owner-only (cardio_assets/files.py). A device, pipe or symlink target (``/dev/null``,
``/dev/stdout``) is written through instead, never replaced. No Dagster imports.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from cardio_assets.files import open_private


def write_text_atomic(target: Path, text: str) -> None:
    """Write beside ``target`` and rename over it; the file (and new folders) are owner-only.

    A target that is a symlink, a device or a pipe (``--out /dev/null``, ``/dev/stdout``, a
    FIFO) is written through instead: renaming over it would replace the link or device with
    a file, and as root that breaks /dev/null for every process on the machine."""
    target = Path(target)
    if target.is_dir():
        raise IsADirectoryError(f"{target}: is a folder; give the path of a file to write")
    special = target.exists() and not target.is_file()
    if target.is_symlink() or special:
        with open(target, "w", encoding="utf-8") as fh:
            fh.write(text)
        return
    tmp = target.with_name(target.name + ".tmp")
    with open_private(tmp, "w") as fh:
        fh.write(text)
    os.replace(tmp, target)


def write_json(target: Path, data: Any) -> None:
    write_text_atomic(target, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def write_jsonl(target: Path, records: Iterable[Any]) -> None:
    """One line per record: JSON-ready values, or a pre-serialised JSON string."""
    lines = (r if isinstance(r, str) else json.dumps(r, ensure_ascii=False) for r in records)
    write_text_atomic(target, "".join(line + "\n" for line in lines))
