"""Canonical units, their dimensions, and the conversions the verifier allows.

A quantity is read into one canonical unit (the reader: `assistant.verify.reader`). Units of one
dimension convert into each other by exact factors; memory also converts "loosely" (the same
digits, since people write GB for a GiB figure), and nothing else does. Money never converts:
CNY ↔ USD needs a rate and a date, and hourly ↔ monthly a billing rule — the tools return those
figures. A money figure carries its period apart (`per`: hour | day | week | month | year), so
"$28 per hour" and "$28 per month" are one unit, USD, in two periods that never match.
"""

from __future__ import annotations

from functools import lru_cache

__all__ = ["CURRENCY_OF_UNIT", "MONEY_UNITS", "PERIODS", "UNIT_DIMENSION", "conversion_factors", "dimension_of"]

# canonical unit -> dimension. Memory keeps its written unit (GB and GiB differ by 7 %). Time is hours,
# latency milliseconds (ms, s): both are "time" and convert exactly.
UNIT_DIMENSION: dict[str, str] = {
    "GB": "memory", "GiB": "memory", "MB": "memory", "MiB": "memory", "TB": "memory", "TiB": "memory",
    "KB": "memory", "KiB": "memory", "B": "memory",
    "hour": "time", "ms": "time",
    "CNY": "money", "USD": "money",
    "CNY/Mtok": "money_per_token", "USD/Mtok": "money_per_token",
    "GPU": "gpus", "node": "nodes", "GPU-hour": "gpu_time",
    "TFLOPS": "compute", "TOPS": "int_compute", "FLOP": "flop",
    "TB/s": "bandwidth", "GB/s": "bandwidth", "Gb/s": "bandwidth",
    "%": "ratio", "W": "power",
    "token": "tokens", "token/s": "throughput", "req/s": "request_rate", "param": "params",
}
MONEY_UNITS = frozenset({"CNY", "USD"})
CURRENCY_OF_UNIT = {"CNY": "CNY", "USD": "USD", "CNY/Mtok": "CNY", "USD/Mtok": "USD"}
PERIODS = ("hour", "day", "week", "month", "year")

# Bytes per unit, exactly and as people loosely use them (a "GiB" figure called "GB").
_BYTES = {"GB": 1e9, "GiB": 2.0**30, "MB": 1e6, "MiB": 2.0**20, "TB": 1e12, "TiB": 2.0**40,
          "KB": 1e3, "KiB": 1024.0, "B": 1.0}
_BYTES_LOOSE = {"GB": 1e9, "GiB": 1e9, "MB": 1e6, "MiB": 1e6, "TB": 1e12, "TiB": 1e12, "KB": 1e3, "KiB": 1e3, "B": 1.0}
# Bandwidth in bytes/s; "Gb/s" is bits (network links): 1 Gb/s = 0.125 GB/s exactly, never 1 GB/s.
_BPS = {"TB/s": 1e12, "GB/s": 1e9, "Gb/s": 1.25e8}
_SECONDS = {"hour": 3600.0, "ms": 1e-3}


def dimension_of(unit: str) -> str:
    return UNIT_DIMENSION.get(unit, "")


@lru_cache(maxsize=512)
def conversion_factors(src: str, dst: str) -> tuple[tuple[float, bool], ...]:
    """Factors f with `value_in_src * f = value_in_dst`, each flagged loose or exact.

    Memory: the exact factor (1 GiB = 1.073741824 GB) and the loose one (the same figure, since
    people write GB for GiB). Bandwidth and time: exact factors only (Gb/s is bits: 1/8 of GB/s).
    Money, counts and rates of different units never convert. Incompatible units give ().
    """
    if src == dst:
        return ((1.0, False),)
    if src in _BYTES and dst in _BYTES:
        f_exact = _BYTES[src] / _BYTES[dst]
        f_loose = _BYTES_LOOSE[src] / _BYTES_LOOSE[dst]
        if abs(f_exact - f_loose) < 1e-12 * f_exact:
            return ((f_exact, False),)
        return ((f_exact, False), (f_loose, True))
    for table in (_BPS, _SECONDS):
        if src in table and dst in table:
            return ((table[src] / table[dst], False),)
    return ()
