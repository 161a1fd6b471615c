#!/usr/bin/env bash
# The packages leave the build machine: builds bert-studio (cpack) and bert-studio-runtime
# (packaging/runtime_package.py; cached per torch version and script, since it weighs gigabytes),
# checks their contents, computed dependencies, RUNPATH and metadata (desktop-file-validate,
# appstreamcli), extracts both into a scratch root and starts the programs from there with the
# build machine's venv out of reach: as the user nobody, who cannot enter /root where the venv
# lives (when run as root), with a fresh HOME and no environment, and with the loader's trace
# showing that no library came from the venv. From the scratch root the command line inspects
# the bundled default model and trains 2 steps on the bundled sample, and the studio opens a
# window under Xvfb and saves a screenshot.
#
# Usage: packaging/check_package.sh [build folder]
# Environment: BERT_STUDIO_PACKAGE_CACHE  where the runtime package is kept
#              (default ~/.cache/bert-studio/packages)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build/release}
cache=${BERT_STUDIO_PACKAGE_CACHE:-$HOME/.cache/bert-studio/packages}
python=$(sed -n 's/^BERT_STUDIO_PYTHON:[A-Z]*=//p' "$build/CMakeCache.txt")
venv=$(dirname "$(dirname "$python")")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
fail() { echo "check_package: $*" >&2; exit 1; }

for tool in desktop-file-validate appstreamcli dpkg-shlibdeps patchelf; do
  command -v "$tool" >/dev/null || fail "$tool is missing (scripts/setup.sh installs it)"
done

# The studio package.
(cd "$build" && cpack -G DEB -B "$work/out" >/dev/null)
deb=$(ls "$work"/out/bert-studio_*.deb)
echo "package: $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB)"
depends=$(dpkg-deb -f "$deb" Depends)
echo "  Depends: $depends"
version=$(python3 "$root/packaging/runtime_package.py" --print-version --venv "$venv" "$work")
grep -q "bert-studio-runtime (= $version)" <<<"$depends" || fail "Depends lacks bert-studio-runtime (= $version)"
# Computed by dpkg-shlibdeps from the programs' DT_NEEDED, not listed by hand.
for computed in libqt6widgets6 libsqlite3-0 libutf8proc2 libc6; do
  grep -q "$computed" <<<"$depends" || fail "Depends lacks $computed: dpkg-shlibdeps did not run"
done
contents=$(dpkg-deb --contents "$deb")
for file in usr/bin/bert-studio usr/bin/bert-studio-cli usr/share/applications/bert-studio.desktop \
            usr/share/metainfo/io.github.bert_studio.BertStudio.metainfo.xml \
            usr/share/icons/hicolor/scalable/apps/bert-studio.svg usr/share/bert-studio/sample/support-tickets.csv; do
  grep -q "./$file" <<<"$contents" || fail "missing in package: $file"
done
desktop-file-validate "$root/packaging/bert-studio.desktop"
appstreamcli validate --no-net --pedantic "$root/packaging/"*.metainfo.xml >/dev/null ||
  appstreamcli validate --no-net "$root/packaging/"*.metainfo.xml

# The runtime package, built once per torch version and version of the script that builds it.
key=$(cat "$root/packaging/runtime_package.py" <(echo "$version") | sha256sum | cut -c1-16)
runtime="$cache/$key/bert-studio-runtime_${version}_amd64.deb"
if [ ! -s "$runtime" ]; then
  echo "building bert-studio-runtime $version (once per torch version; minutes)"
  rm -f "$cache"/*/bert-studio-runtime_*.deb  # earlier torch versions: gigabytes each
  mkdir -p "$cache/$key"
  python3 "$root/packaging/runtime_package.py" "$cache/$key" --venv "$venv"
fi
echo "package: $(basename "$runtime") ($(du -m "$runtime" | cut -f1) MiB)"

dpkg -x "$deb" "$work/root"
dpkg -x "$runtime" "$work/root"
bin="$work/root/usr/bin"
for program in bert-studio bert-studio-cli; do
  runpath=$(readelf -d "$bin/$program" | sed -n 's/.*(RUNPATH).*\[\(.*\)\]/\1/p')
  [ "$runpath" = '$ORIGIN/../lib/bert-studio' ] || fail "$program has RUNPATH '$runpath'"
done

# Nothing of the build machine: user nobody (cannot enter /root) where we can switch users, an
# empty environment and a HOME of its own.
home="$work/home"
mkdir -p "$home"
as_user=()
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
  chown 65534:65534 "$home"
  as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups)
  if "${as_user[@]}" test -e "$venv/bin/python"; then
    fail "user nobody can reach the venv $venv: the check would prove nothing"
  fi
fi
fresh=(env -i PATH=/usr/bin:/bin HOME="$home" LANG=C.UTF-8 XDG_RUNTIME_DIR="$home")
run() { "${as_user[@]}" "${fresh[@]}" "$@"; }

run "$bin/bert-studio-cli" --help | head -1
run env LD_DEBUG=libs LD_DEBUG_OUTPUT="$home/loader" "$bin/bert-studio-cli" inspect >"$home/inspect.txt"
grep -E "Layers|Parameters" "$home/inspect.txt"
loaded=$(cat "$home"/loader.* | sed -n 's/.*calling init: //p')
# The loader names them as found through the RUNPATH: .../usr/bin/../lib/bert-studio/...
grep -qE "^$work/root/usr/(bin/\.\./)?lib/bert-studio/libtorch_cpu\.so$" <<<"$loaded" ||
  fail "LibTorch was not loaded from the package"
grep -q "Model folder *$work/root/usr/share/bert-studio/models/all-MiniLM-L6-v2" "$home/inspect.txt" ||
  fail "the default model was not the package's"
if grep -E "$venv|/usr/local/cuda" <<<"$loaded"; then
  fail "libraries above came from the build machine, not the packages"
fi
run "$bin/bert-studio-cli" --db "$home/runs.sqlite" train \
  --train "$work/root/usr/share/bert-studio/sample/support-tickets.csv" \
  --max-steps 2 --batch-size 8 --max-length 64 >"$home/train.txt" 2>&1 ||
  { cat "$home/train.txt"; fail "the installed command line could not train"; }
grep "completed after 2 steps" "$home/train.txt" || { cat "$home/train.txt"; fail "no completed run"; }

screen=(env QT_QPA_PLATFORM=offscreen)
if command -v xvfb-run >/dev/null; then
  screen=(xvfb-run -a -s "-screen 0 1280x1024x24")
fi
started=$(date +%s.%N)
run "${screen[@]}" "$bin/bert-studio" --db "$home/runs.sqlite" --screenshot "$home/shot.png" \
  >"$home/studio.txt" 2>&1 || { cat "$home/studio.txt"; fail "the installed studio did not start"; }
[ -s "$home/shot.png" ] || { cat "$home/studio.txt"; fail "the installed studio saved no screenshot"; }
awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "installed studio: first window saved after %.1f s\n", b - a }' 
echo "installed and started without the venv: OK"
