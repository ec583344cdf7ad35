"""The ``cardio`` command line: one module per command in this package.

Subcommands are imported only when called, so ``cardio --help`` stays fast and one broken
optional dependency cannot take down unrelated commands. Register a new one in
``SUBCOMMANDS``; what several commands share about the Dagster instance is in
``cardio_assets/cli/instance.py``.
"""

from __future__ import annotations

import importlib

import click

from cardio_assets.errors import UserError, one_line

# name -> "module:attribute" of a click.Command
SUBCOMMANDS: dict[str, str] = {
    "rows": "cardio_assets.cli.rows:rows_command",
    "extract": "cardio_assets.cli.extract:extract_command",
    "build": "cardio_assets.cli.build:build_command",
    "load": "cardio_assets.cli.load:load_command",
    "eval": "cardio_assets.cli.evaluate:eval_command",
    "demo": "cardio_assets.cli.demo:demo",
    "snomed": "cardio_assets.cli.snomed:snomed",
    "ground": "cardio_assets.cli.snomed:ground",
    "neo4j": "cardio_assets.cli.neo4j:neo4j_group",
    "audit": "cardio_assets.cli.audit:audit_command",
    "status": "cardio_assets.cli.status:status_command",
    "partitions": "cardio_assets.cli.partitions:partitions_group",
    "guideline": "cardio_assets.cli.guideline:guideline_group",
    "backfill": "cardio_assets.cli.backfill:backfill_command",
    "ask": "cardio_assets.cli.ask:ask_command",
}


class LazyGroup(click.Group):
    def invoke(self, ctx: click.Context) -> object:
        """Run the subcommand. A UserError (bad config, not a store, lock held, refused
        overwrite) ends it with its one-line message and exit code 1, never a traceback;
        what it prints on failure carries no secret value (cardio_assets/logic/redaction.py):
        a click error is redacted in place, any other exception that holds a secret is
        replaced by its redacted text."""
        from cardio_assets.logic.redaction import redact, redacted_copy

        try:
            return super().invoke(ctx)
        except UserError as exc:
            raise click.ClickException(redact(one_line(str(exc)))) from None
        except click.ClickException as exc:
            exc.message = redact(exc.message)
            raise
        except (click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as exc:
            replacement = redacted_copy(exc)
            if replacement is None:
                raise
            raise replacement from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = SUBCOMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attr = target.split(":")
        return getattr(importlib.import_module(module_name), attr)


@click.group(cls=LazyGroup)
def main() -> None:
    """CardioGuidelinesGraph: guideline recommendation tables -> SNOMED CT-grounded graph."""
