"""Item 3 of the "nothing lost" issue: a killed run must not keep its `llm` pool slot.

A real run of `main_extractions` (the `dagster asset materialize` CLI, in its own process
group, default multiprocess executor) extracts with the llm backend against the replay
server, which holds every request open, so the step sits inside the LLM call with the pool
slot claimed. A second run of the same step queues behind it. Then the first run's whole
process group gets SIGKILL, as the OOM killer or a closed terminal would do: the run stays
STARTED and the slot stays taken, so the queued run would wait forever. One tick of the
orphaned_run_sensor must mark it FAILURE and free the slot, and the queued run must then
take it. The second run is killed the same way and `cardio status` must clean it up and
say so; a last run (lexicon backend, in-process) must then get the slot and succeed.

The instance is a temporary DAGSTER_HOME using the project's own dagster.yaml (its
concurrency pools and run monitoring settings), with storage paths moved under it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import dagster as dg
import pytest
import yaml
from click.testing import CliRunner

from tests.replay_server import Recording, ReplayServer, ensure_baml_client, load_recordings

ROOT = Path(__file__).resolve().parents[2]
PARTITION = "ccs-sample-docling"  # 11 rows, a Docling JSON export (no conversion models)
STEP = "main_extractions"
POOL = "llm"


def _instance_yaml(home: Path) -> str:
    """The repo's dagster.yaml with its relative storage folders moved under ``home``."""
    config = yaml.safe_load((ROOT / "dagster.yaml").read_text())
    config["storage"]["sqlite"]["base_dir"] = str(home / "storage")
    config["local_artifact_storage"]["config"]["base_dir"] = str(home / "artifacts")
    config["compute_logs"]["config"]["base_dir"] = str(home / "compute_logs")
    return yaml.safe_dump(config)


@pytest.fixture
def dagster_home(tmp_path: Path) -> Iterator[Path]:
    home = tmp_path / "dagster_home"
    home.mkdir()
    (home / "dagster.yaml").write_text(_instance_yaml(home))
    previous = os.environ.get("DAGSTER_HOME")
    os.environ["DAGSTER_HOME"] = str(home)
    try:
        yield home
    finally:
        if previous is None:
            os.environ.pop("DAGSTER_HOME", None)
        else:
            os.environ["DAGSTER_HOME"] = previous


@pytest.fixture
def hanging_llm() -> Iterator[ReplayServer]:
    """The replay server answering every row only after a long time: an LLM call that
    does not return while the test needs it."""
    ensure_baml_client()
    any_row = next(iter(load_recordings().values()))
    server = ReplayServer({"any": Recording("any", "ROW:", any_row.response)})
    server.state.slow_seconds = 120.0
    server.script("any", ["slow"] * 200)
    with server:
        yield server


def wait_for(what: str, condition: Callable[[], bool], timeout: float, logs: list[Path]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.2)
    tails = "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}" for p in logs if p.exists())
    pytest.fail(f"timed out after {timeout:.0f} s waiting for {what}\n{tails}")


def slots(instance: dg.DagsterInstance) -> tuple[set[str], set[str]]:
    """Run ids holding a claimed `llm` slot, and run ids queued for one."""
    info = instance.event_log_storage.get_concurrency_info(POOL)
    claimed = {s.run_id for s in info.claimed_slots if s.step_key == STEP}
    queued = {p.run_id for p in info.pending_steps if p.assigned_timestamp is None}
    return claimed, queued


def run_pid(instance: dg.DagsterInstance, run_id: str) -> int:
    """Pid of the process that started the run (the CLI process itself)."""
    (start,) = instance.all_logs(run_id, of_type=dg.DagsterEventType.RUN_START)
    return start.dagster_event.pid


def run_status(instance: dg.DagsterInstance, run_id: str) -> dg.DagsterRunStatus:
    run = instance.get_run_by_id(run_id)
    assert run is not None
    return run.status


