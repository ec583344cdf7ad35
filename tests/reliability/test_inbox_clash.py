"""Two inbox files that map to one partition are both ignored, with a warning naming both.

"HF Sample.html" and "hf_sample.md" both become partition `hf_sample`; the inbox used to
keep whichever sorted first and silently drop the other, so a run could convert the wrong
document. Real Dagster instance and sensor evaluation.
"""

from __future__ import annotations

import logging
from pathlib import Path

import dagster as dg
import pytest

from cardio_assets.config import load_registry
from cardio_assets.partitions import GUIDELINE_PARTITIONS_NAME, inbox_documents
from cardio_assets.sensors.inbox import build_inbox_sensor

DOC = (
    "<html><body><table><tr><th>Recommendations</th><th>Class</th><th>Level</th></tr>"
    "<tr><td>Do the thing.</td><td>I</td><td>A</td></tr></table></body></html>"
)


def test_two_files_for_one_partition_are_ignored_with_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("CARDIO_HOME", str(tmp_path / "home"))
    inbox = tmp_path / "home" / "inbox"
    inbox.mkdir(parents=True)
    (inbox / "HF Sample.html").write_text(DOC, encoding="utf-8")
    (inbox / "hf_sample.md").write_text("| Recommendations | Class | Level |\n|---|---|---|\n")
    (inbox / "other.html").write_text(DOC, encoding="utf-8")

    with caplog.at_level(logging.WARNING):
        documents = inbox_documents()
    assert sorted(documents) == ["other"]
    warned = [r.getMessage() for r in caplog.records if "hf_sample" in r.getMessage()]
    assert len(warned) == 1
    assert "'HF Sample.html'" in warned[0] and "'hf_sample.md'" in warned[0]

    (tmp_path / "dagster").mkdir()
    with dg.instance_for_test(temp_dir=str(tmp_path / "dagster")) as instance:
        instance.add_dynamic_partitions(GUIDELINE_PARTITIONS_NAME, load_registry().ids)
        sensor = build_inbox_sensor(dg.AssetSelection.all())
        result = sensor(dg.build_sensor_context(instance=instance))
        assert [r.partition_key for r in result.run_requests] == ["other"]
        added = [k for r in result.dynamic_partitions_requests for k in r.partition_keys]
        assert added == ["other"]
        instance.add_dynamic_partitions(GUIDELINE_PARTITIONS_NAME, added)
        again = sensor(dg.build_sensor_context(instance=instance, cursor=result.cursor))
        assert again.run_requests == []
        reason = again.skip_reason.skip_message
        assert "'HF Sample.html'" in reason and "'hf_sample.md'" in reason
