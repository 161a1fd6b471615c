#!/usr/bin/env bash
# AdamW step time, ours against PyTorch's (see optimizer.py). Needs the release build and the venv.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
exec "${BERT_STUDIO_VENV:-$HOME/.local/share/bert-studio/venv}/bin/python" "$root/benchmarks/optimizer.py" "$@"
