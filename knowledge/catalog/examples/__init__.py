"""Example user catalog files (a package only so that installs ship them)."""
