"""Export files are whole or untouched: a failure mid-write keeps the previous version."""

from __future__ import annotations

import json
import os
import stat
import threading
from pathlib import Path

import pytest

from cardio_assets.exports import write_json, write_jsonl


def test_jsonl_lines_and_json_round_trip(tmp_path: Path) -> None:
    target = tmp_path / "out" / "rules.jsonl"
    write_jsonl(target, [{"a": "é"}, '{"b": 2}'])
    assert target.read_text(encoding="utf-8") == '{"a": "é"}\n{"b": 2}\n'
    write_json(tmp_path / "index.json", {"k": [1, 2]})
    assert json.loads((tmp_path / "index.json").read_text()) == {"k": [1, 2]}
    assert sorted(p.name for p in tmp_path.rglob("*.tmp")) == []


def test_failure_while_serialising_keeps_the_previous_file(tmp_path: Path) -> None:
    target = tmp_path / "rules.jsonl"
    write_jsonl(target, [{"version": 1}])

    def records():
        yield {"version": 2}
        raise RuntimeError("bad record")

    with pytest.raises(RuntimeError, match="bad record"):
        write_jsonl(target, records())
    assert target.read_text(encoding="utf-8") == '{"version": 1}\n'


def test_an_export_to_a_pipe_or_device_writes_through_it(tmp_path: Path) -> None:
    """`cardio extract --out /dev/null` run as root once renamed its temporary file over
    /dev/null, leaving a root-only regular file there that broke other programs (PostgreSQL's
    initdb among them). A pipe stands in for the device here: it must stay a pipe and
    receive the text."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    received: list[str] = []
    reader = threading.Thread(target=lambda: received.append(pipe.read_text()), daemon=True)
    reader.start()
    write_jsonl(pipe, [{"rows": 2}])
    reader.join(timeout=10)
    assert stat.S_ISFIFO(pipe.stat().st_mode)
    assert received == ['{"rows": 2}\n']
    assert list(tmp_path.glob("*.tmp")) == []


def test_an_export_to_a_symlink_keeps_the_link_and_a_folder_is_refused(tmp_path: Path) -> None:
    """/dev/stdout is a link to the real stream: the link stays and the text goes where it
    points. A folder given as the target is a clear error, with nothing left beside it."""
    real = tmp_path / "real.jsonl"
    real.write_text("old\n")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    write_jsonl(link, [{"rows": 3}])
    assert link.is_symlink() and real.read_text() == '{"rows": 3}\n'
    folder = tmp_path / "out"
    folder.mkdir()
    with pytest.raises(IsADirectoryError, match="is a folder"):
        write_jsonl(folder, [{"rows": 1}])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.jsonl", "out", "real.jsonl"]
