"""deploy/: the instance past one machine, against a REAL local PostgreSQL.

A PostgreSQL server (Debian's package; `make postgres` installs it when run as root) is
initialised in a temporary folder and started on a free loopback port with password
authentication. The instance is deploy/dagster.yaml as shipped, connection settings from
DAGSTER_PG_* variables; the pipeline is a separate code-location server
(`dagster code-server start`), which deploy/workspace.yaml (with the test's port) points
the daemon at. Two guidelines are submitted at once as two backfills; the test asserts
that both runs succeeded, overlapped in time (max_concurrent_runs: 2), and that their runs,
events and asset materializations are rows in PostgreSQL, not in SQLite files.
"""

from __future__ import annotations

import os
import pwd
import secrets
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from cardio_assets import paths
from tests.dagster_dev_fixtures import free_port, instance_yaml, stop_process_group, wait_until

pytestmark = pytest.mark.daemon

GUIDELINES = ["ccs-sample-docling", "hf-sample"]
POOLS = ["docling", "llm"]  # the pools the stages declare (dagster.yaml concurrency)
STAGES = "docling_tables,table_rows,tagged_rows,main_extractions,population_extractions"
PG_BIN_DIRS = sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True)
INSTALL_HINT = (
    "PostgreSQL is not installed: run `make postgres` as root "
    "(apt-get install -y postgresql), then rerun"
)


def _pg_tool(name: str) -> str | None:
    for folder in PG_BIN_DIRS:
        if (folder / name).exists():
            return str(folder / name)
    return shutil.which(name)


