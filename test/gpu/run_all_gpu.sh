#!/usr/bin/env bash
# run_all_gpu.sh - the single entry on the GPU machine: the GPU test suite
# (plain vs pygraph, bit for bit), the benchmark table and the parameter
# indirection table, all written under <outdir>.
#
#   bash <bundle>/run_all.sh <bundle> <outdir>      (bundle from test/gpu/build_gpu.sh)
set -uo pipefail
dir=${1:?usage: run_all.sh <bundle-dir> <outdir>}
out=${2:?usage: run_all.sh <bundle-dir> <outdir>}
mkdir -p "$out"
rc=0
bash "$dir/run_gpu.sh" "$dir" "$out/suite" >"$out/suite.txt" 2>&1 || rc=1
tail -n 20 "$out/suite.txt"
REPS=${REPS:-5} bash "$dir/run_bench.sh" "$dir" "$out/bench" >"$out/bench.txt" 2>&1 || rc=1
tail -n 20 "$out/bench.txt"
bash "$dir/indirection_bench.sh" "$dir" >"$out/indirection.md" 2>&1 || rc=1
cat "$out/indirection.md"
exit $rc
