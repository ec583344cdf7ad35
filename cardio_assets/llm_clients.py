"""The LLM clients of configs/models.yaml as validated records (loaded by
``cardio_assets.config.load_models_config``, the one place configuration is read): which
provider, model and endpoint, the environment variable holding the key, timeouts, retries."""

from __future__ import annotations

import os
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator, model_validator

from cardio_assets.errors import LlmConfigError


class LlmClientConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    provider: Literal["openai-generic", "openai", "anthropic"]
    model: str = Field(min_length=1)
    base_url: str | None = None
    base_url_env: str | None = None
    api_key_env: str | None = None
    # True: an unset api_key_env variable means "send no key" (a vLLM server started
    # without --api-key); False: an unset variable is a configuration error.
    api_key_optional: bool = False
    default_role: Literal["user", "system"] = "user"
    temperature: float | None = Field(default=0.0, ge=0, le=2)
    max_tokens: int | None = Field(default=4096, ge=1)
    timeout_s: float = Field(default=120.0, gt=0)
    connect_timeout_s: float = Field(default=10.0, gt=0)
    max_retries: int = Field(default=3, ge=0, le=20)
    backoff_initial_s: float = Field(default=1.0, ge=0)
    backoff_multiplier: float = Field(default=2.0, ge=1)
    backoff_max_s: float = Field(default=30.0, ge=0)
    max_concurrency: int = Field(default=4, ge=1, le=256)
    options: dict[str, Any] = Field(default_factory=dict)

    @field_validator("base_url")
    @classmethod
    def _openai_style_base_url(cls, value: str | None, info: ValidationInfo) -> str | None:
        provider = info.data.get("provider")
        if value is not None and provider in ("openai-generic", "openai"):
            if not value.rstrip("/").endswith("/v1"):
                raise ValueError(f"must end in /v1 (got {value!r})")
            return value.rstrip("/")
        return value

    @field_validator("options")
    @classmethod
    def _no_secrets_in_options(cls, value: dict[str, Any]) -> dict[str, Any]:
        if "api_key" in value:
            raise ValueError(
                "do not put api_key here: name its environment variable in api_key_env"
            )
        return value

    @model_validator(mode="after")
    def _required_per_provider(self) -> LlmClientConfig:
        if self.provider == "openai-generic" and not (self.base_url or self.base_url_env):
            raise ValueError("provider openai-generic needs base_url (ending in /v1)")
        if self.provider in ("openai", "anthropic") and not self.api_key_env:
            raise ValueError(f"provider {self.provider} needs api_key_env (an env var name)")
        if self.provider in ("openai", "anthropic") and self.api_key_optional:
            raise ValueError(f"provider {self.provider} always needs a key: drop api_key_optional")
        if self.api_key_optional and not self.api_key_env:
            raise ValueError("api_key_optional needs api_key_env (the variable that may be unset)")
        return self

    def effective_base_url(self) -> str | None:
        override = os.environ.get(self.base_url_env, "").strip() if self.base_url_env else ""
        return override.rstrip("/") if override else self.base_url

    def backoff_delay(self, attempt: int) -> float:
        """Seconds to wait after failed attempt number `attempt` (1-based)."""
        delay = self.backoff_initial_s * self.backoff_multiplier ** (attempt - 1)
        return min(delay, self.backoff_max_s)


class ModelsConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    default: str | None = None
    clients: dict[str, LlmClientConfig] = Field(min_length=1)

    @model_validator(mode="after")
    def _default_is_a_client(self) -> ModelsConfig:
        if self.default is not None and self.default not in self.clients:
            raise ValueError(
                f"default {self.default!r} is not one of the clients: {sorted(self.clients)}"
            )
        return self

    def client(self, name: str | None) -> tuple[str, LlmClientConfig]:
        chosen = name or self.default
        if not chosen:
            raise LlmConfigError("no LLM client chosen and models.yaml has no `default`")
        if chosen not in self.clients:
            raise LlmConfigError(
                f"unknown LLM client {chosen!r}; configs/models.yaml defines {sorted(self.clients)}"
            )
        return chosen, self.clients[chosen]