@dataclass
class Postgres:
    host: str
    port: int
    user: str
    password: str
    db: str

    def env(self) -> dict[str, str]:
        return {
            "DAGSTER_PG_HOST": self.host,
            "DAGSTER_PG_PORT": str(self.port),
            "DAGSTER_PG_USERNAME": self.user,
            "DAGSTER_PG_PASSWORD": self.password,
            "DAGSTER_PG_DB": self.db,
        }


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    initdb, pg_ctl, createdb = _pg_tool("initdb"), _pg_tool("pg_ctl"), _pg_tool("createdb")
    if not (initdb and pg_ctl and createdb):
        pytest.skip(INSTALL_HINT)
    # PostgreSQL refuses to run as root: as root (CI), the server runs as the postgres user
    # the Debian package creates, in a folder that user owns.
    as_user: list[str] = []
    owner = None
    if os.geteuid() == 0:
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no postgres user to run PostgreSQL as")
        as_user = ["runuser", "-u", "postgres", "--"]
    root = Path(tempfile.mkdtemp(prefix="cardio-pg-", dir="/tmp"))
    data, password_file = root / "data", root / "pw"
    password = secrets.token_hex(16)
    password_file.write_text(password)
    if owner is not None:
        os.chown(root, owner.pw_uid, owner.pw_gid)
        os.chown(password_file, owner.pw_uid, owner.pw_gid)
    port = free_port()
    user = "cardio"

    def run(*cmd: str, env: dict[str, str] | None = None) -> None:
        done = subprocess.run(
            [*as_user, *cmd], capture_output=True, text=True, timeout=180, env=env
        )
        assert done.returncode == 0, f"{' '.join(cmd)}:\n{done.stdout}\n{done.stderr}"

    run(
        initdb,
        "-D",
        str(data),
        "-U",
        user,
        f"--pwfile={password_file}",
        "--auth=scram-sha-256",
        "--encoding=UTF8",
        "--no-instructions",
    )
    password_file.unlink()
    run(
        pg_ctl,
        "-D",
        str(data),
        "-l",
        str(root / "server.log"),
        "-w",
        "-t",
        "120",
        "-o",
        f"-p {port} -k {root} -c listen_addresses=127.0.0.1",
        "start",
    )
    try:
        run(
            createdb,
            "-h",
            "127.0.0.1",
            "-p",
            str(port),
            "-U",
            user,
            "dagster",
            env={**os.environ, "PGPASSWORD": password},
        )
        yield Postgres("127.0.0.1", port, user, password, "dagster")
    finally:
        subprocess.run(
            [*as_user, pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"],
            capture_output=True,
            timeout=120,
        )
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="module")
def deployed(postgres, _isolated_cardio_home, neo4j_server, tmp_path_factory):
    """Code server + daemon on deploy/'s instance; yields (env, dagster_home)."""
    home = tmp_path_factory.mktemp("pg_dagster_home")
    (home / "dagster.yaml").write_text(
        instance_yaml(home, paths.PROJECT_ROOT / "deploy" / "dagster.yaml")
    )
    code_port = free_port()
    workspace = yaml.safe_load((paths.PROJECT_ROOT / "deploy" / "workspace.yaml").read_text())
    workspace["load_from"][0]["grpc_server"]["port"] = code_port
    (home / "workspace.yaml").write_text(yaml.safe_dump(workspace))
    env = {
        **os.environ,
        **postgres.env(),
        "DAGSTER_HOME": str(home),
        "CARDIO_HOME": str(_isolated_cardio_home),
    }
    bin_dir = Path(sys.executable).parent
    logs = home / "code-server.log", home / "daemon.log"
    with logs[0].open("wb") as out:
        code_server = subprocess.Popen(
            [
                str(bin_dir / "dagster"),
                "code-server",
                "start",
                "-m",
                "cardio_assets.definitions",
                "-h",
                "127.0.0.1",
                "-p",
                str(code_port),
            ],
            cwd=paths.PROJECT_ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    daemon = None
    try:
        import dagster as dg

        # While the code server starts: once per new database, as deploy/'s README section
        # says, the pools' slot rows (two runs starting at once would otherwise both try to
        # create them), and the guideline partitions. Before the daemon, so one process at
        # a time creates the fresh database's tables.
        for pool in POOLS:
            made = subprocess.run(
                [str(bin_dir / "dagster"), "instance", "concurrency", "set", pool, "1"],
                cwd=paths.PROJECT_ROOT,
                env=env,
                capture_output=True,
                text=True,
            )
            assert made.returncode == 0, made.stdout + made.stderr
        sync = subprocess.run(
            [str(bin_dir / "cardio"), "partitions", "sync"],
            cwd=paths.PROJECT_ROOT,
            env=env,
            capture_output=True,
            text=True,
        )
        assert sync.returncode == 0, sync.stderr

        def code_server_up() -> bool:
            if code_server.poll() is not None:
                pytest.fail(f"code server exited:\n{logs[0].read_text()[-3000:]}")
            with __import__("socket").socket() as sock:
                return sock.connect_ex(("127.0.0.1", code_port)) == 0

        wait_until("code server listening", code_server_up, 300)
        with logs[1].open("wb") as out:
            daemon = subprocess.Popen(
                [str(bin_dir / "dagster-daemon"), "run", "-w", str(home / "workspace.yaml")],
                cwd=paths.PROJECT_ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        yield env, home, dg
    finally:
        for process in (daemon, code_server):
            if process is not None:
                stop_process_group(process)


def test_two_concurrent_runs_on_the_postgres_instance(deployed, postgres) -> None:
    env, home, dg = deployed
    cardio = str(Path(sys.executable).with_name("cardio"))
    backfills = [
        subprocess.Popen(
            [cardio, "backfill", "--guideline", g, "--select", STAGES, "--timeout", "900"],
            cwd=paths.PROJECT_ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for g in GUIDELINES
    ]
    outputs = [p.communicate(timeout=1000)[0] for p in backfills]
    daemon_log = (home / "daemon.log").read_text(errors="replace")[-3000:]
    for process, out in zip(backfills, outputs, strict=True):
        assert process.returncode == 0, out + daemon_log
        assert "COMPLETED_SUCCESS" in out, out

    os.environ.update({k: v for k, v in env.items() if k.startswith("DAGSTER_PG_")})
    with dg.DagsterInstance.from_config(str(home)) as instance:
        assert type(instance.run_storage).__name__ == "PostgresRunStorage"
        assert type(instance.event_log_storage).__name__ == "PostgresEventLogStorage"
        runs = [r for r in instance.get_runs() if r.tags.get("cardio/launched_by")]
        assert len(runs) == 2 and all(r.is_success for r in runs), [
            (r.run_id, r.status) for r in runs
        ]
        records = {r.run_id: instance.get_run_record_by_id(r.run_id) for r in runs}
        (a, b) = records.values()
        # max_concurrent_runs: 2 -> the two runs were in progress at the same time
        assert a.start_time < b.end_time and b.start_time < a.end_time, (
            a.start_time,
            a.end_time,
            b.start_time,
            b.end_time,
        )
        for guideline in GUIDELINES:
            found = instance.fetch_materializations(
                dg.AssetRecordsFilter(
                    asset_key=dg.AssetKey("table_rows"), asset_partitions=[guideline]
                ),
                limit=1,
            )
            assert found.records, guideline
    import psycopg2

    with (
        psycopg2.connect(
            host=postgres.host,
            port=postgres.port,
            user=postgres.user,
            password=postgres.password,
            dbname=postgres.db,
        ) as con,
        con.cursor() as cur,
    ):
        cur.execute("SELECT count(*) FROM runs WHERE status = %s", ["SUCCESS"])
        assert cur.fetchone()[0] >= 2
        cur.execute(
            "SELECT count(*) FROM event_logs WHERE dagster_event_type = %s",
            ["ASSET_MATERIALIZATION"],
        )
        assert cur.fetchone()[0] >= 2 * len(STAGES.split(","))
    assert not list(home.rglob("*.db")), "no SQLite storage: everything is in PostgreSQL"
