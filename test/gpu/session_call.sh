#!/usr/bin/env bash
# session_call.sh: this session's pending GPU checks in one device call (beside it gpu-head.tar.gz from
# `test/gpu/build_gpu.sh build --tar`; $OUT set by the device tool): the suite bit for bit;
# cub_loop (CUB/Thrust inside a region); converge, whole_loop_forms, cg_solver (IF node in the WHILE body) and counted_loop (no status
# copy: a counted loop run whole) plain / auto /
# PYGRAPH_WHOLE_LOOPS=0 / graph (the whole-loop choice); md_step; where a WHILE body's time goes
# (bench/while_body_bench.cu's variants; bench/while_vs_pygraph.cu: pygraph's WHILE graph against
# a hand-made one over the same kernels; ncu kernel durations of converge).
# Then, with apps-head.tar.xz beside it (bench/apps/build_apps.sh's bundle), the corpus apps in
# what is left of TOTAL seconds (default 540).  NCU=0 leaves the profiler out.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); O=$OUT; t0=$SECONDS
export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}/usr/local/cuda/lib64"   # cufft_loop's libcufft
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/card.txt
# What the machine has beside the toolkit (NCCL for nccl_single, the profilers).
{ nvidia-smi -L; ls /usr/local/cuda/lib64 | grep -i nccl; ldconfig -p | grep -i nccl; which nsys ncu nvcc; } > $O/probe.txt 2>&1
cat $O/probe.txt
mkdir -p /tmp/h && tar -xzf $here/gpu-head.tar.gz -C /tmp/h; B=/tmp/h/gpu/bin
cat /tmp/h/gpu/BUILD_INFO | grep git
RUN_TIMEOUT=20 timeout 150 bash /tmp/h/gpu/run_gpu.sh /tmp/h/gpu $O/suite > $O/suite.txt 2>&1; echo "suite rc=$?"; tail -30 $O/suite.txt | cut -c1-150
# whole_loop_runs NAME ROUNDS [ARGS...]: NAME plain / auto / PYGRAPH_WHOLE_LOOPS=0 / graph, ROUNDS
# times each, one line per run: loop ms, checksum, the whole-loop report's state and choice.
whole_loop_runs() {
  local name=$1 rounds=$2; shift 2
  for ((r = 1; r <= rounds; r++)); do
    for v in plain auto wl0 graph; do
      local args=$*; local bin=$B/${name}_pygraph e="PYGRAPH_REPORT=1" log=$O/$name${args:+.${args// /_}}.$v.$r.log
      [[ $v == plain ]] && bin=$B/${name}_plain
      [[ $v == wl0 ]] && e="$e PYGRAPH_WHOLE_LOOPS=0"; [[ $v == graph ]] && e="$e PYGRAPH_MODE=graph"
      env $e timeout 60 $bin "$@" > $log 2>&1
      echo "$name${args:+ ($args)} $v r$r $(grep -h loop_ms $log) $(grep -h checksum $log) $(grep -h 'whole loop' $log | grep -o 'state=[a-z]*\|graph_runs=[0-9]*\|choice="[a-z ]*"\|whole_us=[0-9.]*\|written_us=[0-9.]*\|why=.*' | tr '\n' ' ')"
    done
  done
}
whole_loop_runs converge 2 16384 10 4000
whole_loop_runs whole_loop_forms 2
whole_loop_runs cg_solver 1
whole_loop_runs counted_loop 2
whole_loop_runs counted_loop 1 70001 16384 3   # past 65536 steps: the launch waited for
# driver-API launches as kernel nodes (issue 18): the report's total line and flushes
for v in auto graph; do
  echo "driver_launch $v $(PYGRAPH_MODE=$v PYGRAPH_REPORT=1 timeout 30 $B/driver_launch_pygraph 2>&1 | grep -E 'checksum|total|flush' | tr '\n' ' ' | cut -c1-600)"
done
# CUB and Thrust algorithms inside a region (issue 18): kernel-pointer launches, throw points
# and cuFFT executions inside a region (issue 18)
for ex in cub_loop cufft_loop; do for r in 1 2; do for v in plain auto graph; do
  bin=$B/${ex}_pygraph; [[ $v == plain ]] && bin=$B/${ex}_plain
  echo "$ex $v r$r $(PYGRAPH_MODE=$v PYGRAPH_REPORT=1 timeout 30 $bin 2>&1 | grep -E 'loop_ms|checksum|total|flush|error|skip' | tr '\n' ' ' | cut -c1-700)"
done; done; done
# cuSPARSE SpMV inside a region (issue 18): alg 1 CSR_ALG2 (deterministic), alg 2 the default
for alg in 1 2; do for r in 1 2; do for v in plain auto graph; do
  bin=$B/cusparse_loop_pygraph; [[ $v == plain ]] && bin=$B/cusparse_loop_plain
  echo "cusparse_loop alg$alg $v r$r $(PYGRAPH_MODE=$v PYGRAPH_REPORT=1 timeout 30 $bin 2000 65536 $alg 2>&1 | grep -E 'loop_ms|checksum|total|flush|error|skip' | tr '\n' ' ' | cut -c1-400)"
done; done; done
# NCCL on one GPU (issue 20): captured collectives replayed (needs libnccl.so.2 on the machine)
for v in auto graph; do
  echo "nccl_single $v $(PYGRAPH_MODE=$v PYGRAPH_REPORT=1 timeout 30 $B/nccl_single_pygraph 2>&1 | grep -E 'skip|checksum|total|error' | tr '\n' ' ' | cut -c1-600)"
done
for r in 1 2; do for v in plain auto graph; do
  bin=$B/md_step_pygraph; [[ $v == plain ]] && bin=$B/md_step_plain
  echo "md_step $v r$r $(PYGRAPH_MODE=$v PYGRAPH_REPORT=1 timeout 30 $bin 2>&1 | grep -E 'loop_ms|checksum|total' | tr '\n' ' ')"
done; done
$B/while_body_bench 16384 10000; $B/while_body_bench 1024 10000
# pygraph's WHILE graph against a hand-made one, same kernels, same process
for r in 1 2 3; do PYGRAPH_MODE=graph timeout 60 $B/while_vs_pygraph 16384 4000 3 | tail -1; done
# NCU=0 leaves the profiler out (about 100 s) when device time is short.
[[ ${NCU:-1} == 1 ]] && for v in pygraph plain; do
  timeout 50 ncu --clock-control none --metrics gpu__time_duration.sum --launch-skip 6000 --launch-count 14 --csv $B/converge_$v 16384 2 4000 > $O/ncu_$v.csv 2>$O/ncu_$v.err
  echo "ncu $v rc=$?"; grep -v '^==' $O/ncu_$v.csv | awk -F'","' '{print $5, $(NF)}' | head -16
done
# Issue 39's auto losers: what auto decided and why, per segment (one run each)
if [[ -f $here/apps-head.tar.xz ]]; then
  tar -xJf $here/apps-head.tar.xz -C /tmp
  for a in adam gelu hadamard; do
    d=$(awk -F'\t' -v a=$a '$1 == a {print $2 "\t" $3}' /tmp/apps-gpu/apps.tsv)
    dir=${d%%$'\t'*}; args=${d#*$'\t'}
    (cd /tmp/apps-gpu/$dir && PYGRAPH_REPORT=1 timeout 30 ./pygraph $args 2>&1 | grep -E 'decision=|total launches|Average' |
      sed -E 's/ (site|file)=[^ ]*//g' | cut -c1-330 | head -24) | sed "s/^/$a: /"
  done
  # bitonic-sort's cost with nothing graphed: the module's lazy loading or the routing?
  d=/tmp/apps-gpu/bitonic-sort/src/bitonic-sort-cuda
  for load in LAZY EAGER; do for v in plain eager auto graph; do
    bin=pygraph; [[ $v == plain ]] && bin=plain
    t=$(for r in 1 2 3; do (cd $d && CUDA_MODULE_LOADING=$load PYGRAPH_MODE=$v timeout 20 ./$bin 22 2 2>&1 |
      sed -n -E 's/.*[Tt]otal kernel execution time:? *([0-9.eE+-]+).*/\1/p' | head -1); done | tr '\n' ' ')
    echo "bitonic $load $v: $t"
  done; done
fi
left=$((${TOTAL:-540} - (SECONDS - t0)))
if [[ -f $here/apps-head.tar.xz ]] && ((left > 60)); then
  echo "== corpus with ${left}s"
  BUDGET_S=$((left - 70)) ROUNDS=3 timeout $left bash /tmp/apps-gpu/run_apps.sh /tmp/apps-gpu $O/apps > $O/apps.txt 2>&1
  echo "apps rc=$?"; tail -40 $O/apps.txt
fi
