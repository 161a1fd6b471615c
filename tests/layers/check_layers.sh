#!/usr/bin/env bash
# The engine's folders are layers: each may include its own folder and those listed before it,
# never one after it (issue 28, point 1: data and model imported each other, and memory and train
# reached upward into train and runs). A new folder must be placed in LAYERS to be allowed at all.
# Usage: check_layers.sh <source root>; prints each upward include and fails when there is one.
set -euo pipefail
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
LAYERS=(text io tokenizer data task memory model hf export distributed train runs)
declare -A rank
for i in "${!LAYERS[@]}"; do rank[${LAYERS[$i]}]=$i; done
status=0
for dir in "$root"/core/*/; do
    layer=$(basename "$dir")
    [[ $layer == pch ]] && continue
    if [[ -z ${rank[$layer]+set} ]]; then
        echo "core/$layer: not in the layer list of $0"
        status=1
        continue
    fi
    while IFS=: read -r file line include; do
        target=$(sed -E 's/.*#include "([a-z]+)\/.*/\1/' <<<"$include")
        [[ -z ${rank[$target]+set} ]] && continue
        if ((rank[$target] > rank[$layer])); then
            echo "${file#"$root"/}:$line: $layer includes $target, a layer above it"
            status=1
        fi
    done < <(grep -rnE '^#include "[a-z]+/' "$dir" --include='*.h' --include='*.cpp' || true)
done
((status == 0)) && echo "core: ${#LAYERS[@]} layers, no upward include"
# A task is one slice: what differs between tasks lives in core/task and ui/task, behind
# task/Task.h and task/TaskView.h; nothing else names a kind (docs/tasks.md).
while IFS= read -r use; do
    echo "${use#"$root"/}: names a task kind outside core/task and ui/task (ask its Task or TaskView)"
    status=1
done < <(grep -rnE 'TaskKind::' "$root"/core "$root"/ui "$root"/app --include='*.h' --include='*.cpp' |
    grep -vE "^$root/(core|ui)/task/" || true)
((status == 0)) && echo "tasks: TaskKind:: only in core/task and ui/task"
exit $status
