#!/usr/bin/env bash
# pending_call.sh: the checks this session left for a GPU, in one device call.  Beside it,
# gpu-head.tar.gz from `test/gpu/build_gpu.sh build --tar` (copy build/gpu.tar.gz); $OUT set
# by the device tool.  Runs: the suite (run_gpu.sh, auto, bit for bit), converge plain / auto /
# PYGRAPH_WHOLE_LOOPS=0 / graph (whole loops, issue 17), across_files and cublas_loop plain /
# auto / graph (issue 18), graph mode with PYGRAPH_VERIFY=1 on five examples, and md_step with
# PYGRAPH_DEBUG=1 (issue 39); writes r.tar.xz and prints the timings.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); O=$OUT; T0=$SECONDS
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $O/card.txt
mkdir -p $O/r /tmp/h && tar -xzf $here/gpu-head.tar.gz -C /tmp/h; B=/tmp/h/gpu/bin
cat /tmp/h/gpu/BUILD_INFO > $O/r/build_info.txt
RUN_TIMEOUT=20 timeout 150 bash /tmp/h/gpu/run_gpu.sh /tmp/h/gpu $O/r/suite > $O/r/suite.txt 2>&1; echo "suite rc=$? t=$((SECONDS-T0))" > $O/r/timings.txt
for r in 1 2; do
  for v in plain auto wl0 graph; do
    bin=$B/converge_pygraph; e="PYGRAPH_REPORT=1"; [[ $v == plain ]] && bin=$B/converge_plain
    [[ $v == wl0 ]] && e="$e PYGRAPH_WHOLE_LOOPS=0"; [[ $v == graph ]] && e="$e PYGRAPH_MODE=graph"
    env $e timeout 60 $bin 16384 10 4000 > $O/r/converge.$v.$r.log 2>&1; rc=$?
    echo "converge $v r$r rc=$rc $(grep -h loop_ms $O/r/converge.$v.$r.log | tr '\n' ' ') $(grep -ih checksum $O/r/converge.$v.$r.log| tr '\n' ' ') iters=$(grep -h '^solve' $O/r/converge.$v.$r.log | awk '{printf "%s,", $3}')"
  done
done >> $O/r/timings.txt 2>&1
grep -h "whole loop" $O/r/converge.auto.1.log | head -3 >> $O/r/timings.txt
for v in plain auto graph; do
  bin=$B/across_files_pygraph; [[ $v == plain ]] && bin=$B/across_files_plain
  for r in 1 2 3; do echo "across_files $v r$r $(PYGRAPH_MODE=$v PYGRAPH_REPORT=1 timeout 30 $bin 2>&1 | grep -E 'loop_ms|checksum|total' | tr '\n' ' ')"; done
done >> $O/r/timings.txt 2>&1
source /tmp/h/gpu/cublas_path.sh; CB=$(cublas_dir "$(cublas_soname $B/cublas_loop_pygraph)"); echo "cublas path: $CB" >> $O/r/timings.txt
for v in plain auto graph; do
  bin=$B/cublas_loop_pygraph; [[ $v == plain ]] && bin=$B/cublas_loop_plain
  for r in 1 2 3; do echo "cublas_loop $v r$r $(LD_LIBRARY_PATH=$CB:${LD_LIBRARY_PATH:-} PYGRAPH_MODE=$v PYGRAPH_REPORT=1 timeout 30 $bin 2>&1 | grep -E 'loop_ms|checksum|total|error' | tr '\n' ' ' | cut -c1-500)"; done
done >> $O/r/timings.txt 2>&1
LD_LIBRARY_PATH=$CB:${LD_LIBRARY_PATH:-} PYGRAPH_REPORT=1 timeout 30 $B/cublas_loop_pygraph > $O/r/cublas_auto_report.log 2>&1
for ex in across_files own_capture converge launch_forms cublas_loop; do
  echo "verify $ex: $(LD_LIBRARY_PATH=$CB:${LD_LIBRARY_PATH:-} PYGRAPH_MODE=graph PYGRAPH_VERIFY=1 PYGRAPH_REPORT=1 timeout 60 $B/${ex}_pygraph 2>&1 | grep -E 'checksum|verify' | tr '\n' ' ' | cut -c1-400)"
done >> $O/r/timings.txt 2>&1
PYGRAPH_REPORT=1 timeout 30 $B/across_files_pygraph > $O/r/across_auto_report.log 2>&1
PYGRAPH_REPORT=1 PYGRAPH_DEBUG=1 timeout 30 $B/md_step_pygraph > $O/r/md_step_debug.log 2>&1
grep -c . $O/r/md_step_debug.log >> $O/r/timings.txt
echo "t=$((SECONDS-T0))" >> $O/r/timings.txt
cd $O && tar -cJf r.tar.xz r && cat r/timings.txt && tail -32 r/suite.txt; rm -rf $O/r