def _group_alive(pgid: int) -> bool:
    """True while a process of process group ``pgid`` runs (a zombie counts as gone)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            return True
    return False


def test_killed_run_is_marked_failed_and_its_slot_freed(
    dagster_home: Path, hanging_llm: ReplayServer, tmp_path: Path
) -> None:
    from cardio_assets.cli import main
    from cardio_assets.definitions import RESOURCES, defs

    with dg.DagsterInstance.get() as instance:
        instance.add_dynamic_partitions("guidelines", [PARTITION])
        upstream = dg.materialize(
            [*defs.assets, *(defs.asset_checks or [])],
            instance=instance,
            resources=RESOURCES,
            selection=dg.AssetSelection.assets("table_rows", "tagged_rows").upstream(),
            partition_key=PARTITION,
        )
        assert upstream.success

    models = tmp_path / "models.yaml"
    models.write_text(
        json.dumps(
            {
                "default": "hanging",
                "clients": {
                    "hanging": {
                        "provider": "openai-generic",
                        "base_url": hanging_llm.base_url,
                        "model": "replay/model",
                        "timeout_s": 300,
                        "max_retries": 0,
                    }
                },
            }
        )
    )
    run_config = {
        "ops": {STEP: {"config": {"backend": "llm"}}},
        "resources": {
            "llm": {
                "config": {"models_config": str(models), "cache_path": str(tmp_path / "c.duckdb")}
            }
        },
    }
    env = {**os.environ, "DAGSTER_HOME": str(dagster_home)}
    processes: list[subprocess.Popen] = []
    logs: list[Path] = []

    def launch(name: str) -> subprocess.Popen:
        log = tmp_path / f"{name}.log"
        logs.append(log)
        with log.open("w") as out:
            process = subprocess.Popen(
                [str(ROOT / ".venv" / "bin" / "dagster"), "asset", "materialize"]
                + ["-m", "cardio_assets.definitions", "--select", STEP, "--partition", PARTITION]
                + ["--config-json", json.dumps(run_config)],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, as a terminal would give it
            )
        processes.append(process)
        return process

    def kill_group(process: subprocess.Popen) -> None:
        os.killpg(process.pid, signal.SIGKILL)  # the run, its step worker, log tailers
        process.wait(timeout=30)
        # a SIGKILL lands when the kernel next schedules each process: on a loaded machine a
        # step worker of the group may still be running a moment after its parent is reaped
        # (what the sensor checks is that every process is gone, so wait for that first)
        wait_for(
            "every process of the killed run to be gone",
            lambda: not _group_alive(process.pid),
            30,
            logs,
        )

    try:
        with dg.DagsterInstance.get() as instance:
            first = launch("first")
            wait_for("the first run to claim the llm slot", lambda: slots(instance)[0], 90, logs)
            (first_run,) = slots(instance)[0]
            assert run_pid(instance, first_run) == first.pid
            second = launch("second")  # starts up while the first one's step gets going
            wait_for(
                "the first run to call the LLM and the second to queue for the slot",
                lambda: hanging_llm.state.in_flight > 0 and slots(instance)[1],
                90,
                logs,
            )
            (second_run,) = slots(instance)[1]
            assert run_pid(instance, second_run) == second.pid

            kill_group(first)
            # what a kill -9 leaves behind: a STARTED run that holds the slot
            assert run_status(instance, first_run) == dg.DagsterRunStatus.STARTED
            assert slots(instance) == ({first_run}, {second_run})

            # one tick of the sensor: the killed run fails, the live queued one is untouched
            from cardio_assets.sensors.orphaned_runs import orphaned_run_sensor

            tick = orphaned_run_sensor(dg.build_sensor_context(instance=instance))
            assert first_run in tick.skip_message and "FAILURE" in tick.skip_message
            assert run_status(instance, first_run) == dg.DagsterRunStatus.FAILURE
            assert first_run not in slots(instance)[0]
            failure = instance.all_logs(first_run, of_type=dg.DagsterEventType.RUN_FAILURE)
            assert "every process of this run is gone" in failure[-1].dagster_event.message
            assert run_status(instance, second_run) == dg.DagsterRunStatus.STARTED

            # the queued run now gets the slot its step was waiting for
            wait_for(
                "the second run to take the freed slot",
                lambda: slots(instance)[0] == {second_run},
                60,
                logs,
            )
            kill_group(second)
            assert run_status(instance, second_run) == dg.DagsterRunStatus.STARTED
            assert slots(instance)[0] == {second_run}

        # `cardio status` finds the second killed run, says so, and frees its slot
        result = CliRunner().invoke(main, ["status", "--guideline", PARTITION])
        assert result.exit_code == 0, result.output
        (line,) = [x for x in result.output.splitlines() if second_run in x]
        assert "marked FAILURE" in line and f"freed {POOL}: {STEP}" in line
        with dg.DagsterInstance.get() as instance:
            assert run_status(instance, second_run) == dg.DagsterRunStatus.FAILURE
            assert slots(instance) == (set(), set())
            # and a later run gets the slot and finishes (lexicon backend, in-process)
            later = dg.materialize(
                [*defs.assets, *(defs.asset_checks or [])],
                instance=instance,
                resources=RESOURCES,
                selection=[STEP],
                partition_key=PARTITION,
            )
            assert later.success
            assert slots(instance) == (set(), set())
            # nothing is left for the next check to do
            again = orphaned_run_sensor(dg.build_sensor_context(instance=instance))
            assert again.skip_message == "no killed runs, no leaked pool slots"
    finally:
        for process in processes:
            if process.poll() is None:
                kill_group(process)


# --------------------------------------------------------------------------- settings


def test_dagster_yaml_turns_on_the_run_monitoring_the_launcher_supports(
    dagster_home: Path,
) -> None:
    """Dagster's monitoring daemon fails runs stuck starting or canceling and frees slots of
    ended runs; resuming is off because the DefaultRunLauncher cannot resume a run."""
    with dg.DagsterInstance.get() as instance:
        assert isinstance(instance.run_launcher, dg.DefaultRunLauncher)
        assert not instance.run_launcher.supports_check_run_worker_health
        assert instance.run_monitoring_enabled
        assert "MONITORING" in instance.get_required_daemon_types()
        assert instance.run_monitoring_max_resume_run_attempts == 0
        assert instance.run_monitoring_settings["free_slots_after_run_end_seconds"] > 0
        assert instance.run_monitoring_start_timeout_seconds > 0


# --------------------------------------------------------------------------- process checks


def test_a_killed_but_unreaped_process_is_not_alive() -> None:
    """A step worker killed with its parent lingers as a zombie: the pid still exists (so
    `kill -0` succeeds) but nothing runs there any more."""
    from cardio_assets.logic.processes import Worker, all_gone, process_alive

    child = subprocess.Popen(["sleep", "60"])
    try:
        assert process_alive(child.pid, time.time())
        os.kill(child.pid, signal.SIGKILL)
        stat = Path(f"/proc/{child.pid}/stat")
        deadline = time.monotonic() + 10
        while stat.read_text().rsplit(")", 1)[1].split()[0] != "Z":
            assert time.monotonic() < deadline, "the killed child never became a zombie"
            time.sleep(0.05)
        os.kill(child.pid, 0)  # the pid is still there...
        assert not process_alive(child.pid)  # ...but not alive
        assert all_gone([Worker(child.pid, time.time(), "step x")])
    finally:
        child.wait()
    assert not process_alive(child.pid)


def test_a_pid_reused_by_a_later_process_is_not_the_logged_one() -> None:
    from cardio_assets.logic.processes import Worker, all_gone, process_alive

    me = os.getpid()
    assert process_alive(me, time.time())
    # a process that logged an hour ago cannot be this one, started since
    assert not process_alive(me, time.time() - 3600)
    assert not all_gone([])  # a run that named no process yet is not judged
    assert not all_gone([Worker(me, time.time(), "run"), Worker(2**22 + 7, 0.0, "step")])
