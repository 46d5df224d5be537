#!/usr/bin/env bash
# indirection_bench.sh - parameter indirection on the tiny-kernel chain:
# N tiny kernels per iteration, all arguments changing every iteration.
#
#   bash bench/indirection_bench.sh <gpu-bundle-dir>
#
# Reference variants come from bin/tiny_chain_bench (hand-written CUDA:
# eager; static graph with fixed arguments = the floor; per-node
# cudaGraphExecKernelNodeSetParams; a device argument block refreshed by a
# memcpy node, by a loader kernel node, and by a loader kernel node with
# programmatic edges between the kernels).  pygraph variants are the
# tiny_chain example built with the plugin, PYGRAPH_MODE=graph (the
# mechanisms, not the online choice): PYGRAPH_INDIRECT=0 (per-node updates)
# and the default (indirect twins fed by a loader node).  Prints one table.
set -euo pipefail
dir=${1:?usage: indirection_bench.sh <gpu-bundle-dir>}
bin=$dir/bin
nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no CUDA GPU found"; exit 0; }
ref=$("$bin/tiny_chain_bench")
us_per_iter() { # <loop_ms> <iters>
  awk -v ms="$1" -v it="$2" 'BEGIN { printf "%.2f", ms * 1000 / it }'
}
run_ms() { "$@" | awk '/^loop_ms:/ { print $2 }'; }
col() { echo "$ref" | awk -F'|' -v n="$1" -v c="$2" '$2+0 == n { v = $c; gsub(/ /, "", v); print v }'; }
echo "| N | eager (hand) | static graph floor | SetParams per node (hand) | memcpy node (hand) | loader node (hand) | loader + programmatic edges (hand) | plain clang | pygraph per-node updates | pygraph indirection | indirection / floor |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in 4 16 64 256; do
  iters=$((262144 / n))
  floor=$(col "$n" 5)
  plain=$(us_per_iter "$(run_ms "$bin/tiny_chain_plain" "$iters" "$n")" "$iters")
  direct=$(us_per_iter "$(PYGRAPH_MODE=graph PYGRAPH_INDIRECT=0 run_ms "$bin/tiny_chain_pygraph" "$iters" "$n")" "$iters")
  ind=$(us_per_iter "$(PYGRAPH_MODE=graph run_ms "$bin/tiny_chain_pygraph" "$iters" "$n")" "$iters")
  ratio=$(awk -v a="$ind" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')
  echo "| $n | $(col "$n" 4) | $floor | $(col "$n" 6) | $(col "$n" 7) | $(col "$n" 8) | $(col "$n" 9) | $plain | $direct | $ind | $ratio |"
done
echo
echo "(microseconds per iteration; the hand columns are bench/tiny_chain_bench.cu)"
