"""Catalog data files (a package only so that installs ship them)."""
