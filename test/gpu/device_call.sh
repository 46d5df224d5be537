#!/usr/bin/env bash
# device_call.sh OUT [app ...] - everything one device call runs, inside a deadline.
#
# The GPU machine is lent for a few minutes per call and a call that runs past its
# limit returns only what is already under OUT, so every step here writes its log
# to OUT as it goes and no step starts unless there is time left for it.
#
# Expects, next to this script (copied there by the caller and carried):
#   gpu.tar.gz        test/gpu/build_gpu.sh build --tar            (the suite + bench)
#   apps-*.tar.xz     bench/apps/build_apps.sh ... then tar -cJf   (the field corpus)
# Either may be missing; its steps are then skipped with a note in steps.txt.
#
# Knobs: DEADLINE_S (seconds from start by which everything has ended; default 370),
#        BENCH_ONLY (examples for the bench; default the batchable loops + jacobi2d),
#        REPS (bench rounds, default 3), SKIP_SUITE=1, SKIP_BENCH=1.
# Writes to OUT: gpu.txt (nvidia-smi), steps.txt (what ran, when, exit status),
# suite.txt + suite/, bench.txt + bench/, apps.txt + apps/ (table, runs.tsv, logs.tar.xz).
set -uo pipefail
out=${1:?usage: device_call.sh OUT [app ...]}; shift
here=$(cd "$(dirname "$0")" && pwd)
deadline=${DEADLINE_S:-370}
start=$SECONDS
mkdir -p "$out"
work=$(mktemp -d)

left() { echo $(( deadline - (SECONDS - start) )); }
step() {  # step NAME MIN_S CMD... : run CMD if MIN_S seconds are left, log it
  local name=$1 need=$2; shift 2
  if (( $(left) < need )); then
    echo "$(date -u +%T) skip $name: $(left) s left, needs $need" >> "$out/steps.txt"; return 0
  fi
  echo "$(date -u +%T) start $name ($(left) s left)" >> "$out/steps.txt"
  "$@"; local rc=$?
  echo "$(date -u +%T) end $name rc=$rc" >> "$out/steps.txt"
}

nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/gpu.txt" 2>&1

if [[ -f $here/gpu.tar.gz ]]; then
  tar -xzf "$here/gpu.tar.gz" -C "$work"
  cp "$work/gpu/BUILD_INFO" "$out/BUILD_INFO" 2>/dev/null
  [[ ${SKIP_SUITE:-0} == 1 ]] || step suite 60 \
    bash -c "RUN_TIMEOUT=60 bash '$work/gpu/run_gpu.sh' '$work/gpu' '$out/suite' > '$out/suite.txt' 2>&1"
  only=${BENCH_ONLY:-tiny_loop pingpong early_exit tiny_chain jacobi2d}
  [[ ${SKIP_BENCH:-0} == 1 ]] || step bench 60 \
    bash -c "REPS=${REPS:-3} RUN_TIMEOUT=60 ONLY='$only' bash '$work/gpu/run_bench.sh' '$work/gpu' '$out/bench' > '$out/bench.txt' 2>&1"
else
  echo "no gpu.tar.gz beside $0: suite and bench skipped" >> "$out/steps.txt"
fi

apps_tar=$(ls "$here"/apps-*.tar.xz 2>/dev/null | head -n 1)
if [[ -n $apps_tar && $# -gt 0 ]]; then
  tar -xJf "$apps_tar" -C "$work"
  bundle=$(ls -d "$work"/apps-*/ | head -n 1)
  # run_apps.sh starts no app after BUDGET_S; leave ~40 s for the app running then.
  step apps 30 bash -c "BUDGET_S=$(( $(left) - 40 )) bash '$bundle/run_apps.sh' '$bundle' '$out/apps' $* > '$out/apps.txt' 2>&1"
  cp "$bundle/table_apps.awk" "$out/apps/" 2>/dev/null
else
  echo "no apps-*.tar.xz beside $0 or no app named: corpus skipped" >> "$out/steps.txt"
fi
echo "$(date -u +%T) done ($(left) s left)" >> "$out/steps.txt"
rm -rf "$work"
