"""configs/ask.yaml: unit aliases, analyte molar masses, LOINC observation codes.

Kept in a config file rather than code so a site can add its own lab codes without a
release; validated with pydantic so a typo fails with the file and key named.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from cardio_assets.errors import UserError
from cardio_assets.paths import CONFIG_DIR

ASK_CONFIG = CONFIG_DIR / "ask.yaml"


class AskConfigError(UserError, ValueError):
    """configs/ask.yaml is missing, not YAML, or has an invalid key."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Analyte(_Strict):
    """A substance measured both as mmol/L (or umol/L) and mg/dL."""

    molar_mass_g_per_mol: float = Field(gt=0)
    snomed: list[str] = Field(default_factory=list)
    loinc: list[str] = Field(default_factory=list)
    names: list[str] = Field(default_factory=list)

    @field_validator("snomed", mode="before")
    @classmethod
    def _ids_as_text(cls, value: object) -> object:
        return [str(v) for v in value] if isinstance(value, list) else value


class ObservationCode(_Strict):
    """What a LOINC-coded Observation measures."""

    name: str = Field(min_length=1)
    snomed: str | None = None
    also: list[str] = Field(default_factory=list)  # other names the value answers to

    @field_validator("snomed", mode="before")
    @classmethod
    def _id_as_text(cls, value: object) -> object:
        return str(value) if isinstance(value, int) else value


class AskConfig(_Strict):
    units: dict[str, str] = Field(default_factory=dict)
    analytes: dict[str, Analyte] = Field(default_factory=dict)
    observations: dict[str, ObservationCode] = Field(default_factory=dict)


def parse_ask_config(data: object, source: str) -> AskConfig:
    if not isinstance(data, dict):
        raise AskConfigError(f"{source}: expected a mapping with units, analytes, observations")
    try:
        return AskConfig.model_validate(data)
    except ValidationError as exc:
        problems = [
            f"key '{'.'.join(str(p) for p in err['loc'])}': {err['msg']}" for err in exc.errors()
        ]
        raise AskConfigError(f"{source}: {'; '.join(problems)}") from None


@lru_cache(maxsize=4)
def load_ask_config(path: Path = ASK_CONFIG) -> AskConfig:
    """Read and validate the file once per process."""
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise AskConfigError(f"{path}: file not found; restore it from git") from None
    except yaml.YAMLError as exc:
        raise AskConfigError(f"{path}: not valid YAML ({type(exc).__name__})") from None
    return parse_ask_config(data, str(path))
