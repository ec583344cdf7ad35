"""The one base class of problems the user fixes, not bugs.

Why: a bad config key, a file that is not a terminology store, a lock held by another
process or a refused overwrite all carry a message that names the file and what to do.
``cardio`` prints such a message as one ``Error:`` line (cardio_assets/cli/__init__.py) instead of
a traceback; a traceback still means a bug.
"""

from __future__ import annotations


class UserError(Exception):
    """A problem with the user's files or environment; the message says what to do."""


class ConfigError(UserError, ValueError):
    """A config file is missing, not YAML, or has an invalid key."""


class LlmConfigError(ConfigError):
    """The chosen LLM client cannot be used as configured (unknown name, missing key...)."""


def one_line(message: str) -> str:
    """The message on one line (several problems joined by "; ")."""
    return "; ".join(part.strip() for part in str(message).splitlines() if part.strip())
