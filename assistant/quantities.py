"""The quantity reader (moved to `assistant.verify.reader`); this module keeps the old import path."""

from assistant.verify.reader import (  # noqa: F401
    Quantity,
    Reading,
    UNIT_DIMENSION,
    conversion_factors,
    extract_quantities,
    is_name_token,
    parse_unit,
    read_cached,
    read_quantities,
    unit_and_period,
)

__all__ = [
    "Quantity",
    "Reading",
    "UNIT_DIMENSION",
    "conversion_factors",
    "extract_quantities",
    "is_name_token",
    "parse_unit",
    "read_cached",
    "read_quantities",
    "unit_and_period",
]
