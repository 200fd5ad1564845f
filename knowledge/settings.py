"""Configuration: one documented order, flag > env var > config file > default.

Flags are applied by the caller (`Settings.load(overrides)`), environment
variables are `GPU_ADVISOR_*`, the config file is YAML at
`GPU_ADVISOR_CONFIG` (default `<data dir>/config.yaml`, optional).
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path
from typing import Any

import yaml
from pydantic import Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from tools.domain import Currency, RegionScope
from tools.errors import ConfigError, flatten_validation_error
from tools.schemas import ExchangeRate, FxSource

# The built-in rate must carry its date: figures converted with it say so.
DEFAULT_USD_CNY = 7.10
DEFAULT_USD_CNY_AS_OF = dt.date(2025, 11, 28)
DEFAULT_USD_CNY_SOURCE = "built-in default (PBOC central parity, approx.); set GPU_ADVISOR_USD_CNY"


def default_data_dir() -> Path:
    return Path(os.environ.get("XDG_DATA_HOME", Path.home() / ".local" / "share")) / "gpu-advisor"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GPU_ADVISOR_", extra="forbid", allow_inf_nan=False)

    data_dir: Path = Field(default_factory=default_data_dir, description="index, feedback, caches")
    catalog_dir: Path | None = Field(default=None, description="user catalog files that add or override rows")
    usd_cny: float = Field(default=DEFAULT_USD_CNY, gt=0, description="CNY per USD")
    usd_cny_as_of: dt.date | None = Field(default=None, description="date of a configured rate (default: today)")
    currency: Currency | None = Field(default=None, description="default answer currency (None: from the question)")
    region: RegionScope = RegionScope.any
    embedding_model: str | None = Field(default=None, description="sentence-transformers name or path")
    chroma_host: str | None = None
    chroma_port: int = 8000
    llm: str = Field(default="offline", description="offline | PROVIDER:MODEL")
    llm_base_url: str | None = None
    llm_api_key: str | None = Field(default=None, repr=False)
    llm_timeout: float = Field(default=60.0, gt=0)
    llm_temperature: float | None = Field(default=None, ge=0, le=2, description="None: the provider/model quirk table's value, else 0")
    llm_extra_body: dict[str, Any] | None = Field(
        default=None, description="extra JSON fields for every LLM request (env: a JSON object; YAML: a mapping)"
    )
    llm_num_ctx: int = Field(default=16384, gt=0, description="ollama preset: context window (num_ctx) per request")
    llm_max_calls: int = Field(default=8, gt=0, description="model calls per question before the loop is cut")
    llm_question_timeout: float = Field(default=120.0, gt=0, description="seconds per question for the LLM path")
    feedback_path: Path | None = None
    lang: str = Field(default="auto", pattern="^(auto|en|zh)$", description="answer language: auto follows the question")
    today: dt.date | None = Field(default=None, description="the date prices are aged against (tests); None: the real date")

    @property
    def exchange_rate(self) -> ExchangeRate:
        # built in only when nobody set the rate: a flag, GPU_ADVISOR_USD_CNY or a config file put it in
        # model_fields_set, even at the built-in value, and an override carries no age of ours
        if "usd_cny" not in self.model_fields_set and self.usd_cny_as_of is None:
            return ExchangeRate(usd_cny=DEFAULT_USD_CNY, as_of=DEFAULT_USD_CNY_AS_OF, source=DEFAULT_USD_CNY_SOURCE,
                                source_code=FxSource.builtin, today=self.today_date)
        return ExchangeRate(
            usd_cny=self.usd_cny,
            as_of=self.usd_cny_as_of,  # undated: "date unknown", never today's date passed off as the rate's
            source="configured (GPU_ADVISOR_USD_CNY)",
            source_code=FxSource.configured,
            today=self.today_date if self.usd_cny_as_of is not None else None,
        )

    @property
    def today_date(self) -> dt.date:
        return self.today or dt.date.today()

    @property
    def index_dir(self) -> Path:
        return self.data_dir / "index"

    @property
    def resolved_feedback_path(self) -> Path:
        return self.feedback_path or self.data_dir / "feedback.jsonl"

    @classmethod
    def load(cls, **overrides: Any) -> "Settings":
        """Defaults < config file < environment < `overrides` (flags; None means not given)."""
        flags = {k: v for k, v in overrides.items() if v is not None}
        try:
            from_env = cls(**flags)
        except ValidationError as err:
            raise ConfigError(f"configuration: {flatten_validation_error(err)}") from None
        config_path = Path(os.environ.get("GPU_ADVISOR_CONFIG", from_env.data_dir / "config.yaml"))
        file_values = _read_config_file(config_path)
        if not file_values:
            return from_env
        env_set = {
            name
            for name in cls.model_fields
            if f"GPU_ADVISOR_{name.upper()}" in os.environ
        }
        merged = {k: v for k, v in file_values.items() if k not in env_set and k not in flags}
        try:
            return cls(**{**merged, **flags})
        except ValidationError as err:
            raise ConfigError(f"{config_path}: {flatten_validation_error(err)}") from None


def _read_config_file(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (yaml.YAMLError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: not valid YAML ({err.__class__.__name__})") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: expected a mapping of setting: value")
    unknown = sorted(set(data) - set(Settings.model_fields))
    if unknown:
        raise ConfigError(f"{path}: unknown setting(s) {', '.join(unknown)}; known: {', '.join(Settings.model_fields)}")
    return data
