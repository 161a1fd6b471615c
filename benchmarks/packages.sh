#!/usr/bin/env bash
# What the packages weigh and how long a new user waits: builds bert-studio (cpack) and
# bert-studio-runtime (packaging/runtime_package.py) from scratch, prints each package's size,
# installed size and build time, then "installs" both into a scratch root (dpkg -x, as dpkg
# unpacks) and times install-to-first-window: unpacking plus the studio's start until its first
# window is drawn and saved (--screenshot), under Xvfb.
#
# Usage: benchmarks/packages.sh [build folder]    (needs a few GiB free in $TMPDIR)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build/release}
python=$(sed -n 's/^BERT_STUDIO_PYTHON:[A-Z]*=//p' "$build/CMakeCache.txt")
venv=$(dirname "$(dirname "$python")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }
installed_mib() { dpkg-deb -f "$1" Installed-Size | awk '{ printf "%.1f", $1 / 1024 }'; }

started=$(now)
(cd "$build" && cpack -G DEB -B "$work/out" >/dev/null)
studio_seconds=$(seconds "$started" "$(now)")
studio=$(ls "$work"/out/bert-studio_*.deb)
started=$(now)
python3 "$root/packaging/runtime_package.py" "$work/out" --venv "$venv" >/dev/null
runtime_seconds=$(seconds "$started" "$(now)")
runtime=$(ls "$work"/out/bert-studio-runtime_*.deb)

printf '%-48s %10s %12s %8s\n' package "size MiB" "installed" "build s"
rows=()
for row in "$studio $studio_seconds" "$runtime $runtime_seconds"; do
  set -- $row
  size=$(du -k "$1" | awk '{ print $1 / 1024 }')
  printf '%-48s %10.1f %12s %8s\n' "$(basename "$1")" "$size" "$(installed_mib "$1")" "$2"
  rows+=("$(basename "$1")" "$size" "$(installed_mib "$1")" "$2")
done

home="$work/home"
mkdir -p "$home"
started=$(now)
dpkg -x "$studio" "$work/root"
dpkg -x "$runtime" "$work/root"
unpacked=$(now)
env -i PATH=/usr/bin:/bin HOME="$home" LANG=C.UTF-8 \
  xvfb-run -a -s "-screen 0 1280x1024x24" "$work/root/usr/bin/bert-studio" \
  --db "$home/runs.sqlite" --screenshot "$home/shot.png" >/dev/null 2>&1
window=$(now)
[ -s "$home/shot.png" ] || { echo "the studio did not start" >&2; exit 1; }
echo "install to first window: $(seconds "$started" "$window") s" \
  "(unpack $(seconds "$started" "$unpacked") s, start to first window $(seconds "$unpacked" "$window") s)"
# Kept for docs/benchmarks.md (benchmarks/report.py).
python3 - "$root/benchmarks/results/packages.json" "$(seconds "$started" "$window")" \
  "$(seconds "$started" "$unpacked")" "$(seconds "$unpacked" "$window")" "$(nproc)" \
  "$(git -C "$root" rev-parse --short HEAD)" "${rows[@]}" <<'PY'
import json, sys
out, total, unpack, start, threads, commit, *rows = sys.argv[1:]
packages = [{"file": rows[i], "deb_mib": float(rows[i + 1]), "installed_mib": float(rows[i + 2]),
             "build_seconds": float(rows[i + 3])} for i in range(0, len(rows), 4)]
json.dump({"threads": int(threads), "commit": commit, "packages": packages,
           "install_to_first_window_seconds": float(total), "unpack_seconds": float(unpack),
           "start_to_first_window_seconds": float(start)}, open(out, "w"), indent=1)
print(f"wrote {out}")
PY
