"""What ``cardio build`` reads besides a registered guideline: the pieces of one table as
Docling JSON files, a footnotes file and the ``--node`` endpoint host (pure, no Dagster).

The pieces go through the pipeline's own table code (cardio_assets/logic/docling_tables.py:
``document_pieces`` of each file, then ``join_pieces`` over all of them, the function the
docling_tables asset joins continuation pieces with), so one file gives exactly the table
the asset makes of it, and two files of one table (pages 62 and 63) give the joined table.
Footnotes from a text file are attached to the table's last piece as Docling footnote items
before that, so their markers and abbreviations are read the way the asset reads a
document's own footnotes. Every error names the file and what to do.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from docling_core.types.doc import DocItemLabel, DoclingDocument, TextItem

from cardio_assets.errors import UserError
from cardio_assets.files import display_path
from cardio_assets.llm_clients import ModelsConfig
from cardio_assets.logic.docling_tables import document_pieces
from cardio_assets.logic.markup import spans_may_be_lost
from cardio_assets.logic.sources import check_source, load_docling_json
from cardio_assets.logic.table_pieces import join_pieces, normalized_header, piece_grid
from cardio_assets.records import TableRecord

_FORMAT = "docling_json"
# a table id becomes part of every row id "<guideline>:<table_id>:r<n>"
TABLE_ID = re.compile(r"^[^\s:]{1,200}$")
_NODE = re.compile(r"^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})(:[0-9]{1,5})?$")


class BuildInputError(UserError):
    """A ``cardio build`` input that cannot be used; the message names the file and the fix."""


@dataclass
class PieceFile:
    """One ``--docling-table-json`` file, loaded."""

    path: Path
    data: bytes
    doc: DoclingDocument


def load_piece_files(paths: list[Path], guideline: str) -> list[PieceFile]:
    """Each file checked and loaded as the docling_tables asset loads a Docling JSON source."""
    files = []
    for path in paths:
        if path.suffix.lower() != ".json":
            raise BuildInputError(
                f"{path}: --docling-table-json takes a Docling JSON export (.json, what "
                "DoclingDocument.save_as_json writes); pass other documents with --document"
            )
        _, data = check_source(path, guideline)
        doc = load_docling_json(path, guideline)
        if not doc.tables:
            raise BuildInputError(
                f"{path}: this Docling JSON holds no table; pass the JSON of the table's pieces"
            )
        files.append(PieceFile(path, data, doc))
    return files


def read_footnotes(path: Path) -> list[str]:
    """Footnotes as plain text, one per line (blank lines skipped)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise BuildInputError(f"{path}: footnotes file not found; check the path") from None
    except OSError as exc:
        raise BuildInputError(f"{path}: footnotes file cannot be read ({exc.strerror})") from None
    fix = "give the footnotes as plain UTF-8 text, one footnote per line"
    if b"\x00" in data:
        raise BuildInputError(f"{path}: footnotes file is binary, not text; {fix}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BuildInputError(
            f"{path}: footnotes file is not UTF-8 text (byte {exc.start}); {fix}"
        ) from None
    notes = [" ".join(line.split()) for line in text.splitlines()]
    notes = [n for n in notes if n]
    if not notes:
        raise BuildInputError(f"{path}: footnotes file is empty; {fix}, or leave the flag out")
    return notes


def attach_footnotes(doc: DoclingDocument, notes: list[str]) -> int:
    """Add ``notes`` as Docling footnote items of the document's last table (the table's end,
    where a guideline prints them); a note the table already has is not added twice."""
    table = doc.tables[-1]
    have = {
        item.text.strip()
        for ref in table.footnotes
        if isinstance(item := ref.resolve(doc), TextItem)
    }
    added = 0
    for note in notes:
        if note in have:
            continue
        item = doc.add_text(label=DocItemLabel.FOOTNOTE, text=note, parent=table)
        table.footnotes.append(item.get_ref())
        have.add(note)
        added += 1
    return added


def table_from_pieces(
    files: list[PieceFile],
    *,
    guideline: str,
    table_id: str | None,
    footnote_marker_pattern: str,
    continuation_words: list[str],
    display_root: Path | None = None,
) -> TableRecord:
    """The one table the files are pieces of, joined by the pipeline's continuation rule.

    Several files name their sources "a.json + b.json"; the sha256 is of their bytes in
    that order (``cat a.json b.json | sha256sum``)."""
    pieces, owner = [], []
    for number, f in enumerate(files):
        found = document_pieces(f.doc, _FORMAT, footnote_marker_pattern, continuation_words)
        pieces.extend(found)
        owner.extend([number] * len(found))
    if not pieces:
        raise BuildInputError(f"{files[0].path}: its tables have no header and no rows")
    fix = (
        "--docling-table-json takes the pieces of ONE table, in page order; build other "
        "tables in their own run, or a whole document with --document"
    )
    # a piece that repeats a header row must repeat the first piece's (a "continued"
    # caption alone would make the pipeline join it under the first header); a header row
    # that is a recommendation (a converter's mistake) is data, not a header
    expected = normalized_header(pieces[0].header, continuation_words)
    for number, piece in enumerate(pieces[1:], 1):
        if not piece.header_rows or piece_grid(piece).shape.header_is_data:
            continue
        if normalized_header(piece.header, continuation_words) != expected:
            raise BuildInputError(
                f"{files[owner[number]].path}: the header of its table piece "
                f"({' | '.join(piece.header)}) does not match the header of {files[0].path} "
                f"({' | '.join(pieces[0].header)}); {fix}"
            )
    records = join_pieces(
        pieces,
        guideline=guideline,
        source_file=" + ".join(str(display_path(f.path, display_root)) for f in files),
        source_sha256=hashlib.sha256(b"".join(f.data for f in files)).hexdigest(),
        source_format=_FORMAT,
        continuation_words=continuation_words,
        fill_spans=spans_may_be_lost(files[0].doc, _FORMAT),
    )
    if len(records) > 1:
        start = records[0].pieces  # the first piece that did not continue the table
        other = pieces[start]
        where, of = files[owner[start]].path, files[0].path
        raise BuildInputError(
            f"{where}: its table piece (page {other.pages or '?'}) does not continue the table "
            f"of {of} (pages {records[0].pages or '?'}): not on the same or the next page, or "
            f"a heading or prose comes between them; {fix}"
        )
    record = records[0]
    if table_id:
        record = record.model_copy(update={"table_id": table_id})
    return record


def with_endpoint_host(models: ModelsConfig, client: str | None, node: str) -> ModelsConfig:
    """The models config with one client's endpoint moved to host ``node`` (``HOST`` or
    ``HOST:PORT``): scheme, port (unless given) and path of its base_url are kept."""
    name, config = models.client(client)
    if not _NODE.match(node):
        raise BuildInputError(
            f"--node {node!r}: expected a host name or HOST:PORT (no scheme, no path)"
        )
    base = config.effective_base_url()
    if not base:
        raise BuildInputError(
            f"--node {node}: client {name!r} ({config.provider}) has no base_url to move; "
            "--node works with an openai-generic client in configs/models.yaml (vLLM, Ollama)"
        )
    parts = urlsplit(base)
    host, _, port = node.partition(":")
    port = port or (str(parts.port) if parts.port else "")
    moved = urlunsplit(parts._replace(netloc=host + (f":{port}" if port else "")))
    clients = dict(models.clients)
    clients[name] = config.model_copy(update={"base_url": moved, "base_url_env": None})
    return models.model_copy(update={"clients": clients})
