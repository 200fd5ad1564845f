"""Deterministic core: domain types and pure calculators. No I/O, no LLM."""
