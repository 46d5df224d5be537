#!/usr/bin/env bash
# indirection_bench.sh - parameter indirection on the tiny-kernel chain:
# N tiny kernels per iteration, all arguments changing every iteration.
#
#   bash bench/indirection_bench.sh <gpu-bundle-dir>
#
# Reference variants come from bin/tiny_chain_bench (hand-written CUDA:
# eager, static graph with fixed arguments = the floor, per-node
# cudaGraphExecKernelNodeSetParams); pygraph variants are the tiny_chain
# example built with the plugin (PYGRAPH_MODE=graph), with indirection
# (PYGRAPH_INDIRECT=1) and without (per-node updates).  Prints one table.
set -euo pipefail
dir=${1:?usage: indirection_bench.sh <gpu-bundle-dir>}
bin=$dir/bin
nvidia-smi -L >/dev/null 2>&1 || { echo "SKIP: no CUDA GPU found"; exit 0; }
ref=$("$bin/tiny_chain_bench")
us_per_iter() { # <loop_ms> <iters>
  awk -v ms="$1" -v it="$2" 'BEGIN { printf "%.2f", ms * 1000 / it }'
}
run_ms() { "$@" | awk '/^loop_ms:/ { print $2 }'; }
echo "| N | eager (hand) | static graph floor | SetParams per node | plain clang | pygraph per-node updates | pygraph indirection | indirection / floor |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in 4 16 64 256; do
  iters=$((262144 / n))
  row=$(echo "$ref" | awk -F'|' -v n="$n" '$2+0 == n { gsub(/ /, ""); print $4 "|" $5 "|" $6 }')
  floor=$(echo "$row" | cut -d'|' -f2)
  plain=$(us_per_iter "$(run_ms "$bin/tiny_chain_plain" "$iters" "$n")" "$iters")
  # PYGRAPH_MODE=graph: measure the mechanisms, not the online choice
  direct=$(us_per_iter "$(PYGRAPH_MODE=graph PYGRAPH_INDIRECT=0 run_ms "$bin/tiny_chain_pygraph" "$iters" "$n")" "$iters")
  ind=$(us_per_iter "$(PYGRAPH_MODE=graph PYGRAPH_INDIRECT=1 run_ms "$bin/tiny_chain_pygraph" "$iters" "$n")" "$iters")
  ratio=$(awk -v a="$ind" -v b="$floor" 'BEGIN { printf "%.2f", a / b }')
  echo "| $n | $(echo "$row" | cut -d'|' -f1) | $floor | $(echo "$row" | cut -d'|' -f3) | $plain | $direct | $ind | $ratio |"
done
echo
echo "(microseconds per iteration; tiny_chain_bench rows: eager/static/setparams as measured by hand-written CUDA)"
