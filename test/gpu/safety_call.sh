#!/usr/bin/env bash
# safety_call.sh OUT: issue 38's GPU part in one device call: the fault matrix
# (PYGRAPH_FAULT over a subset of the suite, checksums vs plain, fallbacks
# reported) and compute-sanitizer (memcheck, racecheck, synccheck) on the
# pygraph builds in graph mode, short runs (racecheck: 40 iterations, it is
# ~100x slower), after the whole suite in auto mode.  Expects new-gpu.tar.gz
# (or $BUNDLE) beside it, built by test/gpu/build_gpu.sh <dir> --tar.  The
# device returns only a few files: the per-step outputs go into
# $out/safety.tar.xz; summary.txt and steps.txt stay beside it.
set -uo pipefail
out=$1; mkdir -p "$out"; here=$(cd "$(dirname "$0")" && pwd)
start=$SECONDS; deadline=${DEADLINE_S:-540}
left() { echo $(( deadline - (SECONDS - start) )); }
log() { echo "$(date -u +%T) $* ($(left) s left)" >> "$out/steps.txt"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/gpu.txt" 2>&1
mkdir -p /tmp/s && tar -xzf "$here/${BUNDLE:-new-gpu.tar.gz}" -C /tmp/s; G=/tmp/s/gpu
run() { local name=$1 need=$2; shift 2; if (( $(left) < need )); then log "skip $name"; return; fi; log "start $name"; "$@" > "$out/$name.txt" 2>&1; log "end $name rc=$?"; }
run suite_auto 120 env RUN_TIMEOUT=40 bash $G/run_gpu.sh $G /tmp/o_suite
SUB="tiny_chain jacobi2d multistream alternating tiny_loop early_exit host_flag own_capture default_stream threads"
for f in capture:1 instantiate:1 update:1 update:7 launch:1 launch:9 capture:2,launch:4; do
  run fault_${f//[:,]/_} 30 env RUN_TIMEOUT=60 ONLY="$SUB" EXTRA_ENV="PYGRAPH_MODE=graph PYGRAPH_FAULT=$f" bash $G/run_gpu.sh $G /tmp/o_f_${f//[:,]/_}
done
CS=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
for t in memcheck synccheck racecheck; do
  for e in tiny_chain jacobi2d multistream alternating tiny_loop default_stream cg_solver mlp_train; do
    n=300; [[ $t == racecheck ]] && n=40
    run san_${t}_$e 25 timeout 150 env PYGRAPH_MODE=graph PYGRAPH_REPORT=1 $CS --tool $t --error-exitcode 9 $G/bin/${e}_pygraph $n
  done
done
{ grep -H "ERROR SUMMARY\|RACECHECK SUMMARY" "$out"/san_*.txt
  echo "API errors reported (Program hit ...): $(cat "$out"/san_memcheck_*.txt | grep -c "Program hit")"
  for f in "$out"/suite_auto.txt "$out"/fault_*.txt; do
    [[ -f $f ]] && echo "$(basename "$f"): $(grep -c ' OK ' "$f") OK, $(grep -cE ' (FAIL|MISMATCH|TIMEOUT)' "$f") not"
  done; } > "$out/summary.txt"
tar -cJf "$out/safety.tar.xz" -C "$out" $(cd "$out" && ls san_*.txt fault_*.txt suite_auto.txt 2>/dev/null) \
  -C /tmp $(cd /tmp && ls -d o_f_* o_suite 2>/dev/null) 2>/dev/null &&
  rm -f "$out"/san_*.txt "$out"/fault_*.txt "$out"/suite_auto.txt
log done
