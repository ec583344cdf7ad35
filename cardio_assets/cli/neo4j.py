"""``cardio neo4j start | stop | status``: manage the project's local Neo4j."""

from __future__ import annotations

import json

import click

from cardio_assets import neo4j_local


@click.group("neo4j")
def neo4j_group() -> None:
    """Local embedded Neo4j (Bolt on 127.0.0.1, data under $CARDIO_HOME/neo4j)."""


@neo4j_group.command("start")
@click.option(
    "--port", type=int, default=None, help="Bolt port (default 7687 or $CARDIO_NEO4J_PORT)."
)
@click.option("--heap", default="2g", show_default=True, help="JVM heap (-Xmx).")
@click.option("--page-cache", default="512m", show_default=True, help="Neo4j page cache size.")
@click.option("--timeout", type=float, default=180.0, show_default=True, help="Seconds to wait.")
def start_command(port: int | None, heap: str, page_cache: str, timeout: float) -> None:
    """Build the launcher if needed, start Neo4j in the background, wait until Bolt answers."""
    try:
        st = neo4j_local.start(port=port, heap=heap, page_cache=page_cache, timeout_s=timeout)
    except neo4j_local.Neo4jLocalError as exc:
        raise click.ClickException(str(exc)) from exc
    paths = neo4j_local.local_paths()
    click.echo(f"Neo4j ready at {st.uri} (pid {st.pid})")
    click.echo(f"  user neo4j, password in {paths.password_file} (readable only by you)")
    click.echo(f"  log {paths.log_file}")


@neo4j_group.command("stop")
@click.option("--timeout", type=float, default=60.0, show_default=True)
def stop_command(timeout: float) -> None:
    """Shut Neo4j down cleanly (SIGTERM; the launcher's shutdown hook closes the store)."""
    try:
        stopped = neo4j_local.stop(timeout_s=timeout)
    except neo4j_local.Neo4jLocalError as exc:
        raise click.ClickException(str(exc)) from exc
    click.echo("Neo4j stopped" if stopped else "Neo4j was not running")


@neo4j_group.command("status")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def status_command(as_json: bool) -> None:
    """Print uri, pid and whether a Bolt session works; exit code 1 when not ready."""
    st = neo4j_local.status()
    if as_json:
        click.echo(json.dumps(st.as_dict(), indent=2))
    else:
        click.echo(f"uri:     {st.uri or '-'}")
        click.echo(f"pid:     {st.pid or '-'}")
        click.echo(f"running: {'yes' if st.running else 'no'}")
        click.echo(f"ready:   {'yes' if st.ready else 'no'} ({st.detail})")
        click.echo(f"home:    {st.home}")
        click.echo(f"log:     {st.log_file}")
    if not st.ready:
        raise SystemExit(1)
