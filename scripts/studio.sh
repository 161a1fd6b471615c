#!/usr/bin/env bash
# Sets up the machine (scripts/setup.sh), builds the release preset and launches BERT Studio on
# the bundled default model (all-MiniLM-L6-v2) and the bundled sample dataset.
# Without a display (or before the studio is built) it runs the same default job headless.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

"$root/scripts/setup.sh"
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$root}
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"

studio="$root/build/release/app/bert-studio"
cli="$root/build/release/app/bert-studio-cli"
if [ -x "$studio" ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  exec "$studio" "$@"
fi
echo "studio: no display (or no studio build); running the default job headless"
"$cli" inspect
"$cli" predict "Congratulations, you have won a FREE prize, click here" \
  "The meeting is moved to Thursday at 3pm"
