#!/usr/bin/env bash
# Set up (first run only) and start the chat UI on http://127.0.0.1:7860
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export ANONYMIZED_TELEMETRY=False GRADIO_ANALYTICS_ENABLED=False HF_HUB_OFFLINE=1
exec .venv/bin/gpu-advisor serve "$@"
