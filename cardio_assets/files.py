"""Creating and replacing files: owner-only modes, and no silent overwrite.

Why owner-only: what the project writes (the warehouse, raw LLM answers, Neo4j data and
logs, the SNOMED CT store of a licensed release, exports) is private working state, so every
folder it creates is 0700 and every file 0600, whatever the umask. Files made by a library
(DuckDB) are tightened right after creation; their transient side files (DuckDB's WAL) stay
private through the 0700 folder around them.

Why the overwrite checks: an output path that is also an input would destroy the input, and
``cardio snomed load --db`` used to replace whatever file it was given (the warehouse too).
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Literal

from cardio_assets.errors import UserError

PRIVATE_DIR_MODE = 0o700
PRIVATE_FILE_MODE = 0o600


class OverwriteError(UserError):
    """Writing the target would destroy a file the user did not ask to replace."""


def private_dir(path: Path | str) -> Path:
    """Create ``path`` and its missing parents as 0700 folders; existing ones stay as they are."""
    path = Path(path)
    missing: list[Path] = []
    probe = path
    while not os.path.lexists(probe) and probe != probe.parent:
        missing.append(probe)
        probe = probe.parent
    for folder in reversed(missing):
        try:
            folder.mkdir(mode=PRIVATE_DIR_MODE)
        except FileExistsError:
            continue  # made by a concurrent process: its mode is its business
        os.chmod(folder, PRIVATE_DIR_MODE)  # mkdir's mode is reduced by the umask
    if not path.is_dir():
        raise NotADirectoryError(f"{path} exists and is not a folder")
    return path


def make_private(path: Path | str) -> None:
    """Tighten a file a library just created (DuckDB) to 0600."""
    os.chmod(path, PRIVATE_FILE_MODE)


def open_private(path: Path | str, mode: Literal["w", "wb", "a", "ab"] = "w") -> IO:
    """Open for writing, creating the file (and its folders) owner-only; text modes are UTF-8."""
    path = Path(path)
    private_dir(path.parent)
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if mode.startswith("a") else os.O_TRUNC)
    fd = os.open(path, flags | getattr(os, "O_CLOEXEC", 0), PRIVATE_FILE_MODE)
    try:
        os.fchmod(fd, PRIVATE_FILE_MODE)  # an existing file keeps its mode on O_CREAT
        if "b" in mode:
            return os.fdopen(fd, mode)
        return os.fdopen(fd, mode, encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


def write_private_text(path: Path | str, text: str) -> None:
    """Write ``text`` to an owner-only file (not atomic: for small state files)."""
    with open_private(path, "w") as fh:
        fh.write(text)


def same_file(a: Path | str, b: Path | str) -> bool:
    """True when both paths name one file: equal after resolving symlinks, or hard links."""
    a, b = Path(a), Path(b)
    if a.resolve() == b.resolve():
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def refuse_input_as_output(out: Path | str, inputs: Iterable[Path | str | None]) -> None:
    """Raise OverwriteError when ``out`` is one of the command's inputs (no --force for this)."""
    for source in inputs:
        if source is not None and same_file(out, source):
            shown = f"{out}" if Path(out) == Path(source) else f"{out} (the same file as {source})"
            raise OverwriteError(
                f"refusing to write {shown}: it is an input of this command and would be "
                "destroyed; write the output to another path"
            )


def display_path(path: Path, root: Path | None) -> Path:
    """``path`` relative to ``root`` when inside it (how a table names its source file)."""
    try:
        return path.resolve().relative_to(root.resolve()) if root is not None else path
    except ValueError:
        return path
