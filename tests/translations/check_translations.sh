#!/usr/bin/env bash
# Fails when the zh_CN translation misses a string of the code or leaves one unfinished.
set -euo pipefail
root=$1
lupdate=$(command -v lupdate || echo /usr/lib/qt6/bin/lupdate)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$root/translations/bert-studio_zh_CN.ts" "$work/check.ts"
# Merge the code's current strings into a copy: new strings arrive unfinished.
(cd "$root" && "$lupdate" -no-obsolete -locations none ui app/studio core/train/TrainingOptionTable.cpp core/train/LongTextOptions.cpp core/train/LossOptions.cpp -ts "$work/check.ts" >/dev/null)
unfinished=$(grep -c 'type="unfinished"' "$work/check.ts" || true)
total=$(grep -c '<message' "$work/check.ts")
echo "zh_CN: $total strings, $unfinished unfinished"
[ "$unfinished" -eq 0 ] || { grep -B2 'type="unfinished"' "$work/check.ts" | grep '<source>' | head -20; exit 1; }
