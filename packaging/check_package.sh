#!/usr/bin/env bash
# Builds the .deb with cpack, checks its contents and metadata, installs it into a scratch root
# (dpkg -x) and starts both programs from there: the command line prints its help and inspects
# the bundled model; the studio opens offscreen on the installed sample dataset, saves a
# screenshot and quits. Usage: packaging/check_package.sh [build folder]
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build/release}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$build" && cpack -G DEB -B "$work/out" >/dev/null)
deb=$(ls "$work"/out/bert-studio_*.deb)
echo "package: $(basename "$deb") ($(du -h "$deb" | cut -f1))"
dpkg-deb --info "$deb" | grep -E "Package|Version|Depends"
contents=$(dpkg-deb --contents "$deb")
for file in usr/bin/bert-studio usr/bin/bert-studio-cli usr/share/applications/bert-studio.desktop \
            usr/share/metainfo/io.github.bert_studio.BertStudio.metainfo.xml \
            usr/share/icons/hicolor/scalable/apps/bert-studio.svg usr/share/bert-studio/sample/support-tickets.csv; do
  grep -q "./$file" <<<"$contents" || { echo "missing in package: $file"; exit 1; }
done
if command -v desktop-file-validate >/dev/null; then desktop-file-validate "$root/packaging/bert-studio.desktop"; fi
if command -v appstreamcli >/dev/null; then appstreamcli validate --no-net "$root/packaging/"*.metainfo.xml; fi
dpkg -x "$deb" "$work/root"
"$work/root/usr/bin/bert-studio-cli" --help | head -1
"$work/root/usr/bin/bert-studio-cli" inspect | grep -E "Layers|Parameters"
QT_QPA_PLATFORM=offscreen "$work/root/usr/bin/bert-studio" --version
QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME="$work/config" "$work/root/usr/bin/bert-studio" \
  --database "$work/runs.sqlite" --screenshot "$work/shot.png" >/dev/null 2>&1
[ -s "$work/shot.png" ] || { echo "the installed studio did not start"; exit 1; }
echo "installed and started: OK"
