#!/usr/bin/env bash
# Regenerate docs/screenshots/: a Chinese conversation in the web app (headless Chromium) and the same
# answers as Slack Block Kit JSON with an HTML preview. Local only: installs nothing, fetches nothing.
#   bash scripts/screenshots.sh [--fresh] [--data-dir DIR]
# Needs: apt-get install -y chromium chromium-driver fontconfig fonts-noto-cjk fonts-noto-color-emoji
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/python ]; then
  echo "screenshots: .venv/bin/python not found; run bash scripts/setup.sh first" >&2
  exit 2
fi
export ANONYMIZED_TELEMETRY=False GRADIO_ANALYTICS_ENABLED=False HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
exec .venv/bin/python scripts/screenshots.py "$@"
