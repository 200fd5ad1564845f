#!/usr/bin/env bash
# Create .venv and install GPU Advisor (idempotent). torch==2.13.0 goes first:
# its CPU wheel is on these machines, any other torch pulls a multi-GB CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3.11}
command -v "$PY" >/dev/null 2>&1 || PY=python3
stamp=.venv/.installed-$(sha256sum pyproject.toml | cut -c1-16)
if [ ! -f "$stamp" ]; then
  [ -x .venv/bin/python ] || "$PY" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q torch==2.13.0
  .venv/bin/python -m pip install -q -e ".[dev]"
  rm -f .venv/.installed-*
  touch "$stamp"
fi
