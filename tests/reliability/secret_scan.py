"""Look for a secret everywhere a run wrote: raw bytes of every file, and the decoded rows
of every DuckDB and SQLite database (both may compress or split a stored string, so a byte
search alone could miss it). Any 12-character piece of the key counts, so a key cut in two
by a length bound is found too."""

from __future__ import annotations

import secrets as _secrets
import sqlite3
import zlib
from collections.abc import Iterable
from pathlib import Path

import duckdb

FRAGMENT = 12


def fresh_key() -> str:
    """A key no fixture or log line can contain by chance."""
    return "sk-cardio-" + _secrets.token_hex(20)


def fragments(key: str) -> list[str]:
    return [key[i : i + FRAGMENT] for i in range(len(key) - FRAGMENT + 1)]


def _duckdb_text(path: Path) -> str:
    con = duckdb.connect(str(path), read_only=True)
    try:
        tables = con.execute(
            "SELECT table_schema, table_name FROM information_schema.tables"
        ).fetchall()
        parts = [f"{schema}.{name}" for schema, name in tables]
        for schema, name in tables:
            parts += [
                repr(row)
                for row in con.execute(f'SELECT * FROM "{schema}"."{name}"').fetchall()  # noqa: S608
            ]
        return "\n".join(parts)
    finally:
        con.close()


def _sqlite_text(path: Path) -> str:
    con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        names = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        parts: list[str] = []
        for name in names:
            for row in con.execute(f'SELECT * FROM "{name}"'):  # noqa: S608 - own tables
                for value in row:
                    if isinstance(value, bytes):
                        try:
                            value = zlib.decompress(value)
                        except zlib.error:
                            pass
                        value = value.decode("utf-8", "replace")
                    parts.append(str(value))
        return "\n".join(parts)
    finally:
        con.close()


def _database_text(path: Path) -> str:
    head = path.read_bytes()[:16]
    if head.startswith(b"SQLite format 3"):
        return _sqlite_text(path)
    if b"DUCK" in path.read_bytes()[:64]:
        return _duckdb_text(path)
    return ""


def files_under(roots: Iterable[Path]) -> list[Path]:
    return sorted(p for root in roots for p in Path(root).rglob("*") if p.is_file())


def leaks(key: str, roots: Iterable[Path], texts: dict[str, str] | None = None) -> list[str]:
    """Where a piece of `key` was found ("path: fragment"); empty when nowhere."""
    pieces = fragments(key)
    found: list[str] = []
    for label, text in (texts or {}).items():
        found += [f"{label}: {p}" for p in pieces if p in text]
    for path in files_under(roots):
        data = path.read_bytes()
        found += [f"{path}: {p}" for p in pieces if p.encode() in data]
        text = _database_text(path)
        found += [f"{path} (rows): {p}" for p in pieces if p in text]
    return sorted(set(found))
