"""The typed shape of configs/ask.yaml: unit aliases, analyte molar masses, LOINC codes.

Kept in a config file rather than code so a site can add its own lab codes without a
release. Only the models live here; the file is read and validated by
``cardio_assets.config.load_ask_config`` (the one place that reads configs/), so a typo
fails with the file and the key named.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator


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
