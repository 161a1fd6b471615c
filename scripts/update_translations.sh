#!/usr/bin/env bash
# Refreshes translations/*.ts from the tr() strings of the studio (ui/, app/studio/) and the
# option table's texts (core/train/TrainingOptionTable.cpp, LongTextOptions.cpp and
# LossOptions.cpp, context "TrainingOptions").
# Runs lupdate on those folders alone: the CMake update_translations target scans every include
# path, LibTorch's headers with them, which takes many minutes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
lupdate=$(command -v lupdate || echo /usr/lib/qt6/bin/lupdate)
"$lupdate" -no-obsolete -locations none ui app/studio core/train/TrainingOptionTable.cpp \
  core/train/LongTextOptions.cpp core/train/LossOptions.cpp \
  -ts translations/bert-studio_en.ts translations/bert-studio_zh_CN.ts
