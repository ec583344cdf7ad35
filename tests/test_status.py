"""`cardio status`: per-guideline staleness from the real Dagster instance.

The pure rule (cardio_assets/logic/staleness.py) on hand-made histories, then the command
against a real temporary instance (DAGSTER_HOME) in which ``ccs-sample-docling`` was
materialized in-process with the lexicon backend through extracted_rules (no neo4j_graph).
A threshold change is seen by a fresh interpreter with CARDIO_CONFIG_DIR pointing at an
edited copy of configs/, as `cardio status` after a config edit would see it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from cardio_assets.logic.staleness import (
    AssetNode,
    Materialization,
    StalenessError,
    State,
    partition_status,
    rematerialize_roots,
    selection_string,
    toposort,
)

ROOT = Path(__file__).resolve().parent.parent
PARTITION = "ccs-sample-docling"
UNTOUCHED = "hf-sample"  # registered, never materialized here


# --------------------------------------------------------------------------- pure rule


def _sha(value: str) -> str:
    return hashlib.sha256(value.encode()).hexdigest()


CHAIN = [
    AssetNode("a", "a1"),
    AssetNode("b", "b1", ("a",), code_version_reads="configs/x.yaml (b)"),
    AssetNode("c", "c1", ("b",)),
    AssetNode("d", "d1", ("a", "c")),
]


def _mat(code: str, data: str, **inputs: str) -> Materialization:
    # recorded as Dagster records a one-partition input: sha256 of the upstream's version
    return Materialization(f"run-{code}", 1.0, code, data, {k: _sha(v) for k, v in inputs.items()})


def _in_sync() -> dict[str, Materialization]:
    return {
        "a": _mat("a1", "A"),
        "b": _mat("b1", "B", a="A"),
        "c": _mat("c1", "C", b="B"),
        "d": _mat("d1", "D", a="A", c="C"),
    }


def _states(statuses) -> dict[str, str]:
    return {s.asset: str(s.state) for s in statuses}


def test_all_fresh_when_code_and_inputs_match() -> None:
    statuses = partition_status(reversed(CHAIN), _in_sync())
    assert [s.asset for s in statuses] == ["a", "b", "c", "d"]  # upstream first
    assert set(_states(statuses).values()) == {"fresh"}
    assert rematerialize_roots(CHAIN, statuses) == []


def test_code_change_makes_the_asset_and_its_downstream_stale() -> None:
    nodes = [
        n if n.name != "b" else AssetNode("b", "b2", ("a",), "configs/x.yaml (b)") for n in CHAIN
    ]
    statuses = {s.asset: s for s in partition_status(nodes, _in_sync())}
    assert _states(statuses.values()) == {"a": "fresh", "b": "stale", "c": "stale", "d": "stale"}
    assert statuses["b"].reasons == ("code version changed: configs/x.yaml (b) (b1 -> b2)",)
    assert statuses["c"].reasons == ("upstream b stale",)
    assert statuses["d"].reasons == ("upstream c stale",)
    roots = rematerialize_roots(nodes, statuses.values())
    assert roots == ["b"] and selection_string(roots) == "b*"


def test_rematerialized_upstream_with_new_data_version_is_a_change() -> None:
    last = _in_sync()
    last["b"] = _mat("b1", "B-new", a="A")  # b ran again and produced other data
    statuses = {s.asset: s for s in partition_status(CHAIN, last)}
    assert statuses["b"].state is State.FRESH
    assert statuses["c"].reasons == ("upstream b changed",)
    assert statuses["d"].reasons == ("upstream c stale",)
    assert rematerialize_roots(CHAIN, statuses.values()) == ["c"]


def test_rematerialized_upstream_with_the_same_data_version_changes_nothing() -> None:
    last = _in_sync()
    last["a"] = Materialization("run-again", 2.0, "a1", "A", {})
    assert set(_states(partition_status(CHAIN, last)).values()) == {"fresh"}


def test_unpartitioned_input_recorded_as_is_also_matches() -> None:
    last = _in_sync()
    last["b"] = Materialization("r", 1.0, "b1", "B", {"a": "A"})
    assert _states(partition_status(CHAIN, last))["b"] == "fresh"


def test_never_materialized_and_missing_records() -> None:
    last = _in_sync()
    del last["a"]
    last["c"] = Materialization("r", 1.0, None, "C", {})  # no code version, no input tag
    statuses = {s.asset: s for s in partition_status(CHAIN, last)}
    assert statuses["a"].state is State.NEVER and statuses["a"].run_id is None
    assert statuses["b"].reasons == ("upstream a never materialized",)
    assert statuses["c"].reasons[0].startswith("no code version recorded")
    assert "upstream b stale" in statuses["c"].reasons
    assert "upstream b: no input data version recorded" in statuses["c"].reasons
    assert rematerialize_roots(CHAIN, statuses.values()) == ["a"]
    assert partition_status(CHAIN, {})[0].state is State.NEVER


def test_two_independent_roots_and_a_cycle() -> None:
    nodes = [AssetNode("x", "1"), AssetNode("y", "1"), AssetNode("z", "1", ("x", "y"))]
    last = {"x": Materialization("r", 1.0, "1", "X", {})}
    statuses = partition_status(nodes, last)
    assert rematerialize_roots(nodes, statuses) == ["y"]
    last["y"] = Materialization("r", 1.0, "0", "Y", {})
    assert rematerialize_roots(nodes, partition_status(nodes, last)) == ["y"]
    with pytest.raises(StalenessError, match="cycle"):
        toposort([AssetNode("p", "1", ("q",)), AssetNode("q", "1", ("p",))])


# --------------------------------------------------------------------------- real instance


@pytest.fixture(scope="module")
def dagster_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """A temporary instance with PARTITION materialized through extracted_rules; its run id."""
    import dagster as dg

    from cardio_assets.definitions import RESOURCES, defs

    home = tmp_path_factory.mktemp("status_dagster_home")
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    previous = os.environ.get("DAGSTER_HOME")
    os.environ["DAGSTER_HOME"] = str(home)
    try:
        with dg.DagsterInstance.get() as instance:
            instance.add_dynamic_partitions("guidelines", [PARTITION, UNTOUCHED])
            result = dg.materialize(
                [*defs.assets, *(defs.asset_checks or [])],
                instance=instance,
                resources=RESOURCES,
                selection=dg.AssetSelection.assets("extracted_rules").upstream(),
                partition_key=PARTITION,
            )
            assert result.success
        yield home, result.run_id
    finally:
        if previous is None:
            os.environ.pop("DAGSTER_HOME", None)
        else:
            os.environ["DAGSTER_HOME"] = previous


def _status_json(*args: str) -> dict:
    from cardio_assets.cli import main

    result = CliRunner().invoke(main, ["status", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _status_subprocess(config_dir: Path | None, *args: str) -> subprocess.CompletedProcess:
    """`cardio status` in a fresh interpreter, so code versions are computed from config_dir."""
    # the command itself must not add partitions (checked below)
    env = dict(os.environ)
    if config_dir is not None:
        env["CARDIO_CONFIG_DIR"] = str(config_dir)
    return subprocess.run(
        [sys.executable, "-c", "from cardio_assets.cli import main; main()", "status", *args],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )


def _by_state(report: dict) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for asset in report["assets"]:
        out.setdefault(asset["state"], set()).add(asset["asset"])
    return out


def _stricter_grounding(tmp_path: Path) -> Path:
    target = tmp_path / "configs"
    shutil.copytree(ROOT / "configs", target)
    schema_file = target / "guideline_graph_schema.yaml"
    schema = yaml.safe_load(schema_file.read_text())
    assert schema["roles"]["Condition"]["min_match_score"] != 0.99
    schema["roles"]["Condition"]["min_match_score"] = 0.99
    schema_file.write_text(yaml.safe_dump(schema))
    return target


def test_every_pipeline_asset_names_what_its_code_version_reads() -> None:
    from cardio_assets.cli.instance import code_version_reads, current_nodes

    assert {n.name for n in current_nodes()} == set(code_version_reads())


def test_fresh_after_materializing(dagster_home: tuple[Path, str]) -> None:
    _, run_id = dagster_home
    (report,) = _status_json("--guideline", PARTITION)["guidelines"]
    states = _by_state(report)
    assert states == {
        "fresh": {
            "docling_tables", "table_rows", "tagged_rows", "main_extractions",
            "population_extractions", "merged_concepts", "grounding_candidates",
            "grounding_index", "extracted_rules",
        },
        "never materialized": {"neo4j_graph"},
    }  # fmt: skip
    assert report["rematerialize"]["select"] == "neo4j_graph*"
    assets = {a["asset"]: a for a in report["assets"]}
    assert {a["run_id"] for a in assets.values() if a["state"] == "fresh"} == {run_id}
    assert assets["grounding_index"]["timestamp"] > 0
    assert assets["grounding_index"]["reasons"] == []


def test_never_materialized_partition(dagster_home: tuple[Path, str]) -> None:
    (report,) = _status_json("--guideline", UNTOUCHED)["guidelines"]
    assert {a["state"] for a in report["assets"]} == {"never materialized"}
    assert all(a["run_id"] is None for a in report["assets"])
    assert report["rematerialize"]["command"] == (
        "dagster asset materialize -m cardio_assets.definitions "
        f"--select 'docling_tables*' --partition {UNTOUCHED}"
    )


def test_unknown_guideline_is_named(dagster_home: tuple[Path, str]) -> None:
    from cardio_assets.cli import main

    result = CliRunner().invoke(main, ["status", "--guideline", "no-such-guideline"])
    assert result.exit_code != 0
    assert "unknown guideline 'no-such-guideline'" in result.output
    assert PARTITION in result.output


def test_threshold_change_marks_grounding_index_and_downstream_stale(
    dagster_home: tuple[Path, str], tmp_path: Path
) -> None:
    strict = _stricter_grounding(tmp_path)
    out = _status_subprocess(strict, "--guideline", PARTITION, "--json").stdout
    (report,) = json.loads(out)["guidelines"]
    states = _by_state(report)
    assert states["stale"] == {"grounding_index", "extracted_rules"}
    assert states["never materialized"] == {"neo4j_graph"}
    assert {"main_extractions", "population_extractions", "grounding_candidates"} <= states["fresh"]
    assets = {a["asset"]: a for a in report["assets"]}
    (reason,) = assets["grounding_index"]["reasons"]
    assert reason.startswith("code version changed: configs/guideline_graph_schema.yaml")
    assert assets["grounding_index"]["recorded_code_version"] in reason
    assert assets["extracted_rules"]["reasons"] == ["upstream grounding_index stale"]
    assert report["rematerialize"]["command"] == (
        "dagster asset materialize -m cardio_assets.definitions "
        f"--select 'grounding_index*' --partition {PARTITION}"
    )

    # the table view says the same, per guideline, with the hint last
    table = _status_subprocess(strict, "--guideline", PARTITION).stdout
    line = next(x for x in table.splitlines() if x.strip().startswith("grounding_index"))
    assert "STALE" in line and "configs/guideline_graph_schema.yaml" in line
    assert f"--select 'grounding_index*' --partition {PARTITION}" in table

    # re-run grounding_index alone under the new config (as a user would, from the CLI):
    # it is fresh again and its downstream now sees a CHANGED input, not a stale one
    env = {**os.environ, "CARDIO_CONFIG_DIR": str(strict)}
    subprocess.run(
        [
            str(ROOT / ".venv" / "bin" / "dagster"),
            *("asset", "materialize", "-m", "cardio_assets.definitions"),
            *("--select", "grounding_index", "--partition", PARTITION),
        ],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    (after,) = json.loads(_status_subprocess(strict, "--guideline", PARTITION, "--json").stdout)[
        "guidelines"
    ]
    assets = {a["asset"]: a for a in after["assets"]}
    assert assets["grounding_index"]["state"] == "fresh"
    assert assets["extracted_rules"]["reasons"] == ["upstream grounding_index changed"]
    assert _by_state(after)["stale"] == {"extracted_rules"}
    assert after["rematerialize"]["select"] == "extracted_rules*"


def test_every_guideline_without_writing_to_the_instance(dagster_home: tuple[Path, str]) -> None:
    import dagster as dg

    from cardio_assets.config import load_registry

    reports = {r["guideline"]: r for r in _status_json()["guidelines"]}
    assert set(reports) == set(load_registry().ids) | {PARTITION, UNTOUCHED}
    assert reports[PARTITION]["registered_partition"] is True
    # registry entries the instance has no partition for yet: reported, not added
    others = set(reports) - {PARTITION, UNTOUCHED}
    assert others and all(not reports[g]["registered_partition"] for g in others)
    with dg.DagsterInstance.get() as instance:
        assert set(instance.get_dynamic_partitions("guidelines")) == {PARTITION, UNTOUCHED}


def test_rematerialize_runs_exactly_what_is_stale_in_one_process(
    dagster_home: tuple[Path, str], neo4j_server, tmp_path: Path
) -> None:
    """`cardio status --rematerialize` after a threshold change runs the stale selection in
    this process (one run for the guideline), never the extraction it does not need, and
    leaves the guideline up to date."""
    import dagster as dg

    _, first_run = dagster_home
    strict = _stricter_grounding(tmp_path)
    done = _status_subprocess(strict, "--guideline", PARTITION, "--rematerialize", "--json")
    payload = json.loads(done.stdout)
    (ran,) = payload["rematerialized"]
    assert ran["guideline"] == PARTITION and ran["success"] is True, done.stderr[-3000:]
    (report,) = payload["guidelines"]
    assert set(_by_state(report)) == {"fresh"}, report
    assert report["rematerialize"] is None
    with dg.DagsterInstance.get() as instance:

        def last_run(asset: str) -> str:
            (record,) = instance.fetch_materializations(
                dg.AssetRecordsFilter(asset_key=dg.AssetKey(asset), asset_partitions=[PARTITION]),
                limit=1,
            ).records
            return record.run_id

        assert last_run("neo4j_graph") == last_run("extracted_rules") == ran["run_id"]
        for asset in ("main_extractions", "population_extractions", "grounding_candidates"):
            assert last_run(asset) == first_run, asset  # nothing upstream of the change re-ran
    # a second call finds nothing to run
    again = json.loads(
        _status_subprocess(strict, "--guideline", PARTITION, "--rematerialize", "--json").stdout
    )
    assert "rematerialized" not in again
