#!/usr/bin/env bash
# Run in a folder holding gpu-head.tar.gz (test/gpu/build_gpu.sh build --tar at HEAD).
# The folded status copy (c878e31): cg_solver's whole loop (its copy's source swaps every
# iteration, a split body) in every mode against its hand-made graph; whole_loop_forms'
# split form with the copy folded into the after-copy kernel; while_vs_pygraph and converge
# (unsplit bodies, for regressions of the refactored kernels); library calls in WHILE bodies;
# the WHILE examples bit for bit.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/h && tar -xzf gpu-head.tar.gz -C /tmp/h; B=/tmp/h/gpu/bin
modes() {   # program, args...: one line per mode, the lines matching $KEEP
  local p=$1; shift
  for v in plain auto graph whole0 hand; do bin=$B/${p}_pygraph; env="PYGRAPH_MODE=auto"
    case $v in plain) bin=$B/${p}_plain;; hand) bin=$B/${p}_hand;; graph) env="PYGRAPH_MODE=graph";;
      whole0) env="PYGRAPH_MODE=graph PYGRAPH_WHOLE_LOOPS=0";; esac
    [[ -x $bin ]] || continue
    echo "$p $v: $(env $env PYGRAPH_REPORT=1 timeout 90 $bin "$@" 2>&1 | grep -E "$KEEP" |
      sed -E 's/pygraph: //' | cut -c1-420 | tr '\n' ' ')"
  done
}
for r in 1 2 3; do KEEP='loop_ms|checksum|iters|whole loop|error|FAIL' modes cg_solver; done
KEEP='drain_split|loop_ms|checksum|whole loop|error|FAIL' modes whole_loop_forms
for r in 1 2 3; do for env in PYGRAPH_MODE=eager "PYGRAPH_MODE=graph PYGRAPH_WHOLE_LOOPS=0" \
    PYGRAPH_MODE=graph; do
  echo "while_vs_pygraph $env: $(env $env timeout 60 $B/while_vs_pygraph 16384 4000 3 2>&1 |
    grep -E 'us/iteration|error' | tr '\n' ' ' | cut -c1-200)"
done; done
for r in 1 2; do KEEP='loop_ms|checksum|error|FAIL' modes converge 16384 10 4000; done
# Library calls in whole loops (the commit after c878e31): cufft_loop and cusparse_loop are
# counted whole-loop candidates now (their WHILE bodies hold the graphs captured from the
# calls); cublas_loop stays refused (its alpha changes every iteration)
for r in 1 2 3; do for p in cufft_loop cusparse_loop cublas_loop; do
  KEEP='loop_ms|checksum|whole loop|error|FAIL' modes $p; done; done
ONLY="converge counted_loop cg_solver early_exit host_flag pingpong whole_loop_forms cufft_loop cusparse_loop cublas_loop" \
  RUN_TIMEOUT=60 bash /tmp/h/gpu/run_gpu.sh /tmp/h/gpu /tmp/suite 2>&1 |
  grep -E "^program|OK|DIFF|FAIL" | cut -c1-170
