"""Software-support rules (software.yaml), data only."""
