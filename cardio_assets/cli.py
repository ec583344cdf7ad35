"""The ``cardio`` command line.

Subcommands live beside the stage they drive and are imported only when called,
so ``cardio --help`` stays fast and one broken optional dependency cannot take
down unrelated commands. Register a new one in ``SUBCOMMANDS``.
"""

from __future__ import annotations

import importlib

import click

from cardio_assets.errors import UserError, one_line

# name -> "module:attribute" of a click.Command
SUBCOMMANDS: dict[str, str] = {
    "rows": "cardio_assets.rows_cli:rows_command",
    "extract": "cardio_assets.extract_cli:extract_command",
    "eval": "cardio_assets.eval_cli:eval_command",
    "demo": "cardio_assets.demo:demo",
    "snomed": "cardio_assets.snomed_cli:snomed",
    "ground": "cardio_assets.snomed_cli:ground",
    "neo4j": "cardio_assets.neo4j_cli:neo4j_group",
    "audit": "cardio_assets.audit:audit_command",
    "status": "cardio_assets.status:status_command",
    "ask": "cardio_assets.ask_cli:ask_command",
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
