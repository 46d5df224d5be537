#!/usr/bin/env bash
# ab_call.sh OUT: an A/B of two builds of the GPU suite in one device call,
# on one card: base-gpu.tar.gz and new-gpu.tar.gz beside this script (each
# from test/gpu/build_gpu.sh <dir> --tar at the commit compared); the suite
# (auto) of both, the suite in graph mode of the new one, and run_bench.sh
# twice per side, alternating base/new, over BENCH_ONLY.  Writes steps.txt,
# gpu.txt, one .txt per step and logs.tar.xz to OUT; ends inside DEADLINE_S.
set -uo pipefail
out=$1; mkdir -p "$out"; here=$(cd "$(dirname "$0")" && pwd)
start=$SECONDS; deadline=${DEADLINE_S:-540}
left() { echo $(( deadline - (SECONDS - start) )); }
log() { echo "$(date -u +%T) $* ($(left) s left)" >> "$out/steps.txt"; }
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv > "$out/gpu.txt" 2>&1
for b in base new; do mkdir -p /tmp/$b && tar -xzf "$here/$b-gpu.tar.gz" -C /tmp/$b; done
B=$(ls -d /tmp/base/*/gpu 2>/dev/null || ls -d /tmp/base/gpu); N=$(ls -d /tmp/new/*/gpu 2>/dev/null || ls -d /tmp/new/gpu)
log "bundles $B $N"
run() { local name=$1 need=$2; shift 2; if (( $(left) < need )); then log "skip $name"; return; fi; log "start $name"; "$@" > "$out/$name.txt" 2>&1; log "end $name rc=$?"; }
run suite_base 60 env RUN_TIMEOUT=60 bash $B/run_gpu.sh $B /tmp/o_sb
run suite_new 60 env RUN_TIMEOUT=60 bash $N/run_gpu.sh $N /tmp/o_sn
run suite_new_graph 60 env RUN_TIMEOUT=60 EXTRA_ENV=PYGRAPH_MODE=graph bash $N/run_gpu.sh $N /tmp/o_sg
O=${BENCH_ONLY:-"tiny_chain jacobi2d cg_solver transformer multistream mlp_train tiny_loop md_step"}
for r in 1 2; do
  run bench_base_$r 90 env REPS=2 RUN_TIMEOUT=60 ONLY="$O" bash $B/run_bench.sh $B /tmp/o_bb$r
  run bench_new_$r 90 env REPS=2 RUN_TIMEOUT=60 ONLY="$O" bash $N/run_bench.sh $N /tmp/o_bn$r
done
tar -cJf "$out/logs.tar.xz" -C /tmp o_sb o_sn o_sg o_bb1 o_bn1 o_bb2 o_bn2 2>/dev/null
log done
