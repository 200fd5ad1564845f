"""Copies of the source files the built-in data was rebuilt from (for provenance tests), data only."""
