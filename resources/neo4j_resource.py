"""Neo4j connection settings as a Dagster resource.

Set NEO4J_URI / NEO4J_USER / NEO4J_PASSWORD (and optionally NEO4J_DATABASE) to use your
own Neo4j; leave NEO4J_URI unset to use the project's local launcher
(``cardio neo4j start``), whose Bolt URI and generated password live under
$CARDIO_HOME/neo4j. The password is only ever read from the environment or that 0600
file, and never logged or shown in metadata.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from dagster import ConfigurableResource, EnvVar
from pydantic import Field

from cardio_assets import neo4j_local

if TYPE_CHECKING:
    import neo4j


class Neo4jSettingsError(RuntimeError):
    """No usable connection settings (names the variable or command that fixes it)."""


@dataclass(frozen=True)
class Neo4jSettings:
    uri: str
    user: str
    password: str = field(repr=False)  # never in repr, logs or metadata
    database: str
    source: str  # "environment" or "local launcher": shown to users instead of the secret

    def describe(self) -> str:
        return f"{self.uri} (database {self.database}, user {self.user}, from {self.source})"


class Neo4jResource(ConfigurableResource):
    """Where the graph is written. Empty ``uri`` = the local launcher's settings."""

    uri: str | None = Field(default=None, description="bolt://host:port; empty = local launcher")
    user: str = Field(default="neo4j", description="Neo4j user")
    password: str | None = Field(
        default=None, description="password; set through EnvVar('NEO4J_PASSWORD')"
    )
    database: str = Field(default="neo4j", description="target database")
    max_transaction_retry_s: float = Field(
        default=30.0,
        description="how long transient errors (deadlocks, leader switch, lost connection) are retried",
    )
    connection_timeout_s: float = Field(default=10.0, description="Bolt connect timeout")

    def settings(self) -> Neo4jSettings:
        if self.uri:
            if not self.password:
                raise Neo4jSettingsError(
                    f"NEO4J_URI is {self.uri} but NEO4J_PASSWORD is not set: export it "
                    "(or unset NEO4J_URI to use the local launcher)"
                )
            return Neo4jSettings(self.uri, self.user, self.password, self.database, "environment")
        local = neo4j_local.local_connection()
        if local is None:
            raise Neo4jSettingsError(
                "NEO4J_URI is not set and the local Neo4j has not been started: run "
                "`cardio neo4j start` (or export NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD)"
            )
        uri, user, password = local
        return Neo4jSettings(uri, user, password, self.database, "local launcher")

    @contextmanager
    def driver(self) -> Iterator[neo4j.Driver]:
        """A verified driver; closed on exit. Managed transactions retry transient errors.

        The driver is imported here, not at module level: through its optional pandas
        support it costs seconds, and every run's process loads this module."""
        from cardio_assets.neo4j_driver import neo4j_module

        neo4j = neo4j_module()

        s = self.settings()
        drv = neo4j.GraphDatabase.driver(
            s.uri,
            auth=(s.user, s.password),
            max_transaction_retry_time=self.max_transaction_retry_s,
            connection_timeout=self.connection_timeout_s,
            # "label does not exist yet" hints on a fresh database are noise in run logs
            notifications_min_severity="OFF",
        )
        try:
            try:
                drv.verify_connectivity()
            except neo4j.exceptions.AuthError as exc:
                raise Neo4jSettingsError(
                    f"Neo4j at {s.describe()} rejected the credentials"
                ) from exc
            except (neo4j.exceptions.ServiceUnavailable, OSError) as exc:
                hint = (
                    "run `cardio neo4j start`"
                    if s.source == "local launcher"
                    else "check NEO4J_URI and that the server is up"
                )
                raise Neo4jSettingsError(f"cannot reach Neo4j at {s.describe()}: {hint}") from exc
            yield drv
        finally:
            drv.close()


# Resource field -> environment variable: the one place the NEO4J_* names are listed.
NEO4J_ENV_VARIABLES: tuple[tuple[str, str], ...] = (
    ("uri", "NEO4J_URI"),
    ("user", "NEO4J_USER"),
    ("password", "NEO4J_PASSWORD"),
    ("database", "NEO4J_DATABASE"),
)


def neo4j_resource_from_env(*, resolved: bool = False, **options: Any) -> Neo4jResource:
    """The resource for Definitions: EnvVar for each variable that is set, else the defaults.

    EnvVar fields fail when their variable is missing, so unset ones are left out and the
    resource falls back to the local launcher. EnvVar keeps the password out of the UI.
    ``resolved=True`` reads the values now instead, for code that uses the resource outside
    a Dagster run (the CLI, benchmarks), where EnvVar is never resolved.
    """
    kwargs: dict[str, Any] = dict(options)
    for name, key in NEO4J_ENV_VARIABLES:
        if os.environ.get(key):
            kwargs[name] = os.environ[key] if resolved else EnvVar(key)
    return Neo4jResource(**kwargs)
